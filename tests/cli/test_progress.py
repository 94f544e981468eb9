#!/usr/bin/env python3
"""Progress on a terminal (docs/cli.md#progress). A run kept busy for about 2.5 s (a generated
log fed slowly through standard input): with stderr on a pty the progress line appears there,
never in stdout; with stderr a pipe, or with --quiet, stderr has none of it; stdout is
byte-identical in the three runs.

usage: test_progress.py ASCEND_TRIAGE
"""
import os
import pty
import subprocess
import sys
import threading
import time

BIN = sys.argv[1]
SECONDS = 2.5
MARK = b"reading: "


def chunks():
    """About 40 MB of kernel-log lines, the same bytes in every run."""
    line = 0
    for _ in range(400):
        out = []
        for _ in range(2000):
            line += 1
            out.append(f"2026-09-04T09:{line // 60000 % 60:02d}:{line // 1000 % 60:02d}.{line % 1000:03d}000+08:00 "
                       f"node07 kernel: [{line / 100:12.6f}] line {line} of a generated log\n")
        yield "".join(out).encode()


PARTS = list(chunks())


def feed(pipe):
    pause = SECONDS / len(PARTS)
    try:
        for p in PARTS:
            pipe.write(p)
            pipe.flush()
            time.sleep(pause)
    finally:
        pipe.close()


def run(args, stderr_tty):
    """(stdout, stderr, exit code, seconds) of a run fed slowly; stderr through a pty when asked."""
    start = time.monotonic()
    if stderr_tty:
        master, slave = pty.openpty()
        proc = subprocess.Popen([BIN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
    else:
        proc = subprocess.Popen([BIN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    feeder = threading.Thread(target=feed, args=(proc.stdin,))
    feeder.start()
    err = bytearray()
    if stderr_tty:
        def drain():
            while True:
                try:
                    data = os.read(master, 4096)
                except OSError:  # EIO: the child closed the pty
                    return
                if not data:
                    return
                err.extend(data)
        reader = threading.Thread(target=drain)
        reader.start()
        out = proc.stdout.read()
        proc.wait()
        reader.join()
        os.close(master)
    else:
        collected = {}
        reader = threading.Thread(target=lambda: collected.setdefault("err", proc.stderr.read()))
        reader.start()
        out = proc.stdout.read()
        proc.wait()
        reader.join()
        err.extend(collected["err"])
    feeder.join()
    return out, bytes(err), proc.returncode, time.monotonic() - start


problems = []
args = ["analyze", "--format", "json", "--name", "generated.log", "-"]
tty_out, tty_err, tty_rc, tty_seconds = run(args, True)
pipe_out, pipe_err, pipe_rc, _ = run(args, False)
quiet_out, quiet_err, quiet_rc, _ = run(["--quiet", *args], True)

if MARK not in tty_err or b" entr" not in tty_err or b"iB/s" not in tty_err or b"generated.log" not in tty_err:
    problems.append(f"no progress on the terminal: {tty_err[-300:]!r}")
# The limit is per second of the run as it went: on a loaded machine the run outlasts the feed.
if tty_err.count(MARK) > max(SECONDS, tty_seconds) * 4 + 4:
    problems.append(f"{tty_err.count(MARK)} redraws in {tty_seconds:.1f} s (at most ~4 a second)")
if not tty_err.endswith(b"\r\x1b[K"):
    problems.append(f"the progress line is not erased at the end: {tty_err[-80:]!r}")
for name, out in (("tty", tty_out), ("pipe", pipe_out), ("quiet", quiet_out)):
    if MARK in out or b"\x1b[K" in out:
        problems.append(f"progress text in stdout ({name} run)")
if pipe_err:
    problems.append(f"stderr not a terminal, yet it holds: {pipe_err[:200]!r}")
if quiet_err:
    problems.append(f"--quiet on a terminal, yet stderr holds: {quiet_err[:200]!r}")
if not (tty_out == pipe_out == quiet_out) or not tty_out:
    problems.append(f"stdout differs between the runs ({len(tty_out)}, {len(pipe_out)}, {len(quiet_out)} bytes)")
if not (tty_rc == pipe_rc == quiet_rc) or tty_rc == 2:
    problems.append(f"exit codes {tty_rc}, {pipe_rc}, {quiet_rc}")

for p in problems:
    print("FAIL:", p)
print(f"{tty_err.count(MARK)} progress redraws on the terminal, {len(tty_out)} bytes of report; "
      f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
