#!/usr/bin/env python3
"""Compares two `ascend-triage analyze --format json` reports on the findings a collector
round trip must reproduce: stall, observation-point, module and library findings.

    compare_findings.py EXPECTED.json GOT.json

Each expected finding of those kinds must be in GOT with the same id and title and the same
values, except values that name where the bundle lay or when it was collected. Prints one
line per difference; exit 0 when there is none.
"""
import json
import sys

KINDS = ("stream-stall", "observation-point", "module-provenance", "library-provenance")
# Values that depend on the bundle's location or the collection instant, not on the host.
VOLATILE = {"bundle", "entry", "collected_at", "collected_utc"}


def selected(report):
    out = []
    for f in report.get("findings", []):
        fid = f.get("id", "")
        if any(fid == k or fid.startswith(k + "/") for k in KINDS):
            out.append(f)
    return out


def key(f):
    return (f["id"], f.get("title", ""))


def main():
    want = selected(json.load(open(sys.argv[1])))
    got = selected(json.load(open(sys.argv[2])))
    problems = []
    got_by_key = {}
    for f in got:
        got_by_key.setdefault(key(f), []).append(f)
    for f in want:
        cands = got_by_key.get(key(f), [])
        if not cands:
            same_id = [g.get("title") for g in got if g["id"] == f["id"]]
            problems.append("missing %s %r (same id in the round trip: %r)" % (f["id"], f.get("title"), same_id))
            continue
        g = cands.pop(0)
        wv, gv = f.get("values", {}), g.get("values", {})
        for k in sorted(set(wv) | set(gv)):
            if k in VOLATILE:
                continue
            if wv.get(k) != gv.get(k):
                problems.append("%s %r: value %s: expected %r, got %r" % (f["id"], f.get("title"), k, wv.get(k), gv.get(k)))
        for k in ("severity", "confidence"):
            if f.get(k) != g.get(k):
                problems.append("%s %r: %s: expected %r, got %r" % (f["id"], f.get("title"), k, f.get(k), g.get(k)))
    for rest in got_by_key.values():
        for g in rest:
            problems.append("unexpected %s %r" % (g["id"], g.get("title")))
    for p in problems:
        print(p)
    print("compared %d findings (%s): %d difference(s)" % (len(want), ", ".join(KINDS), len(problems)))
    return 1 if problems else 0


sys.exit(main())
