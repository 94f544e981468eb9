#!/usr/bin/env python3
"""Generates a fleet of bundles for the fleet benchmark (issue 24): N nodes, one faulty.

    bench/gen_fleet.py --nodes 64 --size 32M --out DIR [--faulty K]

Each node is bench/gen_bundle.py's bundle (the same line mix, host bench-nodeNN, seed NN,
directory form) plus one plog file of the job's collective step: on node K (default: N*3/4)
a device raises an AI Core exception; on every other node a rank logs an HCCL fftsplus task
timeout 1836 s later (with a few seconds of spread). The extra file is written before the
manifest, so it has its item, size and sha256 like every other file.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gen_bundle  # noqa: E402

HCCL_EXEC_TIMEOUT = 1836


def fault_lines(node, faulty, pid):
    fault_local = gen_bundle.COLLECTED_EPOCH + gen_bundle.UTC_OFFSET_S - 3600 - HCCL_EXEC_TIMEOUT

    def ts(epoch):
        us = int(round(epoch * 1e6)) % 1000000
        return time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime(int(epoch))) + ".%03d.%03d" % (us // 1000, us % 1000)

    if node == faulty:
        t = fault_local
        return t, (f"[ERROR] RUNTIME({pid},python3):{ts(t)} [device_error_proc.cc:1409]{pid + 41} ProcessStarsCoreErrorInfo:"
                   "The error from device(chipId:3, dieId:0), serial number is 67, there is an aicore error exception, "
                   "core id is 18, error code = 0\n")
    t = fault_local - 0.6 + HCCL_EXEC_TIMEOUT + 0.05 * node
    return t, (f"[ERROR] RUNTIME({pid},python3):{ts(t)} [device_error_proc.cc:1389]{pid + 41} "
               "ProcessStarsHcclFftsPlusTimeoutErrorInfo:The error from device(chipId:3, dieId:0), serial number is 9, "
               "hccl fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:2212, "
               f"stuck notify num:1, timeout:{HCCL_EXEC_TIMEOUT}.\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=64)
    ap.add_argument("--size", default="32M", help="per node (gen_bundle.py --size)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--faulty", type=int, default=None)
    args = ap.parse_args()
    faulty = args.faulty if args.faulty is not None else args.nodes * 3 // 4
    os.makedirs(args.out, exist_ok=True)
    original_write_small = gen_bundle.write_small
    for node in range(args.nodes):
        gen_bundle.HOST = "bench-node%02d" % node
        pid = 61001 + 13 * node

        # logs/index.tsv is written last before the manifest: add the step's plog first.
        def write_small(root, rel, text, items, source=None, node=node, pid=pid):
            if rel == "logs/index.tsv":
                t, line = fault_lines(node, faulty, pid)
                stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(int(t))) + "000"
                extra = f"logs/host/root/ascend/log/debug/plog/plog-{pid}_{stamp}.log"
                original_write_small(root, extra, line, items, source="/" + extra.split("/", 2)[2])
                text += f"{extra}\t/{extra.split('/', 2)[2]}\thost\t{pid}\t0\t\n"
            return original_write_small(root, rel, text, items, source)

        gen_bundle.write_small = write_small
        sys.argv = ["gen_bundle.py", "--size", args.size, "--out", args.out, "--seed", str(node + 1), "--no-pack"]
        gen_bundle.main()
    print(f"gen_fleet: {args.nodes} nodes under {args.out}, faulty bench-node{faulty:02d}")


if __name__ == "__main__":
    main()
