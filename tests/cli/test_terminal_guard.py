#!/usr/bin/env python3
"""No bundle text drives a terminal (issue 33, docs/security.md): a bundle whose member names
and lines carry an OSC 52 clipboard write, a title change, a screen clear, C1 controls (as
UTF-8 and as a raw byte), DEL, bidi overrides and isolates, line separators and an embedded
newline followed by a fake finding line, read by every subcommand that prints bundle text
(analyze in text, Markdown, JSON, HTML and brief, inventory, facts, timeline, diff, fleet with a
summary whose host and schema carry the same, and the error path naming a file on stderr).
Stdout and stderr hold no C0 control but newline and tab, no DEL, no C1 control, none of the
bidi or separator code points, and no line that starts with the fake finding.

usage: test_terminal_guard.py ASCEND_TRIAGE SAMPLES_DIR
"""
import json
import os
import subprocess
import sys
import tarfile
import tempfile

BIN, SAMPLES = sys.argv[1], sys.argv[2]
EVIL = ["\x1b]52;c;ZXZpbA==\x07", "\x1b]0;pwned\x07", "\x1b[2J", "\u202etxt.exe", "\u2066x\u2069",
        "a\u2028b", "\x7f", "\u009b31m", "\nFINDING: all good"]
LINE = ("[ERROR] RUNTIME({pid},python3):2026-03-02-14:33:45.818.000 [stream.cc:1]{pid} "
        "rtStreamSynchronize:ErrCode=107020, desc=[task timeout] {evil}\n")
problems = []


def bad_bytes(b):
    """What in b could drive a terminal, as a short description, or None."""
    for i, c in enumerate(b):
        if (c < 0x20 and c not in (9, 10)) or c == 0x7f:
            return "byte 0x%02x at %d" % (c, i)
        if 0x80 <= c <= 0x9f and (i == 0 or b[i - 1] < 0xc0):
            return "raw C1 byte 0x%02x at %d" % (c, i)
    for ch in b.decode("utf-8", "replace"):
        o = ord(ch)
        if 0x80 <= o <= 0x9f or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069 or o in (0x2028, 0x2029):
            return "U+%04X" % o
    for line in b.decode("utf-8", "replace").splitlines():
        if line.lstrip().startswith("FINDING"):
            return "a fake line: %r" % line[:80]
    return None


def check(what, args):
    r = subprocess.run([BIN, "--quiet", *args], capture_output=True, timeout=300)
    for name, stream in (("stdout", r.stdout), ("stderr", r.stderr)):
        bad = bad_bytes(stream)
        if bad:
            problems.append("%s: %s holds %s" % (what, name, bad))
    return r


with tempfile.TemporaryDirectory() as tmp:
    d = os.path.join(tmp, "bundle")
    os.makedirs(os.path.join(d, "logs"))
    for i, evil in enumerate(EVIL):
        with open(os.path.join(d, "logs", "plog-%d_%s.log" % (100 + i, evil)), "w") as f:
            f.write(LINE.format(pid=100 + i, evil=evil))
    with open(os.path.join(os.fsencode(d), b"logs", b"plog-200_\x9b.log"), "wb") as f:
        f.write(LINE.format(pid=200, evil="").encode() + b"raw \x9b31m C1\n")
    tar = os.path.join(tmp, "bundle.tar")
    with tarfile.open(tar, "w") as t:
        t.add(d, arcname="evil")
    for src in (d, tar):
        for args in (["analyze"], ["analyze", "--format", "md"], ["analyze", "--format", "json"],
                     ["analyze", "--format", "html"], ["analyze", "--brief"], ["inventory"], ["facts"],
                     ["timeline"]):
            check("%s %s" % (" ".join(args), os.path.basename(src)), args + [src])
    check("diff", ["diff", os.path.join(SAMPLES, "healthy-after-reinstall"), d])
    out = os.path.join(tmp, "report.txt")
    check("analyze -o", ["analyze", "-o", out, tar])
    bad = bad_bytes(open(out, "rb").read())
    if bad:
        problems.append("analyze -o FILE: the file holds %s" % bad)

    # fleet: a summary whose host carries the same; a summary whose schema does (stderr).
    summary = os.path.join(tmp, "node.json")
    r = subprocess.run([BIN, "--quiet", "analyze", "--format", "summary", "-o", summary,
                        os.path.join(SAMPLES, "fleet-4node", "node0")], capture_output=True)
    doc = json.load(open(summary))
    doc["nodes"][0]["host"] = "node0" + "".join(EVIL)
    evil_host = os.path.join(tmp, "evil-host.json")
    json.dump(doc, open(evil_host, "w"))
    for fmt in ("text", "md", "json"):
        check("fleet --format %s" % fmt, ["fleet", "--format", fmt, evil_host])
    doc["schema"] = "".join(EVIL)
    evil_schema = os.path.join(tmp, "evil-schema.json")
    json.dump(doc, open(evil_schema, "w"))
    r = check("fleet, bad schema", ["fleet", evil_schema])
    if r.returncode != 2 or b"is not ascend-triage-summary/1" not in r.stderr:
        problems.append("fleet, bad schema: exit %d, %r" % (r.returncode, r.stderr[:200]))
    # An input named with controls: the message naming it on stderr.
    check("missing input", ["analyze", os.path.join(tmp, "no\x1b]0;x\x07such")])

for p in problems:
    print("FAIL:", p)
print("%d problem(s)" % len(problems))
sys.exit(1 if problems else 0)
