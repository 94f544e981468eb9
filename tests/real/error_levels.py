#!/usr/bin/env python3
"""An error-level line is never silent (issue 36), on the real-paste corpus.

For every excerpt of tests/data/real/ whose files hold a line with an error level in one of
the common forms (found here by a plain regex of its own, independent of the analyzer's
knowledge/error-levels.tsv):
  Python logging  `ERROR:name:msg`, `... - ERROR - ...`, `2025-01-01 10:00:00,000 ERROR ...`
  vLLM / SGLang   `ERROR 12-05 10:00:00 [file.py:12] ...` (also without the bracket, with the year)
  CANN / MindSpore `[ERROR] ...`, `[ERROR] MODULE(...) ...`, `[CRITICAL]`, `[EXCEPTION]`
  loguru          `2025-01-01 10:00:00.000 | ERROR    | ...`
  glog            `E1205 10:00:00.123456 1234 file.cc:12] ...` (and F)
behind the usual launcher, container and grep prefixes, `ascend-triage analyze --format json
DIR` must neither say "No fault found" nor exit 2 ("no recognised evidence"). A `healthy: yes`
excerpt must raise nothing at warning or above.

Excerpts that still fail are listed in error-levels-known.tsv (excerpt, tab, reason), kept
exact: the test fails on a failure not listed, on a listed excerpt that passes now, and on a
listed excerpt that is no longer in the corpus.
usage: error_levels.py --bin ascend-triage --corpus tests/data/real --known FILE [--show]
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_corpus import excerpt_files, in_sample  # noqa: E402  (one definition of an excerpt's files)

LEVEL = r"(?:ERROR|CRITICAL|FATAL)"
TIME = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
# grep's `path:N:` / `path-N-`, then tags: `[rank0]:`, `[Stage-1]`, `(Worker pid=7)`, `worker-1:`
PREFIX = (r"^(?:[\w./-]+?[:-]\d+[:-])?"
          r"(?:\s*(?:\[[^\]]{1,48}\]:?|\([^)]{1,96}\)|[\w.-]+-\d+:|\d+\.\d+\.\d+\.\d+:))*\s*")
FORMS = re.compile(PREFIX + r"(?:"
                   + LEVEL + r":"                                          # logging basic, `ERROR: msg`
                   r"|" + LEVEL + r" (?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d"  # vLLM / SGLang
                   r"|" + LEVEL + r" \[\d{4}-"                             # MindSpeed
                   r"|\[(?:ERROR|CRITICAL|FATAL|EXCEPTION)\]"               # CANN / MindSpore
                   r"|[EF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\]"         # glog
                   r"|\[?" + TIME + r"\]?\s+(?:-\s+(?:[\w.-]+\s+-\s+)?)?\[?" + LEVEL + r"\]?[\s:-]"  # asctime
                   r"|" + TIME + r" \| " + LEVEL + r" +\|"                  # loguru
                   r")")


def header(d):
    h = {}
    with open(os.path.join(d, "SOURCE.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"- (\w[\w-]*): (.*)", line)
            if m:
                h[m.group(1)] = m.group(2).strip()
    return h


def error_lines(files):
    out = []
    for p in files:
        with open(p, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if FORMS.search(line):
                    out.append(f"{os.path.basename(p)}:{n}")
    return out


def read_known(path):
    known = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("excerpt\t"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[1].strip():
                sys.exit(f"{path}:{n}: want 'excerpt<TAB>reason', got {line!r}")
            known[parts[0]] = parts[1]
    return known


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--known", required=True)
    ap.add_argument("--show", action="store_true", help="print every excerpt with error-level lines")
    args = ap.parse_args()
    known = read_known(args.known)
    problems, seen = [], set()
    counts = {"excerpts": 0, "with_levels": 0, "loud": 0, "healthy": 0}
    for name in sorted(os.listdir(args.corpus)):
        d = os.path.join(args.corpus, name)
        if not os.path.isfile(os.path.join(d, "SOURCE.md")):
            continue
        seen.add(name)
        if not in_sample(name):
            continue
        counts["excerpts"] += 1
        healthy = header(d).get("healthy") == "yes"
        lines = error_lines(excerpt_files(d))
        if not lines and not healthy:
            continue
        r = subprocess.run([args.bin, "--quiet", "analyze", "--format", "json", *excerpt_files(d)],
                           capture_output=True, text=True, errors="replace")
        if r.returncode not in (0, 1, 2):
            problems.append(f"{name}: analyze exited {r.returncode}: {r.stderr.strip()[:200]}")
            continue
        summary, loud = "", []
        if r.stdout.strip():
            doc = json.loads(r.stdout)
            summary = doc.get("verdict", {}).get("summary", "")
            loud = sorted({f["id"] for f in doc.get("findings", [])
                           if f.get("severity") in ("warning", "error", "critical")})
        failed = ""
        if healthy:
            counts["healthy"] += 1
            if loud or r.returncode == 1:
                failed = f"healthy excerpt raises {', '.join(loud) or 'exit 1'}"
        elif r.returncode == 2:
            failed = f"{len(lines)} error-level line(s) ({', '.join(lines[:3])}) and exit 2: {r.stderr.strip()[:120]}"
        elif summary.startswith("No fault found"):
            failed = f"{len(lines)} error-level line(s) ({', '.join(lines[:3])}) and \"No fault found\""
        if lines:
            counts["with_levels"] += 1
            counts["loud"] += not failed
        if args.show:
            print(f"{'FAIL' if failed else 'ok  '} {name}: {len(lines)} error-level line(s), exit {r.returncode}"
                  f"{', healthy' if healthy else ''}{': ' + failed if failed else ''}")
        if failed and name not in known:
            problems.append(f"{name}: {failed}")
        elif not failed and name in known:
            problems.append(f"{name}: passes now; remove it from {args.known}")
    for name in sorted(set(known) - seen):
        problems.append(f"{name}: listed in {args.known} but not in the corpus")
    print(f"excerpts: {counts['excerpts']}; with error-level lines: {counts['with_levels']}, "
          f"of which not silent: {counts['loud']}; healthy checked: {counts['healthy']}; "
          f"known failures listed: {len(known)}")
    for p in problems:
        print("FAIL " + p)
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        return 1
    print("OK: no excerpt with an error-level line is silent or unread; healthy excerpts raise nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
