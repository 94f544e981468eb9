#!/usr/bin/env python3
"""No silent error on the real-paste corpus (issue 20).

For every excerpt of tests/data/real/ the analyzer runs on the excerpt's files
(`ascend-triage analyze --format json FILE...`). The script counts the excerpt's error lines
itself (plog [ERROR], CANN error-report headers, torch_npu ERR lines, kernel/driver error
words, Python exception lines) and what the report made of them:
  explained    error lines cited by a finding other than unexplained-errors
  unexplained  lines in the groups of unexplained-errors (its `lines` value)
It fails when
  - an excerpt that is not `healthy: yes` has error lines and the report is silent (exit 0,
    no finding at warning or above: "No fault found");
  - a `healthy: yes` excerpt exits non-zero or raises unexplained-errors.
Excerpts listed in known-silent.tsv (next to this script) are silent because no reader knows
their form yet; a listed excerpt that is no longer silent fails too, so the list only shrinks.
An excerpt nothing was read from (exit 2, "no recognised evidence") is counted as unread.
Usage: corpus_silence.py ASCEND_TRIAGE CORPUS_DIR [--knowledge DIR] [--quiet]
"""
import json
import os
import re
import subprocess
import sys

ERROR_LINE = re.compile(
    r"\[(?:ERROR|CRITICAL|EXCEPTION)\]"            # plog, ACL sample, Ascend printk, MindSpore
    r"|\bE[A-Z0-9]\d{4}(?:\[PID: \d+\]|: )"        # CANN error report (EZ9999: / EZ9999[PID: n])
    r"|(?:^|[\s:])[A-Za-z_][\w.]*(?:Error|Exception): "  # Python exception line
    r"|\bERR\d{5}\b")                               # torch_npu error code


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "real"))
from test_corpus import excerpt_files  # noqa: E402  (one definition of an excerpt's files)


def header(d):
    h = {}
    with open(os.path.join(d, "SOURCE.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"- (\w[\w-]*): (.*)", line)
            if m:
                h[m.group(1)] = m.group(2).strip()
    return h


def count_error_lines(files):
    n = 0
    for p in files:
        with open(p, encoding="utf-8", errors="replace") as f:
            for line in f:
                if ERROR_LINE.search(line):
                    n += 1
    return n


def known_silent():
    out = {}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "known-silent.tsv"),
              encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("excerpt\t") or not line.strip():
                continue
            name, why = line.rstrip("\n").split("\t", 1)
            out[name] = why
    return out


def main():
    args = sys.argv[1:]
    quiet = "--quiet" in args
    args = [a for a in args if a != "--quiet"]
    knowledge = []
    if "--knowledge" in args:
        i = args.index("--knowledge")
        knowledge = ["--knowledge", args[i + 1]]
        del args[i:i + 2]
    binary, corpus = args
    problems, rows = [], []
    known = known_silent()
    totals = {"excerpts": 0, "with_errors": 0, "error_lines": 0, "explained_excerpts": 0,
              "unexplained_excerpts": 0, "unexplained_lines": 0, "unread": 0, "known_silent": 0}
    for name in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, name)
        if not os.path.isfile(os.path.join(d, "SOURCE.md")):
            continue
        h = header(d)
        healthy = h.get("healthy") == "yes"
        files = excerpt_files(d)
        errors = count_error_lines(files)
        r = subprocess.run([binary, "analyze", "--format", "json", *knowledge, *files],
                           capture_output=True, text=True)
        if r.returncode == 2 and "no recognised evidence" in r.stderr:
            # Nothing was read (a form no reader knows yet): an error, not a silent report.
            totals["unread"] += 1
            rows.append(f"{name:70} errors={errors:4} unread (exit 2)")
            continue
        if r.returncode not in (0, 1):
            problems.append(f"{name}: analyze exited {r.returncode}: {r.stderr.strip()[:200]}")
            continue
        report = json.loads(r.stdout)
        findings = report.get("findings", [])
        loud = [f for f in findings if f["severity"] in ("warning", "error", "critical")]
        unexplained = [f for f in findings if f["id"] == "unexplained-errors"]
        cited = {(e["entry"], e["line"]) for f in findings if f["id"] != "unexplained-errors"
                 for e in f.get("evidence", []) if e.get("line")}
        un_lines = sum(int(f["values"].get("lines", "0")) for f in unexplained)
        totals["excerpts"] += 1
        totals["error_lines"] += errors
        if errors:
            totals["with_errors"] += 1
        if unexplained:
            totals["unexplained_excerpts"] += 1
            totals["unexplained_lines"] += un_lines
        if [f for f in loud if f["id"] != "unexplained-errors"]:
            totals["explained_excerpts"] += 1
        rows.append(f"{name:70} errors={errors:4} cited={len(cited):3} unexplained={un_lines:4} "
                    f"exit={r.returncode} {'healthy' if healthy else ''}")
        if healthy:
            if r.returncode != 0 or unexplained:
                what = ", ".join(sorted({f["id"] for f in loud}))
                problems.append(f"{name}: healthy excerpt exits {r.returncode} ({what})")
        elif errors and (r.returncode == 0 or not loud):
            if name in known:
                totals["known_silent"] += 1
                rows[-1] += f" known silent: {known[name]}"
            else:
                problems.append(f"{name}: {errors} error line(s) and the report is silent (exit 0)")
        elif name in known:
            problems.append(f"{name}: listed in known-silent.tsv but no longer silent: remove it")
    if not quiet:
        print("\n".join(rows))
    print(" ".join(f"{k}={v}" for k, v in totals.items()))
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        for p in problems:
            print("  " + p)
        return 1
    print("OK: no excerpt with error lines is silent; healthy excerpts stay at exit 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
