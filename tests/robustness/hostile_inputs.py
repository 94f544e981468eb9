#!/usr/bin/env python3
"""Hostile inputs (issue 23) not covered by hostile_zip.py, one case per run:

  hardlink  tar hard-link members (to a member, to a path outside, to themselves, to a
            member that comes later): read as links, never followed out of the archive
  bomb      a .gz member that expands to 1 GiB, read with --max-entry-bytes 64M: the
            limit's finding fires, peak RSS and time stay bounded
  utf16     a plog converted to UTF-16 (LE with BOM, BE with BOM, LE without BOM): the same
            findings, verdict and timeline as the original
  years     plog times in 1970 and 2100: no crash, no wrap, shown as they are, the
            timeline in order
  paste     10 million lines on standard input, no newline at the end: every line counted,
            the last one read, bounded RSS, no hang
  members   100,000 one-line plog members in a .tar.zst: every member read, peak RSS bounded
            (the read-ahead queue held a 256 KiB buffer per tiny member: 651 MiB)
  storm     a 64 MiB plog of one AI Core exception template (what a hang prints for hours):
            every line counted in the finding and the timeline, peak RSS bounded (issue 35:
            434 MiB before storm folding)
  kstorm    a 64 MiB raw dmesg of one devmm fault printk: every line counted in the findings,
            peak RSS bounded (2.1 GiB and 48 s before storm folding)
  jobstorm  32 MiB of job output repeating one traceback and ERR line: every line counted in
            the timeline, peak RSS bounded (287 MiB before job-output folding)
  oom       the incident sample under address-space limits of 54-93 MiB: a report or exit 2
            with a message each time, never an abort (exit 134 before) or a hang

Zip has no hard-link type (a zip "hard link" is another copy, covered by the duplicate
member case of hostile_zip.py).
Peak RSS comes from /usr/bin/time -f %M (GNU time); without it the case is skipped (77).
usage: hostile_inputs.py ASCEND_TRIAGE CASE
"""
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE_PLOG = os.path.join(ROOT, "samples/incident-910b-after-reboot/logs/host/root/ascend/log/debug/plog/"
                                 "plog-48213_20260904092031548.log")
PLOG_LINE = ("[ERROR] RUNTIME(48213,python3):{t} [stream.cc:1]48213 rtStreamSynchronize:ErrCode=107020, "
             "desc=[task timeout], InnerCode=0x7030001c\n")
SKIP = 77
problems = []


def fail(msg):
    problems.append(msg)


def run(binary, args, stdin=None, measure=False, timeout=600):
    """Runs the analyzer; returns (rc, json doc or None, stderr, peak RSS KiB or None, seconds)."""
    cmd = [binary] + args
    rss_file = None
    if measure:
        fd, rss_file = tempfile.mkstemp()
        os.close(fd)
        cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdin=stdin, capture_output=True, timeout=timeout)
    secs = time.monotonic() - t0
    rss = None
    if rss_file:
        text = open(rss_file).read().strip().splitlines()
        os.unlink(rss_file)
        rss = int(text[-1]) if text and text[-1].isdigit() else None
    doc = None
    if r.returncode in (0, 1):
        try:
            doc = json.loads(r.stdout.decode("utf-8", "replace"))
        except ValueError as e:
            fail(f"{' '.join(args)}: the report is not JSON ({e})")
    return r.returncode, doc, r.stderr.decode("utf-8", "replace"), rss, secs


def ids(doc):
    return {f["id"]: f for f in doc["findings"]} if doc else {}


def expect_report(name, rc, doc, err):
    if rc not in (0, 1) or doc is None:
        fail(f"{name}: exit {rc}, expected a report (0 or 1): {err.strip()[:300]}")
        return False
    return True


def case_hardlink(binary, tmp):
    plog = PLOG_LINE.format(t="2026-09-04-09:45:03.511.960").encode()
    path = os.path.join(tmp, "links.tar")
    with tarfile.open(path, "w") as t:
        def link(name, target):
            info = tarfile.TarInfo(name)
            info.type = tarfile.LNKTYPE
            info.linkname = target
            t.addfile(info)
        link("b/plog/plog-2_20260904.log", "b/plog/plog-3_20260904.log")  # to a later member
        info = tarfile.TarInfo("b/plog/plog-1_20260904.log")
        info.size = len(plog)
        t.addfile(info, io.BytesIO(plog))
        link("b/plog/plog-1-copy.log", "b/plog/plog-1_20260904.log")
        link("b/passwd.log", "../../../../../../etc/passwd")
        link("b/abs.log", "/etc/passwd")
        link("b/self.log", "b/self.log")
        info = tarfile.TarInfo("b/plog/plog-3_20260904.log")
        info.size = len(plog)
        t.addfile(info, io.BytesIO(plog.replace(b"09:45:03", b"10:45:03")))
    rc, doc, err, _, _ = run(binary, ["analyze", "--format", "json", path], timeout=60)
    if not expect_report("links.tar", rc, doc, err):
        return
    text = json.dumps(doc)
    if "root:x:0:0" in text:
        fail("links.tar: a hard link was followed to /etc/passwd")
    entries = {e["path"]: e for e in doc["bundles"][0]["entries"]}
    # The archive's one top-level directory (b/) is not part of entry paths (input.md).
    for name in ("plog/plog-1-copy.log", "passwd.log", "abs.log", "self.log", "plog/plog-2_20260904.log"):
        e = entries.get(name)
        if e is None:
            fail(f"links.tar: the hard link {name} is not in the inventory")
        elif e["kind"] != "symlink" or e["stats"]["lines"] != 0:
            fail(f"links.tar: the hard link {name} was read as data: {e}")
    if "107020" not in text:
        fail("links.tar: the plog members were not read")
    r = subprocess.run([binary, "inventory", path], capture_output=True, timeout=60)
    if b"hard link to ../../../../../../etc/passwd" not in r.stdout:
        fail("links.tar: inventory does not say the member is a hard link to its target")
    print(f"links.tar: exit {rc}, findings {sorted(ids(doc))}")


def write_bomb(path, expanded):
    """A gzip file whose content is `expanded` bytes of plog lines (compressed ~1000:1)."""
    line = PLOG_LINE.format(t="2026-09-04-09:45:03.511.960").encode()
    chunk = line * (1048576 // len(line))
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip header and trailer
    written = 0
    with open(path, "wb") as f:
        while written < expanded:
            piece = chunk[: min(len(chunk), expanded - written)]
            f.write(comp.compress(piece))
            written += len(piece)
        f.write(comp.flush())


def case_bomb(binary, tmp):
    if not os.access("/usr/bin/time", os.X_OK):
        print("SKIP: /usr/bin/time (GNU time) is not installed")
        sys.exit(SKIP)
    bundle = os.path.join(tmp, "bomb")
    os.makedirs(os.path.join(bundle, "logs"))
    gz = os.path.join(bundle, "logs", "plog-48213_20260904092031548.log.gz")
    write_bomb(gz, 1 << 30)
    limit = 64 << 20
    rc, doc, err, rss, secs = run(binary, ["analyze", "--format", "json", "--max-entry-bytes", "64M", bundle],
                                  measure=True, timeout=300)
    print(f"bomb: {os.path.getsize(gz)} stored bytes expanding to 1 GiB; exit {rc}, peak RSS {rss} KiB, "
          f"{secs:.1f} s")
    if not expect_report("bomb", rc, doc, err):
        return
    found = ids(doc)
    f = found.get("input-limit/entry-bytes")
    if f is None:
        fail(f"bomb: no input-limit/entry-bytes finding: {sorted(found)}")
    elif f["values"].get("limit") != str(limit):
        fail(f"bomb: the finding names limit {f['values'].get('limit')}, expected {limit}")
    entry = doc["bundles"][0]["entries"][0]
    if entry["stats"]["bytes"] != limit:
        fail(f"bomb: {entry['stats']['bytes']} decompressed bytes read, expected exactly the limit {limit}")
    # The 64 MiB read stay in no buffer: the analyzer's own footprint plus its per-entry
    # buffers (measured 13 MiB); holding the limit's worth would pass 64 MiB.
    if rss is None or rss > 48 * 1024:
        fail(f"bomb: peak RSS {rss} KiB, expected under 48 MiB")
    if secs > 120:
        fail(f"bomb: took {secs:.0f} s")


def plog_doc_parts(doc):
    """What must not depend on the text encoding: findings, verdict, timeline."""
    return json.dumps({k: doc[k] for k in ("findings", "verdict", "timeline")}, sort_keys=True, indent=1)


def case_utf16(binary, tmp):
    text = open(SAMPLE_PLOG, "rb").read().decode("utf-8")
    name = os.path.basename(SAMPLE_PLOG)
    forms = {"utf8": text.encode("utf-8"),
             "utf16le-bom": b"\xff\xfe" + text.encode("utf-16-le"),
             "utf16be-bom": b"\xfe\xff" + text.encode("utf-16-be"),
             "utf16le": text.encode("utf-16-le")}
    reports = {}
    for form, data in forms.items():
        d = os.path.join(tmp, form)
        os.makedirs(d)
        open(os.path.join(d, name), "wb").write(data)
        rc, doc, err, _, _ = run(binary, ["analyze", "--format", "json", d], timeout=120)
        if not expect_report(form, rc, doc, err):
            return
        reports[form] = plog_doc_parts(doc).replace(d, "INPUT")
        entry = doc["bundles"][0]["entries"][0]
        print(f"{form}: exit {rc}, kind {entry['kind']}, lines {entry['stats']['lines']}, "
              f"parsed {entry['stats']['parsed']}, {len(doc['findings'])} findings")
        if entry["kind"] != "plog":
            fail(f"{form}: read as {entry['kind']}, not plog")
    if not reports["utf8"].count('"id"'):
        fail("utf8: the original gives no findings: the comparison would prove nothing")
    for form, rep in reports.items():
        if rep != reports["utf8"]:
            a, b = reports["utf8"].splitlines(), rep.splitlines()
            diff = [f"  {x!r} vs {y!r}" for x, y in zip(a, b) if x != y][:5]
            fail(f"{form}: findings/verdict/timeline differ from the UTF-8 original ({len(a)} vs {len(b)} "
                 f"lines):\n" + "\n".join(diff))


def case_years(binary, tmp):
    d = os.path.join(tmp, "years")
    os.makedirs(d)
    # Loose plogs carry local time without a zone: --utc-offset states it (+08:00 puts the
    # 1970 line before the epoch in UTC: a negative microsecond count, not a wrap).
    # Each time its own call, so that each is an event of its own (same calls collapse).
    times = {"2100-12-31-23:59:59.999.999": "rtEventSynchronize", "1970-01-01-00:00:00.000.001": "rtMemcpy",
             "2026-09-04-09:45:03.511.960": "rtStreamSynchronize", "1970-01-01-00:00:00.000.000": "rtMalloc"}
    lines = [PLOG_LINE.format(t=t).replace("rtStreamSynchronize", call) for t, call in times.items()]
    open(os.path.join(d, "plog-48213_20260904092031548.log"), "w").write("".join(lines))
    rc, doc, err, _, _ = run(binary, ["--utc-offset", "+08:00", "analyze", "--format", "json", d], timeout=60)
    if not expect_report("years", rc, doc, err):
        return
    timeline = doc["timeline"]
    events = timeline["events"]
    if timeline["undated"] != 0:
        fail(f"years: {timeline['undated']} line(s) lost their time")
    locals_shown = " ".join(f"{e['first_local']} {e['last_local']}" for e in events)
    for want in ("1970-01-01T00:00:00+08:00", "1970-01-01T00:00:00.000001+08:00",
                 "2100-12-31T23:59:59.999999+08:00", "2026-09-04T09:45:03.511960+08:00"):
        if want not in locals_shown:
            fail(f"years: no timeline event shows {want} as the log has it: {locals_shown}")
    prev = None
    for ev in events:
        for side in ("first", "last"):
            utc, us = ev[f"{side}_utc"], ev[f"{side}_utc_us"]
            # The text and the number agree: nothing wrapped on the way.
            t = datetime.fromisoformat(utc.replace("Z", "+00:00"))
            delta = t - datetime(1970, 1, 1, tzinfo=timezone.utc)
            want_us = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
            if want_us != us:
                fail(f"years: {side}_utc {utc} but {side}_utc_us {us} (expected {want_us})")
        if prev is not None and ev["first_utc_us"] < prev:
            fail(f"years: the timeline is out of order at {ev['first_utc']}")
        prev = ev["first_utc_us"]
    for name in ("text", "html", "md", "jsonl"):
        r = subprocess.run([binary, "--utc-offset", "+08:00", "analyze", "--format", name, d], capture_output=True,
                           timeout=60)
        if r.returncode not in (0, 1) or b"2100-12-31" not in r.stdout:
            fail(f"years: --format {name} exit {r.returncode}, 2100-12-31 shown: {b'2100-12-31' in r.stdout}: "
                 f"{r.stderr.decode(errors='replace')[:200]}")
    print(f"years: exit {rc}, {len(events)} timeline events: "
          + ", ".join(f"{e['first_utc']} ({e['first_utc_us']})" for e in events))


def case_paste(binary, tmp):
    if not os.access("/usr/bin/time", os.X_OK):
        print("SKIP: /usr/bin/time (GNU time) is not installed")
        sys.exit(SKIP)
    n = 10_000_000
    path = os.path.join(tmp, "paste.txt")
    first = PLOG_LINE.format(t="2026-09-04-09:45:03.511.960").replace("107020", "507015")
    last = PLOG_LINE.format(t="2026-09-04-10:45:03.511.960").rstrip("\n")  # no newline at the end
    with open(path, "wb") as f:
        f.write(first.encode())
        filler = b"x\n" * 100_000
        for _ in range((n - 2) // 100_000):
            f.write(filler)
        f.write(b"x\n" * ((n - 2) % 100_000))
        f.write(last.encode())
    with open(path, "rb") as stdin:
        rc, doc, err, rss, secs = run(binary, ["analyze", "--format", "json", "-"], stdin=stdin, measure=True,
                                      timeout=600)
    print(f"paste: {os.path.getsize(path)} bytes, {n} lines; exit {rc}, peak RSS {rss} KiB, {secs:.1f} s")
    if not expect_report("paste", rc, doc, err):
        return
    entries = doc["bundles"][0]["entries"]
    lines = sum(e["stats"]["lines"] for e in entries)
    if lines != n:
        fail(f"paste: {lines} lines counted, expected {n} ({[(e['path'], e['stats']) for e in entries][:3]})")
    text = json.dumps(doc["findings"])
    if "10:45:03" not in json.dumps(doc["timeline"]) and "10:45:03" not in text:
        fail("paste: the last line (no newline) was not read: its time is nowhere in the report")
    # Measured 14 MiB: the 20 MB paste is streamed, not held.
    if rss is None or rss > 48 * 1024:
        fail(f"paste: peak RSS {rss} KiB, expected under 48 MiB")
    if secs > 300:
        fail(f"paste: took {secs:.0f} s")


def tar_header(name, size, mtime=1780000000):
    """A ustar header (what tarfile writes, 30x faster for a million members)."""
    h = bytearray(512)
    for off, val in ((0, name), (100, "0000644\0"), (108, "0000000\0"), (116, "0000000\0"),
                     (124, "%011o\0" % size), (136, "%011o\0" % mtime), (156, "0"), (257, "ustar\0"),
                     (263, "00"), (148, " " * 8)):
        b = val.encode()
        h[off:off + len(b)] = b
    b = ("%06o\0 " % sum(h)).encode()
    h[148:156] = b
    return bytes(h)


def case_members(binary, tmp):
    if not os.access("/usr/bin/time", os.X_OK) or not shutil.which("zstd"):
        print("SKIP: /usr/bin/time (GNU time) or zstd is not installed")
        sys.exit(SKIP)
    n = 1_000_000  # --max-entries' default: the most one run reads
    line = ("[INFO] RUNTIME({pid},python3):2026-03-02-13:52:40.000.000 [runtime.cc:1302]{pid} "
            "Init:runtime init begin, chipType=5, socVersion=Ascend910B3.\n")
    path = os.path.join(tmp, "members.tar.zst")
    z = subprocess.Popen(["zstd", "-q", "-1", "-o", path], stdin=subprocess.PIPE)
    chunk = []
    for i in range(n):
        data = line.format(pid=10000 + i).encode()
        chunk.append(tar_header(f"logs/host/root/ascend/log/debug/plog/plog-{10000 + i}_20260302135240000.log",
                                len(data)))
        chunk.append(data + b"\0" * (512 - len(data)))
        if len(chunk) >= 4096:
            z.stdin.write(b"".join(chunk))
            chunk = []
    chunk.append(b"\0" * 1024)
    z.stdin.write(b"".join(chunk))
    z.stdin.close()
    if z.wait() != 0:
        fail("members: zstd failed")
        return
    rc, doc, err, rss, secs = run(binary, ["analyze", "--format", "json", path], measure=True, timeout=600)
    print(f"members: {n} one-line plogs; exit {rc}, peak RSS {rss} KiB, {secs:.1f} s")
    if not expect_report("members", rc, doc, err):
        return
    b = doc["bundles"][0]
    entries, folded = b["entries"], b.get("folded_entries", [])
    # The first 20000 (--max-listed-entries) are listed; the rest added no fact and are counted.
    listed_lines = sum(e["stats"]["lines"] for e in entries)
    folded_lines = sum(f["lines"] for f in folded)
    if len(entries) != 20000 or sum(f["entries"] for f in folded) != n - 20000 or \
            listed_lines + folded_lines != n:
        fail(f"members: {len(entries)} listed, {folded} folded; expected 20000 listed and every line counted")
    # Measured (issue 33): 100k members took 1.8 GiB before the read-ahead fix, 311 MiB after it
    # with a row of facts per member (about 3 KiB); with entries past the listing cap counted,
    # not listed, 1M members take 96 MiB (about 28 bytes each past the cap).
    if rss is None or rss > 200 * 1024:
        fail(f"members: peak RSS {rss} KiB, expected under 200 MiB")


def write_storm(path, make_line, size=64 << 20):
    """Writes make_line(0), make_line(1), ... to path until it holds size bytes; returns the count."""
    if not os.access("/usr/bin/time", os.X_OK):
        print("SKIP: /usr/bin/time (GNU time) is not installed")
        sys.exit(SKIP)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    n, written = 0, 0
    with open(path, "w") as f:
        while written < size:
            t = make_line(n)
            f.write(t)
            written += len(t)
            n += 1
    return n


def case_storm(binary, tmp):
    # real-log-excerpts.md line 79 (msame), with the serial number, core id, time and pc varied
    line = ("[ERROR] RUNTIME(10686,msame):2025-03-19-{h:02}:{m:02}:{s:02}.{ms:03}.000 [device_error_proc.cc:634]10686 "
            "PrintCoreErrorInfo:[EXEC][DEFAULT]The error from device(0), serial number is {n}, there is an "
            "aicore error, core id is {core}, error code = 0x800000, dump info: pc start: 0x800124040115000, "
            "current: 0x{pc:x}, vec error info: 0x1fe5feff, mte error info: 0x30000c2, ifu error info: "
            "0x3733fa77ff500, ccu error info: 0xffe5ff7b001f1ffb, cube error info: 0xfc, biu error info: 0, "
            "aic error mask: 0x65000200d000288, para base: 0x124040114180, errorStr: The DDR address of "
            "the MTE instruction is out of range.\n")
    def make_line(n):
        us = n * 20_000  # 50 lines a second, about 45 minutes
        return line.format(h=15 + us // 3_600_000_000, m=us // 60_000_000 % 60, s=us // 1_000_000 % 60,
                           ms=us // 1000 % 1000, n=n + 1, core=n % 24, pc=0x1240401154e4 + 16 * (n % 4096))
    n = write_storm(os.path.join(tmp, "logs/host/root/ascend/log/debug/plog/plog-10686_20250319150946000.log"),
                    make_line)
    rc, doc, err, rss, secs = run(binary, ["--utc-offset", "+08:00", "analyze", "--format", "json", tmp],
                                  measure=True)
    print(f"storm: {n} lines of one template; exit {rc}, peak RSS {rss} KiB, {secs:.1f} s")
    if not expect_report("storm", rc, doc, err):
        return
    observed = [f["observed"] for f in doc["findings"] if f["id"].startswith("device-exception/")]
    if not any(f"{n} line(s)" in o for o in observed):
        fail(f"storm: no device-exception finding counts all {n} lines: {observed}")
    counted = doc["bundles"][0]["summary"]["counted_only"]
    if counted["folded_lines"] != n - 64 or counted["folded_templates"] != 1:
        fail(f"storm: counted_only {counted}, expected {n - 64} folded lines of 1 template")
    events = [e for e in doc["timeline"]["events"] if "aicore-error" in e.get("kind", "")]
    if sum(e.get("count", 1) for e in events) != n:
        fail(f"storm: the timeline counts {sum(e.get('count', 1) for e in events)} lines, expected {n}")
    # Measured 17 MiB with folding (the parse state and one file's read buffer).
    if rss is None or rss > 100 * 1024:
        fail(f"storm: peak RSS {rss} KiB, expected under 100 MiB")


def case_kstorm(binary, tmp):
    # real-log-excerpts.md 1.19 (device-os klogd), the printk alone, va and tid varied
    line = ("[{s:5}.{us:06}] [ascend] [ERROR] [devmm] [devmm_svm_device_fault 438] <python3:4051,{tid}> "
            "Vm fault failed. (hostpid=1885445; devid=0; va=0x{va:x})\n")
    def make_line(n):
        us = 1_000_000_000 + n * 1000
        return line.format(s=us // 1_000_000, us=us % 1_000_000, tid=4051 + n % 8, va=0x124080000000 + n * 4096)
    n = write_storm(os.path.join(tmp, "kernel/dmesg.txt"), make_line)
    rc, doc, err, rss, secs = run(binary, ["analyze", "--format", "json", tmp], measure=True)
    print(f"kstorm: {n} dmesg lines of one template; exit {rc}, peak RSS {rss} KiB, {secs:.1f} s")
    if not expect_report("kstorm", rc, doc, err):
        return
    found = ids(doc)
    for fid in ("log-signature", "kernel-driver-error"):
        if fid not in found or f"{n} line(s)" not in found[fid]["observed"]:
            fail(f"kstorm: {fid} does not count all {n} lines: {found.get(fid, {}).get('observed')}")
    counted = doc["bundles"][0]["summary"]["counted_only"]
    if counted["folded_lines"] != n - 64:
        fail(f"kstorm: counted_only {counted}, expected {n - 64} folded lines")
    if rss is None or rss > 100 * 1024:
        fail(f"kstorm: peak RSS {rss} KiB, expected under 100 MiB")


def case_jobstorm(binary, tmp):
    # tests/data/real/ascend-pytorch-52-e60108-conv3dtranspose-310p/output.txt: its traceback
    # and ERR line, repeated with the pid, device and time varied (bench/gen_mix.py tracebacks)
    block = ('Traceback (most recent call last):\n'
             '  File "/root/dat/code/run_test/test_ConvTranspose3d.py", line 19, in <module>\n'
             "    conv_transpose_layer = torch.nn.ConvTranspose3d(in_channels=3, out_channels=3, kernel_size=3).to('npu')\n"
             "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and "
             "the current working operator name is Conv3DTranspose.\n"
             "[ERROR] 2026-09-04-{h:02}:{m:02}:{s:02} (PID:{pid}, Device:{dev}, RankID:{dev}) ERR00100 PTA call acl api failed\n")
    def make_block(n):
        return block.format(h=3 + n // 3600 % 20, m=n // 60 % 60, s=n % 60, pid=21853 + n % 8, dev=n % 8)
    n = write_storm(os.path.join(tmp, "train.log"), make_block, size=32 << 20)
    rc, doc, err, rss, secs = run(binary, ["--utc-offset", "+08:00", "analyze", "--format", "json",
                                           os.path.join(tmp, "train.log")], measure=True)
    print(f"jobstorm: {n} tracebacks in job output; exit {rc}, peak RSS {rss} KiB, {secs:.1f} s")
    if not expect_report("jobstorm", rc, doc, err):
        return
    # Every RuntimeError line is counted in the finding: kept hits plus their folded repeats.
    observed = ids(doc).get("log-signature", {}).get("observed", "")
    if f"{n} line(s) matched signature operator/inner-error" not in observed:
        fail(f"jobstorm: log-signature does not count all {n} lines: {observed[:200]}")
    # Measured 287 MiB at 32 MiB before job-output folding (issue 35), about 90 MiB after.
    if rss is None or rss > 160 * 1024:
        fail(f"jobstorm: peak RSS {rss} KiB, expected under 160 MiB")


def case_oom(binary, tmp):
    # Address-space limits from where the program cannot start to where it runs: each run
    # ends with a report or with exit 2 and a message, never an abort or a hang (a member cut
    # short by an exception on the reader thread once left the parsing thread waiting forever).
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples",
                          "incident-910b-before-reboot")
    import resource
    outcomes = []
    for mib in range(54, 96, 3):
        def limit(m=mib):
            resource.setrlimit(resource.RLIMIT_AS, (m << 20, m << 20))
        try:
            r = subprocess.run([binary, "-q", "analyze", "--format", "json", sample], capture_output=True,
                               timeout=120, preexec_fn=limit)
        except subprocess.TimeoutExpired:
            fail(f"oom: no end within 120 s under a {mib} MiB address-space limit (a hang)")
            continue
        err = r.stderr.decode(errors="replace")
        outcomes.append(f"{mib}:{r.returncode}")
        if r.returncode == 127 and "error while loading shared libraries" in err:
            continue  # the loader itself could not map the libraries: the program never ran
        if r.returncode not in (0, 1, 2):
            fail(f"oom: exit {r.returncode} under a {mib} MiB limit: {err.strip()[:300]}")
        elif r.returncode == 2 and "ascend-triage:" not in err:
            fail(f"oom: exit 2 under a {mib} MiB limit without a message")
    print("oom: limit MiB:exit", " ".join(outcomes))
    if not any(o.endswith(":2") for o in outcomes) or not any(o.endswith(":1") for o in outcomes):
        fail("oom: the limits did not span both an out-of-memory end and a full report: move the range")


CASES = {"hardlink": case_hardlink, "bomb": case_bomb, "utf16": case_utf16, "years": case_years,
         "paste": case_paste, "members": case_members,
         "storm": case_storm, "kstorm": case_kstorm, "jobstorm": case_jobstorm, "oom": case_oom}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__)
        return 2
    binary, case = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix=f"hostile-{case}-")
    try:
        CASES[case](binary, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"{case}: PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
