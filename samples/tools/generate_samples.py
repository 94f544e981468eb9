#!/usr/bin/env python3
"""Writes every sample under samples/ and samples/expected-kinds.tsv.

Deterministic: no clock, no randomness that is not derived from fixed labels, no host
data except the TZif copy kept in tools/data/. Running it twice gives identical bytes.
Usage: python3 samples/tools/generate_samples.py [--out DIR]   (DIR defaults to samples/)
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep samples/tools free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from samplegen import fleet, healthy, incident, reinstall  # noqa: E402
from samplegen.bundle import tsv  # noqa: E402

SAMPLES_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=SAMPLES_DIR)
    args = ap.parse_args()
    kinds = []
    for build in (incident.build_before, incident.build_after, healthy.build, reinstall.build):
        bundle, head, _ = build()
        written = bundle.write(os.path.join(args.out, bundle.name), head)
        kinds.extend((bundle.name, p, k) for p, k in written.items())
    for variant, node, bundle, head in fleet.builds():  # several bundles in one sample directory
        written = bundle.write(os.path.join(args.out, variant, node), head)
        kinds.extend((variant, node + "/" + p, k) for p, k in written.items())
    loose = incident.build_loose()
    kinds.extend((loose.name, p, k) for p, k in loose.write(os.path.join(args.out, loose.name)).items())
    kinds.sort()
    with open(os.path.join(args.out, "expected-kinds.tsv"), "w", newline="\n") as f:
        f.write(tsv(["sample", "path", "kind"], kinds))
    for name in sorted({s for s, _, _ in kinds}):
        total = 0
        for root, _, files in os.walk(os.path.join(args.out, name)):
            total += sum(os.path.getsize(os.path.join(root, x)) for x in files)
        print("%-32s %4d files %9d bytes" % (name, sum(1 for s, _, _ in kinds if s == name), total))


if __name__ == "__main__":
    main()
