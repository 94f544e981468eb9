#!/usr/bin/env python3
"""Generates a realistic collector bundle of a chosen size for the benchmark (issue 22).

    bench/gen_bundle.py --size 256M|1G|4G|<N>[KMG] --out DIR [--seed N] [--no-pack]

Writes DIR/ascend-bundle-<host>-<stamp>/ in the collector's layout (docs/bundle-layout.md):
plog files of several processes (at most 20 MiB each, at most ten per process, named as the
collector stores them), months of kernel journal, /proc copies (maps ...) of the processes,
logs/index.tsv and manifest.json (+ manifest.items.jsonl) with every file's size and sha256.
Then packs DIR/<bundle>.tar.zst as the collector does (manifest.json first). Line shapes come
from bench/line-templates.tsv (verbatim corpus lines). The output is a function of size and
seed only, and every file is streamed in chunks (no file is held in memory).
"""
import argparse
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import time

MIB = 1 << 20
PLOG_FILE_MAX = 20 * MIB   # the runtime rotates plog files at 20 MB
FILES_PER_PROC_MAX = 10    # and keeps ten per process
HOST = "bench-node01"
COLLECTED_EPOCH = 1788486902          # 2026-09-04T01:55:02Z, fixed so output depends on the seed only
UTC_OFFSET_S = 8 * 3600               # plog times are local (Asia/Shanghai)
JOURNAL_DAYS = 90                     # "months" of uptime in one boot's journal
WARNING_EVERY = 50                    # about 2% of plog lines are warnings
ERROR_EVERY = 50000                   # rare errors
STALL_REPORTS = 5                     # three-minute reports of the sick process, sqHead not moving

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().rstrip("B").removesuffix("I")
    if t and t[-1] in units:
        return int(float(t[:-1]) * units[t[-1]])
    return int(t)


def load_templates(path):
    """{(kind, class): ([templates], [cumulative weights])}; a template is (level, module, proc, text)."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 7:
                sys.exit(f"{path}:{lineno}: expected 7 tab-separated columns, found {len(cols)}")
            kind, cls, weight, level, module, proc, text = cols
            entry = table.setdefault((kind, cls), ([], []))
            entry[0].append((level, module, proc, text))
            entry[1].append((entry[1][-1] if entry[1] else 0) + int(weight))
    return table


class Picker:
    """Weighted choice through a 4096-slot lookup table: one getrandbits per line."""

    def __init__(self, templates, cumulative):
        total = cumulative[-1]
        self.slots = []
        j = 0
        for i in range(4096):
            while cumulative[j] * 4096 <= i * total:
                j += 1
            self.slots.append(templates[j])

    def pick(self, rng):
        return self.slots[rng.getrandbits(12)]


class HashedFile:
    """A file written in chunks while its sha256 and size are kept for the manifest."""

    def __init__(self, root, rel, items, source=None):
        self.rel, self.items, self.source = rel, items, source
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.f = open(path, "wb")
        self.sha = hashlib.sha256()
        self.size = 0
        self.buf = []
        self.buf_bytes = 0

    def write(self, text):
        self.buf.append(text)
        self.buf_bytes += len(text)
        if self.buf_bytes >= MIB:
            self.flush()

    def flush(self):
        if self.buf:
            data = "".join(self.buf).encode("utf-8", "surrogateescape")
            self.f.write(data)
            self.sha.update(data)
            self.size += len(data)
            self.buf, self.buf_bytes = [], 0

    def written(self):
        return self.size + self.buf_bytes

    def close(self):
        self.flush()
        self.f.close()
        self.items.append(item(self.rel, self.source, self.size, self.sha.hexdigest()))


def iso(epoch_s):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch_s))


def item(rel, source, size, sha):
    return {"path": rel, "source": source, "exec": None, "status": "ok", "reason": None, "rc": None,
            "started_utc": iso(COLLECTED_EPOCH)[:-1] + ".000Z", "duration_ms": 1, "bytes": size,
            "sha256": sha, "source_mtime_utc": None, "truncated": False, "kept_ranges": None,
            "error": None}


def write_small(root, rel, text, items, source=None):
    f = HashedFile(root, rel, items, source)
    f.write(text)
    f.close()


class PlogClock:
    """Local time in µs; the second's text is formatted once per second, not per line."""

    def __init__(self, local_us):
        self.us = local_us
        self.sec = -1
        self.prefix = ""

    def text(self):
        sec, us = divmod(self.us, 1000000)
        if sec != self.sec:
            self.sec = sec
            self.prefix = time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime(sec))
        return f"{self.prefix}.{us // 1000:03d}.{us % 1000:03d}"

    def stamp(self):
        """The plog file name's stamp: YYYYmmddHHMMSSmmm."""
        sec, us = divmod(self.us, 1000000)
        return time.strftime("%Y%m%d%H%M%S", time.gmtime(sec)) + f"{us // 1000:03d}"


def plog_line(tmpl, pid, name, clock, vals):
    level, module, proc, text = tmpl
    return f"[{level}] {module}({pid},{name if proc == 'p' else ''}):{clock.text()} {text.format_map(vals)}\n"


def write_process_plogs(root, proc, budget, rng, pickers, items, index_rows, sick):
    """The plog files of one process: up to ten files of at most 20 MiB, `budget` bytes in all."""
    pid, name, dev = proc["pid"], proc["name"], proc["dev"]
    n_lines = max(1, budget // 190)
    span_us = 6 * 3600 * 1000000                       # the run's plog covers about six hours
    mean_step = max(2, span_us // n_lines)
    clock = PlogClock((COLLECTED_EPOCH + UTC_OFFSET_S) * 1000000 - span_us - 600 * 1000000
                      - rng.randrange(600 * 1000000))
    tids = [pid] + [pid + k for k in (6, 7, 9, 12, 31, 32, 47)]
    vals = {"pid": pid, "tid": pid, "dev": dev, "rank": 0, "stream": 0, "task": 0, "cnt": 0,
            "size": 0, "n": 0, "sqhead": 0, "kpid": pid, "sec": 120}
    noise, warning, error = pickers[("plog", "noise")], pickers[("plog", "warning")], pickers[("plog", "error")]
    startup, stall = pickers[("plog", "startup")].slots, pickers[("plog", "stall")].slots
    n = 0
    left = budget
    first = True
    while left >= 64 << 10:                          # no runt file for a remainder
        target = min(left, PLOG_FILE_MAX)
        rel = f"logs/host/root/ascend/log/debug/plog/plog-{pid}_{clock.stamp()}.log"
        f = HashedFile(root, rel, items, "/" + rel.split("/", 2)[2])
        if first:
            for tmpl in dict.fromkeys(startup):       # each start-up line once, in file order
                f.write(plog_line(tmpl, pid, name, clock, vals))
                clock.us += 137
            first = False
        last_file = left - target < 64 << 10
        reserve = 2048 if (sick and last_file) else 0
        while f.written() < target - reserve - 400:
            n += 1
            r = rng.getrandbits(32)
            if n % ERROR_EVERY == 0:
                tmpl = error.pick(rng)
            elif r % WARNING_EVERY == 0:
                tmpl = warning.pick(rng)
            else:
                tmpl = noise.pick(rng)
            vals["tid"] = tids[r >> 29]
            vals["rank"] = (r >> 8) & 7
            vals["stream"] = 40 + ((r >> 12) & 31)
            vals["task"] = n & 0xFFFF
            vals["cnt"] = n
            vals["size"] = 2031616 + (r & 0xFFFFF) * 64
            vals["n"] = n % 1000 + 1
            f.write(plog_line(tmpl, pid, name, clock, vals))
            clock.us += 1 + rng.randrange(2 * mean_step)
        if sick and last_file:
            # A stream that makes no progress: reports every 180 s with the same task and
            # sqHead, then the synchronize gives up.
            vals.update(tid=pid + 6, stream=61, task=393, sqhead=393)
            for _ in range(STALL_REPORTS):
                clock.us += 180 * 1000000
                f.write(plog_line(stall[0], pid, name, clock, vals))
            clock.us += 40 * 1000000
            f.write(plog_line(stall[-1], pid, name, clock, vals))
        left -= f.written()
        f.close()
        index_rows.append(f"{rel}\t/{rel.split('/', 2)[2]}\thost\t{pid}\t0\t")
    return n


def write_journal(root, budget, rng, pickers, items, pids):
    """One boot's kernel journal (journalctl -k -o json), JOURNAL_DAYS of uptime."""
    rel = "kernel/journal-b0.jsonl"
    f = HashedFile(root, rel, items)
    boot_us = (COLLECTED_EPOCH - JOURNAL_DAYS * 86400) * 1000000
    boot_id = "%032x" % rng.getrandbits(128)
    machine = "%032x" % rng.getrandbits(128)
    n_lines = max(10, budget // 560)
    step = JOURNAL_DAYS * 86400 * 1000000 // n_lines
    mono = 3184000
    noise, warning = pickers[("journal", "noise")], pickers[("journal", "warning")]
    startup = pickers[("journal", "startup")].slots
    vals = {"kpid": 0, "tid": 0, "dev": 0, "n": 0, "sec": 120}
    i = 0
    seq = dict.fromkeys(startup)
    while f.written() < budget or i < len(seq):
        i += 1
        if i <= len(seq):
            tmpl = list(seq)[i - 1]
        else:
            tmpl = warning.pick(rng) if i % 20000 == 0 else noise.pick(rng)
            mono += 1 + rng.randrange(2 * step)
        r = rng.getrandbits(32)
        vals.update(kpid=pids[r % len(pids)], tid=1000 + (r >> 20), dev=(r >> 8) & 7, n=1000 + (r >> 22))
        real = boot_us + mono
        msg = tmpl[3].format_map(vals)
        f.write(json.dumps({
            "__CURSOR": f"s={boot_id};i={i:x};b={boot_id};m={mono:x};t={real:x};x={r:016x}",
            "__REALTIME_TIMESTAMP": str(real), "__MONOTONIC_TIMESTAMP": str(mono), "_BOOT_ID": boot_id,
            "_SOURCE_MONOTONIC_TIMESTAMP": str(mono - 500), "_TRANSPORT": "kernel", "PRIORITY": tmpl[0],
            "SYSLOG_FACILITY": "0", "SYSLOG_IDENTIFIER": "kernel", "MESSAGE": msg,
            "_MACHINE_ID": machine, "_HOSTNAME": HOST}, separators=(",", ":")) + "\n")
    f.close()
    return boot_id


LIBS = ["/usr/bin/python3.10", "/usr/lib/aarch64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libm.so.6",
        "/usr/lib/aarch64-linux-gnu/libstdc++.so.6.0.30", "/usr/lib/aarch64-linux-gnu/libgcc_s.so.1",
        "/usr/lib/aarch64-linux-gnu/libpthread.so.0", "/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1"]
LIBS += [f"/usr/local/lib/python3.10/dist-packages/torch/lib/{n}" for n in
         ("libtorch.so", "libtorch_cpu.so", "libtorch_python.so", "libc10.so", "libgomp-6e1a1d1b.so.1", "libshm.so")]
LIBS += [f"/usr/local/lib/python3.10/dist-packages/torch_npu/lib/{n}" for n in ("libtorch_npu.so", "libop_plugin_atb.so")]
LIBS += [f"/usr/local/Ascend/ascend-toolkit/8.0.RC2/aarch64-linux/lib64/{n}" for n in
         ("libascendcl.so", "libruntime.so", "libge_runner.so", "libhccl.so", "libgraph.so", "libregister.so",
          "libmsprofiler.so", "libacl_op_compiler.so", "libascend_dump.so", "libopapi.so", "liberror_manager.so",
          "libplatform.so", "libtiling_api.so", "libascend_protobuf.so.3.13.0.0", "libmmpa.so", "libc_sec.so")]
LIBS += [f"/usr/local/Ascend/driver/lib64/driver/{n}" for n in ("libascend_hal.so", "libdrvdsmi_host.so", "libmmpa.so")]
LIBS += [f"/usr/lib/python3.10/lib-dynload/_{n}.cpython-310-aarch64-linux-gnu.so" for n in
         ("ssl", "hashlib", "json", "pickle", "struct", "socket", "ctypes", "datetime", "decimal", "queue")]


def maps_text(rng):
    """A python/torch_npu process's /proc/<pid>/maps: four segments per library, heap, anon and stack."""
    out = []
    addr = 0xaaaad0a10000
    inode = 4150724
    for lib in LIBS:
        inode += 1 + rng.randrange(5000)
        off = 0
        for perms, pages in (("r-xp", 700), ("---p", 16), ("r--p", 12), ("rw-p", 8)):
            size = (1 + rng.randrange(pages)) * 4096
            out.append(f"{addr:x}-{addr + size:x} {perms} {off:08x} 103:02 {inode:<10d}                 {lib}\n")
            addr += size
            off += size
        addr = (addr + 0xFFFFF) & ~0xFFFF
        if lib == LIBS[0]:
            out.append(f"{addr:x}-{addr + 0x8e000000:x} rw-p 00000000 00:00 0                           [heap]\n")
            addr = 0xfffe00000000
    for _ in range(600):                              # anonymous arenas of the allocator and the runtime
        size = (1 + rng.randrange(4096)) * 4096
        out.append(f"{addr:x}-{addr + size:x} rw-p 00000000 00:00 0 \n")
        addr += size + 4096
    out.append("ffffd8f00000-ffffd8f21000 rw-p 00000000 00:00 0                          [stack]\n")
    return "".join(out)


def write_process(root, proc, rng, items):
    pid = proc["pid"]
    d = f"processes/{pid}"
    write_small(root, f"{d}/cmdline", f"python3\0train.py\0--local_rank\0{proc['dev']}\0", items, f"/proc/{pid}/cmdline")
    write_small(root, f"{d}/status", f"Name:\tpython3\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t{pid}\nPid:\t{pid}\n"
                f"PPid:\t1\nThreads:\t96\nVmRSS:\t  31457280 kB\n", items, f"/proc/{pid}/status")
    write_small(root, f"{d}/maps", maps_text(rng), items, f"/proc/{pid}/maps")
    write_small(root, f"{d}/exe.txt", "/usr/bin/python3.10\n", items)
    write_small(root, f"{d}/tz.txt", "TZ=\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nutc_offset=+0800\n", items)


def write_manifest(root, items, n_procs, args=()):
    """manifest.items.jsonl and manifest.json (the items inline), as the collector writes them."""
    with open(os.path.join(root, "manifest.items.jsonl"), "w") as f:
        for it in items:
            f.write(json.dumps(it, separators=(",", ":")) + "\n")
    manifest = {"format": "ascend-bundle", "format_version": 1, "collector_version": "1.0.0", "host": HOST,
                "collected_at_utc": iso(COLLECTED_EPOCH), "finished_utc": iso(COLLECTED_EPOCH + 300),
                "args": list(args), "uid": 0, "groups": ["root"], "sudo_user": None, "locale": "en_US.UTF-8",
                "in_container": False, "redaction": {"kinds": ["env_secret"]},
                "npu_presence": {"state": "npu_visible", "ascend_modules_loaded": None, "driver_installed": None,
                                 "device_nodes": None, "npu_pci_devices": None, "npu_processes": n_procs},
                "items": items}
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump(manifest, f, separators=(",", ":"))


def fix_mtimes(root):
    """Fixed mtimes (and, in pack, owners) so the archive, too, depends on size and seed only."""
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            os.utime(os.path.join(dirpath, n), (COLLECTED_EPOCH, COLLECTED_EPOCH))


def pack(out, name, prog):
    """out/<name>.tar.zst of the bundle directory out/<name>, manifest.json first, as the collector packs."""
    root = os.path.join(out, name)
    archive = root + ".tar.zst"
    members = [f"{name}/manifest.json"] + sorted(f"{name}/{e}" for e in os.listdir(root) if e != "manifest.json")
    tar = subprocess.Popen(["tar", "-cf", "-", "--owner=0", "--group=0", "--numeric-owner", "--sort=name",
                            "-C", out] + members, stdout=subprocess.PIPE)
    with open(archive + ".part", "wb") as f:
        z = subprocess.run(["zstd", "-q", "-T0", "-3", "-c"], stdin=tar.stdout, stdout=f)
    tar.stdout.close()
    if tar.wait() != 0 or z.returncode != 0:
        os.unlink(archive + ".part")
        sys.exit(f"{prog}: packing failed (tar or zstd)")
    os.replace(archive + ".part", archive)
    print(f"{prog}: {archive}: {os.path.getsize(archive)} bytes")
    return archive


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", required=True, help="256M, 1G, 4G or any N[KMG] (total uncompressed bytes)")
    ap.add_argument("--out", required=True, help="directory that receives the bundle directory and its .tar.zst")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pack", action="store_true", help="write the directory only")
    args = ap.parse_args()
    try:
        size = parse_size(args.size)
    except ValueError:
        sys.exit(f"gen_bundle: --size {args.size!r}: expected a number with K, M or G")
    if size < MIB:
        sys.exit("gen_bundle: --size must be at least 1M")

    rng = random.Random(args.seed)
    pickers = {k: Picker(*v) for k, v in load_templates(os.path.join(HERE, "line-templates.tsv")).items()}
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(COLLECTED_EPOCH))
    name = f"ascend-bundle-{HOST}-{stamp}"
    root = os.path.join(args.out, name)
    if os.path.exists(root):
        sys.exit(f"gen_bundle: {root} exists; remove it first")
    os.makedirs(root)
    items, index_rows = [], []

    journal_budget = max(64 << 10, size // 25)        # 4% journal, the rest plog
    plog_budget = size - journal_budget
    n_files = math.ceil(plog_budget / PLOG_FILE_MAX)
    n_procs = max(8, math.ceil(n_files / FILES_PER_PROC_MAX))
    procs = [{"pid": 20131 + 997 * i + rng.randrange(900), "name": "python3", "dev": i % 8} for i in range(n_procs)]
    sick = rng.randrange(n_procs)

    write_small(root, "system/uname.txt", f"Linux {HOST} 5.15.0-119-generic #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024 "
                "aarch64 aarch64 aarch64 GNU/Linux\n", items)
    write_small(root, "system/time.txt", f"epoch={COLLECTED_EPOCH}\nutc={iso(COLLECTED_EPOCH)}\nlocal=2026-09-04T09:55:02+08:00\n"
                "utc_offset=+0800\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nclk_tck=100\n", items)
    boot_epoch = COLLECTED_EPOCH - JOURNAL_DAYS * 86400
    boot_id = write_journal(root, journal_budget, rng, pickers, items, [p["pid"] for p in procs])
    write_small(root, "system/boot.txt", f"boot_id={boot_id[:8]}-{boot_id[8:12]}-{boot_id[12:16]}-{boot_id[16:20]}-{boot_id[20:]}\n"
                f"btime={boot_epoch}\nuptime_s={JOURNAL_DAYS * 86400}\n", items)
    lines = 0
    for i, proc in enumerate(procs):
        write_process(root, proc, rng, items)
        share = plog_budget // n_procs + (plog_budget % n_procs if i == n_procs - 1 else 0)
        lines += write_process_plogs(root, proc, share, rng, pickers, items, index_rows, i == sick)
    write_small(root, "logs/index.tsv", "path\toriginal_path\torigin\tpids\ttruncated\tkept_ranges\n"
                + "".join(r + "\n" for r in index_rows), items)

    write_manifest(root, items, n_procs)
    fix_mtimes(root)
    total = sum(it["bytes"] for it in items)
    print(f"gen_bundle: {root}: {len(procs)} processes, {len(index_rows)} plog files, {lines} plog lines, "
          f"{total} bytes (sick process {procs[sick]['pid']})")
    if args.no_pack:
        return
    pack(args.out, name, "gen_bundle")


if __name__ == "__main__":
    main()
