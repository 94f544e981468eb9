"""A bundle under construction: files with their manifest items, written in one go.

Every file gets exactly one manifest item whose bytes and sha256 are computed from the
bytes actually written. Items without a file (absent, denied, skipped, ...) are added
with `note()`. JSON written here follows the contract's encoding rule: pure ASCII, every
byte outside 0x20-0x7E as \\u00XX.
"""
import hashlib
import os
import shutil

PRESENT_STATUSES = ("ok", "timed_out", "failed", "abandoned")
ABSENT_STATUSES = ("absent", "denied", "skipped", "failed", "timed_out", "abandoned")


def json_str(s):
    """A JSON string literal, escaping every byte outside printable ASCII as \\u00XX."""
    out = ['"']
    for b in s.encode("utf-8"):
        if b == 0x22:
            out.append('\\"')
        elif b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b <= 0x7E:
            out.append(chr(b))
        else:
            out.append("\\u%04x" % b)
    out.append('"')
    return "".join(out)


def json_value(v):
    """Compact JSON in a fixed key order (dicts keep insertion order)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(json_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json_str(k) + ":" + json_value(x) for k, x in v.items()) + "}"
    raise TypeError("no JSON form for %r" % (v,))


def iso_utc(epoch_s, ms=False):
    import datetime
    dt = datetime.datetime.fromtimestamp(epoch_s, tz=datetime.timezone.utc)
    if ms:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (int(round(epoch_s * 1000)) % 1000)
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


class Bundle:
    """Files and manifest items of one sample directory."""

    def __init__(self, name, clock_start):
        self.name = name
        self.files = {}      # path -> bytes
        self.kinds = {}      # path -> expected source kind
        self.items = []      # manifest items in the order the collector finished them
        self._clock = clock_start  # epoch seconds; steps are laid out one after the other

    def tick(self, seconds):
        self._clock += seconds

    @property
    def clock(self):
        return self._clock

    def add(self, path, data, kind, source=None, exec_argv=None, status="ok", reason=None,
            rc=None, duration_ms=None, source_mtime=None, truncated=False, kept_ranges=None,
            error=None, started=None):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if path in self.files:
            raise ValueError("duplicate path " + path)
        self.files[path] = data
        self.kinds[path] = kind
        if exec_argv is not None and rc is None and status == "ok":
            rc = 0
        if duration_ms is None:
            duration_ms = 4 + (len(data) // 40000) + (len(path) % 17)
        start = self._clock if started is None else started
        self.items.append({
            "path": path,
            "source": source,
            "exec": exec_argv,
            "status": status,
            "reason": reason,
            "rc": rc,
            "started_utc": iso_utc(start, ms=True),
            "duration_ms": duration_ms,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "source_mtime_utc": iso_utc(source_mtime) if source_mtime is not None else None,
            "truncated": truncated,
            "kept_ranges": kept_ranges,
            "error": error,
        })
        if started is None:
            self._clock += duration_ms / 1000.0 + 0.003

    def note(self, path, status, reason, source=None, exec_argv=None, rc=None, error=None,
             duration_ms=3):
        """An item for something that was not written (absent, denied, skipped, ...)."""
        if status not in ABSENT_STATUSES:
            raise ValueError("status %s needs a file" % status)
        self.items.append({
            "path": path,
            "source": source,
            "exec": exec_argv,
            "status": status,
            "reason": reason,
            "rc": rc,
            "started_utc": iso_utc(self._clock, ms=True),
            "duration_ms": duration_ms,
            "bytes": None,
            "sha256": None,
            "source_mtime_utc": None,
            "truncated": False,
            "kept_ranges": None,
            "error": error,
        })
        self._clock += duration_ms / 1000.0 + 0.003

    def write(self, out_dir, manifest_head):
        """Writes the files, manifest.json (head + items) and manifest.items.jsonl."""
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        for path in sorted(self.files):
            full = os.path.join(out_dir, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(self.files[path])
        head = dict(manifest_head)
        head["items"] = self.items
        manifest = json_value(head) + "\n"
        jsonl = "".join(json_value(item) + "\n" for item in self.items)
        with open(os.path.join(out_dir, "manifest.json"), "wb") as f:
            f.write(manifest.encode("ascii"))
        with open(os.path.join(out_dir, "manifest.items.jsonl"), "wb") as f:
            f.write(jsonl.encode("ascii"))
        kinds = dict(self.kinds)
        kinds["manifest.json"] = "manifest_json"
        kinds["manifest.items.jsonl"] = "manifest_items_jsonl"
        return kinds


class LooseDir:
    """A directory of pasted files: no manifest, names chosen by the customer."""

    def __init__(self, name):
        self.name = name
        self.files = {}
        self.kinds = {}

    def add(self, path, data, kind):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.files[path] = data
        self.kinds[path] = kind

    def write(self, out_dir):
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        for path in sorted(self.files):
            full = os.path.join(out_dir, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(self.files[path])
        return dict(self.kinds)


def tsv(header, rows):
    """A TSV with the contract's escaping (\\\\, \\t, \\n, \\r)."""
    def esc(v):
        if v is None:
            return ""
        v = str(v)
        return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    lines = ["\t".join(header)]
    for r in rows:
        if len(r) != len(header):
            raise ValueError("row has %d fields, header %d: %r" % (len(r), len(header), r))
        lines.append("\t".join(esc(v) for v in r))
    return "\n".join(lines) + "\n"


def hexid(label, n):
    """Deterministic hex derived from a label (stable when unrelated code changes)."""
    out = ""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(("%s#%d" % (label, i)).encode()).hexdigest()
        i += 1
    return out[:n]


def intid(label, lo, hi):
    return lo + int(hexid(label, 12), 16) % (hi - lo + 1)
