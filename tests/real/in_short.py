#!/usr/bin/env python3
"""'In short' fits a ticket (issue 38): on every single-host sample and on excerpts of different
cause classes, the text report's "In short" is at most 5 lines of at most 100 columns and holds no
command (no backtick), and for each excerpt it names the device, rank, pid and time its lines carry.
The expected names were read from each excerpt's own text (cited beside each), not from the output."""
import argparse
import os
import subprocess
import sys

SAMPLES = ["incident-910b-before-reboot", "incident-910b-after-reboot", "healthy-first-step-compile",
           "healthy-after-reinstall", "incident-loose-files"]

# excerpt -> (class the verdict names, phrases "In short" must hold). The line each comes from:
EXCERPTS = {
    # "NPU out of memory. Tried to allocate 386.00 MiB (NPU 2; 60.97 GiB total capacity;"
    "llamafactory-5491-npu-oom-loading-checkpoint": ("Device memory exhausted", ["device 2"]),
    # "device fault reported: device_id=4 stream_id=46 task_id=0"
    "simpler-2395-device-4-wedged-507018": ("The device itself", ["device 4"]),
    # "HCCL(164818,python):2025-08-27-20:10:17:012.780 ... ranktable config devId[1], but local devId[3]"
    "vllm-ascend-2618-ranktable-devid-mismatch": ("Collective communication", ["devices 1 and 3", "2025-08-27 20:10:17"]),
    # "rank=7" transport init waiting on "Rank[15", first line at 2026-06-17-02:21:43
    "vllm-ascend-10591-hccl-connect-timeout-transport-init": ("Collective communication",
                                                              ["rank 7", "remote_rank 15", "2026-06-17 02:21:43"]),
    # "device 5", "rank 5", "pid=52416", first line at 2024-09-04-02:46:04
    "llamafactory-5347-hccl-fftsplus-timeout": ("Collective communication",
                                                ["device 5", "rank 5", "pid 52416", "2024-09-04 02:46:04"]),
    # "invalid device=1" from the Ray worker "pid=118835"
    "vllm-ascend-167-ray-visible-device": ("Device not reachable", ["device 1", "pid 118835"]),
    # "PID: 72560" and its first line at 2026-04-15-11:01:56
    "ptoas-426-aicore-ddr-out-of-range": ("The job's own code", ["pid 72560", "2026-04-15 11:01:56"]),
    # "[PID: 7277] 2024-11-28-11:59:30", the heartbeat's lost peer 90.90.92.240/1
    "ascend-pytorch-docs-hccl-timeout-ei0002-heartbeat-lost": ("Collective communication",
                                                               ["pid 7277", "peer 90.90.92.240/1", "2024-11-28 11:59:30"]),
    # E60108 at 2024-09-09-06:13:16
    "ascend-pytorch-52-e60108-conv3dtranspose-310p": ("The job's own code", ["2024-09-09 06:13:16"]),
    # the TBE plog line at 2024-04-08-15:18:43
    "ascend-pytorch-29-tbe-common-plog-stdout": ("Environment variables", ["2024-04-08 15:18:43"]),
    # "worker-1" barrier timeout: "(639, Device:0, RankID:16)" at 2024-07-03-11:28:40
    "ascend-pytorch-43-worker-prefixed-hccl-fftsplus-timeout": ("No cause named yet",
                                                                ["device 0", "rank 16", "pid 639", "2024-07-03 11:28:40"]),
}


def in_short(binary, path):
    out = subprocess.run([binary, "analyze", path], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, TZ="UTC")).stdout
    lines = out.split("\n")
    if not lines or lines[0] != "In short":
        return None
    body = []
    for line in lines[1:]:
        if not line.strip():
            break
        body.append(line)
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--corpus", required=True)
    a = ap.parse_args()
    failures = []
    cases = [(s, os.path.join(a.samples, s), None) for s in SAMPLES]
    cases += [(e, os.path.join(a.corpus, e), EXCERPTS[e]) for e in EXCERPTS]
    for name, path, expect in cases:
        body = in_short(a.bin, path)
        if body is None:
            failures.append(f"{name}: the report does not open with In short")
            continue
        text = " ".join(line.strip() for line in body)
        if len(body) > 5:
            failures.append(f"{name}: In short is {len(body)} lines")
        if any(len(line) > 100 for line in body):
            failures.append(f"{name}: In short is wider than 100 columns")
        if "`" in text or "; do " in text or "$(" in text:
            failures.append(f"{name}: In short holds a command")
        if expect:
            cause, names = expect
            if cause not in body[0]:
                failures.append(f"{name}: first line does not name {cause!r}: {body[0]}")
            for n in names:
                if n not in text:
                    failures.append(f"{name}: In short does not name {n!r}:\n  " + "\n  ".join(body))
    for f in failures:
        print(f)
    print(f"in_short: {len(cases)} inputs, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
