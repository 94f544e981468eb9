#!/usr/bin/env python3
"""One finding per event (issue 38): on every sample, no two findings of a report open on the
same evidence line (entry and line number of their first cited line), unless the pair is listed
in shared-leading-line-known.tsv as two different events that happen to share it. Two readings
of one event are folded into one finding (knowledge/same-event.tsv); this test finds a pair the
table misses. A listed pair that no sample shows fails too, so the list stays true.

With --list it prints every pair of findings whose cited lines overlap at all, leading or not
(the survey of issue 38), over the samples and, with --corpus, every excerpt."""
import argparse
import itertools
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_corpus import analyze_args  # noqa: E402  (an excerpt is analysed without its SOURCE.md)


def inputs(samples, corpus):
    out = []
    for base in [samples] + ([corpus] if corpus else []):
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name)
            if os.path.isdir(path) and name != "tools":
                out.append(path)
    return out


def findings(binary, path):
    r = subprocess.run([binary, "analyze", "--format", "json", *analyze_args(path)], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, TZ="UTC"))
    if r.returncode not in (0, 1):  # 2: no recognised evidence, no findings to compare
        return []
    return json.loads(r.stdout).get("findings", [])


def lines(f):
    return {(e["entry"], e["line"]) for e in f.get("evidence", []) if e.get("line")}


def leading(f):
    ev = f.get("evidence", [])
    return (ev[0]["entry"], ev[0]["line"]) if ev and ev[0].get("line") else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--corpus")
    ap.add_argument("--known")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    known = {}
    if a.known:
        with open(a.known, encoding="utf-8") as fh:
            for row in fh:
                if row.startswith("#") or row.startswith("id_a\t") or not row.strip():
                    continue
                id_a, id_b, why = row.rstrip("\n").split("\t")
                known[tuple(sorted((id_a, id_b)))] = why
    seen_known = set()
    failures, pairs, shared_lead = [], 0, 0
    for path in inputs(a.samples, a.corpus):
        fs = findings(a.bin, path)
        for x, y in itertools.combinations(fs, 2):
            common = lines(x) & lines(y)
            if not common:
                continue
            pairs += 1
            same_lead = leading(x) is not None and leading(x) == leading(y) and x["host"] == y["host"]
            shared_lead += same_lead
            if a.list:
                entry, line = sorted(common)[0]
                print(f"{os.path.basename(path)}: {'LEAD ' if same_lead else ''}{x['severity']}:{x['id']} <-> "
                      f"{y['severity']}:{y['id']} ({len(common)} common, e.g. {os.path.basename(entry)}:{line})")
            if not same_lead:
                continue
            key = tuple(sorted((x["id"], y["id"])))
            if key in known:
                seen_known.add(key)
            elif not a.list:
                failures.append(f"{os.path.basename(path)}: {x['id']} ({x['title']}) and {y['id']} ({y['title']}) "
                                f"both open on {leading(x)[0]}:{leading(x)[1]}")
    if not a.list:
        for key in sorted(set(known) - seen_known):
            failures.append(f"listed in {os.path.basename(a.known)} but no sample shows it: {key[0]} / {key[1]}")
    for f in failures:
        print(f)
    print(f"one_finding_per_event: {pairs} overlapping pair(s), {shared_lead} opening on the same line, "
          f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
