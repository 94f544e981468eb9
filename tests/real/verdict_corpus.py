#!/usr/bin/env python3
"""The verdict on the real-paste corpus (tests/data/real/*/SOURCE.md).

For every excerpt, `ascend-triage analyze --format json DIR` must:
- cause-class other than none: put that hypothesis first;
- cause-class none: put insufficient-evidence first with a next check that names a command,
  or "No fault found" with nothing ranked; for a healthy run (`healthy: yes`), only that.

Also, for a cause-class other than none, that hypothesis must be among the hypotheses the
excerpt's findings support (issue "No silent error"), even where it does not lead; the
excerpts where no finding supports it are listed in --not-among (excerpt, tab, reason), kept
exact the same way.

Known misses are listed in an expected-failures file (excerpt, tab, reason). The test fails on
a miss that is not listed (a regression), on a listed excerpt that now passes (update the
file), and on a listed excerpt that no longer exists. It prints the pass counts.

usage: verdict_corpus.py --bin ascend-triage --corpus tests/data/real --expected FILE
                         [--not-among FILE] [--show]
"""
import argparse
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_corpus import analyze_args, in_sample  # noqa: E402  (an excerpt is analysed without its SOURCE.md)


def read_source(path):
    fields = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^- (cause-class|healthy): *(\S+)", line)
            if m:
                fields[m.group(1)] = m.group(2)
    return fields


def read_expected(path):
    expected = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[1].strip():
                sys.exit(f"{path}:{n}: want 'excerpt<TAB>reason', got {line!r}")
            expected[parts[0]] = parts[1]
    return expected


def judge(fields, verdict):
    """Returns (passed, what the verdict said)."""
    ranked = verdict.get("ranked", [])
    top = ranked[0]["id"] if ranked else ""
    said = f"top={top or '(none)'}"
    cause = fields.get("cause-class", "")
    if cause and cause != "none":
        return top == cause, said
    if fields.get("healthy") == "yes":  # a healthy run raises nothing: no fault found, alone
        return top == "", said
    if top == "insufficient-evidence":
        command = (verdict.get("next_check") or {}).get("command", "")
        if not command and verdict.get("collect_more"):
            command = verdict["collect_more"][0]
        return bool(command.strip()), said + (f" command={command!r}" if command else " no command")
    # "No fault found" stands alone (nothing ranked): right for an excerpt that states no
    # cause, as long as nothing in it is at warning or above (verdict-expected-failures.tsv
    # lists the excerpts whose error lines are still read as nothing).
    if top == "":
        return True, said + " (no fault found)"
    return False, said


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--not-among", help="excerpts whose cause-class no finding supports")
    ap.add_argument("--show", action="store_true", help="print every excerpt's outcome")
    args = ap.parse_args()

    expected = read_expected(args.expected)
    not_among = read_expected(args.not_among) if args.not_among else {}
    among_count = [0, 0]
    problems = []
    counts = {"cause": [0, 0], "none": [0, 0]}  # [passed, total]
    seen = set()
    for name in sorted(os.listdir(args.corpus)):
        source = os.path.join(args.corpus, name, "SOURCE.md")
        if not os.path.isfile(source):
            continue
        seen.add(name)
        if not in_sample(name):
            continue
        fields = read_source(source)
        group = "none" if fields.get("cause-class", "none") == "none" else "cause"
        run = subprocess.run([args.bin, "analyze", "--format", "json", *analyze_args(os.path.join(args.corpus, name))],
                             capture_output=True, text=True, errors="replace")
        try:
            verdict = json.loads(run.stdout)["verdict"]
            passed, said = judge(fields, verdict)
            want_class = fields.get("cause-class", "none")
            if want_class != "none" and args.not_among is not None:
                supported = [h["id"] for h in verdict.get("ranked", []) if h.get("supporting")]
                among = want_class in supported
                among_count[0] += among
                among_count[1] += 1
                if among and name in not_among:
                    problems.append(f"{name}: {want_class} is supported now; remove it from {args.not_among}")
                elif not among and name not in not_among:
                    problems.append(f"{name}: no finding supports {want_class} (supported: {supported})")
        except (ValueError, KeyError):
            # No report (input not recognised) is a miss like any other; a crash is not.
            if run.returncode < 0 or run.returncode > 2:
                problems.append(f"{name}: crashed (exit {run.returncode}): {run.stderr.strip()[:200]}")
                continue
            passed, said = False, f"no report (exit {run.returncode}: {run.stderr.strip()[:80]})"
        counts[group][1] += 1
        counts[group][0] += passed
        want = fields.get("cause-class", "none")
        if args.show:
            print(f"{'pass' if passed else 'MISS'} {name}: want {want}, {said}")
        if passed and name in expected:
            problems.append(f"{name}: passes now (want {want}, {said}); remove it from {args.expected}")
        elif not passed and name not in expected:
            problems.append(f"{name}: want {want}, {said}")
    for name in sorted(set(expected) - seen):
        problems.append(f"{name}: listed in {args.expected} but not in the corpus")
    for name in sorted(set(not_among) - seen):
        problems.append(f"{name}: listed in {args.not_among} but not in the corpus")
    if args.not_among is not None:
        print(f"cause excerpts whose findings support the stated cause: {among_count[0]}/{among_count[1]}")

    print(f"cause excerpts: {counts['cause'][0]}/{counts['cause'][1]} with the stated cause first; "
          f"no-cause excerpts: {counts['none'][0]}/{counts['none'][1]} with insufficient evidence "
          f"and a command (or no fault found); expected failures listed: {len(expected)}")
    for p in problems:
        print("FAIL " + p)
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
