"""A healthy 8-NPU job on `ascend-node12` (openEuler 22.03 SP4) whose first step is slow:
operator compilation keeps every rank's first synchronisation waiting for ten minutes, the
three-minute reports show the queue head moving, then training runs at 0.62 s/step.

The collector ran as the job's own user (uid 1000, no sudo): root-only sources are denied.
The journal of the current boot was capped (head and tail kept)."""
import re

from . import ascend as A
from . import host as H
from . import kernel as K
from . import modules as M
from . import process as P
from . import timeutil
from .bundle import Bundle, hexid, intid, iso_utc, tsv
from .incident_kernel import clean_boot_load, misc_runtime, process_exit, process_start
from .plog import LogWriter, compile_ops, device_log, init_lines, launches, stream_setup, three_minute_report

T = timeutil.local_epoch
KVER = "5.10.0-216.0.0.115.oe2203sp4.aarch64"
NPUS = ["0000:01:00.0", "0000:02:00.0", "0000:41:00.0", "0000:42:00.0",
        "0000:81:00.0", "0000:82:00.0", "0000:c1:00.0", "0000:c2:00.0"]
CMDLINE = ("BOOT_IMAGE=/vmlinuz-5.10.0-216.0.0.115.oe2203sp4.aarch64 root=/dev/mapper/openeuler-root ro "
           "rd.lvm.lv=openeuler/root rd.lvm.lv=openeuler/swap video=VGA-1:640x480-32@60me cgroup_disable=files "
           "apparmor=0 crashkernel=1024M,high smmu.bypassdev=0x1000:0x17 smmu.bypassdev=0x1000:0x15 arm64.nopauth")
HOST = H.Host("ascend-node12", "openeuler", KVER, "#1 SMP Thu Jun 26 11:43:25 CST 2025", CMDLINE, NPUS, [])
CANN = "/usr/local/Ascend/cann-9.1.0"
CANN_LINK = "/usr/local/Ascend/cann"
CONDA = "/home/ma-user/miniconda3/envs/sft"
SITE = CONDA + "/lib/python3.10/site-packages"
USER = "ma-user"

T_BOOT = T(2026, 9, 1, 21, 40, 12, 533000)
T_DRIVER_INSTALL = T(2026, 8, 27, 10, 11, 5)
T_LAUNCH = T(2026, 9, 10, 14, 2, 11, 601000)
T_FIRST_SYNC = T(2026, 9, 10, 14, 3, 30, 118402)
T_FIRST_STEP_DONE = T(2026, 9, 10, 14, 13, 41, 992011)
STEP_S = 0.62
T_COLLECT = T(2026, 9, 10, 14, 41, 5)
LAUNCHER = 20110
RANKS = [20131 + i for i in range(8)]
REPORTS = [(1380, 120, 1408), (1652, 388, 1140), (2170, 902, 626)]  # task_id, sqHead, pendingNum
STREAM, SQ = 13, 3


# ---- kernel ---------------------------------------------------------------------------------
def boot():
    b = K.Boot("healthy", H.uuid("boot healthy"), T_BOOT, HOST.name, HOST.machine_id)
    b.extend(K.boot_template(KVER, HOST.uname_version, CMDLINE, 192, 1024, NPUS, ["enp125s0f0", "enp125s0f1"],
                             "openeuler"))
    b.extend(clean_boot_load(11.02, NPUS, 1187))
    b.extend(misc_runtime(T_BOOT, 8, "healthy"))
    # earlier jobs of the same user, each with 8 ranks
    for j, (day, hh, dur) in enumerate([(2, 9, 20 * 3600), (3, 8, 30 * 3600), (5, 10, 41 * 3600), (7, 15, 60 * 3600)]):
        s = T(2026, 9, day, hh, 3, 17) - T_BOOT
        for r in range(8):
            pid = 7000 + j * 1000 + r
            b.extend(process_start(s + r * 0.013, "python3", pid))
            b.extend(process_exit(s + dur + r * 0.021, "python3", pid, r))
        for k in range(60):  # a busy NIC on the storage network flaps now and then
            t = s + 600 + k * 1800 + intid("flap%d%d" % (j, k), 0, 900)
            b.add(t, 6, "hns3 0000:7d:00.1 enp125s0f1: link down")
            b.add(t + 2.104, 6, "hns3 0000:7d:00.1 enp125s0f1: link up")
    for r, pid in enumerate(RANKS):
        b.extend(process_start(T_LAUNCH + 6.3 + r * 0.011 - T_BOOT, "python3", pid))
    return b


def capped_journal(b, head_entries, tail_entries):
    lines = b.journal_lines()
    full = "".join(l + "\n" for l in lines).encode()
    head = "".join(l + "\n" for l in lines[:head_entries]).encode()
    tail = "".join(l + "\n" for l in lines[-tail_entries:]).encode()
    dropped = len(full) - len(head) - len(tail)
    cut = ('{"__ascend_collect_cut__": {"dropped_bytes": %d}}\n' % dropped).encode()
    kept = [[0, len(head)], [len(full) - len(tail), len(full)]]
    return head + cut + tail, kept


# ---- logs -------------------------------------------------------------------------------
def rank_plog(rank, pid):
    w = LogWriter(pid, "python3")
    main = pid
    t = init_lines(w, T_LAUNCH + 7.9 + rank * 0.037, main, CANN, rank, rank_info=(rank, 8), extra_errors=(rank == 0))
    root = "10.20.7.112%%enp125s0f0_60000_0_%d" % int(T_LAUNCH * 1000)
    w.hccl(t + 1.2, "INFO", "op_base.cc:1097", main, ["InitCommRootInfo"],
           "hcclCommInitRootInfoConfig begin, rankNum[8], rank[%d], rootInfo identifier[%s], deviceLogicId[%d]" % (rank, root, rank))
    w.hccl(t + 3.51, "INFO", "hccl_communicator_host.cc:274", main, ["Init"], "hccl communicator init success, group[hccl_world_group]")
    w.hccl(t + 3.52, "INFO", "op_base.cc:1166", main, ["InitCommRootInfo"],
           "Init success, take time [%d]us, rankNum[8], rank[%d], server[10.20.7.112], logicDevId[%d]" % (2331000 + rank * 917, rank, rank))
    t = stream_setup(w, t + 3.6, main, [(2, 1), (STREAM, SQ), (14, 4), (15, 5)])
    tq = pid + 41
    t = compile_ops(w, t + 1.1, tq, cache_hit=False)
    count = 2400 if rank == 0 else 640
    launches(w, t, tq, STREAM, 0, count, (T_FIRST_SYNC - 1.0 - t) / count)
    for k, (task, head, pending) in enumerate(REPORTS):
        three_minute_report(w, T_FIRST_SYNC + 180.0 * (k + 1) + 0.3117 + rank * 0.0021, main, STREAM, SQ,
                            task + rank, head + rank * 3, pending - rank * 2)
    w.rt(T_FIRST_STEP_DONE + rank * 0.0013, "INFO", "RUNTIME", "stream.cc:1389", main, "SynchronizeExecutedTask",
         "stream synchronize finished, stream_id=%d, sq_id=%d, task_id=2795." % (STREAM, SQ))
    # steady training: an all-reduce line every 25 steps, a heartbeat every 30 s
    step = 25
    while True:
        ts = T_FIRST_STEP_DONE + step * STEP_S + 0.21 + rank * 0.0009
        if ts > T_COLLECT - 2:
            break
        w.hccl(ts, "INFO", "op_base.cc:2201", main, ["HcclAllReduce"],
               "tag[AllReduce_%s], count[%d], dataType[bfloat16], op[sum], streamId[14], deviceLogicId[%d], step[%d]"
               % (root, 67108864, rank, step))
        step += 25
    tm = T_LAUNCH + 40.0 + rank
    while tm < T_COLLECT - 1:
        w.rt(tm, "INFO", "RUNTIME", "device_monitor.cc:118", pid + 7, "MonitorRun", "device_id=%d, heartbeat ok, status=0." % rank)
        tm += 30.0
    run = LogWriter(pid, "python3")
    for tt, seq, line in w.lines:
        if line.startswith("[EVENT]"):
            run.raw(tt, line)
    return w, run


def job_log():
    L = []
    t = T_LAUNCH
    warn = "W%d%02d %s" % (9, 10, "14:02:11.601000")
    L.append("%s %d site-packages/torch/distributed/run.py:793] " % (warn, LAUNCHER))
    L.append("%s %d site-packages/torch/distributed/run.py:793] *****************************************" % (warn, LAUNCHER))
    L.append("%s %d site-packages/torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 "
             "in default, to avoid your system being overloaded, please further tune the variable for optimal performance in "
             "your application as needed. " % (warn, LAUNCHER))
    L.append("%s %d site-packages/torch/distributed/run.py:793] *****************************************" % (warn, LAUNCHER))
    t0 = T_LAUNCH + 18.2
    L.append("%s - sft - INFO - world_size=8 backend=hccl devices=npu:0-7 torch=2.9.0 torch_npu=2.9.0.post6" % timeutil.pylog_ts(t0))
    L.append("%s - sft - INFO - model qwen-7b-base, bf16, zero stage 1, micro batch 4, grad accum 8, seq 4096" % timeutil.pylog_ts(t0 + 1.1))
    L.append("%s - sft - INFO - loading checkpoint shards: 8/8 done" % timeutil.pylog_ts(t0 + 52.7))
    L.append("%s - sft - INFO - dataset sft_mix_v3: 1,284,113 samples, 20000 steps" % timeutil.pylog_ts(t0 + 58.9))
    L.append("%s - sft - INFO - step 0 start (the first step compiles operators; it can take several minutes)"
             % timeutil.pylog_ts(T_FIRST_SYNC - 1.2))
    L.append("%s - sft - INFO - step 1/20000 loss=2.3412 lr=1.0e-05 step_time=%.2fs"
             % (timeutil.pylog_ts(T_FIRST_STEP_DONE + 0.01), T_FIRST_STEP_DONE - T_FIRST_SYNC + 1.2))
    s = 10
    while T_FIRST_STEP_DONE + s * STEP_S < T_COLLECT - 1:
        ts = T_FIRST_STEP_DONE + s * STEP_S + 0.011
        loss = 2.3412 * (0.92 ** (s / 200.0)) + 0.01 * ((s * 37) % 11) / 11
        L.append("%s - sft - INFO - step %d/20000 loss=%.4f lr=%.1e step_time=%.2fs tokens/s=%d"
                 % (timeutil.pylog_ts(ts), s, loss, min(1e-5 * (1 + s / 100), 2e-5), STEP_S + 0.003 * ((s * 13) % 5),
                    int(8 * 4 * 8 * 4096 / (STEP_S * 8)) - (s * 7) % 300))
        s += 10
    return "\n".join(L) + "\n"


# ---- processes --------------------------------------------------------------------------
def environ(rank):
    c = CANN_LINK
    ld = ":".join([c + "/lib64", c + "/lib64/plugin/opskernel", c + "/lib64/plugin/nnengine",
                   c + "/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/aarch64",
                   "/usr/local/Ascend/driver/lib64", "/usr/local/Ascend/driver/lib64/common",
                   "/usr/local/Ascend/driver/lib64/driver"])
    return ["SHELL=/bin/bash", "HOSTNAME=ascend-node12", "PWD=/home/ma-user/jobs/sft", "LOGNAME=ma-user",
            "HOME=/home/ma-user", "LANG=en_US.UTF-8", "USER=ma-user", "SHLVL=2", "TERM=screen",
            "CONDA_DEFAULT_ENV=sft", "CONDA_PREFIX=" + CONDA,
            "PATH=%s/bin:%s/bin:/home/ma-user/miniconda3/condabin:/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin" % (CONDA, c),
            "ASCEND_HOME_PATH=" + c, "ASCEND_TOOLKIT_HOME=" + c, "ASCEND_OPP_PATH=" + c + "/opp",
            "ASCEND_AICPU_PATH=" + c, "TOOLCHAIN_HOME=" + c + "/toolkit", "LD_LIBRARY_PATH=" + ld,
            "PYTHONPATH=%s/python/site-packages:%s/opp/built-in/op_impl/ai_core/tbe" % (c, c),
            "ASCEND_GLOBAL_LOG_LEVEL=1", "ASCEND_GLOBAL_EVENT_ENABLE=1", "TASK_QUEUE_ENABLE=2",
            "HCCL_CONNECT_TIMEOUT=1200", "HCCL_EXEC_TIMEOUT=1836", "CPU_AFFINITY_CONF=1",
            "MASTER_ADDR=127.0.0.1", "MASTER_PORT=29500", "WORLD_SIZE=8", "RANK=%d" % rank,
            "LOCAL_RANK=%d" % rank, "LOCAL_WORLD_SIZE=8", "GROUP_RANK=0", "ROLE_RANK=%d" % rank,
            "TORCHELASTIC_RUN_ID=none", "OMP_NUM_THREADS=1", "TORCHELASTIC_RESTART_COUNT=0",
            "TORCHELASTIC_MAX_RESTARTS=0", "_=%s/bin/torchrun" % CONDA]


def packages():
    rows = []
    for name, ver in P.PY_PACKAGES:
        n = {"torch-npu": "torch_npu", "pyyaml": "PyYAML", "typing-extensions": "typing_extensions",
             "jinja2": "Jinja2", "markupsafe": "MarkupSafe"}.get(name, name)
        rows.append([n, ver, SITE, "dist-info"])
    for name, ver in [("transformers", "4.57.1"), ("accelerate", "1.10.1"), ("datasets", "3.6.0"),
                      ("safetensors", "0.6.2"), ("tokenizers", "0.22.1"), ("deepspeed", "0.17.6")]:
        rows.append([name, ver, SITE, "dist-info"])
    return P.packages_tsv(rows)


def threads(pid, rank, sample, uptime, start):
    tids = [pid] + [pid + 7 + k for k in range(14)] + [pid + 41]
    out = []
    for i, tid in enumerate(tids):
        if tid == pid:
            st, w, ut = ("R" if sample == 1 else "S"), ("0" if sample == 1 else "futex_wait_queue"), 151200 + rank * 311 + sample * 171
        elif tid == pid + 41:
            st, w, ut = "S", "futex_wait_queue", 88412 + rank * 97 + sample * 143
        else:
            st, w, ut = "S", "do_epoll_wait" if i % 4 == 0 else "futex_wait_queue", 12 + i * 5 + sample
        out.append((tid, "python3" if i < 12 else "pt_autograd_%d" % (i - 12), st, ut, 3100 + i + sample * 9, w, [],
                    start + (0 if tid == pid else 400 + i * 3)))
    return P.threads_sample(pid, LAUNCHER, 19988, uptime, out, with_stack=False)


# ---- the bundle ---------------------------------------------------------------------------
def build():
    b = Bundle("healthy-first-step-compile", T_COLLECT)
    world = M.healthy_world(KVER, T_DRIVER_INSTALL)
    bt = boot()
    b.add("system/uname.txt", HOST.uname(), "uname", exec_argv=["uname", "-a"])
    b.add("system/os-release", HOST.os_release(), "os_release", source="/etc/os-release")
    b.add("system/cmdline", CMDLINE + "\n", "kernel_cmdline", source="/proc/cmdline")
    b.add("system/time.txt", HOST.time_txt(T_COLLECT), "time_txt", source="date +%s and /etc/localtime")
    b.add("system/localtime.tzif", H.TZIF, "localtime_tzif", source="/etc/localtime")
    b.add("system/boot.txt", HOST.boot_txt(bt, b.clock), "boot_txt",
          source="/proc/sys/kernel/random/boot_id, /proc/stat, /proc/uptime")
    b.add("system/kernels.tsv", HOST.kernels_tsv([[KVER, "1", "", int(T(2026, 8, 27, 10, 19, 41)), int(T(2026, 8, 27, 10, 19, 33))]]),
          "kernels_tsv", source="/lib/modules, /boot")
    b.add("system/pci-devices.tsv", HOST.pci_tsv("devdrv_device_driver"), "pci_devices_tsv", source="/sys/bus/pci/devices")
    b.add("system/lspci.txt", HOST.lspci(True), "lspci", exec_argv=["lspci", "-D", "-nn", "-k"])
    b.add("system/devices.txt", HOST.devices_txt(T_BOOT + 27.1), "devices_txt",
          exec_argv=["sh", "-c", "ls -l /dev/davinci* /dev/davinci_manager /dev/devmm_svm /dev/hisi_hdc"])
    journal, kept = capped_journal(bt, 420, 160)
    b.add("kernel/journal-b0.jsonl", journal, "journal_json", exec_argv=["journalctl", "-k", "-b", "0", "-o", "json", "--all"],
          truncated=True, kept_ranges=kept)
    b.add("kernel/boots.txt", K.list_boots([bt]), "boots_txt", exec_argv=["journalctl", "--list-boots", "--utc"])
    b.note("kernel/boots.json", "skipped", "tool_missing", exec_argv=["journalctl", "--list-boots", "-o", "json"],
           error="systemd_too_old")
    b.note("kernel/dmesg.txt", "denied", "permission", exec_argv=["dmesg"], rc=1, error="dmesg_restrict")
    b.add("kernel/dmesg.txt.err", "dmesg: read kernel buffer failed: Operation not permitted\n", "step_stderr",
          source="stderr of kernel/dmesg.txt")
    b.note("kernel/syslog/messages", "denied", "permission", source="/var/log/messages", error="EACCES")
    b.add("kernel/tainted", "12288\n", "tainted", source="/proc/sys/kernel/tainted")
    b.add("kernel/secure-boot.txt", "SecureBoot disabled\n", "secure_boot", exec_argv=["mokutil", "--sb-state"])
    loaded = dict(world.new)
    b.add("modules/ascend-names.txt", "\n".join(M.NAME_PATTERNS) + "\n", "ascend_module_names", source="collector built-in list")
    used = {"drv_devmm_host": 8, "drv_davinci_intf_host": 16, "drv_devmng_host": 8}
    b.add("modules/lsmod.txt", M.lsmod(loaded, used), "lsmod", exec_argv=["lsmod"])
    # not root: /proc/modules shows zero addresses (kptr_restrict)
    b.add("modules/proc-modules.txt", re.sub(r"Live 0x[0-9a-f]{16}", "Live 0x0000000000000000", M.proc_modules(loaded, used)),
          "proc_modules", source="/proc/modules")
    b.add("modules/sysfs.tsv", M.sysfs_tsv(loaded, used), "module_sysfs_tsv", source="/sys/module")
    b.add("modules/tree.tsv", world.tree_tsv(), "module_tree_tsv", source="/lib/modules")
    for name in M.LOAD_ORDER:
        b.add("modules/modinfo/%s/%s.txt" % (KVER, name), world.modinfo(name), "modinfo", exec_argv=["modinfo", "-k", KVER, name])
    for name in M.LOAD_ORDER:
        b.add("modules/modprobe-deps/%s/%s.txt" % (KVER, name), world.show_depends(name), "modprobe_show_depends",
              exec_argv=["modprobe", "-S", KVER, "--show-depends", name])
    for name in M.LOAD_ORDER:
        b.add("modules/modprobe-dry-run/%s.txt" % name, "", "modprobe_dry_run", exec_argv=["modprobe", "-n", "-v", name])
    b.add("modules/modules.dep.txt", world.modules_dep_txt(), "modules_dep", source="/lib/modules/*/modules.dep")
    b.add("modules/config/etc/modprobe.d/firewalld-sysctls.conf",
          "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && "
          "/usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n",
          "modprobe_config", source="/etc/modprobe.d/firewalld-sysctls.conf")
    b.add("modules/config/usr/lib/modprobe.d/dist-blacklist.conf",
          "#\n# Listing a module here prevents the hotplug scripts from loading it.\n#\n\n# watchdog drivers\nblacklist i8xx_tco\n\n"
          "# framebuffer drivers\nblacklist aty128fb\nblacklist atyfb\nblacklist radeonfb\n",
          "modprobe_config", source="/usr/lib/modprobe.d/dist-blacklist.conf")
    b.note("modules/initramfs-%s.txt" % KVER, "denied", "permission",
           exec_argv=["lsinitrd", "/boot/initramfs-%s.img" % KVER], rc=1, error="EACCES")
    b.note("modules/dkms-status.txt", "absent", "tool_missing", exec_argv=["dkms", "status"], error="dkms_not_found")
    b.note("modules/dkms-tree.txt", "absent", "source_missing", source="/var/lib/dkms/davinci_ascend")
    # Ascend installation
    b.add("ascend/driver-version.info", A.DRIVER_26_0_RC1, "driver_version_info",
          source="/usr/local/Ascend/driver/version.info", source_mtime=T_DRIVER_INSTALL + 88)
    b.add("ascend/firmware-version.info", A.FIRMWARE_9_0_0_0_205, "firmware_version_info",
          source="/usr/local/Ascend/firmware/version.info", source_mtime=T_DRIVER_INSTALL + 701)
    b.add("ascend/ascend_install.info", A.ASCEND_INSTALL_INFO, "ascend_install_info", source="/etc/ascend_install.info",
          source_mtime=T_DRIVER_INSTALL + 702)
    toolkit, ops = A.cann_files("9.1.0", CANN)
    for cid, files in (("c1", toolkit), ("c2", ops)):
        for rel, text in files.items():
            k = "cann_install_info" if rel.endswith("_install.info") else "cann_version_info"
            b.add("ascend/cann/%s/%s" % (cid, rel), text, k, source="%s/%s" % (CANN, rel))
    b.add("ascend/cann/index.tsv", A.cann_index([["c1", CANN, "toolkit", "9.1.0", CANN, "host"],
                                                 ["c2", CANN, "ops", "9.1.0", CANN, "host"]]),
          "cann_index_tsv", source="collector scan of /usr/local/Ascend")
    prow = [[CANN_LINK, "1", "l", CANN, "host"], [CANN, "1", "d", CANN, "host"],
            ["/usr/local/Ascend/ascend-toolkit/latest", "0", "-", "", "host"],
            ["/usr/local/Ascend/driver", "1", "d", "/usr/local/Ascend/driver", "host"]]
    for pid in RANKS:
        for d in [CANN_LINK, CANN_LINK + "/opp", CANN_LINK + "/toolkit", CANN_LINK + "/lib64",
                  CANN_LINK + "/lib64/plugin/opskernel", CANN_LINK + "/lib64/plugin/nnengine",
                  CANN_LINK + "/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/aarch64",
                  "/usr/local/Ascend/driver/lib64", "/usr/local/Ascend/driver/lib64/common",
                  "/usr/local/Ascend/driver/lib64/driver", CANN_LINK + "/python/site-packages",
                  CANN_LINK + "/opp/built-in/op_impl/ai_core/tbe"]:
            resolved = d.replace(CANN_LINK, CANN)
            if resolved.startswith(CANN + "/lib64"):
                resolved = resolved.replace(CANN + "/lib64", CANN + "/aarch64-linux/lib64")
            typ = "l" if d in (CANN_LINK, CANN_LINK + "/lib64") else "d"
            prow.append([d, "1", typ, resolved, "pid:%d" % pid])
    b.add("ascend/paths.tsv", A.paths_tsv(prow), "ascend_paths_tsv", source="collector path checks")
    b.note("ascend/seclog/ascend_install.log", "denied", "permission", source="/var/log/ascend_seclog/ascend_install.log", error="EACCES")
    b.note("ascend/seclog/operation.log", "denied", "permission", source="/var/log/ascend_seclog/operation.log", error="EACCES")
    rows = []
    for i, addr in enumerate(NPUS):
        rows.append(dict(id=i, name="910B3", health="OK", power=318.4 + i * 4.1, temp=52 + i % 4,
                         bus="0000:" + addr[5:].upper(), aicore=78 + (i * 5) % 17, hbm_used=51873 + i * 211, hbm_total=65536))
    procs = {i: [(pid, "python3", 50688 + i * 211)] for i, pid in enumerate(RANKS)}
    b.add("ascend/npu-smi-info.txt", A.npu_smi_info("26.0.rc1", rows, procs), "npu_smi_info", exec_argv=["npu-smi", "info"],
          duration_ms=2012)
    b.add("ascend/npu-smi-map.txt", A.npu_smi_map(rows, "Ascend 910B3"), "npu_smi_map", exec_argv=["npu-smi", "info", "-m"],
          duration_ms=877)
    for r in rows:
        b.add("ascend/npu-smi-health-%d-0.txt" % r["id"], A.npu_smi_health(), "npu_smi_health",
              exec_argv=["npu-smi", "info", "-t", "health", "-i", str(r["id"]), "-c", "0"], duration_ms=598)
    for k in (1, 2):
        for r in rows:
            b.add("ascend/npu-smi-usages-%d-0.%d.txt" % (r["id"], k),
                  A.npu_smi_usages(iso_utc(b.clock), r["id"], 6, 79 + r["id"] % 3, r["aicore"] - 3 * k + (r["id"] % 2) * 4,
                                   r["temp"], r["power"]),
                  "npu_smi_usages", exec_argv=["npu-smi", "info", "-t", "usages", "-i", str(r["id"]), "-c", "0"], duration_ms=541)
        b.tick(5.0)
    b.add("ascend/hccn.conf", A.hccn_conf(range(8)), "hccn_conf", source="/etc/hccn.conf", source_mtime=T(2026, 8, 27, 11, 2, 40))
    for i in range(8):
        b.add("ascend/hccn-link-%d.txt" % i, A.hccn_link(i, b.clock, T_BOOT + 61.0 + i), "hccn_link",
              exec_argv=["hccn_tool", "-i", str(i), "-link", "-g"], duration_ms=312)
    b.note("ascend/device-logs", "skipped", "option", error="needs --device-logs")
    # processes
    plogs = {}
    for rank, pid in enumerate(RANKS):
        w, run = rank_plog(rank, pid)
        dev = device_log(pid, rank, w.first_time() + 1.4, T_COLLECT - 3, intid("devpid%d" % pid, 2000, 9000),
                         [4100 + rank * 10 + k for k in range(4)])
        plogs[pid] = (w, run, dev)
    for rank, pid in enumerate(RANKS):
        w, run, dev = plogs[pid]
        base = "processes/%d/" % pid
        src = "/proc/%d/" % pid
        args = [CONDA + "/bin/python3.10", "-u", "train_sft.py", "--config", "configs/qwen7b_sft.yaml",
                "--deepspeed", "configs/ds_zero1.json", "--local-rank=%d" % rank]
        b.add(base + "cmdline", P.nul(args), "proc_cmdline", source=src + "cmdline")
        b.add(base + "environ", P.nul(environ(rank)), "proc_environ", source=src + "environ")
        devices = [("/dev/devmm_svm", 523, 0x100000000000, 0x40000000000)]
        b.add(base + "maps", P.maps("rank%d" % rank, CONDA + "/lib/python3.10", SITE, CANN + "/aarch64-linux/lib64",
                                    "/usr/local/Ascend/driver", [], devices).replace("/usr/bin/python3.10", CONDA + "/bin/python3.10"),
              "proc_maps", source=src + "maps")
        b.add(base + "status", P.status(pid, LAUNCHER, "python3.10", "R", 1000, 1000, [1000, 1001, 190], 16, 58118144, 163577856, 88412),
              "proc_status", source=src + "status")
        start = int((T_LAUNCH + 6.2 - T_BOOT) * 100)
        b.add(base + "stat", P.stat_line(pid, "python3.10", "R", LAUNCHER, LAUNCHER, 19988, 34816, 16, start, 151200 + rank * 311,
                                         9920, 167503724544, 14529536, 24 * rank + 1, minflt=19220417) + "\n",
              "proc_stat", source=src + "stat")
        b.add(base + "mountinfo", H.mountinfo("openeuler"), "proc_mountinfo", source=src + "mountinfo")
        b.add(base + "cgroup", "0::/user.slice/user-1000.slice/session-88.scope\n", "proc_cgroup", source=src + "cgroup")
        fds = [["0", "/dev/null"], ["1", "pipe:[%d]" % (8812001 + rank)], ["2", "pipe:[%d]" % (8812001 + rank)],
               ["3", "/dev/davinci_manager"], ["4", "/dev/devmm_svm"], ["5", "/dev/davinci%d" % rank], ["6", "/dev/hisi_hdc"],
               ["7", "anon_inode:[eventfd]"], ["8", "socket:[%d]" % (8813100 + rank)], ["9", "socket:[%d]" % (8813200 + rank)],
               ["10", "/home/ma-user/ascend/log/debug/plog/plog-%d_%s.log" % (pid, timeutil.plog_file_ts(w.first_time()))],
               ["11", "/home/ma-user/ascend/log/run/plog/plog-%d_%s.log" % (pid, timeutil.plog_file_ts(run.first_time()))],
               ["12", "/dev/shm/torch_%d_%d" % (pid, 3390 + rank)]]
        b.add(base + "fd.tsv", P.fd_tsv(fds), "proc_fd_tsv", source=src + "fd")
        b.add(base + "exe.txt", CONDA + "/bin/python3.10\n", "proc_exe", exec_argv=["readlink", src + "exe"])
        b.add(base + "root.txt", "/\n", "proc_root", exec_argv=["readlink", src + "root"])
        b.add(base + "tz.txt", P.tz_txt(""), "proc_tz_txt", source=src + "root/etc/localtime")
        b.add(base + "localtime.tzif", H.TZIF, "localtime_tzif", source=src + "root/etc/localtime")
        b.add(base + "packages.tsv", packages(), "packages_tsv", source=SITE)
        b.add(base + "torch_npu-version.py", P.torch_npu_version_py("2.9.0.post6", hexid("torch_npu v2.9.0-26.1.0", 40)),
              "torch_npu_version_py", source=SITE + "/torch_npu/version.py")
        up = b.clock - T_BOOT
        b.add(base + "threads.1.txt", threads(pid, rank, 1, up, start), "thread_sample", source=src + "task")
        b.add(base + "threads.2.txt", threads(pid, rank, 2, up + 2.01, start), "thread_sample", source=src + "task")
    rows = [[n, v, "/usr/lib64/python3.9/site-packages", "dist-info" if n != "rpm" else "egg-info"]
            for n, v in [("dbus-python", "1.2.18"), ("distro", "1.6.0"), ("PyYAML", "5.4.1"), ("six", "1.16.0"),
                         ("rpm", "4.17.0"), ("urllib3", "1.26.5"), ("requests", "2.26.0")]]
    b.add("python/packages.tsv", P.packages_tsv(rows), "packages_tsv", exec_argv=["python3", "-I", "-S", "-c", "<collector snippet>"])
    b.note("python/pip-list.json", "skipped", "option", error="needs --pip")
    b.add("env/collector-env", P.nul(["PATH=/home/ma-user/.local/bin:/home/ma-user/bin:/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"]),
          "collector_env", source="collector environment (filtered)")
    b.add("mounts/mountinfo.txt", H.mountinfo("openeuler"), "mountinfo", source="/proc/self/mountinfo")
    index = []
    for rank, pid in enumerate(RANKS):
        w, run, dev = plogs[pid]
        for rel, obj, kind in [("debug/plog/plog-%d_%s.log" % (pid, timeutil.plog_file_ts(w.first_time())), w, "plog"),
                               ("run/plog/plog-%d_%s.log" % (pid, timeutil.plog_file_ts(run.first_time())), run, "plog"),
                               ("debug/device-%d/device-%d_%s.log" % (rank, pid, timeutil.plog_file_ts(dev.first_time())), dev, "device_log")]:
            orig = "home/ma-user/ascend/log/" + rel
            b.add("logs/host/" + orig, obj.text(), kind, source="/" + orig)
            index.append(["logs/host/" + orig, "/" + orig, "host", str(pid), "0", ""])
    b.add("logs/index.tsv", tsv(["path", "original_path", "origin", "pids", "truncated", "kept_ranges"], index),
          "logs_index_tsv", source="collector log search")
    b.add("extra/home/ma-user/jobs/sft/logs/run_0910.log", job_log(), "python_log",
          source="/home/ma-user/jobs/sft/logs/run_0910.log", source_mtime=T_COLLECT - 0.4)
    for name in ["ones_copyback", "cpu_rand_h2d", "matmul", "rand", "randn", "randint"]:
        b.note("probes/%s.json" % name, "skipped", "option", error="probes_not_requested")
    head = {"format": "ascend-bundle", "format_version": 1, "collector_version": "1.0.0", "host": HOST.name,
            "collected_at_utc": iso_utc(T_COLLECT), "finished_utc": iso_utc(b.clock + 3.2),
            "args": ["--add", "/home/ma-user/jobs/sft/logs/run_0910.log", "--max-journal-bytes", "262144"],
            "uid": 1000, "groups": ["ma-user", "HwHiAiUser", "systemd-journal"], "sudo_user": None,
            "locale": "zh_CN.UTF-8", "in_container": False, "redaction": {"kinds": []}}
    return b, head, dict(boot=bt, plogs=plogs)
