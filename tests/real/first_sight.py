#!/usr/bin/env python3
"""First-sight accuracy of a batch of new excerpts (issue 36; tests/data/real/README.md).

Run it on excerpts before any code is changed for them, and copy what it prints into each
SOURCE.md (`- first-sight: held` or `- first-sight: missed: <what>`) and the README's table.
An excerpt is held when all of these are true:
- no exit 2 (nothing recognised) and no crash;
- a stated cause-class leads the verdict; where the source states none, insufficient evidence
  leads with a command to run, or, for an excerpt without an error-level line, "No fault found";
  a healthy run (`healthy: yes`) gets "No fault found" and nothing at warning or above;
- no "No fault found" on an excerpt with an error-level line (tests/real/error_levels.py's
  own regex, independent of the analyzer's knowledge/error-levels.tsv);
- every `expect: key=value` of the SOURCE.md appears in the report (findings, verdict,
  bundle summaries), as tests/real/facts_in_report.py checks.

usage: first_sight.py --bin build/ascend-triage EXCERPT_DIR...
Prints one tab-separated line per excerpt (name, held|missed, what), then the count.
Not a ctest: it measures, the corpus tests keep the results.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_corpus import expectations, excerpt_files  # noqa: E402
from verdict_corpus import read_source  # noqa: E402
from error_levels import error_lines  # noqa: E402  (its own regex, not the analyzer's table)


def warnings(report):
    return sum(f.get("severity") in ("warning", "error", "critical") for f in report.get("findings", []))


def judge(name, d, binary):
    fields = read_source(os.path.join(d, "SOURCE.md"))
    files = excerpt_files(d)
    r = subprocess.run([binary, "analyze", "--format", "json", *files], capture_output=True, timeout=300)
    if r.returncode < 0 or r.returncode > 2:
        return False, f"crash (exit {r.returncode})"
    if r.returncode == 2:
        return False, "exit 2: nothing recognised"
    report = json.loads(r.stdout.decode("utf-8", "replace"))
    verdict = report.get("verdict", {})
    ranked = verdict.get("ranked", [])
    top = ranked[0]["id"] if ranked else ""
    cause = fields.get("cause-class", "none")
    healthy = fields.get("healthy") == "yes"
    misses = []
    if cause != "none":
        if top != cause:
            misses.append(f"{top or 'no fault found'} leads, not {cause}")
    elif healthy:
        if top != "" or warnings(report):
            misses.append(f"healthy run: {top or 'a warning'} raised")
    elif top == "insufficient-evidence":
        command = (verdict.get("next_check") or {}).get("command", "") or "".join(verdict.get("collect_more", [])[:1])
        if not command.strip():
            misses.append("insufficient evidence without a command")
    elif top == "":
        # "No fault found" on an excerpt that states no cause: only right when none of its
        # lines has an error level (error_levels.py's own regex, independent of the analyzer).
        if error_lines(files):
            misses.append("no fault found on an excerpt with error-level lines")
    else:
        misses.append(f"{top} leads where the source states no cause")
    text = json.dumps([report.get("findings", []), verdict, report.get("bundles", [])], ensure_ascii=False)
    lost = [f"{k}={v}" for k, v in expectations(os.path.join(d, "SOURCE.md")) if v not in text]
    if lost:
        misses.append("not in the report: " + ", ".join(lost[:4]) + (" ..." if len(lost) > 4 else ""))
    return not misses, "; ".join(misses)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    held = 0
    for d in args.dirs:
        d = d.rstrip("/")
        ok, what = judge(os.path.basename(d), d, args.bin)
        held += ok
        print(f"{os.path.basename(d)}\t{'held' if ok else 'missed'}\t{what}")
    print(f"{held} of {len(args.dirs)} held: first-sight accuracy {100 * held // max(1, len(args.dirs))} %")


if __name__ == "__main__":
    main()
