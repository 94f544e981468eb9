"""A 4-node training job for fleet triage (docs/fleet.md): two ranks per node (devices 0 and
1), one device raises an AI Core exception and every other rank, its node-mate included,
times out in the collective it was waiting in (HCCL_EXEC_TIMEOUT 1836 s) about half an hour
later. Half a minute after the fault, every other rank's HCCL heartbeat reports the faulty
device lost (its address as the discoverer's: the fleet's wait graph, issue 37). Variants: node 3 faults; node 3 faults and its clock runs 5 minutes ahead; node 1
faults. Node 2 runs another firmware patch (a harmless difference from the majority).

Line shapes: device_error_proc / stars_engine RUNTIME lines as the knowledge signatures'
verbatim samples (device-exception/aicore-error, device-exception/task-exception,
hccl/wait-timeout-value, hccl/peer-heartbeat-lost). Every identity and time is invented, derived from fixed labels.
"""
from . import ascend as A
from . import host as H
from . import timeutil
from .bundle import Bundle, hexid, intid, iso_utc, tsv
from .plog import LogWriter

NODES = 4
RANKS_PER_NODE = 2
T_START = timeutil.local_epoch(2026, 3, 2, 13, 52, 40)   # the job starts (true time)
T_FAULT = timeutil.local_epoch(2026, 3, 2, 14, 3, 10, 418000)
HCCL_EXEC_TIMEOUT = 1836
KVER = "5.10.0-216.0.0.115.oe2203sp4.aarch64"
FIRMWARE_OTHER = A.FIRMWARE_9_0_0_0_205.replace("Version=9.0.0.0.205", "Version=9.0.0.0.201")

VARIANTS = [
    # name, faulty node, faulty device, clock offset per node (seconds)
    ("fleet-4node", 3, 1, {}),
    ("fleet-4node-skew", 3, 1, {3: 300.0}),
    ("fleet-4node-node1", 1, 0, {}),
]


def host_name(n):
    return "node%d" % n


def host_ip(n):
    return "10.20.7.%d" % (11 + n)


def pid_of(n, local):
    return intid("fleet pid %d/%d" % (n, local), 30000, 90000)


def environ(n, local):
    c = "/usr/local/Ascend/cann-9.1.0"
    env = ["HOME=/root", "LANG=en_US.UTF-8", "ASCEND_HOME_PATH=" + c, "ASCEND_TOOLKIT_HOME=" + c,
           "LD_LIBRARY_PATH=%s/lib64:/usr/local/Ascend/driver/lib64/common:/usr/local/Ascend/driver/lib64/driver" % c,
           "MASTER_ADDR=10.20.7.100", "MASTER_PORT=29500", "WORLD_SIZE=%d" % (NODES * RANKS_PER_NODE),
           "RANK=%d" % (n * RANKS_PER_NODE + local), "LOCAL_RANK=%d" % local, "DEVICE_ID=%d" % local,
           "HCCL_EXEC_TIMEOUT=%d" % HCCL_EXEC_TIMEOUT, "HCCL_CONNECT_TIMEOUT=1200", "ASCEND_GLOBAL_LOG_LEVEL=1"]
    return "".join(x + "\0" for x in env)


def plog(n, local, faulty, skew, fault_node, fault_dev):
    pid = pid_of(n, local)
    tid = pid + 41
    w = LogWriter(pid, "python3")
    start = T_START + 0.3 * n + 0.05 * local + skew
    w.rt(start, "INFO", "RUNTIME", "runtime.cc:1302", pid, "Init", "runtime init begin, chipType=5, socVersion=Ascend910B3.")
    if faulty:
        t = T_FAULT + skew
        w.rt(t, "ERROR", "RUNTIME", "device_error_proc.cc:1409", tid, "ProcessStarsCoreErrorInfo",
             "The error from device(chipId:%d, dieId:0), serial number is 67, there is an aicore error exception, "
             "core id is 18, error code = 0" % local)
        w.rt(t + 0.000811, "ERROR", "RUNTIME", "stars_engine.cc:1624", tid, "ProcLogicCqReport",
             "Task run failed, device_id=%d, stream_id=5, task_id=2211, sqe_type=0(ffts), errType=0x1(task exception), "
             "sqSwStatus=0" % local)
    else:
        # The faulty device's heartbeat stops: every other rank's HCCL reports it lost.
        t = T_FAULT + 31.2 + 0.13 * n + 0.04 * local + skew
        w.hccl(t, "ERROR", "heartbeat.cc:1090", pid + 187, [],
               "Cluster Exception Location[IP/ID]:[%s/%d], Arrival Time:[%s], Discoverer:[%s/%d], "
               "ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network "
               "Disconnected" % (host_ip(fault_node), fault_dev, timeutil.ctime(t), host_ip(n), local))
        # Every waiter entered the collective just before the fault and times out together.
        t = T_FAULT - 0.6 + HCCL_EXEC_TIMEOUT + 0.11 * n + 0.02 * local + skew
        w.rt(t, "ERROR", "RUNTIME", "device_error_proc.cc:1389", tid, "ProcessStarsHcclFftsPlusTimeoutErrorInfo",
             "The error from device(chipId:%d, dieId:0), serial number is 9, hccl fftsplus task timeout occurred "
             "during task execution, stream_id:5, sq_id:5, task_id:2212, stuck notify num:1, timeout:%d."
             % (local, HCCL_EXEC_TIMEOUT))
    return pid, w


def build_node(variant, n, fault_node, fault_dev, skews):
    skew = skews.get(n, 0.0)
    collected = T_FAULT + HCCL_EXEC_TIMEOUT + 120 + 7 * n + skew
    b = Bundle(host_name(n), collected)
    boot_id = H.uuid("fleet boot %s" % host_name(n))
    btime = int(T_START - 86400 * 3 + 61 * n + skew)
    b.add("system/uname.txt", "Linux %s %s #1 SMP Wed Dec 11 12:00:00 CST 2024 aarch64 aarch64 aarch64 GNU/Linux\n"
          % (host_name(n), KVER), "uname", exec_argv=["uname", "-a"])
    b.add("system/time.txt", H.Host(host_name(n), "openeuler", KVER, "", "", [], []).time_txt(b.clock), "time_txt",
          source="date +%s and /etc/localtime")
    b.add("system/localtime.tzif", H.TZIF, "localtime_tzif", source="/etc/localtime")
    b.add("system/boot.txt", "boot_id=%s\nbtime=%d\nuptime_s=%.2f\n" % (boot_id, btime, b.clock - btime), "boot_txt",
          source="/proc/sys/kernel/random/boot_id, /proc/stat, /proc/uptime")
    b.add("ascend/driver-version.info", A.DRIVER_26_0_RC1, "driver_version_info",
          source="/usr/local/Ascend/driver/version.info")
    b.add("ascend/firmware-version.info", FIRMWARE_OTHER if n == 2 else A.FIRMWARE_9_0_0_0_205,
          "firmware_version_info", source="/usr/local/Ascend/firmware/version.info")
    index = []
    for local in range(RANKS_PER_NODE):
        faulty = n == fault_node and local == fault_dev
        pid, w = plog(n, local, faulty, skew, fault_node, fault_dev)
        path = "logs/host/root/ascend/log/debug/plog/plog-%d_%s.log" % (pid, timeutil.plog_file_ts(w.first_time()))
        b.add(path, w.text(), "plog", source="/" + path[len("logs/host/"):])
        index.append([path, path[len("logs/host"):], "host", str(pid), "0", ""])
        b.add("processes/%d/cmdline" % pid, "python3\0train.py\0--config\0pretrain.yaml\0", "proc_cmdline",
              source="/proc/%d/cmdline" % pid)
        b.add("processes/%d/environ" % pid, environ(n, local), "proc_environ", source="/proc/%d/environ" % pid)
    b.add("logs/index.tsv", tsv(["path", "original_path", "origin", "pids", "truncated", "kept_ranges"], index),
          "logs_index_tsv", source="collector log search")
    head = {"format": "ascend-bundle", "format_version": 1, "collector_version": "1.0.0", "host": host_name(n),
            "collected_at_utc": iso_utc(collected), "finished_utc": iso_utc(b.clock), "args": [], "uid": 0,
            "groups": ["root"], "sudo_user": None, "locale": "en_US.UTF-8", "in_container": False,
            "redaction": {"kinds": ["env_secret"]}}
    return b, head


def builds():
    """(variant directory, node directory, bundle, manifest head) for every node of every variant."""
    for variant, fault_node, fault_dev, skews in VARIANTS:
        for n in range(NODES):
            b, head = build_node(variant, n, fault_node, fault_dev, skews)
            yield variant, "node%d" % n, b, head
