#!/usr/bin/env python3
"""'In short' fits a ticket (issue 38): on every sample and on excerpts of different cause
classes, the text report's "In short" is at most 5 lines of at most 100 columns and holds no
command (no backtick), and for each input it names the device, rank, pid, host and time its lines
carry. The expected names were read from each input's own text (cited beside each), not from the
output. A name is found either as written ("device 2") or in a list of its kind ("devices 1 and
0", "pids 75086, 36533 and 62613"). Names an input's "In short" does not give yet are listed with
the reason in in-short-known.tsv; a listed name that is given fails the test too (the list stays
true)."""
import argparse
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_corpus import analyze_args  # noqa: E402  (an excerpt is analysed without its SOURCE.md)

# sample -> (class the verdict names or None, names "In short" must hold). Where each comes from:
SAMPLES = {
    # pid 48213 on device 0 ("(PID:48213, Device:0, RankID:-1)" in extra/.../train_0904.log); its
    # first "report three minutes timeout!" at 2026-09-04-09:25:58 (zone Asia/Shanghai, +08:00)
    "incident-910b-before-reboot": ("Host driver installation", ["device 0", "pid 48213", "09:25:58"]),
    # after the reboot: the by-hand retry pid 5127 "open device 0" fails, the probes run on device
    # 0; the module load fails at boot, kern.log "Sep  4 10:14:33 ... Unknown symbol" (2026-09-04)
    "incident-910b-after-reboot": ("Host driver installation", ["device 0", "pid 5127", "2026-09-04"]),
    # healthy: no fault event to place
    "healthy-first-step-compile": ("No fault found", []),
    "healthy-after-reinstall": ("No fault found", []),
    # log1.txt: "RUNTIME(48213,python3):2026-09-04-09:25:58.614.493 ... stream_id=47", device 0
    # ("Device:0"); no zone in a paste
    "incident-loose-files": (None, ["device 0", "pid 48213", "2026-09-04 09:25:58"]),
    # node3/.../plog-75086: "The error from device(chipId:1 ..." at 2026-03-02-14:03:10 (+08:00,
    # node3/system/localtime.tzif); its environ RANK=7, DEVICE_ID=1; uname "node3"
    "fleet-4node": (None, ["node3", "device 1", "rank 7", "pid 75086", "2026-03-02 06:03:10 UTC"]),
    # node1/.../plog-89639: "device(chipId:0 ..." at 14:03:10 (+08:00); the heartbeat lines name
    # 10.20.7.12/0, node1; uname "node1"
    "fleet-4node-node1": (None, ["node1", "device 0", "pid 89639", "2026-03-02 06:03:10 UTC"]),
    # as fleet-4node, node3's clock 5 minutes ahead: its 14:08:10 is the others' 14:03:10
    "fleet-4node-skew": (None, ["node3", "device 1", "rank 7", "pid 75086", "2026-03-02 06:03:10 UTC"]),
}

# excerpt -> (class the verdict names, phrases "In short" must hold). The line each comes from:
EXCERPTS = {
    # "NPU out of memory. Tried to allocate 386.00 MiB (NPU 2; 60.97 GiB total capacity;"
    "llamafactory-5491-npu-oom-loading-checkpoint": ("Device memory exhausted", ["device 2"]),
    # "device fault reported: device_id=4 stream_id=46 task_id=0"
    "simpler-2395-device-4-wedged-507018": ("The device itself", ["device 4"]),
    # "HCCL(164818,python):2025-08-27-20:10:17:012.780 ... ranktable config devId[1], but local devId[3]"
    "vllm-ascend-2618-ranktable-devid-mismatch": ("Collective communication", ["devices 1 and 3", "2025-08-27 20:10:17"]),
    # "rank=7" transport init waiting on "Rank[15", first line at 2026-06-17-02:21:43; HCCL's
    # detector found no abnormal period, so no cause is named (issue 36) and the next check
    # starts with the peer the link waited for
    "vllm-ascend-10591-hccl-connect-timeout-transport-init": ("No cause named yet",
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
    # "05/22 09:09:35 - mmengine - WARNING - ... libtorch_npu.so: undefined symbol" (no year)
    "ascend-pytorch-35-libtorch-npu-undefined-symbol": ("Unsupported torch / torch_npu / CANN", ["09:09:35"]),
    # "[ERROR] RUNTIME(38734,python3): ... GetDeviceCount:Call drvGetDevNum, drvRetCode=7." (no time)
    "mind-cluster-docs-ray-head-drvgetdevnum-507899": ("Device not reachable", ["pid 38734"]),
}


def names(text, name):
    """'device 1' as written, or 1 in a list after 'device'/'devices' ('devices 1 and 0')."""
    if name in text:
        return True
    word, _, value = name.partition(" ")
    if word not in ("device", "rank", "pid", "remote_rank") or not value:
        return False
    item = r"[\w./:-]+"
    return re.search(rf"\b{word}s? (?:{item}(?:, | and ))*{re.escape(value)}\b", text) is not None


def read_known(path):
    known = {}
    if path:
        with open(path, encoding="utf-8") as fh:
            for row in fh:
                if row.startswith("#") or row.startswith("input\t") or not row.strip():
                    continue
                inp, name, why = row.rstrip("\n").split("\t")
                known[(inp, name)] = why
    return known


def in_short(binary, path):
    out = subprocess.run([binary, "analyze", *analyze_args(path)], capture_output=True, text=True, timeout=120,
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
    ap.add_argument("--known", help="in-short-known.tsv: names not given yet, with the reason")
    a = ap.parse_args()
    known = read_known(a.known)
    failures, missing_known = [], set()
    cases = [(s, os.path.join(a.samples, s), SAMPLES[s]) for s in SAMPLES]
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
        cause, wanted = expect
        if cause and cause not in body[0]:
            failures.append(f"{name}: first line does not name {cause!r}: {body[0]}")
        for n in wanted:
            if names(text, n):
                if (name, n) in known:
                    failures.append(f"{name}: In short now names {n!r}: remove it from {a.known}")
            elif (name, n) in known:
                missing_known.add((name, n))
            else:
                failures.append(f"{name}: In short does not name {n!r}:\n  " + "\n  ".join(body))
    for key in sorted(set(known) - missing_known):
        if not any(f.startswith(f"{key[0]}: In short now names {key[1]!r}") for f in failures):
            failures.append(f"{key[0]}: {key[1]!r} listed in {a.known} is not an expected name of that input")
    for f in failures:
        print(f)
    print(f"in_short: {len(cases)} inputs ({len(SAMPLES)} samples, {len(EXCERPTS)} excerpts), "
          f"{sum(len(e[1]) for _, _, e in cases)} names, {len(missing_known)} known not given, "
          f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
