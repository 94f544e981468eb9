"""/proc/<pid>/* copies of a training process, as the collector stores them."""
from .bundle import intid, tsv

CLK_TCK = 100


def nul(args):
    return ("\0".join(args) + "\0").encode()


def stat_line(pid, comm, state, ppid, pgrp, session, tty, threads, starttime_ticks, utime, stime,
              vsize, rss_pages, processor, minflt=0):
    fields = [pid, "(%s)" % comm, state, ppid, pgrp, session, tty, pgrp, 4194560, minflt, 0, 12,
              0, utime, stime, 0, 0, 20, 0, threads, 0, starttime_ticks, vsize, rss_pages,
              18446744073709551615, 4194304, 4199844, 281474832372432, 0, 0, 0, 0, 16781312,
              1073745662, 0, 0, 0, 17, processor, 0, 0, 0, 0, 0, 4264376, 4266296, 45215744,
              281474832375519, 281474832375622, 281474832375622, 281474832375768, 0]
    return " ".join(str(f) for f in fields)


def status(pid, ppid, name, state, uid, gid, groups, threads, vm_rss_kb, vm_size_kb, ctx):
    state_text = {"S": "S (sleeping)", "R": "R (running)", "D": "D (disk sleep)"}[state]
    return f"""Name:\t{name}
Umask:\t0022
State:\t{state_text}
Tgid:\t{pid}
Ngid:\t0
Pid:\t{pid}
PPid:\t{ppid}
TracerPid:\t0
Uid:\t{uid}\t{uid}\t{uid}\t{uid}
Gid:\t{gid}\t{gid}\t{gid}\t{gid}
FDSize:\t512
Groups:\t{' '.join(str(g) for g in groups)} 
NStgid:\t{pid}
NSpid:\t{pid}
NSpgid:\t{pid}
NSsid:\t{ppid}
VmPeak:\t{vm_size_kb + 2097152} kB
VmSize:\t{vm_size_kb} kB
VmLck:\t       0 kB
VmPin:\t       0 kB
VmHWM:\t{vm_rss_kb + 81920} kB
VmRSS:\t{vm_rss_kb} kB
RssAnon:\t{vm_rss_kb - 612352} kB
RssFile:\t  598016 kB
RssShmem:\t   14336 kB
VmData:\t{vm_size_kb // 3} kB
VmStk:\t     132 kB
VmExe:\t    2888 kB
VmLib:\t  724480 kB
VmPTE:\t   21504 kB
VmSwap:\t       0 kB
HugetlbPages:\t       0 kB
CoreDumping:\t0
THP_enabled:\t1
Threads:\t{threads}
SigQ:\t1/2061155
SigPnd:\t0000000000000000
ShdPnd:\t0000000000000000
SigBlk:\t0000000000000000
SigIgn:\t0000000001001000
SigCgt:\t0000000108004a02
CapInh:\t0000000000000000
CapPrm:\t{'000001ffffffffff' if uid == 0 else '0000000000000000'}
CapEff:\t{'000001ffffffffff' if uid == 0 else '0000000000000000'}
CapBnd:\t000001ffffffffff
CapAmb:\t0000000000000000
NoNewPrivs:\t0
Seccomp:\t0
Seccomp_filters:\t0
Speculation_Store_Bypass:\tthread vulnerable
SpeculationIndirectBranch:\tunknown
Cpus_allowed:\tffffffff,ffffffff,ffffffff
Cpus_allowed_list:\t0-191
Mems_allowed:\t00000000,0000000f
Mems_allowed_list:\t0-3
voluntary_ctxt_switches:\t{ctx}
nonvoluntary_ctxt_switches:\t{ctx // 9}
"""


def maps(label, python_lib, site, cann_lib, driver_root, extra_files, devices):
    """A /proc/<pid>/maps of a torch_npu training process (aarch64)."""
    libs = [
        "/usr/bin/python3.10",
        "/usr/lib/locale/C.utf8/LC_CTYPE",
        "/usr/lib/aarch64-linux-gnu/libc.so.6",
        "/usr/lib/aarch64-linux-gnu/libm.so.6",
        "/usr/lib/aarch64-linux-gnu/libz.so.1.2.11",
        "/usr/lib/aarch64-linux-gnu/libexpat.so.1.8.7",
        "/usr/lib/aarch64-linux-gnu/libstdc++.so.6.0.30",
        "/usr/lib/aarch64-linux-gnu/libgcc_s.so.1",
        "/usr/lib/aarch64-linux-gnu/libgomp.so.1.0.0",
        "/usr/lib/aarch64-linux-gnu/libnuma.so.1.0.0",
        python_lib + "/lib-dynload/_ctypes.cpython-310-aarch64-linux-gnu.so",
        python_lib + "/lib-dynload/_bz2.cpython-310-aarch64-linux-gnu.so",
        site + "/numpy/core/_multiarray_umath.cpython-310-aarch64-linux-gnu.so",
        site + "/numpy.libs/libopenblas64_p-r0-4aa7a58a.3.23.dev.so",
        site + "/torch/lib/libc10.so",
        site + "/torch/lib/libtorch_cpu.so",
        site + "/torch/lib/libtorch.so",
        site + "/torch/lib/libtorch_python.so",
        site + "/torch/lib/libshm.so",
        site + "/torch/_C.cpython-310-aarch64-linux-gnu.so",
        site + "/torch_npu/lib/libtorch_npu.so",
        site + "/torch_npu/lib/libnpu_profiler.so",
        site + "/torch_npu/_C.cpython-310-aarch64-linux-gnu.so",
        site + "/torchvision/_C.so",
        cann_lib + "/libascendcl.so",
        cann_lib + "/libacl_rt.so",
        cann_lib + "/libacl_rt_impl.so",
        cann_lib + "/libruntime.so",
        cann_lib + "/libruntime_common.so",
        cann_lib + "/libruntime_v200.so",
        cann_lib + "/libprofapi.so",
        cann_lib + "/libmsprofiler.so",
        cann_lib + "/liberror_manager.so",
        cann_lib + "/libascendalog.so",
        cann_lib + "/libunified_dlog.so",
        cann_lib + "/libascend_dump.so",
        cann_lib + "/libascend_trace.so",
        cann_lib + "/libtsdclient.so",
        cann_lib + "/libplatform.so",
        cann_lib + "/libascend_protobuf.so.3.13.0.0",
        cann_lib + "/libc_sec.so",
        cann_lib + "/libmmpa.so",
        cann_lib + "/libascend_watchdog.so",
        cann_lib + "/libge_runner.so",
        cann_lib + "/libgraph.so",
        cann_lib + "/libfmk_parser.so",
        cann_lib + "/libacl_op_compiler.so",
        cann_lib + "/libacl_tdt_channel.so",
        cann_lib + "/libhccl.so",
        cann_lib + "/libhcomm.so",
        cann_lib + "/libopapi.so",
        cann_lib + "/libnnopbase.so",
        driver_root + "/lib64/driver/libascend_hal.so",
        driver_root + "/lib64/driver/libdrvdsmi_host.so",
        driver_root + "/lib64/common/libc_sec.so",
        driver_root + "/lib64/common/libmmpa.so",
        "/usr/local/dcmi/libdcmi.so",
    ] + extra_files
    out = []
    exe = libs[0]
    exe_ino = intid(label + exe, 100000, 9999999)
    addr = 0xaaaad0a10000
    out.append(maps_line(addr, addr + 0x2d3000, "r-xp", 0, "103:02", exe_ino, exe))
    out.append(maps_line(addr + 0x2e2000, addr + 0x2e8000, "r--p", 0x2e2000, "103:02", exe_ino, exe))
    out.append(maps_line(addr + 0x2e8000, addr + 0x333000, "rw-p", 0x2e8000, "103:02", exe_ino, exe))
    out.append(maps_line(addr + 0x333000, addr + 0x356000, "rw-p", 0, "00:00", 0, None))
    out.append(maps_line(0xaaab0f4c1000, 0xaaab9d2e7000, "rw-p", 0, "00:00", 0, "[heap]"))
    for dev_path, dev_ino, start, size in devices:
        out.append(maps_line(start, start + size, "rw-s", 0, "00:05", dev_ino, dev_path))
    base = 0xfffe58000000
    for lib in libs[1:]:
        ino = intid(label + lib, 100000, 9999999)
        if lib.endswith("LC_CTYPE"):
            out.append(maps_line(base, base + 0x5000, "r--p", 0, "103:02", ino, lib))
            base += 0x10000
            continue
        size = 0x10000 * (1 + intid("size" + lib, 1, 400))
        out.append(maps_line(base, base + size, "r-xp", 0, "103:02", ino, lib))
        out.append(maps_line(base + size, base + size + 0x10000, "---p", size, "103:02", ino, lib))
        out.append(maps_line(base + size + 0x10000, base + size + 0x20000, "r--p", size, "103:02", ino, lib))
        out.append(maps_line(base + size + 0x20000, base + size + 0x30000, "rw-p", size + 0x10000, "103:02", ino, lib))
        if intid("anon" + lib, 0, 2) == 0:
            out.append(maps_line(base + size + 0x30000, base + size + 0x38000, "rw-p", 0, "00:00", 0, None))
        base += size + 0x40000
    ld = "/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1"
    ld_ino = intid(label + ld, 100000, 9999999)
    out.append(maps_line(0xffffab5f0000, 0xffffab5f2000, "r--p", 0, "00:00", 0, "[vvar]"))
    out.append(maps_line(0xffffab5f2000, 0xffffab5f3000, "r-xp", 0, "00:00", 0, "[vdso]"))
    out.append(maps_line(0xffffab5f3000, 0xffffab61e000, "r-xp", 0, "103:02", ld_ino, ld))
    out.append(maps_line(0xffffab62c000, 0xffffab62e000, "r--p", 0x2b000, "103:02", ld_ino, ld))
    out.append(maps_line(0xffffab62e000, 0xffffab630000, "rw-p", 0x2d000, "103:02", ld_ino, ld))
    out.append(maps_line(0xffffeb4e1000, 0xffffeb502000, "rw-p", 0, "00:00", 0, "[stack]"))
    return "\n".join(out) + "\n"


def maps_line(start, end, perms, offset, dev, inode, path):
    """One line as the kernel prints it: the name padded to column 74, anonymous lines end
    with a space after the inode."""
    prefix = "%08x-%08x %s %08x %s %d " % (start, end, perms, offset, dev, inode)
    if path is None:
        return prefix
    return prefix.ljust(73) + " " + path


def threads_sample(pid, ppid, session, uptime, threads, with_stack):
    """threads: list of (tid, comm, state, utime, stime, wchan, stack_lines, starttime)."""
    lines = ["sampled_uptime=%.2f" % uptime]
    for tid, comm, state, ut, st, wchan, stack, start in threads:
        lines.append("task/%d/stat:%s" % (tid, stat_line(tid, comm, state, ppid, pid, session, 0, len(threads),
                                                          start, ut, st, 0, 0, tid % 192)))
    for tid, comm, state, ut, st, wchan, stack, start in threads:
        lines.append("task/%d/wchan:%s" % (tid, wchan))
    if with_stack:
        for tid, comm, state, ut, st, wchan, stack, start in threads:
            for s in stack:
                lines.append("task/%d/stack:%s" % (tid, s))
    return "\n".join(lines) + "\n"


def fd_tsv(rows):
    return tsv(["fd", "target"], rows)


def packages_tsv(rows):
    return tsv(["name", "version", "location", "kind"], sorted(rows, key=lambda r: (r[0].lower(), r[2])))


def tz_txt(tz_env):
    return "TZ=%s\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nutc_offset=+0800\n" % tz_env


def torch_npu_version_py(version, sha):
    return "__version__ = '%s'\ngit_version = '%s'\n" % (version, sha)


PY_PACKAGES = [  # name, version: the training environment's pip packages
    ("torch", "2.9.0"), ("torch-npu", "2.9.0.post6"), ("torchvision", "0.24.0"),
    ("numpy", "1.26.4"), ("pyyaml", "6.0.2"), ("decorator", "5.2.1"), ("attrs", "25.3.0"),
    ("psutil", "7.0.0"), ("absl-py", "2.3.1"), ("cloudpickle", "3.1.1"), ("ml-dtypes", "0.5.1"),
    ("tornado", "6.5.1"), ("scipy", "1.15.3"), ("sympy", "1.14.0"), ("mpmath", "1.3.0"),
    ("filelock", "3.18.0"), ("fsspec", "2025.5.1"), ("jinja2", "3.1.6"), ("markupsafe", "3.0.2"),
    ("networkx", "3.4.2"), ("typing-extensions", "4.14.0"), ("pillow", "11.2.1"),
    ("opencv-python-headless", "4.11.0.86"), ("pycocotools", "2.0.10"), ("tqdm", "4.67.1"),
    ("protobuf", "5.29.5"), ("tensorboard", "2.19.0"), ("packaging", "25.0"), ("setuptools", "80.9.0"),
    ("wheel", "0.45.1"), ("pip", "25.1.1"), ("requests", "2.32.4"), ("urllib3", "2.4.0"),
    ("certifi", "2025.6.15"), ("idna", "3.10"), ("charset-normalizer", "3.4.2"),
]
DIST_PACKAGES = [  # Debian/Ubuntu python3-* packages under /usr/lib/python3/dist-packages
    ("PyGObject", "3.42.1"), ("dbus-python", "1.2.18"), ("distro", "1.7.0"), ("netifaces", "0.11.0"),
    ("PyYAML", "5.4.1"), ("six", "1.16.0"), ("chardet", "4.0.0"), ("cryptography", "3.4.8"),
]
