"""`healthy-after-reinstall`: the incident host `ascend-node07` the day after, once the driver
was cleanly reinstalled and the host rebooted. The baseline `ascend-triage diff` compares the
incident with (samples/healthy-after-reinstall.md).

Story (Asia/Shanghai), after incident.py's 2026-09-04:
  2026-09-05  14:02 driver 26.0.rc1 uninstalled (nothing loaded since boot B failed), stale
              DKMS tree removed (`dkms remove davinci_ascend/1.0 --all`, updates/dkms/ gone),
              CANN 8.5.0 removed; 14:11 driver 26.0.rc1 reinstalled: fresh .ko in updates/,
              depmod -a without warnings; firmware 9.0.0.0.205 kept
  2026-09-05  14:31 reboot (boot C): the 26.0.rc1 set loads cleanly; 14:52 the same training
              command starts again (torch_npu 2.9.0.post6, CANN 9.1.0), new pid; 15:20 bundle C
"""
from . import host as H
from . import incident as I
from . import kernel as K
from . import modules as M
from . import process as P
from . import timeutil
from .bundle import Bundle, hexid
from .incident_kernel import clean_boot_load, misc_runtime, process_start
from .incident_logs import CANN91, SITE
from .plog import LogWriter

T = timeutil.local_epoch
T_UNINSTALL = T(2026, 9, 5, 14, 2, 9)
T_REINSTALL = T(2026, 9, 5, 14, 11, 40)
T_KO = T(2026, 9, 5, 14, 13, 21)           # the fresh .ko files land in updates/
T_SHUT_B = T(2026, 9, 5, 14, 30, 52)
T_BOOT_C = T(2026, 9, 5, 14, 31, 47, 318000)
T_JOB_EXEC = T(2026, 9, 5, 14, 52, 3, 120000)
T_COLLECT = T(2026, 9, 5, 15, 20, 11)
JOB_PID = 7315                              # not the incident's 48213: diff pairs by script
# the full training run again, not the incident's reduced experiment (--workers 0 --amp False ...)
JOB_CMDLINE = ["python3", "train.py", "--config", "configs/retina_r50_coco.yaml", "--device", "npu:0"]
CANNS = [c for c in I.CANNS if c[1] == "9.1.0"]


def boot_c():
    b = K.Boot("C", H.uuid("boot C"), T_BOOT_C, I.HOST.name, I.HOST.machine_id)
    b.extend(I.template())
    b.extend(clean_boot_load(10.81, I.NPUS, 1022))
    b.extend(misc_runtime(T_BOOT_C, 0, "C"))
    b.extend(process_start(T_JOB_EXEC + 0.61 - T_BOOT_C, "python3", JOB_PID))
    return b


def install_log():
    """The incident's history, then the clean reinstall."""
    L = [I.install_log().rstrip("\n")]

    def log(comp, t, level, msg):
        L.append("[%s] [%s] [uid=0] [%s]%s" % (comp, timeutil.install_log_ts(t), level, msg))
    t = T_UNINSTALL
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 1, "INFO", "uninstall command: /usr/local/Ascend/driver/script/uninstall.sh")
    log("Driver", t + 19, "INFO", "Driver package uninstalled successfully!")
    L.append("[driver] [%s] dkms remove davinci_ascend/1.0 --all" % timeutil.install_log_ts(t + 130))
    L.append("[Toolkit] [%s] [INFO]: Ascend-cann-toolkit uninstall success, version 8.5.0, path %s"
             % (timeutil.install_log_ts(t + 301), I.CANN85))
    t = T_REINSTALL
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 2, "INFO", "install command: ./Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run --full")
    log("Driver", t + 4, "INFO", "base version is none.")
    log("Driver", T_KO - 1, "INFO", "copy ko to /lib/modules/%s/updates/" % I.KVER)
    log("Driver", T_KO + 4, "INFO", "depmod -a")
    log("Driver", T_KO + 9, "INFO", "Driver package installed successfully! Reboot needed for installation/upgrade to take effect!")
    log("Driver", T_KO + 10, "INFO", "End time: %s" % timeutil.install_log_ts(T_KO + 10))
    return "\n".join(L) + "\n"


def operation_log():
    rows = [("Uninstall", "MAJOR", T_UNINSTALL, "uninstall.sh", "success", "full", "--uninstall"),
            ("Install", "MINOR", T_REINSTALL, "Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run", "success", "full", "--full")]
    return I.operation_log() + "".join("%s %s root %s 127.0.0.1 %s %s install_type=%s; cmdlist=%s.\n"
                                       % (op, sev, timeutil.install_log_ts(t), run, res, it, cmd)
                                       for op, sev, t, run, res, it, cmd in rows)


def process_files(bundle):
    base, src = "processes/%d/" % JOB_PID, "/proc/%d/" % JOB_PID
    bundle.add(base + "cmdline", P.nul(JOB_CMDLINE), "proc_cmdline", source=src + "cmdline")
    bundle.add(base + "environ", P.nul(I.job_environ()), "proc_environ", source=src + "environ")
    devices = [("/dev/devmm_svm", 523, 0x100000000000, 0x40000000000)]
    bundle.add(base + "maps", P.maps("job", "/usr/lib/python3.10", SITE, CANN91 + "/aarch64-linux/lib64",
                                     "/usr/local/Ascend/driver", [], devices), "proc_maps", source=src + "maps")
    bundle.add(base + "status", P.status(JOB_PID, 7290, "python3", "R", 0, 0, [0], 20, 24871264, 48911872, 88412),
               "proc_status", source=src + "status")
    start = int((T_JOB_EXEC - T_BOOT_C) * 100)
    bundle.add(base + "stat", P.stat_line(JOB_PID, "python3", "R", 7290, 7290, 7102, 34817, 20, start, 151200, 9120,
                                          50085756928, 6218816, 17, minflt=9120993) + "\n",
               "proc_stat", source=src + "stat")
    bundle.add(base + "mountinfo", H.mountinfo("ubuntu"), "proc_mountinfo", source=src + "mountinfo")
    bundle.add(base + "cgroup", "0::/user.slice/user-0.slice/session-3.scope\n", "proc_cgroup", source=src + "cgroup")
    fds = [["0", "/dev/null"], ["1", "/root/work/det/train_0905.log"], ["2", "/root/work/det/train_0905.log"],
           ["3", "/dev/davinci_manager"], ["4", "/dev/devmm_svm"], ["5", "/dev/davinci0"], ["6", "/dev/hisi_hdc"],
           ["7", "anon_inode:[eventfd]"], ["8", "anon_inode:[eventpoll]"]]
    bundle.add(base + "fd.tsv", P.fd_tsv(fds), "proc_fd_tsv", source=src + "fd")
    bundle.add(base + "exe.txt", "/usr/bin/python3.10\n", "proc_exe", exec_argv=["readlink", src + "exe"])
    bundle.add(base + "root.txt", "/\n", "proc_root", exec_argv=["readlink", src + "root"])
    bundle.add(base + "tz.txt", P.tz_txt(""), "proc_tz_txt", source=src + "root/etc/localtime")
    bundle.add(base + "localtime.tzif", H.TZIF, "localtime_tzif", source=src + "root/etc/localtime")
    bundle.add(base + "packages.tsv", I.job_packages(JOB_PID), "packages_tsv", source=SITE)
    bundle.add(base + "torch_npu-version.py", P.torch_npu_version_py("2.9.0.post6", hexid("torch_npu v2.9.0-26.1.0", 40)),
               "torch_npu_version_py", source=SITE + "/torch_npu/version.py")
    up = bundle.clock - T_BOOT_C
    bundle.add(base + "threads.1.txt", threads(1, up, start), "thread_sample", source=src + "task")
    bundle.tick(2.0)
    bundle.add(base + "threads.2.txt", threads(2, up + 2.02, start), "thread_sample", source=src + "task")
    bundle.note(base + "pip-list.json", "skipped", "option", error="needs --pip")


def threads(sample, uptime, start):
    """A training process at work: the main thread on the CPU, workers advancing."""
    tids = [JOB_PID] + [JOB_PID + 9 + k for k in range(10)]
    out = []
    for i, tid in enumerate(tids):
        if tid == JOB_PID:
            st, w, ut = ("R" if sample == 1 else "S"), ("0" if sample == 1 else "futex_wait_queue"), 151200 + sample * 183
        else:
            st, w, ut = "S", "do_epoll_wait" if i % 3 == 0 else "futex_wait_queue", 40 + i * 9 + sample * (i % 4)
        out.append((tid, "python3", st, ut, 2900 + i + sample * 7, w, [], start + (0 if tid == JOB_PID else 300 + i * 7)))
    return P.threads_sample(JOB_PID, 7290, 7102, uptime, out, with_stack=False)


def job_plog():
    """The job's debug plog as the collector finds it: the device opened, then heartbeats."""
    w = LogWriter(JOB_PID, "python3")
    t = T_JOB_EXEC + 7.4
    w.rt(t, "INFO", "RUNTIME", "runtime.cc:1321", JOB_PID, "Init", "runtime init success, device_id=0.")
    tm = t + 30.0
    while tm < T_COLLECT - 1:
        w.rt(tm, "INFO", "RUNTIME", "device_monitor.cc:118", JOB_PID + 7, "MonitorRun", "device_id=0, heartbeat ok, status=0.")
        tm += 30.0
    return w


def npu_rows():
    rows = I.npu_rows_a()
    for r in rows:
        if r["id"] == 0:
            r.update(power=301.6, temp=51, aicore=87, hbm_used=48211)
    return rows


def build():
    b = Bundle("healthy-after-reinstall", T_COLLECT)
    world = M.healthy_world(I.KVER, T_KO)
    bc = boot_c()
    kernels = I.HOST.kernels_tsv([[I.OLD_KVER, "0", "0", int(T(2026, 5, 20, 6, 41, 17)), int(T(2026, 5, 20, 6, 41, 9))],
                                  [I.KVER, "1", "1", int(T(2026, 8, 29, 16, 31, 44)), int(T_KO + 4)]])
    I.system_files(b, bc, T_COLLECT, kernels)
    b.add("system/pci-devices.tsv", I.HOST.pci_tsv("devdrv_device_driver"), "pci_devices_tsv", source="/sys/bus/pci/devices")
    b.add("system/lspci.txt", I.HOST.lspci(True), "lspci", exec_argv=["lspci", "-D", "-nn", "-k"])
    b.add("system/devices.txt", I.HOST.devices_txt(T_BOOT_C + 26.3), "devices_txt",
          exec_argv=["sh", "-c", "ls -l /dev/davinci* /dev/davinci_manager /dev/devmm_svm /dev/hisi_hdc"])
    cut = b.clock
    b.add("kernel/journal-b0.jsonl", bc.journal(cut), "journal_json", exec_argv=["journalctl", "-k", "-b", "0", "-o", "json", "--all"])
    b.add("kernel/boots.txt", K.list_boots([bc], cut), "boots_txt", exec_argv=["journalctl", "--list-boots", "--utc"])
    b.note("kernel/boots.json", "skipped", "tool_missing", exec_argv=["journalctl", "--list-boots", "-o", "json"],
           error="systemd_too_old")
    b.add("kernel/dmesg.txt", bc.dmesg(cut), "dmesg", exec_argv=["dmesg"])
    b.add("kernel/tainted", "12288\n", "tainted", source="/proc/sys/kernel/tainted")
    b.note("kernel/secure-boot.txt", "absent", "tool_missing", exec_argv=["mokutil", "--sb-state"], error="mokutil_not_found")
    I.module_files(b, world, dict(world.new), {"drv_devmm_host": 1, "drv_davinci_intf_host": 2, "drv_devmng_host": 1},
                   dkms=False)
    I.ascend_files(b, CANNS, (install_log(), operation_log(), T_KO + 10))
    b.add("ascend/paths.tsv", I.A.paths_tsv(I.job_paths_rows("pid:%d" % JOB_PID, old_cann=False)), "ascend_paths_tsv",
          source="collector path checks")
    rows = npu_rows()
    b.add("ascend/npu-smi-info.txt", I.A.npu_smi_info("26.0.rc1", rows, {0: [(JOB_PID, "python3", 45504)]}),
          "npu_smi_info", exec_argv=["npu-smi", "info"], duration_ms=1790)
    b.add("ascend/npu-smi-map.txt", I.A.npu_smi_map(rows, "Ascend 910B3"), "npu_smi_map",
          exec_argv=["npu-smi", "info", "-m"], duration_ms=887)
    for r in rows:
        b.add("ascend/npu-smi-health-%d-0.txt" % r["id"], I.A.npu_smi_health(), "npu_smi_health",
              exec_argv=["npu-smi", "info", "-t", "health", "-i", str(r["id"]), "-c", "0"], duration_ms=604)
    b.note("ascend/device-logs", "skipped", "option", error="needs --device-logs")
    process_files(b)
    w = job_plog()
    I.add_host_logs(b, [(I.plog_path("debug/plog", JOB_PID, w.first_time()), w.text(), "plog", str(JOB_PID))])
    I.python_packages(b)
    b.add("env/collector-env", I.collector_env(), "collector_env", source="collector environment (filtered)")
    b.add("mounts/mountinfo.txt", H.mountinfo("ubuntu"), "mountinfo", source="/proc/self/mountinfo")
    for name in I.PROBE_NAMES:
        b.note("probes/%s.json" % name, "skipped", "option", error="probes_not_requested")
    head = I.manifest_head(T_COLLECT, T_COLLECT + 41, [])
    return b, head, dict(boot_c=bc, world=world)
