#!/usr/bin/env python3
"""Every ascend-fd rule knowledge/mappings/ascend-fd.tsv counts covered by a signature is
found by `analyze` from its bare fragments (issue 37).

For each covered row whose `ours` is a signature, each of the rule's alternatives (the
`pattern` column: '|' alternatives, '&' fragments of one line) is joined with blanks, as
ascend-fd sees them in one line, and embedded in a line of the signature's log kind (a plog
line with a realistic header, a dmesg line, a job-output line), one file per case. A finding
of `analyze --format json` (not unexplained-errors) must cite each case's file: the
signature's own or, for an alternative a hand-written signature finds, that one's.
Rows whose pattern the mapping cut short (ending in '...') lose their last alternative.
Known gaps: tests/real/ascend-fd-fragments-known.tsv (rule id, reason).

usage: ascend_fd_fragments.py --bin build/ascend-triage [--keep DIR]
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_signatures():
    sigs = {}
    for f in sorted((ROOT / "knowledge" / "signatures").glob("*.json")):
        for s in json.loads(f.read_text(encoding="utf-8"))["signatures"]:
            sigs[s["id"]] = s
    return sigs


def cases(sigs):
    for line in (ROOT / "knowledge" / "mappings" / "ascend-fd.tsv").read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if line.startswith("#") or len(f) < 4 or f[3] != "covered" or f[2] not in sigs:
            continue
        pattern = f[1]
        if pattern.startswith("regex:") or pattern.startswith("no log pattern"):
            continue
        alts = pattern.split(" | ")
        if pattern.endswith("..."):
            alts = alts[:-1]
        for k, alt in enumerate(alts):
            frags = alt.split(" & ")
            yield f[0], k, f[2], " ".join(frags)


def write_case(root, n, rid, sig, text):
    src = sig["sources"]
    if "plog" in src:
        module = (sig.get("modules") or ["RUNTIME"])[0]
        p = root / "plog" / f"plog-{20000 + n}_20260301120300100.log"
        body = (f"[ERROR] {module}({20000 + n},python3):2026-03-01-12:03:00.100.200 "
                f"[fd_fragment.cc:100]{20000 + n} Func:{text}\n")
    elif "kernel" in src:
        p = root / "dmesg" / f"dmesg-{n}.txt"
        body = f"[ 8123.456789] {text}\n"
    else:
        p = root / "job" / f"train_rank{n}.log"
        body = f"Traceback (most recent call last):\n[rank0]: {text}\n"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(body, encoding="utf-8")
    return str(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--keep", default="")
    args = ap.parse_args()
    sigs = load_signatures()
    known = {}
    kp = ROOT / "tests" / "real" / "ascend-fd-fragments-known.tsv"
    for line in kp.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            rid, _, reason = line.partition("\t")
            known[rid] = reason
    tmp = tempfile.TemporaryDirectory()
    root = Path(args.keep or tmp.name)
    todo = []
    for n, (rid, k, sid, text) in enumerate(cases(sigs)):
        todo.append((rid, k, sid, write_case(root, n, rid, sigs[sid], text), text))
    def cited_entries(path):
        run = subprocess.run([args.bin, "analyze", "--format", "json", path],
                             capture_output=True, text=True, timeout=600)
        if run.returncode not in (0, 1, 2):
            raise SystemExit(f"FAIL: analyze exited {run.returncode}: {run.stderr[:500]}")
        return {e.get("entry", "") for fnd in json.loads(run.stdout)["findings"]
                if fnd["id"] != "unexplained-errors" for e in fnd.get("evidence", [])}

    # One run over all cases; a case its findings do not cite (a finding cites a few lines
    # of a signature's hits) is run alone.
    cited = cited_entries(str(root))
    failed, gaps, passed = [], set(), 0
    for rid, k, sid, path, text in todo:
        if path in cited or path in cited_entries(path):
            passed += 1
        elif rid in known:
            gaps.add(rid)
        else:
            failed.append(f"{rid} alternative {k + 1} ({sid}): not found in '{text[:120]}'")
    stale = sorted(r for r in known if r not in gaps)
    rules = len({c[0] for c in todo})
    print(f"ascend-fd fragments: {passed} of {len(todo)} cases ({rules} rules) found; "
          f"{len(gaps)} known gaps; {len(failed)} failed")
    for f in failed:
        print("FAIL:", f)
    for r in stale:
        print(f"FAIL: {r} is listed in {kp.name} but passes or is no longer a case: remove it")
    return 1 if failed or stale else 0


if __name__ == "__main__":
    sys.exit(main())
