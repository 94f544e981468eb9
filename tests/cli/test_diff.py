#!/usr/bin/env python3
"""`ascend-triage baseline` and `diff` as a user runs them (docs/diff.md, docs/cli.md):
exit 0 and no output when nothing in the chain differs (a bundle with itself, with its own
baseline file, two baseline files of it), exit 1 when something does, with the changes the
CURRENT bundle's findings cite first (incident after the clean reinstall: the stale module set),
exit 2 naming the file when an input cannot be read; every format; `-o`.

usage: test_diff.py ASCEND_TRIAGE SAMPLES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

BIN, SAMPLES = sys.argv[1], sys.argv[2]
HEALTHY = os.path.join(SAMPLES, "healthy-after-reinstall")
INCIDENT = os.path.join(SAMPLES, "incident-910b-before-reboot")
problems = []


def run(*args):
    return subprocess.run([BIN, "--quiet", *args], capture_output=True, text=True)


def expect(cond, what):
    if not cond:
        problems.append(what)


with tempfile.TemporaryDirectory() as tmp:
    base = os.path.join(tmp, "healthy.json")
    r = run("baseline", HEALTHY, "-o", base)
    expect(r.returncode == 0, "baseline exit %d: %s" % (r.returncode, r.stderr))
    doc = json.load(open(base))
    expect(doc["schema"] == "ascend-triage-baseline/1", "baseline schema %r" % doc.get("schema"))
    inc_base = os.path.join(tmp, "incident.json")
    expect(run("baseline", INCIDENT, "-o", inc_base).returncode == 0, "baseline of the incident failed")
    again = run("baseline", HEALTHY)
    expect(again.stdout == open(base).read(), "baseline is not deterministic (stdout differs from -o)")

    for a, b, what in [(HEALTHY, HEALTHY, "bundle with itself"), (base, HEALTHY, "baseline file, bundle"),
                       (HEALTHY, base, "bundle, baseline file"), (base, base, "baseline with itself")]:
        for fmt in ("text", "markdown"):
            r = run("diff", "--format", fmt, a, b)
            expect(r.returncode == 0, "%s (%s): exit %d %s" % (what, fmt, r.returncode, r.stderr))
            expect(r.stdout == "", "%s (%s): printed %r" % (what, fmt, r.stdout[:200]))
        r = run("diff", "--format", "json", a, b)
        expect(r.returncode == 0 and json.loads(r.stdout)["changes"] == [], "%s (json): not empty" % what)

    r = run("diff", HEALTHY, INCIDENT)
    expect(r.returncode == 1, "incident diff exit %d: %s" % (r.returncode, r.stderr))
    lines = r.stdout.splitlines()
    expect(len(lines) > 3 and lines[2] == "Cited by CURRENT's findings", "no cited part first: %r" % lines[:3])
    first = lines[3:21]
    expect(all(l.startswith("modules: module ") and "[breaking: cited by finding module-provenance" in l
               for l in first), "the first 18 lines are not the cited module changes: %r" % first[:3])
    expect(sum("/updates/dkms/" in l and "(absent) -> link -> /var/lib/dkms/" in l for l in first) >= 1,
           "no stale dkms link among the first lines")
    expect(any(l.endswith("resident: build id ") or " resident: build id " in l for l in lines[3:60]),
           "no resident build id change among the cited lines")
    expect("Other changes" in lines, "no second part")
    expect(any("CANN toolkit /usr/local/Ascend/cann-8.5.0: (absent) -> 8.5.0 [consistent]" in l for l in lines),
           "the left-over CANN 8.5.0 is not listed as a consistent change")
    expect(any(l.startswith("Processes: processes are paired by rank") for l in lines), "no process pairing sentence")

    # the same from the baseline file, in JSON and Markdown, written with -o
    out = os.path.join(tmp, "diff.json")
    r = run("diff", "--format", "json", "-o", out, base, INCIDENT)
    expect(r.returncode == 1 and r.stdout == "", "json -o: exit %d, stdout %r" % (r.returncode, r.stdout[:100]))
    d = json.load(open(out))
    expect(d["baseline"]["kind"] == "baseline file" and d["current"]["kind"] == "bundle", "json kinds %r" % d["baseline"])
    expect(d["changes"][0]["layer"] == "modules" and d["changes"][0]["status"] == "breaking"
           and d["changes"][0]["cited_by"], "json first change %r" % d["changes"][0])
    expect(d["changes"][0]["before"] is None or d["changes"][0]["before"] != d["changes"][0]["after"], "json before/after")
    r = run("diff", "--format", "markdown", base, INCIDENT)
    expect(r.returncode == 1 and r.stdout.startswith("# Chain diff\n") and "## Cited by CURRENT's findings" in r.stdout,
           "markdown: %r" % r.stdout[:200])

    # a baseline file as CURRENT: nothing to cite, said so
    r = run("diff", base, inc_base)
    expect(r.returncode == 1 and "Cited by" not in r.stdout and "no findings to cite" in r.stdout,
           "baseline as CURRENT: %r" % r.stdout[-300:])

    # the control: a consistent upgrade. BASELINE: this host before, on driver 25.5.1, firmware
    # 7.8.0.6.201 and CANN 8.5.0; CURRENT: the host now (26.0.rc1, 9.0.0.0.205, 9.1.0, declared
    # compatible with each other). Exit 1, nothing breaking.
    old = json.load(open(base))
    for v in old["versions"]:
        if v["component"] == "driver":
            v["version"] = "25.5.1"
        elif v["component"] == "firmware":
            v["version"] = "7.8.0.6.201"
        elif v["component"].startswith("cann:"):
            v["version"] = "8.5.0"
    upgrade = os.path.join(tmp, "before-upgrade.json")
    json.dump(old, open(upgrade, "w"))
    r = run("diff", "--format", "json", upgrade, HEALTHY)
    d = json.loads(r.stdout) if r.returncode == 1 else {"changes": []}
    expect(r.returncode == 1, "upgrade control: exit %d %s" % (r.returncode, r.stderr))
    expect(len(d["changes"]) >= 3 and all(c["status"] == "consistent" for c in d["changes"]),
           "upgrade control: %r" % [(c["item"], c["status"], c["why"]) for c in d["changes"]])
    expect(d.get("breaking") == 0, "upgrade control: breaking %r" % d.get("breaking"))

    # two machines (issue 33): said before anything else, in every format; one host is not
    other = os.path.join(SAMPLES, "healthy-first-step-compile")
    r = run("diff", HEALTHY, other)
    expect(r.returncode == 1 and r.stdout.startswith(
        "Different hosts: BASELINE is ascend-node07, CURRENT is ascend-node12. The changes below"),
        "two hosts, text: %r" % r.stdout[:200])
    r = run("diff", "--format", "markdown", HEALTHY, other)
    expect(r.stdout.startswith("# Chain diff\n\nDifferent hosts: BASELINE is `ascend-node07`, CURRENT is "
                               "`ascend-node12`."), "two hosts, markdown: %r" % r.stdout[:200])
    r = run("diff", "--format", "json", HEALTHY, other)
    d = json.loads(r.stdout)
    expect(d["different_hosts"] is True and d["baseline"]["host"] == "ascend-node07"
           and d["current"]["host"] == "ascend-node12", "two hosts, json: %r" % r.stdout[:300])
    r = run("diff", "--format", "json", base, INCIDENT)
    d = json.loads(r.stdout)
    expect(d["different_hosts"] is False and d["current"]["host"] == "ascend-node07", "one host, json")
    expect("Different hosts" not in run("diff", HEALTHY, INCIDENT).stdout, "one host said to be two")

    # bad input: exit 2, the file named
    missing = os.path.join(tmp, "no-such-bundle")
    r = run("diff", HEALTHY, missing)
    expect(r.returncode == 2 and missing in r.stderr, "missing input: exit %d, %r" % (r.returncode, r.stderr))
    cut = os.path.join(tmp, "cut.json")
    with open(cut, "w") as f:
        f.write(open(base).read()[:500])
    r = run("diff", cut, INCIDENT)
    expect(r.returncode == 2 and cut in r.stderr, "truncated baseline: exit %d, %r" % (r.returncode, r.stderr))
    r = run("baseline", base)
    expect(r.returncode == 2 and base in r.stderr, "baseline of a baseline: exit %d, %r" % (r.returncode, r.stderr))

for p in problems:
    print("FAIL:", p)
print("%d problem(s)" % len(problems))
sys.exit(1 if problems else 0)
