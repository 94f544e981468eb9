#!/usr/bin/env python3
"""The readers and analyses must not know the corpus: no pid, operator or symbol
named by an `expect:` line of tests/data/real/*/SOURCE.md may appear in parsers/, correlator/,
bundle/ or reports/ sources (comments included: a literal there is a sign of a rule shaped on
one excerpt). Numbers count only as whole tokens. Exit 1 listing the hits.

usage: check_literals.py [ROOT]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Library names (libtorch_npu.so) are domain knowledge the correlator needs, not excerpt
# literals; pids, operators and symbols are.
KEYS = {"pid", "operator", "symbol"}
# Operator names that are also English words or type names the code held before their
# excerpts came (an `Equal` in a comment, the SVG timeline's `struct Range`): a hit on them
# says nothing of a rule shaped on one excerpt.
COMMON_WORDS = {"Equal", "Range"}
DIRS = ["parsers", "correlator", "bundle", "reports", "ingest"]


def literals():
    out = set()
    data = os.path.join(ROOT, "tests", "data", "real")
    for name in sorted(os.listdir(data)) if os.path.isdir(data) else []:
        src = os.path.join(data, name, "SOURCE.md")
        if not os.path.isfile(src):
            continue
        for line in open(src, encoding="utf-8", errors="replace"):
            if line.startswith("expect:"):
                key, _, value = line[7:].strip().partition("=")
                value = value.strip()
                # A round thousand (a pid of 2000) is also a year, a limit or an XML namespace in
                # code; it says nothing of a rule shaped on one excerpt.
                if value.isdigit() and int(value) % 1000 == 0:
                    continue
                if key.strip() in KEYS and len(value) >= 3 and value not in COMMON_WORDS:
                    out.add(value)
    return out


def main():
    lits = literals()
    if not lits:
        print("no corpus literals: nothing to check")
        return 0
    pats = {l: re.compile(r"(?<![0-9])" + re.escape(l) + r"(?![0-9])") if l.isdigit() else None
            for l in lits}
    bad = []
    for d in DIRS:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if not n.endswith((".cpp", ".h", ".tsv", ".json")):
                    continue
                p = os.path.join(base, n)
                text = open(p, encoding="utf-8", errors="replace").read()
                for l, pat in pats.items():
                    if (pat.search(text) if pat else l in text):
                        bad.append(f"{os.path.relpath(p, ROOT)}: {l}")
    print(f"{len(lits)} corpus literals checked")
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
