#!/usr/bin/env python3
"""Perturbation: removing one signature turns its lines into unexplained-errors, never silence.

Runs `ascend-triage analyze --format json` on the given files twice: with the built-in
knowledge, then with `--knowledge DIR` where DIR holds a copy of the signature file without
the signature. SIGNATURE_ID may be several ids joined by commas, removed together (a narrower
signature that supersedes a broader one: without both, their lines have no reader). Before, no
unexplained-errors excerpt matches the signatures' patterns; after,
the exit code is 1 and unexplained-errors holds more lines than before: one of its excerpts
matches the pattern, or (the line is a detail of a CANN error report, whose first line the
group cites) its group cites a line of the same file. With --expect-exit-before N the first run's exit code is
checked too (0 for a healthy excerpt whose only error lines are benign start-up noise).
Usage: perturb_signature.py ASCEND_TRIAGE SIGNATURE_FILE SIGNATURE_ID [--expect-exit-before N] FILE...
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def analyze(binary, files, knowledge=None):
    cmd = [binary, "analyze", "--format", "json"] + (["--knowledge", knowledge] if knowledge else []) + files
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"analyze exited {r.returncode}: {r.stderr[:300]}")
    return r.returncode, json.loads(r.stdout)["findings"]


def unexplained_excerpts(findings):
    return [e["excerpt"] for f in findings if f["id"] == "unexplained-errors" for e in f["evidence"]]


def unexplained_lines(findings):
    return sum(int(f["values"].get("lines", "0")) for f in findings if f["id"] == "unexplained-errors")


def main():
    args = sys.argv[1:]
    expect_before = None
    if "--expect-exit-before" in args:
        i = args.index("--expect-exit-before")
        expect_before = int(args[i + 1])
        del args[i:i + 2]
    binary, sig_file, sig_id, *files = args
    with open(sig_file, encoding="utf-8") as f:
        doc = json.load(f)
    ids = sig_id.split(",")
    sigs = [s for s in doc["signatures"] if s["id"] in ids]
    if len(sigs) != len(ids):
        sys.exit(f"{sig_file}: not every signature of {sig_id} is there")
    # RE2 named groups (?P<x>) are Python syntax too; one pattern each (the names may repeat).
    patterns = [re.compile(s["pattern"]) for s in sigs]

    def matches(text):
        return any(p.search(text) for p in patterns)

    rc0, before = analyze(binary, files)
    hit_before = [x for x in unexplained_excerpts(before) if matches(x)]
    problems = []
    if expect_before is not None and rc0 != expect_before:
        problems.append(f"with the signature: exit {rc0}, expected {expect_before}")
    if hit_before:
        problems.append(f"with the signature its line is already unexplained: {hit_before[0][:160]}")

    doc["signatures"] = [s for s in doc["signatures"] if s["id"] not in ids]
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "signatures"))
        with open(os.path.join(d, "signatures", os.path.basename(sig_file)), "w", encoding="utf-8") as f:
            json.dump(doc, f)
        rc1, after = analyze(binary, files, d)
    hit_after = [x for x in unexplained_excerpts(after) if matches(x)]
    if rc1 != 1:
        problems.append(f"without the signature: exit {rc1}, expected 1")
    if unexplained_lines(after) <= unexplained_lines(before):
        problems.append("without the signature unexplained-errors holds no more lines: silence")
    elif not hit_after:
        hit_after = [f"(a report of the same file) {x}" for x in unexplained_excerpts(after)
                     if x not in unexplained_excerpts(before)]
        if not hit_after:
            problems.append("without the signature no new unexplained-errors group: silence")
    if problems:
        print(f"FAILED: {sig_id}: " + "; ".join(problems))
        return 1
    print(f"OK: {sig_id}: exit {rc0} -> {rc1}; unexplained-errors now cites: {hit_after[0][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
