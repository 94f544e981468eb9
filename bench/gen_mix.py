#!/usr/bin/env python3
"""Generates a bundle of one line mix for the benchmark matrix (issue 35).

    bench/gen_mix.py --mix NAME --size 256M|1G|4G|<N>[KMG] --out DIR [--seed N] [--no-pack]
    bench/gen_mix.py --harvest-real [--write]   # recount the real level mix (see below)

The bundle is gen_bundle.py's (its helpers are reused): the collector's layout
(docs/bundle-layout.md), system files, a kernel journal, /proc copies of at most eight
processes, logs/index.tsv, manifest.json with every file's size and sha256, every file
written in 1 MiB chunks, and DIR/<bundle>.tar.zst packed as the collector packs it. The
output depends on mix, size and seed only. What the mixes put in it:

  info             plog of 8+ processes (20 MiB files, at most ten per process), INFO lines only
                   (the INFO templates of real-mix-templates.tsv); 64 KiB of journal
  real             plog of 8+ processes in the real level mix of CANN plogs (every template of
                   real-mix-templates.tsv at its weight: the level counts of the plog lines of
                   samples/ and tests/data/real/); 4 % journal, as gen_bundle.py
  warn-flood       plog of 8+ processes, one benign WARNING template (TDT "cannot find
                   package ... optional is true skip"), its time and pid varied; 64 KiB journal
  error-storm      plog of 8+ processes, one RUNTIME ERROR template (ProcessStarsCoreErrorInfo
                   ... module_name=EZ9999), its time, pid and thread id varied; 64 KiB journal
  distinct-errors  plog of 8+ processes, ERROR lines of 1e6 distinct templates (words vary, not
                   only digits), one in five naming a catalogue code (EZ9999, EE9999, 507035,
                   507015); 64 KiB journal
  many-procs       10,000 processes, one plog file each (size/10,000 bytes less the manifest's
                   share: 26 KB at 256M), real level mix; 64 KiB journal
  members          100,000 plog files (10,000 processes x ten files, the collector's rotation
                   limit; size/100,000 bytes each less the manifest's share: 1.8 KB at 256M),
                   real level mix; at least one line a file; 64 KiB journal
  kernel-flood     kernel journal (journalctl -k -o json) of davinci/devmm printks: half the
                   devmm "Vm fault failed" error printk (ids varied), half the davinci_intf,
                   devdrv and devmm info printks of line-templates.tsv; 1 MiB of real-mix plog
  tracebacks       job output, extra/root/work/train.log (as `--add` stores it): one 7-line
                   Python traceback and torch_npu's "ERR00100 PTA call acl api failed" line,
                   repeated with pid, device and time varied; 1 MiB of real-mix plog, 64 KiB journal

--harvest-real counts the levels ([INFO] [WARNING] [ERROR] [DEBUG] [EVENT] [TRACE]) of the
plog-shaped lines of samples/ and tests/data/real/ (each distinct file once) and, with
--write, rewrites bench/real-mix-templates.tsv: one row per template (the message with its
digits masked, as the analyzer keys templates), weighted by how many lines it had, so the
generated level mix is the counted one. The generator reads only that file.
"""
import argparse
import bisect
import collections
import hashlib
import math
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_bundle as gb  # noqa: E402

MIB = gb.MIB
MIXES = ["info", "real", "warn-flood", "error-storm", "distinct-errors", "many-procs", "members",
         "kernel-flood", "tracebacks"]
REAL_TEMPLATES = os.path.join(HERE, "real-mix-templates.tsv")
PLOG_DIR = "logs/host/root/ascend/log/debug/plog"
SMALL_JOURNAL = 64 << 10
n_procs_files = {"many-procs": 10_000, "members": 100_000}
SIDE_PLOG = MIB                       # the real-mix plog beside a kernel or job-output flood

# The verbatim lines of the brief (issue 35), with {placeholders} for what varies.
WARN_FLOOD = ("[WARNING] TDT({pid},python3):{time} [process_mode_manager.cpp:2318][LoadPackageToDeviceByConfig]"
              "[tid:{tid}] cannot find package:Ascend310P-aicpu_legacy.tar.gz, optional is true skip\n")
ERROR_STORM = ("[ERROR] RUNTIME({pid},python3):{time} [device_error_proc.cc:1409] {tid} ProcessStarsCoreErrorInfo:"
               "[INIT][DEFAULT]report error module_type=5, module_name=EZ9999\n")
# real-log-excerpts.md 1.19 (tests/robustness/hostile_inputs.py case_kstorm): the devmm fault printk
KERNEL_FAULT = ("[ascend] [ERROR] [devmm] [devmm_svm_device_fault 438] <python3:{kpid},{tid}> "
                "Vm fault failed. (hostpid={kpid}; devid={dev}; va=0x1240{n}000)")
# tests/data/real/ascend-pytorch-52-e60108-conv3dtranspose-310p/output.txt: its traceback with two
# of its four frames, the exception, the asynchronous note (7 lines), then the ERR00100 line
TRACEBACK = [
    'Traceback (most recent call last):\n',
    '  File "/root/dat/code/run_test/test_ConvTranspose3d.py", line 19, in <module>\n',
    "    conv_transpose_layer = torch.nn.ConvTranspose3d(in_channels=3, out_channels=3, kernel_size=3).to('npu')\n",
    '  File "/usr/local/python3.10.12/lib/python3.10/site-packages/torch_npu/utils/_module.py", line 75, in to\n',
    '    return self._apply(convert)\n',
    'RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current '
    'working operator name is Conv3DTranspose.\n',
    'Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate '
    'stacktrace, pleace set the environment variable ASCEND_LAUNCH_BLOCKING=1.\n',
]
ERR00100 = "[ERROR] {time} (PID:{pid}, Device:{dev}, RankID:{dev}) ERR00100 PTA call acl api failed\n"

# distinct-errors: three word lists of 100; template k (0 <= k < 1e6) takes one word of each.
DISTINCT = 1_000_000
W1 = ("stream event notify model graph kernel tiling buffer queue socket channel device context "
      "memory tensor handle fence barrier ring mailbox doorbell sqe cqe report profile dump trace "
      "session engine operator plugin loader symbol module package config option policy quota "
      "budget window frame packet header payload record index cache pool arena block page table "
      "entry slot lane port link route rank group world domain cluster node host chip core cube "
      "vector scalar unit mte biu ifu ccu hbm ddr l2 ub l1 l0a l0b l0c fixpipe aicpu aicore "
      "tsch hwts stars sdma rdma pcie hccs roce ipc shm mmap dvpp vpc").split()
W2 = ("alloc free bind unbind open close load unload map unmap start stop launch submit wait "
      "signal record query sync flush reset init deinit create destroy attach detach register "
      "unregister enable disable resume suspend lock unlock acquire release push pop read write "
      "send recv copy move fill clear check verify parse build compile link fetch store commit "
      "abort retry poll notify update insert erase resize reserve shrink grow scan walk sort "
      "merge split join fork spawn kill reap dispatch schedule preempt yield sleep wake probe "
      "detect report recover restore save backup drain fence throttle pin unpin "
      "mark sweep seal unseal trim").split()
W3 = ("denied refused exhausted overflowed underflowed corrupted truncated misaligned mismatched "
      "duplicated unsupported unexpected invalid illegal missing stale expired revoked closed "
      "busy blocked stalled hung lost dropped rejected ignored skipped aborted cancelled failed "
      "timedout unreachable unavailable unknown uninitialized deinitialized detached orphaned "
      "leaked poisoned fenced throttled degraded offline disabled locked unlocked reset rebooted "
      "crashed panicked faulted trapped halted paused resumed retried exceeded saturated full "
      "empty partial oversized undersized negative zero null dangling reentrant recursive "
      "conflicting ambiguous inconsistent incompatible deprecated obsolete unsigned unverified "
      "untrusted tainted swapped evicted starved wedged flapping unbalanced oversubscribed "
      "misrouted misconfigured misordered unordered unpaired unmatched unacknowledged undelivered "
      "unallocated unmapped unpinned unregistered").split()
assert all(len(set(w)) == len(w) == 100 for w in (W1, W2, W3))   # template k is (W1, W2, W3)[digits of k]
CODE_FORMS = [", runtime result = 507035.", ", error code is 507015", " module_name=EZ9999", " ErrCode=EE9999"]
MODULES = ["RUNTIME", "GE", "HCCL", "ASCENDCL", "DRV", "FE", "TBE", "AICPU"]


def camel(*words):
    return "".join(w[:1].upper() + w[1:] for w in words)


def distinct_error(k):
    """The message (after the header) of distinct ERROR template k; words, not digits, differ."""
    a, b, c = W1[k // 10000], W2[k // 100 % 100], W3[k % 100]
    text = f"[{a}_{b}.cc:{100 + k % 900}]{{tid}} {camel(b, a)}:{a} {b} {c}, the {a} is {c} after {b}"
    if k % 5 == 0:
        text += CODE_FORMS[k // 5 % 4]
    return text + "\n"


# ----- the real level mix -----------------------------------------------------------------

PLOG_LINE = re.compile(r"\[(INFO|WARNING|ERROR|DEBUG|EVENT|TRACE)\] ([A-Za-z_0-9]+)\((-?\d+),([^)\t]*)\):(\S+) (.*)")


def harvest_real(write):
    """Counts the levels of the plog lines of samples/ and tests/data/real/ and their templates."""
    root = os.path.dirname(HERE)
    seen, per_tree, templates = set(), {}, {}
    for tree in ("samples", "tests/data/real"):
        levels, files = collections.Counter(), 0
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, tree)):
            dirnames.sort()
            for name in sorted(filenames):
                data = open(os.path.join(dirpath, name), "rb").read()
                digest = hashlib.sha256(data).digest()
                if digest in seen:          # samples repeat files (a bundle's plog pasted as log1.txt)
                    continue
                seen.add(digest)
                found = False
                for line in data.decode("utf-8", "replace").splitlines():
                    m = PLOG_LINE.search(line)
                    if not m:
                        continue
                    found = True
                    level, module, _, pname, _, body = m.groups()
                    levels[level] += 1
                    key = (level, module, "p" if pname else "-", re.sub(r"\d+", "0", body))
                    t = templates.setdefault(key, [0, body])   # keep the first body seen, digits and all
                    t[0] += 1
                files += found
        per_tree[tree] = (files, levels)
    total = collections.Counter()
    for tree, (files, levels) in per_tree.items():
        total.update(levels)
        n = sum(levels.values())
        print(f"{tree}: {files} files with plog lines, {n} lines: "
              + ", ".join(f"{k} {v} ({100 * v / n:.2f} %)" for k, v in levels.most_common()))
    n = sum(total.values())
    summary = ", ".join(f"{k} {v} ({100 * v / n:.2f} %)" for k, v in total.most_common())
    print(f"both: {n} lines: {summary}; {len(templates)} templates (digits masked)")
    if not write:
        return
    with open(REAL_TEMPLATES, "w", encoding="utf-8") as f:
        f.write("# The real level mix of bench/gen_mix.py (issue 35), written by `gen_mix.py --harvest-real --write`:\n"
                "# every plog-shaped line of samples/ and tests/data/real/ (each distinct file once), grouped\n"
                "# by level, module, process-name presence and message with digits masked; weight = lines.\n"
                f"# Level counts: {summary}.\n"
                "# Columns: weight, level, module, proc (p: name in the header, -: empty), message (first seen).\n")
        for (level, module, proc, _), (weight, body) in sorted(templates.items(), key=lambda kv: (-kv[1][0], kv[0])):
            f.write(f"{weight}\t{level}\t{module}\t{proc}\t{body}\n")
    print(f"wrote {REAL_TEMPLATES}")


def load_real(levels=None):
    """[(head, pname?, body)] and cumulative weights from real-mix-templates.tsv."""
    rows, cum = [], []
    with open(REAL_TEMPLATES, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            weight, level, module, proc, body = line.rstrip("\n").split("\t", 4)
            if levels and level not in levels:
                continue
            rows.append((f"[{level}] {module}(", proc == "p", " " + body + "\n"))
            cum.append((cum[-1] if cum else 0) + int(weight))
    return rows, cum


class RealMix:
    """Line maker: a template at its weight, the process's pid and the clock's time in the header."""

    def __init__(self, levels=None):
        self.rows, self.cum = load_real(levels)
        self.total = self.cum[-1]

    def maker(self, pid, rng, clock):
        with_name, without = f"{pid},python3):", f"{pid},):"
        rows, cum, total, rand, bis = self.rows, self.cum, self.total, rng.random, bisect.bisect_right

        def make(n):
            head, named, body = rows[bis(cum, rand() * total)]
            return head + (with_name if named else without) + clock.text() + body
        return make


# ----- writing -----------------------------------------------------------------------------

def write_plog_files(root, pid, budget, make, rng, clock, items, index_rows, n_files=None, mean_line=190):
    """budget bytes of lines from make(n) in plog files of one process; returns the line count.

    Files are at most 20 MiB and at most ten per process (the runtime's rotation), or n_files of
    equal size; each is named plog-<pid>_<stamp>.log after its first line's time."""
    n_files = n_files or min(gb.FILES_PER_PROC_MAX, max(1, math.ceil(budget / gb.PLOG_FILE_MAX)))
    per_file = budget // n_files
    span_us = 6 * 3600 * 1000000                 # the run's plog covers about six hours
    step = max(2, span_us // max(1, budget // mean_line))
    n = 0
    for _ in range(n_files):
        rel = f"{PLOG_DIR}/plog-{pid}_{clock.stamp()}.log"
        f = gb.HashedFile(root, rel, items, "/" + rel.split("/", 2)[2])
        write, written = f.write, f.written
        stop = per_file - mean_line // 2
        while True:                               # at least one line in a file
            n += 1
            write(make(n))
            clock.us += 1 + rng.randrange(2 * step)
            if written() >= stop:
                break
        f.close()
        index_rows.append(f"{rel}\t/{rel.split('/', 2)[2]}\thost\t{pid}\t0\t")
    return n


def new_clock(rng):
    span_us = 6 * 3600 * 1000000
    return gb.PlogClock((gb.COLLECTED_EPOCH + gb.UTC_OFFSET_S) * 1000000 - span_us - 600 * 1000000
                        - rng.randrange(600 * 1000000))


def flood_maker(template, pid, rng, clock):
    """One template; time, pid and thread id vary."""
    tids = [pid] + [pid + k for k in (6, 7, 9, 12, 31, 32, 47)]
    head, tail = template.split("{time}")
    head = head.format(pid=pid)

    def make(n):
        return head + clock.text() + tail.format(tid=tids[n & 7])
    return make


def distinct_maker(pid, rng, clock):
    """ERROR lines of the 1e6 templates in a fixed permutation, so 1e6 lines in a row differ."""
    tids = [pid] + [pid + k for k in (6, 7, 9, 12, 31, 32, 47)]
    offset = rng.randrange(DISTINCT)
    named = f"{pid},python3):"

    def make(n):
        k = ((n + offset) * 7919) % DISTINCT          # 7919 is prime to 1e6: a permutation
        return (f"[ERROR] {MODULES[k & 7]}(" + named + clock.text() + " "
                + distinct_error(k).replace("{tid}", str(tids[n & 7]), 1))
    return make


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mix", choices=MIXES)
    ap.add_argument("--size", help="256M, 1G, 4G or any N[KMG] (total uncompressed bytes)")
    ap.add_argument("--out", help="directory that receives the bundle directory and its .tar.zst")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pack", action="store_true", help="write the directory only")
    ap.add_argument("--harvest-real", action="store_true", help="count the real level mix (and --write its table)")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.harvest_real:
        return harvest_real(args.write)
    if not (args.mix and args.size and args.out):
        ap.error("--mix, --size and --out are required")
    try:
        size = gb.parse_size(args.size)
    except ValueError:
        sys.exit(f"gen_mix: --size {args.size!r}: expected a number with K, M or G")
    if size < 4 * MIB:
        sys.exit("gen_mix: --size must be at least 4M")

    mix = args.mix
    rng = random.Random(f"{mix}/{args.seed}")
    pickers = {k: gb.Picker(*v) for k, v in gb.load_templates(os.path.join(HERE, "line-templates.tsv")).items()}
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(gb.COLLECTED_EPOCH))
    name = f"ascend-bundle-{gb.HOST}-{stamp}"
    root = os.path.join(args.out, name)
    if os.path.exists(root):
        sys.exit(f"gen_mix: {root} exists; remove it first")
    os.makedirs(root)
    items, index_rows = [], []
    real = RealMix({"INFO"} if mix == "info" else None)
    manifest_args = []

    # The budget of each part of the bundle.
    journal_budget = max(64 << 10, size // 25) if mix == "real" else SMALL_JOURNAL
    if mix == "kernel-flood":
        journal_budget = size - SIDE_PLOG
    job_budget = size - SMALL_JOURNAL - SIDE_PLOG if mix == "tracebacks" else 0
    plog_budget = size - journal_budget - job_budget
    if mix in ("many-procs", "members"):               # the manifest lists every file twice, ~430 bytes each
        plog_budget -= 860 * n_procs_files[mix]
    if mix == "many-procs":
        n_procs, files_per_proc = 10_000, 1
    elif mix == "members":
        n_procs, files_per_proc = 10_000, 10
    elif mix in ("kernel-flood", "tracebacks"):
        n_procs, files_per_proc = 1, 1
    else:
        n_procs = max(8, math.ceil(math.ceil(plog_budget / gb.PLOG_FILE_MAX) / gb.FILES_PER_PROC_MAX))
        files_per_proc = None
    if n_procs <= 8:
        procs = [{"pid": 20131 + 997 * i + rng.randrange(900), "name": "python3", "dev": i % 8} for i in range(n_procs)]
    else:                                              # distinct pids, in a range of their own
        procs = [{"pid": 100000 + 37 * i + rng.randrange(37), "name": "python3", "dev": i % 8} for i in range(n_procs)]

    gb.write_small(root, "system/uname.txt", f"Linux {gb.HOST} 5.15.0-119-generic #129-Ubuntu SMP Fri Aug 2 19:25:20 "
                   "UTC 2024 aarch64 aarch64 aarch64 GNU/Linux\n", items)
    gb.write_small(root, "system/time.txt", f"epoch={gb.COLLECTED_EPOCH}\nutc={gb.iso(gb.COLLECTED_EPOCH)}\n"
                   "local=2026-09-04T09:55:02+08:00\nutc_offset=+0800\ntimezone=Asia/Shanghai\ntz_posix=CST-8\n"
                   "clk_tck=100\n", items)
    if mix == "kernel-flood":
        # Half the devmm fault printk (priority 3), half the info printks of line-templates.tsv.
        noise_t, noise_c = gb.load_templates(os.path.join(HERE, "line-templates.tsv"))[("journal", "noise")]
        kernel_t = [t for t in noise_t if "[ascend]" in t[3]]
        weights = [noise_c[i] - (noise_c[i - 1] if i else 0) for i, t in enumerate(noise_t) if "[ascend]" in t[3]]
        kernel_t.append(("3", "-", "-", KERNEL_FAULT))
        weights.append(sum(weights))
        cum = [sum(weights[:i + 1]) for i in range(len(weights))]
        pickers = dict(pickers)
        pickers[("journal", "noise")] = gb.Picker(kernel_t, cum)
    boot_id = gb.write_journal(root, journal_budget, rng, pickers, items, [p["pid"] for p in procs[:64]])
    boot_epoch = gb.COLLECTED_EPOCH - gb.JOURNAL_DAYS * 86400
    gb.write_small(root, "system/boot.txt", f"boot_id={boot_id[:8]}-{boot_id[8:12]}-{boot_id[12:16]}-{boot_id[16:20]}-"
                   f"{boot_id[20:]}\nbtime={boot_epoch}\nuptime_s={gb.JOURNAL_DAYS * 86400}\n", items)

    lines = 0
    for i, proc in enumerate(procs):
        if i < 8:                                      # the collector copies /proc of live processes only
            gb.write_process(root, proc, rng, items)
        share = plog_budget // n_procs + (plog_budget % n_procs if i == n_procs - 1 else 0)
        clock = new_clock(rng)
        pid = proc["pid"]
        if mix == "warn-flood":
            make = flood_maker(WARN_FLOOD, pid, rng, clock)
        elif mix == "error-storm":
            make = flood_maker(ERROR_STORM, pid, rng, clock)
        elif mix == "distinct-errors":
            make = distinct_maker(pid, rng, clock)
        else:
            make = real.maker(pid, rng, clock)
        lines += write_plog_files(root, pid, share, make, rng, clock, items, index_rows, files_per_proc,
                                  mean_line=300 if mix == "error-storm" else 190)

    if mix == "tracebacks":
        manifest_args = ["--add", "/root/work/train.log"]
        f = gb.HashedFile(root, "extra/root/work/train.log", items, "/root/work/train.log")
        t = (gb.COLLECTED_EPOCH + gb.UTC_OFFSET_S) - 6 * 3600
        tb = "".join(TRACEBACK)
        base_pid = procs[0]["pid"]
        n = 0
        while f.written() < job_budget - 1024:
            n += 1
            dev = n & 7
            t += rng.randrange(3)
            f.write(tb + ERR00100.format(time=time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime(t)),
                                         pid=base_pid + 1000 + dev * 13, dev=dev))
        f.close()
        lines += n * (len(TRACEBACK) + 1)

    gb.write_small(root, "logs/index.tsv", "path\toriginal_path\torigin\tpids\ttruncated\tkept_ranges\n"
                   + "".join(r + "\n" for r in index_rows), items)
    gb.write_manifest(root, items, min(n_procs, 8), manifest_args)
    gb.fix_mtimes(root)
    total = sum(it["bytes"] for it in items)
    print(f"gen_mix: {root}: mix {mix}, {len(procs)} processes, {len(index_rows)} plog files, {lines} generated lines, "
          f"{len(items)} files, {total} bytes")
    if not args.no_pack:
        gb.pack(args.out, name, "gen_mix")


if __name__ == "__main__":
    main()
