#!/usr/bin/env python3
"""Prints one rg alternation of every knowledge signature pattern (issue 22's baseline).

    bench/signature_alt.py [KNOWLEDGE_DIR]   (default: knowledge/ next to bench/)

The patterns are RE2 (docs/knowledge.md); rg's Rust regex reads nearly the same syntax.
What changes, and why, goes to stderr:
- named groups `(?P<name>...)` become `(?:...)`: the alternation would repeat names
  (device_id, stream_id, ...), which Rust regex refuses, and rg -c needs no captures;
- a leading `^` is dropped: the analyzer anchors at the start of the message (after the
  plog header, inside a journal record's MESSAGE), rg at the start of the whole line;
- a pattern rg still refuses (checked one by one with `rg -e`) is left out and named.
"""
import glob
import json
import os
import re
import subprocess
import sys

NAMED_GROUP = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")


def main():
    kdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "knowledge")
    files = sorted(glob.glob(os.path.join(kdir, "signatures", "*.json")))
    if not files:
        sys.exit(f"signature_alt: no signatures under {kdir}/signatures")
    kept, dropped, unanchored, groups = [], [], 0, 0
    for path in files:
        for sig in json.load(open(path, encoding="utf-8"))["signatures"]:
            pat, n = NAMED_GROUP.subn("(?:", sig["pattern"])
            groups += n
            if pat.startswith("^"):
                pat = pat[1:]
                unanchored += 1
            check = subprocess.run(["rg", "-q", "-e", pat, "/dev/null"], capture_output=True, text=True)
            if check.returncode == 2:
                dropped.append((sig["id"], check.stderr.strip().splitlines()[-1] if check.stderr else "refused"))
                continue
            kept.append(pat)
    print(f"signature_alt: {len(kept)} patterns from {len(files)} files; {groups} named groups made "
          f"non-capturing; {unanchored} leading ^ dropped; {len(dropped)} refused by rg"
          + "".join(f"\n  left out {i}: {why}" for i, why in dropped), file=sys.stderr)
    print("|".join(f"(?:{p})" for p in kept))


if __name__ == "__main__":
    main()
