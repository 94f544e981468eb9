#!/usr/bin/env python3
"""Checks an unpacked bundle directory against the bundle contract (layout v1).

manifest.json and manifest.items.jsonl: pure ASCII, valid JSON, every field of the contract
with its type; items agree with the files (bytes, sha256, presence); every file in the
bundle is explained by an item. Paths are bytes: a JSON string's \\u00XX maps back to the
byte XX. Exit 0 when the bundle passes, 1 with one line per problem otherwise.
"""
import hashlib
import json
import os
import re
import sys

STATUSES = {"ok", "absent", "denied", "skipped", "failed", "timed_out", "abandoned"}
REASONS = {"tool_missing", "source_missing", "permission", "option", "deadline",
           "device_unresponsive"}
ITEM_FIELDS = ["path", "source", "exec", "status", "reason", "rc", "started_utc",
               "duration_ms", "bytes", "sha256", "source_mtime_utc", "truncated",
               "kept_ranges", "error"]
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
problems = []


def problem(msg):
    problems.append(msg)


def to_bytes(s):
    """A contract JSON string holds bytes as code points 0-255."""
    try:
        return s.encode("latin-1")
    except UnicodeEncodeError:
        problem(f"string with a code point above 0xff: {s!r}")
        return s.encode("utf-8", "surrogateescape")


def load_ascii_json(raw, where):
    for i, b in enumerate(raw):
        if b > 0x7E or (b < 0x20 and b not in (0x0A,)):
            problem(f"{where}: byte 0x{b:02x} at offset {i} (JSON must be printable ASCII)")
            break
    return json.loads(raw.decode("ascii", "replace"))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_item(item, root):
    where = f"item {item.get('path')!r}"
    if list(item.keys())[:len(ITEM_FIELDS)] != ITEM_FIELDS:
        problem(f"{where}: fields {list(item.keys())}, expected {ITEM_FIELDS}")
        return None
    path = item["path"]
    if not isinstance(path, str) or not path or path.startswith("/") or ".." in path.split("/"):
        problem(f"{where}: bad path")
        return None
    status, reason = item["status"], item["reason"]
    if status not in STATUSES:
        problem(f"{where}: unknown status {status!r}")
    if reason is not None and reason not in REASONS:
        problem(f"{where}: unknown reason {reason!r}")
    if status == "absent" and reason not in ("tool_missing", "source_missing"):
        problem(f"{where}: absent without tool_missing/source_missing")
    if status == "denied" and reason != "permission":
        problem(f"{where}: denied without reason permission")
    if status == "skipped" and reason is None:
        problem(f"{where}: skipped without a reason")
    if item["source"] is not None and not isinstance(item["source"], str):
        problem(f"{where}: source not a string")
    ex = item["exec"]
    if ex is not None and not (isinstance(ex, list) and ex and all(isinstance(a, str) for a in ex)):
        problem(f"{where}: exec is neither null nor an argv array")
    if ex is None and item["rc"] is not None:
        problem(f"{where}: rc without exec")
    for k in ("rc", "duration_ms", "bytes"):
        if item[k] is not None and not is_int(item[k]):
            problem(f"{where}: {k} not an integer or null")
    for k in ("started_utc", "source_mtime_utc"):
        if item[k] is not None and not (isinstance(item[k], str) and ISO.match(item[k])):
            problem(f"{where}: {k} not ISO 8601 UTC")
    if status == "skipped" and item["started_utc"] is not None:
        problem(f"{where}: skipped but started")
    if not isinstance(item["truncated"], bool):
        problem(f"{where}: truncated not a boolean")
    if item["truncated"] is False and item["kept_ranges"] is not None:
        problem(f"{where}: kept_ranges without truncation")
    if item["error"] is not None and not isinstance(item["error"], str):
        problem(f"{where}: error not a string")
    sha = item["sha256"]
    if sha is not None and not re.fullmatch(r"[0-9a-f]{64}", sha):
        problem(f"{where}: sha256 not 64 lowercase hex digits")

    full = os.path.join(root, to_bytes(path))
    exists = os.path.isfile(full)
    if status == "ok" and item["bytes"] is None:
        problem(f"{where}: ok without bytes")
    if item["bytes"] is not None:
        if not exists:
            problem(f"{where}: bytes recorded but the file is missing")
        else:
            data = open(full, "rb").read()
            if len(data) != item["bytes"]:
                problem(f"{where}: bytes {item['bytes']} but the file has {len(data)}")
            if sha is not None and hashlib.sha256(data).hexdigest() != sha:
                problem(f"{where}: sha256 does not match the file")
    elif exists:
        problem(f"{where}: file present but the item records no bytes")
    return to_bytes(path)


NPU_STATES = {"npu_visible", "devices_not_visible", "no_npu", "unknown"}
NPU_COUNTS = ("ascend_modules_loaded", "device_nodes", "npu_pci_devices", "npu_processes")


def check_npu_presence(p):
    """manifest.json's npu_presence: a state and counts (or null: not collected)."""
    if not isinstance(p, dict):
        problem("manifest.json: npu_presence missing or not an object")
        return
    if p.get("state") not in NPU_STATES:
        problem(f"manifest.json: npu_presence.state {p.get('state')!r}")
    for k in NPU_COUNTS:
        if k not in p or not (p[k] is None or (is_int(p[k]) and p[k] >= 0)):
            problem(f"manifest.json: npu_presence.{k} is neither a count nor null")
    if "driver_installed" not in p or p["driver_installed"] not in (True, False, None):
        problem("manifest.json: npu_presence.driver_installed is neither a boolean nor null")


def main():
    if len(sys.argv) != 2:
        print("usage: check_bundle.py BUNDLE_DIR", file=sys.stderr)
        return 2
    root = os.fsencode(sys.argv[1])
    manifest = load_ascii_json(open(os.path.join(root, b"manifest.json"), "rb").read(),
                               "manifest.json")
    expect = {"format": str, "format_version": int, "collector_version": str, "host": str,
              "collected_at_utc": str, "finished_utc": str, "args": list, "uid": int,
              "groups": list, "locale": str, "in_container": bool, "redaction": dict,
              "items": list}
    for k, t in expect.items():
        if not isinstance(manifest.get(k), t):
            problem(f"manifest.json: {k} missing or not {t.__name__}")
    if "sudo_user" not in manifest:
        problem("manifest.json: sudo_user missing")
    if manifest.get("format") != "ascend-bundle" or manifest.get("format_version") != 1:
        problem("manifest.json: not format ascend-bundle version 1")
    for k in ("collected_at_utc", "finished_utc"):
        if not ISO.match(str(manifest.get(k))):
            problem(f"manifest.json: {k} not ISO 8601 UTC")
    if not all(is_int(g) for g in manifest.get("groups", [])):
        problem("manifest.json: groups are not integers")
    check_npu_presence(manifest.get("npu_presence"))
    kinds = manifest.get("redaction", {}).get("kinds")
    if not (isinstance(kinds, list) and all(isinstance(k, str) for k in kinds)):
        problem("manifest.json: redaction.kinds is not a list of names")

    lines = []
    raw = open(os.path.join(root, b"manifest.items.jsonl"), "rb").read()
    for n, line in enumerate(raw.split(b"\n")[:-1], 1):
        lines.append(load_ascii_json(line, f"manifest.items.jsonl:{n}"))
    if raw and not raw.endswith(b"\n"):
        problem("manifest.items.jsonl: last line without newline after a finished run")
    items = manifest.get("items", [])
    if lines != items:
        problem(f"manifest.items.jsonl ({len(lines)} items) differs from manifest.json items ({len(items)})")

    paths = set()
    for item in items:
        p = check_item(item, root)
        if p is None:
            continue
        if p in paths:
            problem(f"item {item['path']!r} twice")
        paths.add(p)

    for dirpath, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            if rel in (b"manifest.json", b"manifest.items.jsonl"):
                continue
            if rel.endswith(b".err"):
                if rel[:-4] not in paths:
                    problem(f"{rel!r}: stderr of no item")
                elif os.path.getsize(os.path.join(dirpath, f)) == 0:
                    problem(f"{rel!r}: empty .err file")
                continue
            if rel not in paths:
                problem(f"{rel!r}: file explained by no item")

    for p in problems:
        print(f"check_bundle: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
