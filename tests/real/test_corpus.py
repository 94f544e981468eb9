#!/usr/bin/env python3
"""Corpus test (issue 19): for every tests/data/real/<excerpt>/SOURCE.md, each
`expect: key=value` value must occur verbatim in the excerpt's files and be among the facts
`ascend-triage facts` prints for those files (SOURCE.md itself is never given to the tool).

Expectations the readers cannot meet yet are listed in known-failures.tsv (excerpt, fact,
reason); they are reported, and one that starts to pass fails the test so the list stays true.
Also prints the share of lines recognised by shape (inventory --format json) over the corpus.

usage: test_corpus.py --bin build/ascend-triage [--data DIR ...] [--known FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def sample():
    """(k, n) from CORPUS_SAMPLE=k/n, or None: the whole corpus.

    The sanitized build sets it on the corpus tests that repeat a command another test already
    runs sanitized on every excerpt (tests/cmake/real.cmake): each run there costs about a second
    of start-up, and the checks themselves are all made by the optimised build."""
    spec = os.environ.get("CORPUS_SAMPLE", "")
    if not spec:
        return None
    k, n = (int(x) for x in spec.split("/"))
    if not 0 <= k < n:
        raise SystemExit(f"CORPUS_SAMPLE={spec}: want k/n with 0 <= k < n")
    return k, n


def in_sample(name):
    """Whether this run checks excerpt `name`: by a hash of the name, so a new excerpt does not
    move the others between the parts."""
    part = sample()
    return part is None or zlib.crc32(name.encode()) % part[1] == part[0]


def excerpts(data_dirs):
    for data in data_dirs:
        if not os.path.isdir(data):
            continue
        for name in sorted(os.listdir(data)):
            d = os.path.join(data, name)
            if os.path.isfile(os.path.join(d, "SOURCE.md")):
                yield name, d


def expectations(source_md):
    out = []
    with open(source_md, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("expect:"):
                key, _, value = line[len("expect:"):].strip().partition("=")
                out.append((key.strip(), value.strip()))
    return out


def excerpt_files(d):
    files = []
    for base, _, names in os.walk(d):
        for n in sorted(names):
            if n != "SOURCE.md":
                files.append(os.path.join(base, n))
    return sorted(files)


def analyze_args(path):
    """What to give `analyze` for an input: a corpus excerpt's files without its SOURCE.md (the
    source's own words, its stated cause among them, must never be read as evidence); any other
    input (a sample directory, a bundle) as it is."""
    if os.path.isdir(path) and os.path.isfile(os.path.join(path, "SOURCE.md")):
        return excerpt_files(path)
    return [path]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, timeout=120)


def facts_of(binary, files):
    r = run([binary, "facts", *files])
    facts = set()
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        kv = line.split("\t", 1)[0]
        key, sep, value = kv.partition("=")
        if sep:
            facts.add((key, value))
    return r.returncode, facts


def shape_counts(binary, files):
    r = run([binary, "inventory", "--format", "json", *files])
    rec = unrec = 0
    try:
        doc = json.loads(r.stdout.decode("utf-8", "replace"))
    except ValueError:
        return 0, 0
    for b in doc.get("bundles", []):
        for e in b.get("entries", []):
            s = e.get("stats", {})
            rec += s.get("lines_recognised", 0)
            unrec += s.get("lines_unrecognised", 0)
    return rec, unrec


def load_known(path):
    known = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    known[(parts[0], parts[1])] = parts[2]
    return known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", action="append")
    ap.add_argument("--known", default=os.path.join(HERE, "known-failures.tsv"))
    args = ap.parse_args()
    data_dirs = args.data or [os.path.join(ROOT, "tests", "data", "real")]
    known = load_known(args.known)

    problems, known_seen, n_excerpts, n_expect = [], [], 0, 0
    total_rec = total_unrec = 0
    for name, d in excerpts(data_dirs):
        n_excerpts += 1
        files = excerpt_files(d)
        text = b"".join(open(f, "rb").read() for f in files).decode("utf-8", "replace")
        _, facts = facts_of(args.bin, files)
        rec, unrec = shape_counts(args.bin, files)
        total_rec += rec
        total_unrec += unrec
        share = 100.0 * rec / (rec + unrec) if rec + unrec else 0.0
        print(f"{name}: {rec}/{rec + unrec} lines recognised by shape ({share:.1f} %)")
        for key, value in expectations(os.path.join(d, "SOURCE.md")):
            n_expect += 1
            fact = f"{key}={value}"
            if value not in text:
                problems.append(f"{name}: {fact} does not occur verbatim in the excerpt")
                continue
            ok = (key, value) in facts
            reason = known.get((name, fact))
            if ok and reason is not None:
                problems.append(f"{name}: {fact} now extracted: remove it from known-failures.tsv")
            elif not ok and reason is None:
                problems.append(f"{name}: {fact} not among the facts extracted")
            elif not ok:
                known_seen.append(f"{name}: {fact} (known: {reason})")
    if n_excerpts == 0:
        print("no corpus excerpts found under", ", ".join(data_dirs))
        return 0
    total = total_rec + total_unrec
    print(f"corpus: {n_excerpts} excerpts, {n_expect} expectations, "
          f"{n_expect - len(known_seen) - len(problems)} met, {len(known_seen)} known failures")
    if total:
        print(f"corpus lines by shape: {total_rec}/{total} recognised "
              f"({100.0 * total_rec / total:.1f} %), {total_unrec} not understood")
    for k in known_seen:
        print("known failure:", k)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
