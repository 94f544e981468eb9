#!/usr/bin/env python3
"""--redact (docs/cli.md#redaction): in every format no original host name, user name or IP
address of the plain report remains, each maps to one pseudonym, the report says so at its
top; without --redact there is no trace of it (the goldens check the rest).

usage: test_redact.py ASCEND_TRIAGE SAMPLES_DIR CORPUS_DIR
"""
import json
import os
import re
import subprocess
import sys

BIN, SAMPLES, CORPUS = sys.argv[1], sys.argv[2], sys.argv[3]
# The incident sample for host names, the healthy sample for a user's home (/home/ma-user),
# a corpus excerpt for IP addresses (an HCCL connect timeout names its peers).
CASES = {
    "incident": [os.path.join(SAMPLES, "incident-910b-before-reboot"), os.path.join(SAMPLES, "incident-910b-after-reboot")],
    "healthy": [os.path.join(SAMPLES, "healthy-first-step-compile")],
    "hccl": [os.path.join(CORPUS, "vllm-ascend-10591-hccl-connect-timeout-transport-init")],
}
NOTE = "Redacted for a public thread"
IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\w)")
problems = []

formats = [line.split("\t")[0] for line in
           subprocess.run([BIN, "formats"], capture_output=True, text=True, check=True).stdout.splitlines()]


def analyze(inputs, fmt, *extra):
    r = subprocess.run([BIN, "analyze", "--format", fmt, *extra, *inputs], capture_output=True, text=True)
    if r.returncode == 2:
        problems.append(f"--format {fmt} {' '.join(extra)}: exit 2: {r.stderr}")
    return r.stdout


def originals_of(inputs, plain):
    """The manifests' hosts and sudo users; /home/<user> of the plain report; its IPv4
    addresses that are not loopback, unspecified or a mask."""
    found = {"host": set(), "user": set(), "ip": set()}
    for path in inputs:
        manifest = os.path.join(path, "manifest.json")
        if os.path.isfile(manifest):
            with open(manifest) as f:
                m = json.load(f)
            found["host"].add(m["host"])
            if m.get("sudo_user"):
                found["user"].add(m["sudo_user"])
    for text in plain.values():
        found["user"].update(re.findall(r"/home/([\w.-]+)", text))
        found["ip"].update(a for a in IPV4.findall(text) if not a.startswith(("127.", "255.", "0.")))
    found["user"].discard("root")
    return found


seen = {"host": 0, "user": 0, "ip": 0}
for case, inputs in CASES.items():
    plain = {f: analyze(inputs, f) for f in formats}
    red = {f: analyze(inputs, f, "--redact") for f in formats}
    originals = originals_of(inputs, plain)
    for kind, names in originals.items():
        seen[kind] += len(names)
    for f in formats:
        for kind, names in originals.items():
            for name in names:
                if name in red[f]:
                    line = next(l for l in red[f].splitlines() if name in l)
                    problems.append(f"{case} {f}: {kind} {name!r} remains with --redact: {line[:160]!r}")
        if NOTE in plain[f]:
            problems.append(f"{case} {f}: the plain report mentions redaction")
        for kind, prefix in (("host", "host"), ("user", "user"), ("ip", "ip")):
            got = set(re.findall(rf"\b{prefix}-\d+\b", red[f]))
            if not got <= {f"{prefix}-{i + 1}" for i in range(len(originals[kind]))}:
                problems.append(f"{case} {f}: pseudonyms {sorted(got)} for {len(originals[kind])} {kind}(s)")
        # jsonl has no host field; brief names a host only where its reply does ("No fault found" names none).
        if f not in ("jsonl", "brief") and originals["host"] and f"host-{len(originals['host'])}" not in red[f]:
            problems.append(f"{case} {f}: no host pseudonym")
    # The same host, the same pseudonym: the JSON bundles pair originals and pseudonyms one to one.
    pairs = {(p["host"], r["host"]) for p, r in
             zip(json.loads(plain["json"])["bundles"], json.loads(red["json"])["bundles"])}
    if len({a for a, _ in pairs}) != len(pairs) or len({b for _, b in pairs}) != len(pairs):
        problems.append(f"{case}: hosts and pseudonyms are not one to one: {sorted(pairs)}")
    # The same address, the same pseudonym in every format.
    for a in originals["ip"]:
        counts = {f: plain[f].count(a) for f in formats}
        for f in formats:
            if counts[f] and not re.search(r"\bip-\d+\b", red[f]):
                problems.append(f"{case} {f}: {a} replaced by no ip-N")
    # Said at the top of every format.
    if not red["text"].startswith(NOTE):
        problems.append(f"{case} text: starts with {red['text'][:80]!r}")
    if not red["brief"].startswith(NOTE):
        problems.append(f"{case} brief: starts with {red['brief'][:80]!r}")
    if NOTE not in "".join(red["md"].splitlines(True)[:4]):
        problems.append(f"{case} md: the note is not at the top")
    if json.loads(red["json"]).get("redaction", "").find(NOTE) != 0:
        problems.append(f"{case} json: no top-level redaction field")
    h1 = red["html"].find("<h1>")
    if h1 < 0 or not 0 < red["html"].find(NOTE, h1) - h1 < 200:
        problems.append(f"{case} html: the note does not follow the title")
    if not all(json.loads(l).get("redaction", "").startswith(NOTE) for l in red["jsonl"].splitlines()):
        problems.append(f"{case} jsonl: an event without the redaction field")
    # `timeline --redact` (issue 33): the same originals gone from every timeline format, and
    # the sentence at the top of the text timeline.
    for tf in ("text", "json", "jsonl"):
        r = subprocess.run([BIN, "timeline", "--redact", "--format", tf, *inputs], capture_output=True, text=True)
        for kind, names in originals.items():
            for name in names:
                if name.lower() in r.stdout.lower():
                    problems.append(f"{case} timeline {tf}: {kind} {name!r} remains with --redact")
        if tf == "text" and not r.stdout.startswith(NOTE):
            problems.append(f"{case} timeline text: starts with {r.stdout[:80]!r}")
    print(f"{case}: {({k: sorted(v) for k, v in originals.items()})}")

# The test proves something only while the samples hold each kind of name.
for kind, n in seen.items():
    if n == 0:
        problems.append(f"no {kind} to redact in any case: the samples moved, the test proves nothing")

for p in problems:
    print("FAIL:", p)
print(f"{len(CASES)} cases x {len(formats)} formats; {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
