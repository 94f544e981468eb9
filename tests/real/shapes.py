#!/usr/bin/env python3
"""Corpus test (issue 19, "Done when"): per excerpt file and per segment of a mixed paste, the
kind the analyzer gives it and the count of lines it recognised by shape are asserted against
tests/real/shapes.tsv (excerpt, file[:first-last], kind, recognised/lines). A change in either
fails the test; review it and run with --update to accept it. Prints both shares over the
corpus: lines recognised by shape, and lines in entries of a known kind.

usage: shapes.py --bin build/ascend-triage [--update]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_corpus import excerpts, excerpt_files, in_sample, sample, ROOT  # noqa: E402

TABLE = os.path.join(HERE, "shapes.tsv")


def rows_of(binary, name, d):
    files = excerpt_files(d)
    r = subprocess.run([binary, "inventory", "--format", "json", *files], capture_output=True, timeout=120)
    doc = json.loads(r.stdout.decode("utf-8", "replace"))
    out, rec, total, known = [], 0, 0, 0
    for b in doc.get("bundles", []):
        for e in b.get("entries", []):
            s = e.get("stats", {})
            lines = s.get("lines_recognised", 0) + s.get("lines_unrecognised", 0)
            rec += s.get("lines_recognised", 0)
            total += lines
            if e.get("kind") != "unknown":
                known += lines
            rel = os.path.relpath(e.get("display", e.get("path")), d)
            out.append(f"{name}\t{rel}\t{e.get('kind')}\t{s.get('lines_recognised', 0)}/{lines}")
            for seg in e.get("segments", []):
                n = seg["last_line"] - seg["first_line"] + 1
                out.append(f"{name}\t{rel}:{seg['first_line']}-{seg['last_line']}\t{seg['kind']}\t"
                           f"{seg.get('lines_recognised', 0)}/{n}")
    return out, rec, total, known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    if args.update and sample() is not None:
        raise SystemExit("--update records the whole corpus: unset CORPUS_SAMPLE")
    rows, rec, total, known = [], 0, 0, 0
    for name, d in excerpts([os.path.join(ROOT, "tests", "data", "real")]):
        if not in_sample(name):
            continue
        r, a, t, k = rows_of(args.bin, name, d)
        rows += r
        rec, total, known = rec + a, total + t, known + k
    print(f"corpus: {rec} of {total} lines recognised by shape ({100.0 * rec / max(total, 1):.1f} %); "
          f"{known} of {total} in entries of a known kind ({100.0 * known / max(total, 1):.1f} %)")
    if args.update:
        with open(TABLE, "w", encoding="utf-8") as f:
            f.write("# excerpt\tfile[:first-last line of a segment]\tkind\trecognised/lines (tests/real/shapes.py --update)\n")
            f.write("\n".join(rows) + "\n")
        print(f"wrote {len(rows)} rows to {TABLE}")
        return 0
    with open(TABLE, encoding="utf-8") as f:
        want = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")
                and in_sample(l.split("\t", 1)[0])]
    if rows == want:
        print(f"ok: {len(rows)} files and segments as recorded")
        return 0
    w, g = set(want), set(rows)
    for l in sorted(w - g):
        print("FAIL recorded, not seen now:", l)
    for l in sorted(g - w):
        print("FAIL seen now, not recorded:", l)
    if w == g:
        print("FAIL: same rows in another order")
    print("(review, then tests/real/shapes.py --bin BIN --update)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
