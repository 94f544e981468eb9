"""Kernel messages of the incident host's boots: module loading (clean, or failing with
Unknown symbol), device start-up, and the devmm lines each NPU process leaves behind.
The Ascend printk texts follow real-log-excerpts §3.1/§3.8 in shape; the messages of the
module init functions are invented."""
from .bundle import intid
from .modules import LOAD_ORDER

INIT_MSG = {
    "drv_seclib_host": ("seclib", "seclib_init", 47, "Seclib module init success."),
    "dbl_runenv_config": ("dbl", "runenv_config_init", 88, "Runenv config init success."),
    "dbl_algorithm": ("dbl", "dbl_algorithm_init", 31, "Algorithm module init success."),
    "dbl_dev_identity": ("dbl", "dev_identity_init", 142, "Device identity init success."),
    "ascend_soc_platform": ("soc_platform", "soc_platform_init", 233, "Soc platform init success. (chip_type=5; chip_name=Ascend910B3)"),
    "drv_davinci_intf_host": ("davinci_intf", "drv_davinci_intf_init", 612, "Davinci interface init success."),
    "drv_devmng_host": ("devdrv", "devdrv_manager_init", 2210, "Devdrv manager init success. (dev_num=8)"),
    "drv_pcie_hdc_host": ("hdc", "hdcdrv_init", 3012, "Hdc init success."),
    "ascend_event_sched_host": ("esched", "sched_init", 455, "Event sched init success."),
    "ascend_xsmem": ("xsmem", "xsmem_init", 211, "Xsmem init success."),
    "ascend_queue": ("queue", "queue_drv_init", 187, "Queue init success."),
    "drv_devmm_host": ("devmm", "devmm_init", 412, "Devmm init success. (svm_start=0x100000000000; svm_size=0x40000000000)"),
    "drv_devmm_host_agent": ("devmm", "devmm_agent_init", 96, "Devmm agent init success."),
    "ts_agent": ("ts_agent", "ts_agent_init", 1733, "Ts agent init success."),
    "drv_dvpp_cmdlist": ("dvpp_cmdlist", "dvpp_cmdlist_init", 322, "Dvpp cmdlist init success."),
    "drv_soft_fault": ("soft_fault", "soft_fault_init", 75, "Soft fault init success."),
    "drv_vascend": ("vascend", "vascend_init", 501, "Vascend init success."),
}


def ascend(tag, func, line, comm, msg):
    return "[ascend] [%s] [%s %d] <%s> %s" % (tag, func, line, comm, msg)


def load_success(t, name, comm, npus, first_taint):
    out = []
    if first_taint:
        out.append((t, 4, "%s: loading out-of-tree module taints kernel." % name))
        out.append((t + 0.000012, 4, "%s: module verification failed: signature and/or required key missing - tainting kernel" % name))
        t += 0.000020
    if name == "drv_pcie_host":
        for i, addr in enumerate(npus):
            out.append((t + 0.0031 + i * 0.0187, 5, ascend("drv_pcie", "devdrv_pci_probe", 721, comm,
                                                               "Probe pcie device. (bdf=%s; dev_id=%d)" % (addr, i)), ("pci", addr)))
        out.append((t + 0.31, 5, ascend("drv_pcie", "devdrv_pcie_init", 1203, comm, "Pcie init success. (dev_num=%d)" % len(npus))))
        return out
    tag, func, line, msg = INIT_MSG[name]
    out.append((t + 0.0009, 5, ascend(tag, func, line, comm, msg)))
    return out


def load_failure(t, name, world):
    out = []
    crc = world.crc_mismatch(name)
    if crc:
        out.append((t, 4, "%s: disagrees about version of symbol %s" % (name, crc)))
        out.append((t + 0.000004, 4, "%s: Unknown symbol %s (err -22)" % (name, crc)))
        return out
    for i, sym in enumerate(world.unknown_symbols(name)):
        out.append((t + i * 0.000005, 4, "%s: Unknown symbol %s (err -2)" % (name, sym)))
    return out


def can_load(world, name):
    return not world.unknown_symbols(name) and not world.crc_mismatch(name)


def modprobe_attempts(world, attempts, npus, loaded, tainted):
    """Kernel messages of modprobe runs over the index of `world`. attempts: (t, comm, [names]).
    `loaded` (set) is updated; returns the messages."""
    msgs = []
    for t, comm, names in attempts:
        for name in names:
            chain = list(reversed(world.closure(name))) + [name]
            for m in chain:
                if m in loaded:
                    continue
                if can_load(world, m):
                    msgs.extend(load_success(t, m, comm, npus, not tainted[0]))
                    tainted[0] = True
                    loaded.add(m)
                    t += 0.0213
                else:
                    msgs.extend(load_failure(t, m, world))
                    t += 0.0071
                    break
            t += 0.0102
    return msgs


def clean_boot_load(t, npus, comm_pid):
    """Every module of one consistent set loads; then the devices start."""
    msgs = []
    tainted = False
    for name in LOAD_ORDER:
        comm = "modprobe:%d,%d" % (comm_pid, comm_pid) if name != "drv_pcie_host" else "systemd-udevd:%d,%d" % (comm_pid - 160, comm_pid - 160)
        msgs.extend(load_success(t, name, comm, npus, not tainted))
        tainted = True
        t += 0.0417 if name != "drv_pcie_host" else 0.41
        comm_pid += 3
    t += 11.6
    for i in range(len(npus)):
        kw = "kworker/u385:%d:%d,%d" % (i % 4, 412 + i, 412 + i)
        msgs.append((t + i * 0.2113, 5, ascend("devdrv", "devdrv_device_startup_work", 1880, kw,
                                               "Device startup success. (dev_id=%d)" % i)))
    return msgs


def process_start(t, comm, pid):
    return [(t, 5, ascend("devmm", "devmm_alloc_svm_proc_set_to_file", 662, "%s:%d,%d" % (comm, pid, pid),
                          "Devmm_set_porcess details. (status=0; proc_idx=%d)" % (pid % 7 + 1)))]


def process_exit(t, comm, pid, dev):
    rec = intid("recycle%d" % pid, 3000, 60000)
    kw = intid("kw%d" % pid, 300, 9000)
    return [
        (t, 5, ascend("devmm", "devmm_svm_release_proc", 617, "davinci_recycle:%d,%d" % (rec, rec),
                      "Devmm release create work. (hostpid=%d)" % pid)),
        (t + 0.000008, 5, ascend("davinci_intf", "drv_davinci_intf_sub_call_release", 348, "davinci_recycle:%d" % rec,
                                 'Release module success. (module_name="SVM"; pid=%d)' % pid)),
        (t + 0.000018, 5, ascend("devmm", "devmm_svm_release_private_proc", 2270, "kworker/1:1:%d,%d" % (kw, kw),
                                 "Device process exited. (hostpid=%d; times=0)" % pid)),
        (t + 0.000023, 5, ascend("devmm", "devmm_destory_all_heap_by_proc", 1222, "kworker/1:1:%d,%d" % (kw, kw),
                                 "Page statistics. (hostpid=%d; alloc_page_cnt=%d; free_page_cnt=%d; alloc_hugepage_cnt=0; free_huge_page_cnt=0)"
                                 % (pid, 1024 + pid % 97, 1024 + pid % 97))),
        (t + 0.000034, 5, ascend("devmm", "devmm_free_svm_proc", 276, "kworker/1:1:%d,%d" % (kw, kw),
                                 "Devmm_free_process details. (hostpid=%d; devid=%d; vfid=0; devpid=%d; status=0; pro_idx=%d)"
                                 % (pid, dev, intid("devpid%d" % pid, 2000, 9000), pid % 7 + 1))),
        (t + 0.19326, 5, ascend("davinci_intf", "drv_davinci_intf_sub_call_release", 348, "davinci_recycle:%d" % (rec + 1),
                                'Release module success. (module_name="DMS"; pid=%d)' % pid)),
        (t + 0.19327, 5, ascend("devdrv", "devdrv_manager_process_sign_release", 797, "%s:%d" % ("python3", pid),
                                "end devdrv_get_process_sign, count = 0, docker_id = 128")),
    ]


def misc_runtime(boot_start, days, label):
    """Unrelated kernel noise over a long boot: NIC link, bridge, AppArmor profile reloads."""
    msgs = [(8.21, 6, "hns3 0000:7d:00.0 enp125s0f0: link up"),
            (8.22, 6, "IPv6: ADDRCONF(NETDEV_CHANGE): enp125s0f0: link becomes ready"),
            (8.91, 6, "bridge: filtering via arp/ip/ip6tables is no longer available by default. Update your scripts to load br_netfilter if you need this."),
            (9.02, 6, "Bridge firewalling registered")]
    for d in range(days):
        rel = 86400 * d + 3600 * (2 + intid(label + str(d), 0, 20)) + intid(label + "s" + str(d), 0, 3599)
        wall = boot_start + rel
        msgs.append((rel, 5, "audit: type=1400 audit(%d.%03d:%d): apparmor=\"STATUS\" operation=\"profile_replace\" "
                     "info=\"same as current profile, skipping\" profile=\"unconfined\" name=\"/usr/bin/man\" "
                     "pid=%d comm=\"apparmor_parser\"" % (int(wall), intid(label + "ms" + str(d), 0, 999),
                                                          120 + d, 30000 + d * 1371)))
    return msgs
