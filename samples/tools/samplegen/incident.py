"""The incident host `ascend-node07` (Ubuntu 22.04, Kunpeng 920, 8 x 910B3) before and after
its reboot, and what a customer pastes instead of a bundle.

Story (all times Asia/Shanghai):
  2026-06-12  driver 25.5.1 installed with --dkms: links in updates/dkms/ into the DKMS tree
  2026-08-29  25.5.1 uninstalled while in use (rmmod failed, "Reboot needed"), 26.0.rc1 user
              space + firmware 9.0.0.0.205 installed; its .ko step failed, so only the 25.5.1
              set stayed in the module index
  2026-09-01  reboot (boot A): the 25.5.1 set loads, cleanly
  2026-09-02  torch_npu 2.8.0.post4 + CANN 8.5.0: first batch hangs (pid 31544, killed)
  2026-09-03  CANN 9.1.0 + ops installed; driver 26.0.rc1 re-run: fresh .ko in updates/,
              depmod -a; the index now mixes both sets (warnings in the install log)
  2026-09-04  09:20 torch_npu 2.9.0.post6 + CANN 9.1.0: hangs again (pid 48213); 09:55 bundle A;
              10:12 reboot; 10:15 boot B: Unknown symbol, no driver bound; 10:31 bundle B
"""
from . import ascend as A
from . import host as H
from . import kernel as K
from . import modules as M
from . import process as P
from . import timeutil
from .bundle import Bundle, LooseDir, hexid, iso_utc, json_value, tsv
from .incident_kernel import (clean_boot_load, misc_runtime, modprobe_attempts, process_exit,
                              process_start)
from .incident_logs import (CANN85, CANN91, JOB_PID, JOB_PLOG_T0, OLD_KILLED_T, OLD_PID,
                            OLD_PLOG_T0, PROBE_CODE, PROBE_NAMES, PROBE_STDOUT, SITE,
                            job_device_log, job_log, job_plogs, old_attempt_plog, probe_plog,
                            probe_stderr_507033, user_retry_plog)

T = timeutil.local_epoch
KVER = "5.15.0-119-generic"
OLD_KVER = "5.15.0-105-generic"
NPUS = ["0000:01:00.0", "0000:02:00.0", "0000:41:00.0", "0000:42:00.0",
        "0000:81:00.0", "0000:82:00.0", "0000:c1:00.0", "0000:c2:00.0"]
CMDLINE = ("BOOT_IMAGE=/vmlinuz-5.15.0-119-generic root=UUID=4c7f1e2a-93d1-4b8e-a0f6-2d5b9c31e8a7 ro "
           "console=tty0 crashkernel=1024M,high iommu.passthrough=1 quiet")
HOST = H.Host("ascend-node07", "ubuntu", KVER, "#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024", CMDLINE, NPUS,
              [OLD_KVER])

T_BOOT_OLD1 = T(2026, 7, 2, 18, 40, 11, 120000)
T_BOOT_OLD2 = T(2026, 7, 30, 9, 3, 52, 610000)
T_BOOT_PREV = T(2026, 8, 19, 9, 2, 14, 381000)
T_SHUT_PREV = T(2026, 9, 1, 8, 10, 40)
T_BOOT_A = T(2026, 9, 1, 8, 12, 5, 412000)
T_COLLECT_A = T(2026, 9, 4, 9, 55, 2)
T_JOB_EXEC = T(2026, 9, 4, 9, 20, 28, 610000)
T_SHUT_A = T(2026, 9, 4, 10, 12, 40)
T_BOOT_B = T(2026, 9, 4, 10, 15, 3, 207000)
SKEW_B = -37.0                      # boot B's clock was 37 s slow until chrony stepped it
T_NTP_STEP = T(2026, 9, 4, 10, 30, 48)
T_USER_TRY = T(2026, 9, 4, 10, 22, 31, 402000)   # true time; its plog says 10:21:54
T_COLLECT_B = T(2026, 9, 4, 10, 31, 15)
DKMS_DIR = "/var/lib/dkms/davinci_ascend/1.0/%s/aarch64/module" % KVER

BOOT_IDS = {k: H.uuid("boot " + k) for k in ("old1", "old2", "prev", "A", "B")}


# ---- kernel ---------------------------------------------------------------------------------
def template():
    return K.boot_template(KVER, HOST.uname_version, CMDLINE, 192, 1024, NPUS,
                           ["enp125s0f0", "enp125s0f1"], "ubuntu")


def simple_boot(label, start, end):
    b = K.Boot(label, BOOT_IDS[label], start, HOST.name, HOST.machine_id)
    b.extend(template())
    b.extend(clean_boot_load(10.81, NPUS, 1022))
    b.add(end - start, 6, "hns3 0000:7d:00.0 enp125s0f0: link down")
    return b


def boot_prev():
    b = simple_boot("prev", T_BOOT_PREV, T_SHUT_PREV)
    b.extend(misc_runtime(T_BOOT_PREV, 12, "prev"))
    for k, (day, hh, mm, pid, dur) in enumerate([(20, 10, 4, 120433, 5.5 * 3600), (22, 14, 21, 201877, 26 * 3600),
                                                  (25, 9, 47, 388102, 50 * 3600), (28, 16, 2, 612554, 7200)]):
        s = T(2026, 8, day, hh, mm, 11) - T_BOOT_PREV
        b.extend(process_start(s, "python3", pid))
        b.extend(process_exit(s + dur, "python3", pid, 0))
    return b


PROBES_A = {  # name -> (pid, start, outcome, duration s)
    "ones_copyback": (51002, T(2026, 9, 4, 9, 56, 40, 118000), "pass", 9.812),
    "cpu_rand_h2d": (51139, T(2026, 9, 4, 9, 56, 50, 402000), "pass", 9.604),
    "matmul": (51270, T(2026, 9, 4, 9, 57, 0, 511000), "pass", 10.231),
    "rand": (51404, T(2026, 9, 4, 9, 57, 11, 207000), "timeout", 60.012),
    "randn": (51647, T(2026, 9, 4, 9, 58, 11, 930000), "timeout", 60.009),
    "randint": (51890, T(2026, 9, 4, 9, 59, 12, 644000), "timeout", 60.011),
}
PROBE_DEVICE_A = 1
PROBES_B = {name: (6215 + 37 * i, T(2026, 9, 4, 10, 32, 41, 0) + 4.9 * i, "open_failed", 3.6 + 0.07 * i)
            for i, name in enumerate(PROBE_NAMES)}


def boot_a():
    b = K.Boot("A", BOOT_IDS["A"], T_BOOT_A, HOST.name, HOST.machine_id)
    b.extend(template())
    b.extend(clean_boot_load(10.81, NPUS, 1022))
    b.extend(misc_runtime(T_BOOT_A, 3, "A"))
    b.extend(process_start(OLD_PLOG_T0 - 0.61 - T_BOOT_A, "python3", OLD_PID))
    b.extend(process_exit(OLD_KILLED_T + 0.42 - T_BOOT_A, "python3", OLD_PID, 0))
    b.extend(process_start(JOB_PLOG_T0 - 0.44 - T_BOOT_A, "python3", JOB_PID))
    for name, (pid, start, outcome, dur) in PROBES_A.items():
        b.extend(process_start(start + 2.9 - T_BOOT_A, "python3", pid))
        b.extend(process_exit(start + dur - 0.05 - T_BOOT_A, "python3", pid, PROBE_DEVICE_A))
    # at shutdown the hung training process is killed
    b.extend(process_exit(T(2026, 9, 4, 10, 12, 31, 118000) - T_BOOT_A, "python3", JOB_PID, 0))
    b.add(T_SHUT_A - T_BOOT_A - 0.6, 6, "hns3 0000:7d:00.0 enp125s0f0: link down")
    return b


def boot_b(world):
    b = K.Boot("B", BOOT_IDS["B"], T_BOOT_B, HOST.name, HOST.machine_id, clock_skew_s=SKEW_B)
    b.extend(template())
    b.extend(misc_runtime(T_BOOT_B, 0, "B"))
    loaded, tainted = set(), [False]
    # udev asks for the PCI alias once per NPU function; the davinci init script then loads
    # every module; at 10:22 someone retries by hand
    attempts = [(6.8121 + (0.0 if i == 0 else 0.09 + 0.0044 * i), "modprobe:%d,%d" % (861 + 3 * i, 861 + 3 * i),
                 ["drv_pcie_host"]) for i in range(len(NPUS))]
    attempts.append((12.4113, "modprobe:1544,1544", list(M.LOAD_ORDER)))
    t_user = T(2026, 9, 4, 10, 22, 41, 880000) - T_BOOT_B
    attempts.append((t_user, "modprobe:5102,5102", ["drv_pcie_host"]))
    attempts.append((t_user + 19.2, "modprobe:5119,5119", ["drv_devmm_host"]))
    b.extend(modprobe_attempts(world, attempts, NPUS, loaded, tainted))
    b.loaded_modules = loaded
    return b


def list_only_boot(label, start, end):
    b = K.Boot(label, BOOT_IDS[label], start, HOST.name, HOST.machine_id)
    b.add(0.0, 5, "Booting Linux on physical CPU 0x0000080000 [0x481fd010]")
    b.add(end - start, 6, "hns3 0000:7d:00.0 enp125s0f0: link down")
    return b


# ---- modules ------------------------------------------------------------------------------
def module_files(bundle, world, loaded, extra_used_by, kver=KVER, dkms=True):
    bundle.add("modules/ascend-names.txt", "\n".join(M.NAME_PATTERNS) + "\n", "ascend_module_names",
               source="collector built-in list")
    bundle.add("modules/lsmod.txt", M.lsmod(loaded, extra_used_by), "lsmod", exec_argv=["lsmod"])
    bundle.add("modules/proc-modules.txt", M.proc_modules(loaded, extra_used_by), "proc_modules", source="/proc/modules")
    bundle.add("modules/sysfs.tsv", M.sysfs_tsv(loaded, extra_used_by), "module_sysfs_tsv", source="/sys/module")
    bundle.add("modules/tree.tsv", world.tree_tsv(), "module_tree_tsv", source="/lib/modules")
    for name in M.LOAD_ORDER:
        bundle.add("modules/modinfo/%s/%s.txt" % (kver, name), world.modinfo(name), "modinfo",
                   exec_argv=["modinfo", "-k", kver, name])
    for name in M.LOAD_ORDER:
        bundle.add("modules/modprobe-deps/%s/%s.txt" % (kver, name), world.show_depends(name),
                   "modprobe_show_depends", exec_argv=["modprobe", "-S", kver, "--show-depends", name])
    for name in M.LOAD_ORDER:
        bundle.add("modules/modprobe-dry-run/%s.txt" % name, world.dry_run(name, set(loaded)),
                   "modprobe_dry_run", exec_argv=["modprobe", "-n", "-v", name])
    bundle.add("modules/modules.dep.txt", world.modules_dep_txt(), "modules_dep",
               source="/lib/modules/*/modules.dep")
    for path, text in MODPROBE_CONFIG.items():
        bundle.add("modules/config" + path, text, "modprobe_config", source=path)
    bundle.add("modules/initramfs-%s.txt" % kver, "", "initramfs_list",
               exec_argv=["lsinitramfs", "/boot/initrd.img-%s" % kver])
    if not dkms:  # removed with `dkms remove --all`: dkms status lists nothing
        bundle.add("modules/dkms-status.txt", "", "dkms_status", exec_argv=["dkms", "status"])
        bundle.note("modules/dkms-tree.txt", "absent", "source_missing", source="/var/lib/dkms/davinci_ascend")
        return
    bundle.add("modules/dkms-status.txt", "davinci_ascend/1.0, %s, aarch64: installed\n" % kver, "dkms_status",
               exec_argv=["dkms", "status"])
    bundle.add("modules/dkms-status.txt.err",
               "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/davinci_ascend/1.0/source/dkms.conf does not exist.\n",
               "step_stderr", source="stderr of modules/dkms-status.txt")
    bundle.add("modules/dkms-tree.txt", dkms_tree(), "dkms_tree",
               exec_argv=["ls", "-lR", "/var/lib/dkms/davinci_ascend"])


MODPROBE_CONFIG = {
    "/etc/depmod.d/ubuntu.conf": "search updates ubuntu built-in\n",
    "/etc/modprobe.d/blacklist.conf": (
        "# This file lists those modules which we don't want to be loaded by\n"
        "# alias expansion, usually so some other driver will be loaded for the\n"
        "# device instead.\n\n# evbug is a debug tool that should be loaded explicitly\nblacklist evbug\n\n"
        "# these drivers are very simple, the HID drivers are usually preferred\nblacklist usbmouse\nblacklist usbkbd\n\n"
        "# replaced by e100\nblacklist eepro100\n\n# replaced by tulip\nblacklist de4x5\n"),
    "/etc/modprobe.d/mdadm.conf": (
        "# mdadm module configuration file\n# set start_ro=1 to make newly assembled arrays read-only initially,\n"
        "# to prevent metadata writes.  This is needed in order to allow\n# resume-from-disk to work - new boot should not perform writes\n"
        "# because it will be done behind the back of the system being\n# resumed.  See http://bugs.debian.org/415441 for details.\n\n"
        "options md_mod start_ro=1\n"),
    "/etc/modules-load.d/modules.conf": (
        "# /etc/modules: kernel modules to load at boot time.\n#\n"
        "# This file contains the names of kernel modules that should be loaded\n"
        "# at boot time, one per line. Lines beginning with \"#\" are ignored.\n"),
    "/lib/modprobe.d/aliases.conf": (
        "# Aliases to tell insmod/modprobe which modules to use\n\n"
        "# Uncomment the network protocols you don't want loaded:\n# alias net-pf-1 off\t\t# Unix\n"
        "alias net-pf-3 off\t\t# Amateur Radio AX.25\nalias net-pf-6 off\t\t# Amateur Radio NET/ROM\n"),
}


def dkms_tree():
    d = timeutil.ls_date
    lines = ["/var/lib/dkms/davinci_ascend:", "total 4",
             "drwxr-xr-x 3 root root 4096 %s 1.0" % d(T(2026, 6, 12, 10, 14, 2)),
             "lrwxrwxrwx 1 root root   34 %s kernel-%s-aarch64 -> 1.0/%s/aarch64" % (d(T(2026, 6, 12, 10, 16, 37)), KVER, KVER),
             "", "/var/lib/dkms/davinci_ascend/1.0:", "total 4",
             "drwxr-xr-x 3 root root 4096 %s %s" % (d(T(2026, 6, 12, 10, 14, 9)), KVER),
             "lrwxrwxrwx 1 root root   27 %s source -> /usr/src/davinci_ascend-1.0" % d(T(2026, 6, 12, 10, 14, 2)),
             "", "/var/lib/dkms/davinci_ascend/1.0/%s:" % KVER, "total 4",
             "drwxr-xr-x 4 root root 4096 %s aarch64" % d(T(2026, 6, 12, 10, 16, 36)),
             "", "/var/lib/dkms/davinci_ascend/1.0/%s/aarch64:" % KVER, "total 8",
             "drwxr-xr-x 2 root root 4096 %s log" % d(T(2026, 6, 12, 10, 15, 59)),
             "drwxr-xr-x 2 root root 4096 %s module" % d(T(2026, 6, 12, 10, 16, 36)),
             "", "/var/lib/dkms/davinci_ascend/1.0/%s/aarch64/log:" % KVER, "total 212",
             "-rw-r--r-- 1 root root 214877 %s make.log" % d(T(2026, 6, 12, 10, 15, 59)),
             "", "%s:" % DKMS_DIR]
    total = sum(M.MODULES[n][1] for n in M.LOAD_ORDER) // 1024
    lines.append("total %d" % total)
    for name in sorted(M.LOAD_ORDER):
        lines.append("-rw-r--r-- 1 root root %7d %s %s.ko" % (M.MODULES[name][1],
                     d(T(2026, 6, 12, 10, 15, 58) + M.LOAD_ORDER.index(name) * 1.7), name))
    return "\n".join(lines) + "\n"


def kernels_tsv():
    rows = [[OLD_KVER, "0", "0", int(T(2026, 5, 20, 6, 41, 17)), int(T(2026, 5, 20, 6, 41, 9))],
            [KVER, "1", "1", int(T(2026, 8, 29, 16, 31, 44)), int(T(2026, 9, 3, 14, 9, 37))]]
    return HOST.kernels_tsv(rows)


# ---- Ascend installation --------------------------------------------------------------------
def install_log():
    L = []

    def log(comp, t, level, msg, uid=True):
        if uid:
            L.append("[%s] [%s] [uid=0] [%s]%s" % (comp, timeutil.install_log_ts(t), level, msg))
        else:
            L.append("[%s] [%s] [%s]%s" % (comp, timeutil.install_log_ts(t), level, msg))
    t = T(2026, 6, 12, 10, 5, 11)
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 1, "INFO", "LogFile: /var/log/ascend_seclog/ascend_install.log")
    log("Driver", t + 1, "INFO", "OperationLogFile: /var/log/ascend_seclog/operation.log")
    log("Driver", t + 2, "INFO", "base version is none.")
    log("Driver", t + 3, "INFO", "install command: ./Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run --full --dkms")
    L.append("[driver] [%s] dkms add -m davinci_ascend -v 1.0" % timeutil.install_log_ts(t + 531))
    L.append("[driver] [%s] dkms build -m davinci_ascend -v 1.0 -k %s" % (timeutil.install_log_ts(t + 532), KVER))
    L.append("[driver] [%s] dkms install -m davinci_ascend -v 1.0 -k %s" % (timeutil.install_log_ts(t + 648), KVER))
    L.append("[driver] [%s] davinci_ascend/1.0 installed to /lib/modules/%s/updates/dkms" % (timeutil.install_log_ts(t + 686), KVER))
    log("Driver", t + 689, "INFO", "modprobe drv_seclib_host success")
    log("Driver", t + 702, "INFO", "Driver package installed successfully! The new version takes effect immediately.")
    log("Driver", t + 703, "INFO", "End time: %s" % timeutil.install_log_ts(t + 703))
    t = T(2026, 6, 12, 10, 31, 40)
    log("Firmware", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Firmware", t + 2, "INFO", "install command: ./Ascend-hdk-910b-npu-firmware_7.8.0.6.201.run --full")
    log("Firmware", t + 311, "INFO", "Firmware package installed successfully! Reboot now or after driver installation for the installation/upgrade to take effect.")
    t = T(2026, 6, 12, 11, 2, 5)
    L.append("[Toolkit] [%s] [INFO]: Start to install Ascend-cann-toolkit_8.5.0_linux-aarch64.run, install path /usr/local/Ascend" % timeutil.install_log_ts(t))
    L.append("[Toolkit] [%s] [INFO]: Ascend-cann-toolkit install success, version 8.5.0, path %s" % (timeutil.install_log_ts(t + 402), CANN85))
    L.append("[Ops] [%s] [INFO]: Ascend-cann-910b-ops install success, version 8.5.0, path %s" % (timeutil.install_log_ts(t + 771), CANN85))
    # 2026-08-29: uninstall of 25.5.1 while in use, install of 26.0.rc1
    t = T(2026, 8, 29, 16, 2, 31)
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 1, "INFO", "uninstall command: /usr/local/Ascend/driver/script/uninstall.sh")
    for i, name in enumerate(["drv_dvpp_cmdlist", "drv_devmm_host_agent", "drv_devmm_host", "drv_pcie_host"]):
        log("Driver", t + 3 + i, "WARNING", "rmmod %s failed, the module is in use." % name)
    log("Driver", t + 8, "WARNING", "some driver ko are still in use, skip removing ko.")
    log("Driver", t + 11, "INFO", "remove dkms source /usr/src/davinci_ascend-1.0")
    log("Driver", t + 12, "WARNING", "dkms remove davinci_ascend/1.0 skipped, the modules are in use.")
    log("Driver", t + 19, "INFO", "Driver package uninstalled successfully! Reboot needed for uninstallation to take effect!")
    t = T(2026, 8, 29, 16, 21, 7)
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 2, "INFO", "install command: ./Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run --full")
    log("Driver", t + 4, "INFO", "base version is none.")
    log("Driver", t + 61, "WARNING", "linux-headers-%s not found, dkms compile skipped, use prebuilt ko." % KVER)
    log("Driver", t + 64, "ERROR", "driver ko are in use, cannot replace them now.")
    log("Driver", t + 64, "ERROR", "Driver_ko_install failed, details in : /var/log/ascend_seclog/ascend_install.log", uid=False)
    log("Driver", t + 97, "INFO", "Driver package installed successfully! Reboot needed for installation/upgrade to take effect!")
    t = T(2026, 8, 29, 16, 31, 2)
    log("Firmware", t, "INFO", "install command: ./Ascend-hdk-910b-npu-firmware_9.0.0.0.205.run --full")
    log("Firmware", t + 281, "INFO", "Firmware package installed successfully! Reboot now or after driver installation for the installation/upgrade to take effect.")
    # 2026-09-03: CANN 9.1.0, driver re-run
    t = T(2026, 9, 3, 13, 48, 17)
    L.append("[Toolkit] [%s] [INFO]: Start to install Ascend-cann-toolkit_9.1.0_linux-aarch64.run, install path /usr/local/Ascend" % timeutil.install_log_ts(t))
    L.append("[Toolkit] [%s] [INFO]: Ascend-cann-toolkit install success, version 9.1.0, path %s" % (timeutil.install_log_ts(t + 388), CANN91))
    L.append("[Toolkit] [%s] [INFO]: create softlink /usr/local/Ascend/cann -> %s" % (timeutil.install_log_ts(t + 389), CANN91))
    L.append("[Ops] [%s] [INFO]: Ascend-cann-910b-ops install success, version 9.1.0, path %s" % (timeutil.install_log_ts(t + 802), CANN91))
    t = T(2026, 9, 3, 14, 7, 2)
    log("Driver", t, "INFO", "Start time: %s" % timeutil.install_log_ts(t))
    log("Driver", t + 2, "INFO", "install command: ./Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run --full --force")
    log("Driver", t + 3, "INFO", "base version is 26.0.rc1.")
    log("Driver", t + 106, "INFO", "copy ko to /lib/modules/%s/updates/" % KVER)
    log("Driver", t + 152, "INFO", "depmod -a")
    world = M.incident_world(KVER)
    for w in world.depmod_warnings():
        log("Driver", t + 155, "WARNING", w)
    log("Driver", t + 158, "WARNING", "modprobe drv_seclib_host skipped, the module is already loaded.")
    log("Driver", t + 171, "INFO", "Driver package installed successfully! Reboot needed for installation/upgrade to take effect!")
    log("Driver", t + 172, "INFO", "End time: %s" % timeutil.install_log_ts(t + 172))
    return "\n".join(L) + "\n"


def operation_log():
    rows = [
        ("Install", "MINOR", T(2026, 6, 12, 10, 5, 11), "Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run", "success", "full", "--full --dkms"),
        ("Install", "MINOR", T(2026, 6, 12, 10, 31, 40), "Ascend-hdk-910b-npu-firmware_7.8.0.6.201.run", "success", "full", "--full"),
        ("Uninstall", "MAJOR", T(2026, 8, 29, 16, 2, 31), "uninstall.sh", "success", "full", "--uninstall"),
        ("Install", "MINOR", T(2026, 8, 29, 16, 21, 7), "Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run", "success", "full", "--full"),
        ("Upgrade", "MINOR", T(2026, 8, 29, 16, 31, 2), "Ascend-hdk-910b-npu-firmware_9.0.0.0.205.run", "success", "full", "--full"),
        ("Install", "MINOR", T(2026, 9, 3, 14, 7, 2), "Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run", "success", "full", "--full --force"),
    ]
    return "".join("%s %s root %s 127.0.0.1 %s %s install_type=%s; cmdlist=%s.\n"
                   % (op, sev, timeutil.install_log_ts(t), run, res, it, cmd)
                   for op, sev, t, run, res, it, cmd in rows)


CANNS = [("c1", "9.1.0", CANN91, "toolkit"), ("c2", "9.1.0", CANN91, "ops"),
         ("c3", "8.5.0", CANN85, "toolkit"), ("c4", "8.5.0", CANN85, "ops")]


def cann_install_files(bundle, canns=CANNS):
    rows = []
    for cid, ver, root, kind in canns:
        rows.append([cid, root, kind, ver, root, "host"])
        toolkit, ops = A.cann_files(ver, root)
        for rel, text in (toolkit if kind == "toolkit" else ops).items():
            k = "cann_install_info" if rel.endswith("_install.info") else "cann_version_info"
            bundle.add("ascend/cann/%s/%s" % (cid, rel), text, k, source="%s/%s" % (root, rel))
    bundle.add("ascend/cann/index.tsv", A.cann_index(rows), "cann_index_tsv", source="collector scan of /usr/local/Ascend")


def ascend_files(bundle, canns=CANNS, seclog=None):
    """seclog: (ascend_install.log, operation.log, mtime) when they differ from the incident's."""
    bundle.add("ascend/driver-version.info", A.DRIVER_26_0_RC1, "driver_version_info",
               source="/usr/local/Ascend/driver/version.info", source_mtime=T(2026, 8, 29, 16, 22, 40))
    bundle.add("ascend/firmware-version.info", A.FIRMWARE_9_0_0_0_205, "firmware_version_info",
               source="/usr/local/Ascend/firmware/version.info", source_mtime=T(2026, 8, 29, 16, 35, 41))
    bundle.add("ascend/ascend_install.info", A.ASCEND_INSTALL_INFO, "ascend_install_info",
               source="/etc/ascend_install.info", source_mtime=T(2026, 9, 3, 14, 9, 54))
    cann_install_files(bundle, canns)
    install, operation, mtime = seclog or (install_log(), operation_log(), T(2026, 9, 3, 14, 9, 54))
    bundle.add("ascend/seclog/ascend_install.log", install, "ascend_seclog",
               source="/var/log/ascend_seclog/ascend_install.log", source_mtime=mtime)
    bundle.add("ascend/seclog/operation.log", operation, "ascend_seclog",
               source="/var/log/ascend_seclog/operation.log", source_mtime=mtime)
    bundle.add("ascend/hccn.conf", A.hccn_conf(range(8)), "hccn_conf", source="/etc/hccn.conf",
               source_mtime=T(2026, 6, 12, 12, 10, 3))


def npu_rows_a():
    rows = []
    for i, addr in enumerate(NPUS):
        busy = i == 0
        rows.append(dict(id=i, name="910B3", health="OK", power=98.7 if busy else 71.2 + i * 0.9,
                         temp=39 if busy else 34 + i % 3, bus="0000:" + addr[5:].upper(),
                         aicore=0, hbm_used=24871 if busy else 3392, hbm_total=65536))
    return rows


def npu_smi_files_a(bundle, t_utc):
    rows = npu_rows_a()
    bundle.add("ascend/npu-smi-info.txt", A.npu_smi_info("26.0.rc1", rows, {0: [(JOB_PID, "python3", 21504)]}),
               "npu_smi_info", exec_argv=["npu-smi", "info"], duration_ms=1811)
    bundle.add("ascend/npu-smi-map.txt", A.npu_smi_map(rows, "Ascend 910B3"), "npu_smi_map",
               exec_argv=["npu-smi", "info", "-m"], duration_ms=902)
    for r in rows:
        bundle.add("ascend/npu-smi-health-%d-0.txt" % r["id"], A.npu_smi_health(), "npu_smi_health",
                   exec_argv=["npu-smi", "info", "-t", "health", "-i", str(r["id"]), "-c", "0"], duration_ms=611)
    for k in (1, 2):
        for r in rows:
            busy = r["id"] == 0
            bundle.add("ascend/npu-smi-usages-%d-0.%d.txt" % (r["id"], k),
                       A.npu_smi_usages(iso_utc(bundle.clock), r["id"], 4, 38 if busy else 5, 0, r["temp"], r["power"]),
                       "npu_smi_usages", exec_argv=["npu-smi", "info", "-t", "usages", "-i", str(r["id"]), "-c", "0"],
                       duration_ms=534)
        bundle.tick(5.0)


# ---- processes --------------------------------------------------------------------------
JOB_CMDLINE = ["python3", "train.py", "--config", "configs/retina_r50_coco.yaml", "--workers", "0",
               "--batch-size", "1", "--amp", "False", "--no-pin-memory", "--device", "npu:0"]


def job_environ():
    c = CANN91
    ld = ":".join([c + "/lib64", c + "/lib64/plugin/opskernel", c + "/lib64/plugin/nnengine",
                   c + "/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/aarch64",
                   "/usr/local/Ascend/driver/lib64", "/usr/local/Ascend/driver/lib64/common",
                   "/usr/local/Ascend/driver/lib64/driver"])
    path = ":".join([c + "/bin", c + "/tools/ccec_compiler/bin", c + "/tools/profiler/bin",
                     c + "/tools/ascend_system_advisor/asys", c + "/tools/show_kernel_debug_data",
                     c + "/tools/msobjdump", "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin",
                     "/sbin", "/bin", "/snap/bin"])
    return [
        "SHELL=/bin/bash", "PWD=/root/work/det", "LOGNAME=root", "XDG_SESSION_TYPE=tty",
        "HOME=/root", "LANG=en_US.UTF-8", "SSH_CONNECTION=10.20.4.31 52114 10.20.7.107 22",
        "XDG_SESSION_CLASS=user", "TERM=xterm-256color", "USER=root", "SHLVL=1", "XDG_SESSION_ID=214",
        "XDG_RUNTIME_DIR=/run/user/0", "SSH_CLIENT=10.20.4.31 52114 22",
        "ASCEND_HOME_PATH=" + c, "ASCEND_TOOLKIT_HOME=" + c, "ASCEND_OPP_PATH=" + c + "/opp",
        "ASCEND_AICPU_PATH=" + c, "TOOLCHAIN_HOME=" + c + "/toolkit",
        "LD_LIBRARY_PATH=" + ld, "PATH=" + path,
        "PYTHONPATH=%s/python/site-packages:%s/opp/built-in/op_impl/ai_core/tbe:" % (c, c),
        "CMAKE_PREFIX_PATH=" + c + "/lib64/cmake:" + c + "/aarch64-linux/lib64/cmake",
        "ASCEND_GLOBAL_LOG_LEVEL=1", "ASCEND_GLOBAL_EVENT_ENABLE=1", "ASCEND_SLOG_PRINT_TO_STDOUT=0",
        "TASK_QUEUE_ENABLE=2", "HCCL_CONNECT_TIMEOUT=1200", "WANDB_API_KEY=<redacted>",
        "OLDPWD=/root", "_=/usr/bin/nohup",
    ]


def job_paths_rows(pid_tag, old_cann=True):
    """Host links and, when a process was collected, every directory its variables name."""
    c = CANN91
    rows = [["/usr/local/Ascend/cann", "1", "l", c, "host"],
            [c, "1", "d", c, "host"]]
    if old_cann:
        rows.append([CANN85, "1", "d", CANN85, "host"])
    rows += [["/usr/local/Ascend/ascend-toolkit/latest", "0", "-", "", "host"],
             ["/usr/local/Ascend/driver", "1", "d", "/usr/local/Ascend/driver", "host"]]
    for d in [c, c + "/opp", c + "/toolkit", c + "/lib64", c + "/lib64/plugin/opskernel", c + "/lib64/plugin/nnengine",
              c + "/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/aarch64", "/usr/local/Ascend/driver/lib64",
              "/usr/local/Ascend/driver/lib64/common", "/usr/local/Ascend/driver/lib64/driver",
              c + "/python/site-packages", c + "/opp/built-in/op_impl/ai_core/tbe"]:
        resolved = d.replace(c + "/lib64", c + "/aarch64-linux/lib64") if d.startswith(c + "/lib64") else d
        if pid_tag:
            rows.append([d, "1", "l" if d == c + "/lib64" else "d", resolved, pid_tag])
    return rows


def job_packages(pid):
    rows = []
    for name, ver in P.PY_PACKAGES:
        n = {"torch-npu": "torch_npu", "pyyaml": "PyYAML", "typing-extensions": "typing_extensions",
             "jinja2": "Jinja2", "markupsafe": "MarkupSafe", "pillow": "pillow"}.get(name, name)
        rows.append([n, ver, SITE, "dist-info"])
    for name, ver in P.DIST_PACKAGES:
        rows.append([name, ver, "/usr/lib/python3/dist-packages", "egg-info" if name in ("netifaces", "dbus-python") else "dist-info"])
    rows.append(["det-toolkit", "0.3.0", "/root/work/det", "editable"])
    return P.packages_tsv(rows)


def job_threads(sample, uptime):
    start = int((T_JOB_EXEC - T_BOOT_A) * 100)
    tids = [JOB_PID, 48231, 48232, 48233, 48240, 48241, 48249, 48250, 48262, 48270, 48271, 48297, 48301,
            48302, 48303, 48304, 48305, 48306, 48307, 48308]
    out = []
    for i, tid in enumerate(tids):
        comm = "python3" if tid < 48301 else "pt_autograd_%d" % (tid - 48301)
        if tid == JOB_PID:
            wchan, stack = "hrtimer_nanosleep", ["[<0>] hrtimer_nanosleep+0xb8/0x1a0", "[<0>] __arm64_sys_clock_nanosleep+0xd8/0x160",
                                                 "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc_common.constprop.0+0x4c/0x100",
                                                 "[<0>] do_el0_svc+0x30/0xa0", "[<0>] el0_svc+0x20/0x30"]
            ut = 84112 + sample * 2
        elif tid in (48231, 48262):
            wchan, stack = "futex_wait_queue", ["[<0>] futex_wait_queue+0x70/0xd0", "[<0>] futex_wait+0x15c/0x260",
                                               "[<0>] do_futex+0x130/0x1d0", "[<0>] __arm64_sys_futex+0x114/0x1a0",
                                               "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc+0x20/0x30"]
            ut = 1290 + i + (sample if tid == 48231 else 0)
        else:
            wchan, stack = "do_epoll_wait" if i % 3 == 0 else "futex_wait_queue", (
                ["[<0>] do_epoll_wait+0x4d8/0x560", "[<0>] __arm64_sys_epoll_pwait+0x6c/0x120",
                 "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc+0x20/0x30"] if i % 3 == 0 else
                ["[<0>] futex_wait_queue+0x70/0xd0", "[<0>] futex_wait+0x15c/0x260", "[<0>] do_futex+0x130/0x1d0",
                 "[<0>] __arm64_sys_futex+0x114/0x1a0", "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc+0x20/0x30"])
            ut = 3 + i * 7
        out.append((tid, comm, "S", ut, 41 + i, wchan, stack, start + (0 if tid == JOB_PID else 300 + i * 11)))
    return P.threads_sample(JOB_PID, 48190, 47901, uptime, out, with_stack=True)


def process_files(bundle, plog_names):
    pid = JOB_PID
    base = "processes/%d/" % pid
    proc_src = "/proc/%d/" % pid
    bundle.add(base + "cmdline", P.nul(JOB_CMDLINE), "proc_cmdline", source=proc_src + "cmdline")
    bundle.add(base + "environ", P.nul(job_environ()), "proc_environ", source=proc_src + "environ")
    devices = [("/dev/devmm_svm", 523, 0x100000000000, 0x40000000000)]
    bundle.add(base + "maps", P.maps("job", "/usr/lib/python3.10", SITE, CANN91 + "/aarch64-linux/lib64",
                                      "/usr/local/Ascend/driver", [], devices), "proc_maps", source=proc_src + "maps")
    bundle.add(base + "status", P.status(pid, 48190, "python3", "S", 0, 0, [0], 20, 6731264, 48911872, 1941),
               "proc_status", source=proc_src + "status")
    start = int((T_JOB_EXEC - T_BOOT_A) * 100)
    bundle.add(base + "stat", P.stat_line(pid, "python3", "S", 48190, 48190, 47901, 34817, 20, start, 88213, 9120,
                                          50085756928, 1682816, 17, minflt=4120993) + "\n",
               "proc_stat", source=proc_src + "stat")
    bundle.add(base + "mountinfo", H.mountinfo("ubuntu"), "proc_mountinfo", source=proc_src + "mountinfo")
    bundle.add(base + "cgroup", "0::/user.slice/user-0.slice/session-214.scope\n", "proc_cgroup", source=proc_src + "cgroup")
    fds = [["0", "/dev/null"], ["1", "/root/work/det/train_0904.log"], ["2", "/root/work/det/train_0904.log"],
           ["3", "/dev/davinci_manager"], ["4", "/dev/devmm_svm"], ["5", "/dev/davinci0"], ["6", "/dev/hisi_hdc"],
           ["7", "anon_inode:[eventfd]"], ["8", "anon_inode:[eventpoll]"], ["9", "pipe:[3187114]"],
           ["10", "pipe:[3187114]"], ["11", "socket:[3187120]"]]
    for i, n in enumerate(plog_names):
        fds.append([str(12 + i), n])
    fds.append(["15", "/root/work/det/work_dirs/retina_r50_0904/events.out.tfevents.1788484829.ascend-node07.48213.0"])
    bundle.add(base + "fd.tsv", P.fd_tsv(fds), "proc_fd_tsv", source=proc_src + "fd")
    bundle.add(base + "exe.txt", "/usr/bin/python3.10\n", "proc_exe", exec_argv=["readlink", proc_src + "exe"])
    bundle.add(base + "root.txt", "/\n", "proc_root", exec_argv=["readlink", proc_src + "root"])
    bundle.add(base + "tz.txt", P.tz_txt(""), "proc_tz_txt", source=proc_src + "root/etc/localtime")
    bundle.add(base + "localtime.tzif", H.TZIF, "localtime_tzif", source=proc_src + "root/etc/localtime")
    bundle.add(base + "packages.tsv", job_packages(pid), "packages_tsv", source=SITE)
    bundle.add(base + "torch_npu-version.py", P.torch_npu_version_py("2.9.0.post6", hexid("torch_npu v2.9.0-26.1.0", 40)),
               "torch_npu_version_py", source=SITE + "/torch_npu/version.py")
    up = bundle.clock - T_BOOT_A
    bundle.add(base + "threads.1.txt", job_threads(1, up), "thread_sample", source=proc_src + "task")
    bundle.tick(2.0)
    bundle.add(base + "threads.2.txt", job_threads(2, up + 2.03), "thread_sample", source=proc_src + "task")
    bundle.note(base + "pip-list.json", "skipped", "option", error="needs --pip")


def python_packages(bundle):
    rows = []
    for name, ver in P.PY_PACKAGES:
        n = {"torch-npu": "torch_npu", "pyyaml": "PyYAML", "typing-extensions": "typing_extensions",
             "jinja2": "Jinja2", "markupsafe": "MarkupSafe"}.get(name, name)
        rows.append([n, ver, SITE, "dist-info"])
    for name, ver in P.DIST_PACKAGES:
        rows.append([name, ver, "/usr/lib/python3/dist-packages", "egg-info" if name in ("netifaces", "dbus-python") else "dist-info"])
    bundle.add("python/packages.tsv", P.packages_tsv(rows), "packages_tsv", exec_argv=["python3", "-I", "-S", "-c", "<collector snippet>"])
    bundle.note("python/pip-list.json", "skipped", "option", error="needs --pip")
    bundle.note("python/pip-show.txt", "skipped", "option", error="needs --pip")


def collector_env():
    c = "/usr/local/Ascend/cann"
    return P.nul([
        "PATH=%s/bin:%s/tools/ccec_compiler/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin" % (c, c),
        "LD_LIBRARY_PATH=%s/lib64:%s/lib64/plugin/opskernel:%s/lib64/plugin/nnengine:/usr/local/Ascend/driver/lib64:"
        "/usr/local/Ascend/driver/lib64/common:/usr/local/Ascend/driver/lib64/driver" % (c, c, c),
        "ASCEND_HOME_PATH=" + c, "ASCEND_TOOLKIT_HOME=" + c, "ASCEND_OPP_PATH=%s/opp" % c, "ASCEND_AICPU_PATH=" + c,
        "PYTHONPATH=%s/python/site-packages:%s/opp/built-in/op_impl/ai_core/tbe:" % (c, c),
    ])


# ---- probes -------------------------------------------------------------------------------
def probe_files(bundle, probes, device, script, cann_root, boot_start, skew=0.0):
    for name in PROBE_NAMES:
        pid, start, outcome, dur = probes[name]
        argv = ["timeout", "-k", "5", "60", "python3", "-I", script, name, "--device", str(device)]
        timed_out = outcome == "timeout"
        rc = 0 if outcome == "pass" else (124 if timed_out else 1)
        status, reason = ("ok", None) if outcome == "pass" else (("timed_out", "deadline") if timed_out else ("failed", None))
        err = None if outcome != "open_failed" else "rc_1"
        common = dict(exec_argv=argv, status=status, reason=reason, rc=rc, error=err, started=start)
        logdir = "probes/logs/%s/debug/plog/" % name
        w = probe_plog(name, pid, start + 1.71, device, outcome, cann_root)
        plog_path = logdir + "plog-%d_%s.log" % (pid, timeutil.plog_file_ts(w.first_time()))
        info = {"name": name, "argv": argv, "device": device, "python": "/usr/bin/python3",
                "torch_npu_version": "2.9.0.post6", "started_utc": iso_utc(start, ms=True), "rc": rc,
                "timed_out": timed_out, "duration_ms": int(dur * 1000),
                "stdout_file": "probes/%s.stdout" % name, "stderr_file": "probes/%s.stderr" % name}
        bundle.add("probes/%s.json" % name, json_value(info) + "\n", "probe_json", duration_ms=int(dur * 1000), **common)
        if outcome == "pass":
            out, errtext = PROBE_STDOUT[name], ""
        elif timed_out:
            out, errtext = "", ""
        else:
            line_no, code = PROBE_CODE[name]
            out, errtext = "", probe_stderr_507033(script, pid, start + dur - 0.35, device, line_no, code)
        bundle.add("probes/%s.stdout" % name, out, "probe_stdout", duration_ms=0, **common)
        bundle.add("probes/%s.stderr" % name, errtext, "probe_stderr", duration_ms=0, **common)
        if timed_out:
            up = start + 59.9 - boot_start
            bundle.add("probes/%s.status" % name, P.status(pid, pid - 3, "python3", "S", 0, 0, [0], 14, 2398208, 21544448, 302),
                       "probe_status", duration_ms=1, **common)
            thr = [(pid, "python3", "S", 412, 97, "hrtimer_nanosleep",
                    ["[<0>] hrtimer_nanosleep+0xb8/0x1a0", "[<0>] __arm64_sys_clock_nanosleep+0xd8/0x160",
                     "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc+0x20/0x30"], int((start - boot_start) * 100))]
            for k in range(1, 14):
                thr.append((pid + 11 + k, "python3", "S", 1 + k, 2, "futex_wait_queue",
                            ["[<0>] futex_wait_queue+0x70/0xd0", "[<0>] futex_wait+0x15c/0x260", "[<0>] do_futex+0x130/0x1d0",
                             "[<0>] __arm64_sys_futex+0x114/0x1a0", "[<0>] invoke_syscall+0x50/0x120", "[<0>] el0_svc+0x20/0x30"],
                            int((start - boot_start) * 100) + 180 + k))
            bundle.add("probes/%s.threads.txt" % name, P.threads_sample(pid, pid - 3, pid - 3, up, thr, with_stack=True),
                       "probe_threads", duration_ms=1, **common)
        # the probe's plog stamps local time from the host clock (skewed before the NTP step)
        bundle.add(plog_path, w.text(), "plog", source="ASCEND_PROCESS_LOG_PATH of probe %s" % name,
                   duration_ms=0, started=start + dur)
    return


# ---- manifests ------------------------------------------------------------------------------
def manifest_head(collected, finished, args):
    return {"format": "ascend-bundle", "format_version": 1, "collector_version": "1.0.0", "host": HOST.name,
            "collected_at_utc": iso_utc(collected), "finished_utc": iso_utc(finished), "args": args, "uid": 0,
            "groups": ["root"], "sudo_user": None, "locale": "en_US.UTF-8", "in_container": False,
            "redaction": {"kinds": ["env_secret"]}}


def system_files(bundle, boot, now, kernels=None):
    bundle.add("system/uname.txt", HOST.uname(), "uname", exec_argv=["uname", "-a"])
    bundle.add("system/os-release", HOST.os_release(), "os_release", source="/etc/os-release")
    bundle.add("system/cmdline", CMDLINE + "\n", "kernel_cmdline", source="/proc/cmdline")
    bundle.add("system/time.txt", HOST.time_txt(now), "time_txt", source="date +%s and /etc/localtime")
    bundle.add("system/localtime.tzif", H.TZIF, "localtime_tzif", source="/etc/localtime")
    bundle.add("system/boot.txt", HOST.boot_txt(boot, bundle.clock), "boot_txt",
               source="/proc/sys/kernel/random/boot_id, /proc/stat, /proc/uptime")
    bundle.add("system/kernels.tsv", kernels or kernels_tsv(), "kernels_tsv", source="/lib/modules, /boot")


def logs_index(bundle, entries):
    rows = [[p, o, "host", pids, "0", ""] for p, o, pids in entries]
    bundle.add("logs/index.tsv", tsv(["path", "original_path", "origin", "pids", "truncated", "kept_ranges"], rows),
               "logs_index_tsv", source="collector log search")


def plog_path(kind_dir, pid, first):
    return "root/ascend/log/%s/plog-%d_%s.log" % (kind_dir, pid, timeutil.plog_file_ts(first))


def add_host_logs(bundle, items):
    """items: (original path without /, text, kind, pids) -> logs/host/..."""
    index = []
    for orig, text, kind, pids in items:
        path = "logs/host/" + orig
        bundle.add(path, text, kind, source="/" + orig)
        index.append((path, "/" + orig, pids))
    logs_index(bundle, index)


# ---- the two bundles ----------------------------------------------------------------------
def build_before():
    b = Bundle("incident-910b-before-reboot", T_COLLECT_A)
    world = M.incident_world(KVER)
    bp, ba = boot_prev(), boot_a()
    system_files(b, ba, T_COLLECT_A)
    b.add("system/pci-devices.tsv", HOST.pci_tsv("devdrv_device_driver"), "pci_devices_tsv", source="/sys/bus/pci/devices")
    b.add("system/lspci.txt", HOST.lspci(True), "lspci", exec_argv=["lspci", "-D", "-nn", "-k"])
    b.add("system/devices.txt", HOST.devices_txt(T_BOOT_A + 26.3), "devices_txt",
          exec_argv=["sh", "-c", "ls -l /dev/davinci* /dev/davinci_manager /dev/devmm_svm /dev/hisi_hdc"])
    cut = b.clock
    b.add("kernel/journal-b0.jsonl", ba.journal(cut), "journal_json", exec_argv=["journalctl", "-k", "-b", "0", "-o", "json", "--all"])
    b.add("kernel/journal-b-1.jsonl", bp.journal(), "journal_json", exec_argv=["journalctl", "-k", "-b", "-1", "-o", "json", "--all"])
    boots = [list_only_boot("old1", T_BOOT_OLD1, T_BOOT_OLD2 - 130), list_only_boot("old2", T_BOOT_OLD2, T_BOOT_PREV - 141), bp, ba]
    b.add("kernel/boots.txt", K.list_boots(boots, cut), "boots_txt", exec_argv=["journalctl", "--list-boots", "--utc"])
    b.note("kernel/boots.json", "skipped", "tool_missing", exec_argv=["journalctl", "--list-boots", "-o", "json"],
           error="systemd_too_old")
    b.add("kernel/dmesg.txt", ba.dmesg(cut), "dmesg", exec_argv=["dmesg"])
    since = T(2026, 8, 30, 0, 0, 0)
    kern = bp.syslog(since_wall=since) + ba.syslog(until_wall=cut)
    b.add("kernel/syslog/kern.log", "\n".join(kern) + "\n", "syslog", source="/var/log/kern.log")
    b.add("kernel/tainted", "12288\n", "tainted", source="/proc/sys/kernel/tainted")
    b.note("kernel/secure-boot.txt", "absent", "tool_missing", exec_argv=["mokutil", "--sb-state"], error="mokutil_not_found")
    module_files(b, world, world.stale, {"drv_devmm_host": 1, "drv_davinci_intf_host": 2, "drv_devmng_host": 1})
    ascend_files(b)
    b.add("ascend/paths.tsv", A.paths_tsv(job_paths_rows("pid:%d" % JOB_PID)), "ascend_paths_tsv",
          source="collector path checks")
    npu_smi_files_a(b, b.clock)
    b.note("ascend/device-logs", "skipped", "option", error="needs --device-logs")
    w, run = job_plogs()
    dev = job_device_log()
    old = old_attempt_plog()
    debug_name = plog_path("debug/plog", JOB_PID, w.first_time())
    run_name = plog_path("run/plog", JOB_PID, run.first_time())
    dev_name = "root/ascend/log/debug/device-0/device-%d_%s.log" % (JOB_PID, timeutil.plog_file_ts(dev.first_time()))
    old_name = plog_path("debug/plog", OLD_PID, old.first_time())
    process_files(b, ["/" + debug_name, "/" + run_name, "/" + dev_name])
    python_packages(b)
    b.add("env/collector-env", collector_env(), "collector_env", source="collector environment (filtered)")
    b.add("mounts/mountinfo.txt", H.mountinfo("ubuntu"), "mountinfo", source="/proc/self/mountinfo")
    add_host_logs(b, [(debug_name, w.text(), "plog", str(JOB_PID)), (run_name, run.text(), "plog", str(JOB_PID)),
                      (dev_name, dev.text(), "device_log", str(JOB_PID)), (old_name, old.text(), "plog", str(OLD_PID))])
    b.add("extra/root/work/det/train_0904.log", job_log(), "python_log", source="/root/work/det/train_0904.log",
          source_mtime=T(2026, 9, 4, 9, 45, 3))
    probe_files(b, PROBES_A, PROBE_DEVICE_A, "/tmp/ascend-collect.k3J9Qw/probe.py", CANN91, T_BOOT_A)
    finished = T(2026, 9, 4, 10, 0, 31)
    head = manifest_head(T_COLLECT_A, finished, ["--probes", "--boots", "1", "--add", "/root/work/det/train_0904.log"])
    facts = dict(boot_prev=bp, boot_a=ba, world=world, plog=w, run=run, old=old)
    return b, head, facts


def build_after():
    b = Bundle("incident-910b-after-reboot", T_COLLECT_B)
    world = M.incident_world(KVER)
    ba, bb = boot_a(), boot_b(world)
    system_files(b, bb, T_COLLECT_B)
    b.add("system/pci-devices.tsv", HOST.pci_tsv(""), "pci_devices_tsv", source="/sys/bus/pci/devices")
    b.add("system/lspci.txt", HOST.lspci(False), "lspci", exec_argv=["lspci", "-D", "-nn", "-k"])
    ls_err = "".join("ls: cannot access '%s': No such file or directory\n" % p
                     for p in ["/dev/davinci*", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"])
    b.note("system/devices.txt", "absent", "source_missing", rc=2,
           exec_argv=["sh", "-c", "ls -l /dev/davinci* /dev/davinci_manager /dev/devmm_svm /dev/hisi_hdc"],
           error="no_device_nodes")
    b.add("system/devices.txt.err", ls_err, "step_stderr", source="stderr of system/devices.txt")
    # every message of boot B so far was stamped before chrony stepped the clock (37 s slow)
    b.add("kernel/journal-b0.jsonl", bb.journal(), "journal_json", exec_argv=["journalctl", "-k", "-b", "0", "-o", "json", "--all"])
    b.add("kernel/journal-b-1.jsonl", ba.journal(), "journal_json", exec_argv=["journalctl", "-k", "-b", "-1", "-o", "json", "--all"])
    boots = [list_only_boot("old1", T_BOOT_OLD1, T_BOOT_OLD2 - 130), list_only_boot("old2", T_BOOT_OLD2, T_BOOT_PREV - 141),
             boot_prev(), ba, bb]
    b.add("kernel/boots.txt", K.list_boots(boots), "boots_txt", exec_argv=["journalctl", "--list-boots", "--utc"])
    b.note("kernel/boots.json", "skipped", "tool_missing", exec_argv=["journalctl", "--list-boots", "-o", "json"],
           error="systemd_too_old")
    b.add("kernel/dmesg.txt", bb.dmesg(), "dmesg", exec_argv=["dmesg"])
    kern = boot_prev().syslog(since_wall=T(2026, 8, 30, 0, 0, 0)) + ba.syslog() + bb.syslog()
    b.add("kernel/syslog/kern.log", "\n".join(kern) + "\n", "syslog", source="/var/log/kern.log")
    b.add("kernel/tainted", "12288\n", "tainted", source="/proc/sys/kernel/tainted")
    b.note("kernel/secure-boot.txt", "absent", "tool_missing", exec_argv=["mokutil", "--sb-state"], error="mokutil_not_found")
    loaded = {n: world.winner(n) for n in bb.loaded_modules}
    module_files(b, world, loaded, {})
    ascend_files(b)
    b.add("ascend/paths.tsv", A.paths_tsv(job_paths_rows(None)), "ascend_paths_tsv", source="collector path checks")
    smi_err = "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\ndcmi module initialize failed. ret is -8005\n"
    b.add("ascend/npu-smi-info.txt", smi_err, "npu_smi_info", exec_argv=["npu-smi", "info"], status="failed", rc=247,
          error="dcmi_init_failed", duration_ms=412)
    b.add("ascend/npu-smi-map.txt", smi_err, "npu_smi_map", exec_argv=["npu-smi", "info", "-m"], status="failed", rc=247,
          error="dcmi_init_failed", duration_ms=388)
    b.note("ascend/npu-smi-health-0-0.txt", "skipped", "source_missing", error="no_npu_list")
    b.note("ascend/npu-smi-usages-0-0.1.txt", "skipped", "source_missing", error="no_npu_list")
    b.note("ascend/device-logs", "skipped", "option", error="needs --device-logs")
    b.note("processes", "absent", "source_missing", error="no_npu_process")
    python_packages(b)
    b.add("env/collector-env", collector_env(), "collector_env", source="collector environment (filtered)")
    b.add("mounts/mountinfo.txt", H.mountinfo("ubuntu"), "mountinfo", source="/proc/self/mountinfo")
    w, run = job_plogs()
    dev = job_device_log()
    old = old_attempt_plog()
    retry = user_retry_plog(5127, T_USER_TRY + SKEW_B)
    items = [(plog_path("debug/plog", JOB_PID, w.first_time()), w.text(), "plog", str(JOB_PID)),
             (plog_path("run/plog", JOB_PID, run.first_time()), run.text(), "plog", str(JOB_PID)),
             ("root/ascend/log/debug/device-0/device-%d_%s.log" % (JOB_PID, timeutil.plog_file_ts(dev.first_time())),
              dev.text(), "device_log", str(JOB_PID)),
             (plog_path("debug/plog", OLD_PID, old.first_time()), old.text(), "plog", str(OLD_PID)),
             (plog_path("debug/plog", 5127, retry.first_time()), retry.text(), "plog", "5127")]
    add_host_logs(b, items)
    probe_files(b, PROBES_B, 0, "/tmp/ascend-collect.Pq81Zr/probe.py", CANN91, T_BOOT_B)
    finished = T(2026, 9, 4, 10, 33, 26)
    head = manifest_head(T_COLLECT_B, finished, ["--probes", "--boots", "1"])
    return b, head, dict(boot_a=ba, boot_b=bb, world=world)


def build_loose():
    d = LooseDir("incident-loose-files")
    w, _ = job_plogs()
    d.add("log1.txt", w.text(), "plog")
    d.add("output.txt", job_log(), "python_log")
    ba = boot_a()
    # `dmesg > kern.txt` typed by the customer while the job hung, a little after 09:50
    d.add("kern.txt", ba.dmesg(T(2026, 9, 4, 9, 50, 12)), "dmesg")
    return d
