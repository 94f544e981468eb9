#!/usr/bin/env python3
"""Writes the fleet samples: samples/fleet-4node*/node{0..3}/ (samplegen/fleet.py).

Deterministic like generate_samples.py: no clock, no randomness, same bytes every run.
Usage: python3 samples/tools/generate_fleet.py [--out DIR]   (DIR defaults to samples/)
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from samplegen import fleet  # noqa: E402

SAMPLES_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=SAMPLES_DIR)
    args = ap.parse_args()
    for variant, node, bundle, head in fleet.builds():
        bundle.write(os.path.join(args.out, variant, node), head)
        print("%s/%s: %d files" % (variant, node, len(bundle.files) + 2))


if __name__ == "__main__":
    main()
