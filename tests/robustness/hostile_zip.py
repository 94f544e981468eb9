#!/usr/bin/env python3
"""Hostile zip archives (issue 23): absolute and ../ member names, a member stored twice, a
symlink member pointing outside, a truncated and a corrupted archive. For each, `analyze`
must end with exit 0, 1 or 2 (never a signal), say what it found (the input-damaged findings)
and write nothing outside its output.
usage: hostile_zip.py ASCEND_TRIAGE
"""
import json
import os
import stat
import subprocess
import sys
import tempfile
import zipfile

PLOG = (b"[ERROR] RUNTIME(48213,python3):2026-09-04-09:45:03.511.960 [stream.cc:1]48213 "
        b"rtStreamSynchronize:ErrCode=107020, desc=[task timeout], InnerCode=0x7030001c\n")


def analyze(binary, path):
    r = subprocess.run([binary, "analyze", "--format", "json", path], capture_output=True, timeout=60)
    doc = None
    if r.returncode in (0, 1):
        doc = json.loads(r.stdout.decode("utf-8", "replace"))
    return r.returncode, doc, r.stderr.decode("utf-8", "replace")


def ids(doc):
    return {f["id"]: f for f in doc["findings"]} if doc else {}


def main():
    binary = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        outside = os.path.join(tmp, "escaped.log")
        evil = os.path.join(tmp, "evil.zip")
        with zipfile.ZipFile(evil, "w") as z:
            z.writestr(os.path.relpath(outside, "/").replace(os.sep, "/").join(["../" * 8, ""]), PLOG)
            z.writestr("/etc/ascend-abs.log", PLOG)
            z.writestr("b/plog-1_20260904.log", PLOG)
            with __import__("warnings").catch_warnings():
                __import__("warnings").simplefilter("ignore")
                z.writestr("b/plog-1_20260904.log",  # the second copy: another line an hour later
                           PLOG.replace(b"107020", b"507015").replace(b"09:45:03", b"10:45:03"))
            link = zipfile.ZipInfo("b/passwd.log")
            link.create_system = 3
            link.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(link, "/etc/passwd")
        rc, doc, err = analyze(binary, evil)
        found = ids(doc)
        if rc != 1:
            problems.append(f"evil.zip: exit {rc}, expected 1 ({err.strip()[:200]})")
        if "input-damaged/unsafe-name" not in found or "2 member name(s)" not in found["input-damaged/unsafe-name"]["title"]:
            problems.append("evil.zip: no input-damaged/unsafe-name for the two unsafe names")
        if "input-damaged/duplicate-member" not in found:
            problems.append("evil.zip: the member stored twice is not reported (input-damaged/duplicate-member)")
        text = json.dumps(doc)
        if "root:x:0:0" in text:
            problems.append("evil.zip: the symlink member was followed to /etc/passwd")
        if "507015" not in text or "107020" not in text:
            problems.append("evil.zip: not every copy of the repeated member was read")
        if os.path.exists(outside) or os.path.exists("/etc/ascend-abs.log"):
            problems.append("evil.zip: a member was written outside")
        data = open(evil, "rb").read()
        for name, blob, want in (("truncated.zip", data[: len(data) // 2], "input-damaged"),
                                 ("corrupt.zip", data[:30] + b"\xff" * 64 + data[94:], None)):
            path = os.path.join(tmp, name)
            open(path, "wb").write(blob)
            rc, doc, err = analyze(binary, path)
            if rc not in (0, 1, 2):
                problems.append(f"{name}: exit {rc} (a crash?) {err.strip()[:200]}")
            elif want and not any(i.startswith(want) for i in ids(doc)):
                problems.append(f"{name}: exit {rc} without an {want} finding")
            print(f"{name}: exit {rc}, findings {sorted(ids(doc))}")
        print(f"evil.zip: exit 1, findings {sorted(found)}")
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
