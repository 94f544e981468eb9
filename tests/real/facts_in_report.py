#!/usr/bin/env python3
"""Corpus test (issue 20, "Done when"): every `expect: key=value` of an excerpt's SOURCE.md
appears in what `ascend-triage analyze --format json` reports for it: its findings (title,
observed, values, evidence excerpts), its verdict or its bundle summaries. The timeline is
left out: it repeats every line read, so it would prove nothing.

Gaps are listed in facts-in-report-known.tsv (excerpt, fact, reason); a listed fact that
starts to appear fails the test too, so the list stays true.

usage: facts_in_report.py --bin build/ascend-triage [--known FILE]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_corpus import excerpts, expectations, excerpt_files, in_sample, load_known, ROOT  # noqa: E402


def reported_text(binary, files):
    r = subprocess.run([binary, "analyze", "--format", "json", *files], capture_output=True, timeout=120)
    if r.returncode not in (0, 1):
        return r.returncode, ""
    doc = json.loads(r.stdout.decode("utf-8", "replace"))
    part = [doc.get("findings", []), doc.get("verdict", {}), doc.get("bundles", [])]
    return r.returncode, json.dumps(part, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--known", default=os.path.join(HERE, "facts-in-report-known.tsv"))
    args = ap.parse_args()
    known = load_known(args.known)
    problems, n, found = [], 0, 0
    for name, d in excerpts([os.path.join(ROOT, "tests", "data", "real")]):
        if not in_sample(name):
            continue
        rc, text = reported_text(args.bin, excerpt_files(d))
        for key, value in expectations(os.path.join(d, "SOURCE.md")):
            n += 1
            fact = f"{key}={value}"
            escaped = json.dumps(value, ensure_ascii=False)[1:-1]
            ok = value in text or escaped in text
            found += ok
            reason = known.get((name, fact))
            if ok and reason is not None:
                problems.append(f"{name}: {fact} is reported now: remove it from {args.known}")
            elif not ok and reason is None:
                problems.append(f"{name}: {fact} is not in the report (exit {rc})")
    print(f"expected facts in the report: {found} of {n}; known gaps listed: {len(known)}")
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
