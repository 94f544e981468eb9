#!/usr/bin/env python3
"""`analyze -`, `facts -`, `inventory -` (docs/cli.md#standard-input): every single-file excerpt
of the real corpus piped in gives the same findings (ids, severities, evidence lines and
excerpts) and the same facts as the file, with evidence named by --name; without --name the
evidence says "stdin"; an empty stdin is refused with exit 2 and says why.

usage: test_stdin.py ASCEND_TRIAGE CORPUS_DIR [--every N]
  --every N  compare every Nth single-file excerpt in name order (the sanitized build: the
             path a pipe takes is the same for every excerpt, and each run costs 0.8 s there)
"""
import json
import os
import subprocess
import sys

BIN, CORPUS = sys.argv[1], sys.argv[2]
EVERY = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--every" else 1
problems = []


def run(args, stdin_path=None, stdin_bytes=None):
    if stdin_path is not None:
        with open(stdin_path, "rb") as f:
            return subprocess.run([BIN, *args], stdin=f, capture_output=True)
    return subprocess.run([BIN, *args], input=stdin_bytes if stdin_bytes is not None else b"",
                          capture_output=True)


def findings(report, entry_name):
    """(id, severity, [(entry, line, excerpt)]) per finding, the input's name replaced."""
    out = []
    for f in report["findings"]:
        ev = [(e.get("entry", "").replace(entry_name, "NAME"), e.get("line"), e.get("excerpt"))
              for e in f["evidence"]]
        out.append((f["id"], f["severity"], ev))
    return out


def single_files():
    for d in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, d)
        if not os.path.isdir(path):
            continue
        files = [f for f in os.listdir(path) if f != "SOURCE.md"]
        if len(files) == 1 and os.path.isfile(os.path.join(path, files[0])):
            yield os.path.join(path, files[0])


compared = 0
with_findings = 0
for index, path in enumerate(single_files()):
    if index % EVERY:
        continue
    name = os.path.basename(path)
    by_file = run(["analyze", "--format", "json", path])
    by_pipe = run(["analyze", "--format", "json", "--name", name, "-"], stdin_path=path)
    if by_file.returncode != by_pipe.returncode:
        problems.append(f"{path}: exit {by_file.returncode} from the file, {by_pipe.returncode} piped")
        continue
    if by_file.returncode == 2:
        continue
    a = findings(json.loads(by_file.stdout), path)
    b = findings(json.loads(by_pipe.stdout), name)
    if a != b:
        problems.append(f"{path}: findings differ piped in:\n  file: {a[:3]}\n  pipe: {b[:3]}")
    entries = {e[0] for f in b for e in f[2]}
    if b and entries - {"NAME"}:
        problems.append(f"{path}: piped evidence names {sorted(entries)}, expected only --name {name}")
    facts_file = run(["facts", path]).stdout.decode().replace(path + ":", "NAME:")
    facts_pipe = run(["facts", "--name", name, "-"], stdin_path=path).stdout.decode()
    if facts_file != facts_pipe.replace(name + ":", "NAME:"):
        problems.append(f"{path}: facts differ piped in")
    compared += 1
    with_findings += bool(a)

if compared < 20 or with_findings < 10:
    problems.append(f"only {compared} excerpts compared ({with_findings} with findings): corpus moved?")

# Default name, and inventory of a pipe.
sample = next(p for p in single_files() if "stream-sync-timeout" in p)
r = run(["analyze", "--format", "json", "-"], stdin_path=sample)
names = {e["entry"] for f in json.loads(r.stdout)["findings"] for e in f["evidence"]}
if names != {"stdin"}:
    problems.append(f"without --name the evidence is named {sorted(names)}, expected stdin")
r = run(["inventory", "--format", "json", "--name", "paste.txt", "-"], stdin_path=sample)
if r.returncode == 2 or b"paste.txt" not in r.stdout or b"standard input" not in r.stdout:
    problems.append(f"inventory - : exit {r.returncode}, output {r.stdout[:300]!r}")

# Empty stdin: exit 2 and a message naming it.
for cmd in (["analyze", "-"], ["facts", "--name", "ticket", "-"], ["inventory", "-"]):
    r = run(cmd, stdin_bytes=b"")
    if r.returncode != 2 or b"standard input is empty" not in r.stderr or r.stdout:
        problems.append(f"{' '.join(cmd)} on empty stdin: exit {r.returncode}, stderr {r.stderr!r}")
r = run(["analyze", "-", "-"], stdin_bytes=b"x\n")
if r.returncode != 2 or b"only once" not in r.stderr:
    problems.append(f"analyze - -: exit {r.returncode}, stderr {r.stderr!r}")

for p in problems:
    print("FAIL:", p)
print(f"{compared} excerpts piped in ({with_findings} with findings), {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
