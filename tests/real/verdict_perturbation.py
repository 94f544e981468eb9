#!/usr/bin/env python3
"""Perturbation tests of the verdict: flip the one line that decides, the ranking flips.

Each row of the cases file (tab-separated: input dir, file in it, old text, new text, top
hypothesis before, top hypothesis after) runs `ascend-triage analyze --format json` on the
input as it is and on a copy where the first occurrence of `old` in `file` is replaced by
`new` (`new` = `-` deletes the line holding `old`; `\\n` in `new` is a line break, so a row can
add the one evidence line that decides). Both tops must be as listed.

usage: verdict_perturbation.py --bin ascend-triage --root REPO --cases FILE
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_corpus import analyze_args  # noqa: E402  (an excerpt is analysed without its SOURCE.md)


def top(binary, path):
    run = subprocess.run([binary, "analyze", "--format", "json", *analyze_args(path)], capture_output=True, text=True,
                         errors="replace")
    try:
        ranked = json.loads(run.stdout)["verdict"]["ranked"]
    except (ValueError, KeyError):
        return f"(no report, exit {run.returncode})"
    return ranked[0]["id"] if ranked else "(none)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--cases", required=True)
    args = ap.parse_args()
    failures, total = [], 0
    with open(args.cases, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    for n, row in enumerate(rows, 1):
        if len(row) != 6:
            sys.exit(f"{args.cases}: row {n}: want 6 tab-separated fields, got {len(row)}")
        src, name, old, new, want_before, want_after = row
        total += 1
        src = os.path.join(args.root, src)
        before = top(args.bin, src)
        with tempfile.TemporaryDirectory() as tmp:
            dst = os.path.join(tmp, os.path.basename(src))
            shutil.copytree(src, dst)
            target = os.path.join(dst, name)
            with open(target, encoding="utf-8", errors="surrogateescape") as g:
                text = g.read()
            if old not in text:
                failures.append(f"{src}/{name}: text to flip not found: {old!r}")
                continue
            if new == "-":
                lines = text.splitlines(keepends=True)
                text = "".join(l for l in lines if old not in l)
            else:
                text = text.replace(old, new.replace("\\n", "\n"), 1)
            with open(target, "w", encoding="utf-8", errors="surrogateescape") as g:
                g.write(text)
            after = top(args.bin, dst)
        ok = before == want_before and after == want_after
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(src)}: {old[:50]!r} -> {new[:30]!r}: "
              f"top {before} -> {after} (want {want_before} -> {want_after})")
        if not ok:
            failures.append(os.path.basename(src))
    print(f"{total - len(failures)}/{total} perturbations flip the ranking as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
