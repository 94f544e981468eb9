# shellcheck shell=bash
# ascend-collect: gathers the evidence of an Ascend NPU training hang into one bundle for
# ascend-triage. What it collects, its options and exit codes: docs/collector.md. The bundle
# layout is the contract "bundle layout v1".
#
# Rules every source keeps:
# - Read-only: loads no module, resets nothing, writes only under its output directory.
# - Nothing blocks: every external tool and every read of /proc, /sys or a log runs in the
#   background with its output going to files, watched by the main loop. A step past its time
#   gets TERM, then KILL (its whole process group); one still there after that is "abandoned"
#   and the run moves on. A global deadline ends the run with what it has. (The main process
#   reads one host file itself: /proc/uptime, its clock; see now_ms.)
# - Portable: bash 4.2 (CentOS 7) and coreutils, findutils, grep, sed, awk, tar, gzip. Other
#   tools are used when present and their absence is recorded. The constructs of newer bash
#   that must not appear here are listed in tests/collector/test_bash42.sh.
# - JSON is written by the main process only, pure ASCII: every byte outside 0x20-0x7e is
#   written as \u00XX, so any byte (GBK file names included) survives.
#
# Extending: a phase is a function named in PHASES, in the source file of its subsystem with
# its step bodies; each line in it is one step (step_exec, step_copy, step_func, step_gen),
# and each step becomes one item of the manifest. A new source file goes into SOURCES of
# collector-script/build.sh.
#
# This file: the version, the phases, the options and the run state.

COLLECTOR_VERSION=0.1.0
PROG=ascend-collect

PHASES=(system kernel processes modules ascend logs extra device)

# Options (documented in usage and docs/collector.md).
OPT_OUT=/var/tmp
OPT_TIMEOUT=20
OPT_DEADLINE=600
OPT_SAFE=0
OPT_REDACT=1
OPT_PIDS=()
OPT_ADD=()
OPT_LOG_DIRS=()
OPT_SINCE=""
OPT_BOOTS=3
OPT_MAX_LOG_MB=200
OPT_MAX_TOTAL_MB=0   # 0 = no limit beyond the per-log one
OPT_PIP=0            # --pip: pip list/show (opt-in: pip starts site hooks)
OPT_STACKS=0         # --stacks: py-spy dump of each Python target process
OPT_PROBES=0 OPT_PROBE_PYTHON="" OPT_PROBE_DEVICE=0 OPT_PROBE_TIMEOUT=60
OPT_SYSROOT="" OPT_KERNEL="" OPT_DEVICE_LOGS=0
TARGET_PIDS=()   # -p, or found in /proc
ARGS_ORIG=()

KILL_GRACE=2     # seconds after TERM before KILL, and after KILL before "abandoned"
ERR_CAP=65536    # bytes of a step's stderr kept in <path>.err

# Ascend kernel module names (the analyzer ships the same list; modules/ascend-names.txt).
ASCEND_MODULE_PATTERNS=('drv_*' 'ascend_*' 'asdrv_*' 'dbl_*' 'vdrv_*' 'ts_agent' 'ts_agent_vm'
  'ts_debug' 'debug_switch' 'npu_peermem' 'tc_pcidev' 'ubdevshm')

# Tools used when present; their absence is recorded in collector/tools.tsv.
OPTIONAL_TOOLS=(zstd timeout sha256sum stat readlink getconf df mkfifo xz uname dmesg
  journalctl lsmod npu-smi hccn_tool modinfo modprobe lspci mokutil dkms lsinitrd lsinitramfs readelf
  py-spy)

# Bytes kept of the file a process's RANK_TABLE_FILE names (less when --max-log-mb is lower):
# a rank table of thousands of devices is a few hundred KB.
RANK_TABLE_MAX=8388608

# PCI device ids of Huawei's (vendor 0x19e5) Ascend NPUs: 310, 310P, 910, 910B, 910_93, 950
# (docs/collector.md, "NPU presence"). Huawei's other PCI functions (NICs, the Kunpeng
# accelerators of class 0x1200 too) are not NPUs.
NPU_PCI_DEVICE_IDS=(0xd100 0xd500 0xd801 0xd802 0xd803 0xd806)

# Run state.
ROOT=""            # test hook ASCEND_COLLECT_ROOT: read host files under this directory
INTERRUPTED=0
DEADLINE_HIT=0
DEVICE_UNRESPONSIVE=0
STEP_N=0
POLL_FD=""
DATE_NS=0
CLOCK_UPTIME=0 CLOCK_LAST_MS=0 CLOCK_LAST_S=0
TIMEOUT_BIN=""
TIMEOUT_NOTE=""
HASH_TOOL=""
HAVE_STAT=0
REDACT_KINDS=()
TRUNCATED_PATHS=()
declare -A PID_ORIGIN=()
SUMMARY=()         # "status<TAB>path<TAB>reason" of every item not ok
ABANDONED_NOTES=()
COUNT_OK=0 COUNT_ABSENT=0 COUNT_DENIED=0 COUNT_SKIPPED=0 COUNT_FAILED=0
COUNT_TIMED_OUT=0 COUNT_ABANDONED=0 COUNT_TRUNCATED=0 COUNT_SKIPPED_LATE=0
declare -A MADE_DIRS=() TOOL_PATHS=() LOG_DIRS_SEEN=() LOG_DESTS_SEEN=()
HOST_MNTNS="" SINCE_MIN=""
MANIFEST_NOTES=()  # free text for the manifest's "notes"
ARCHIVE_MEMBERS=() ARCHIVE_FAILURE=""  # make_archive: what goes in, why a try failed
# Every item line, also kept here: the output disk may fill up (write_manifest uses these).
ITEM_LINES=()
ITEMS_UNWRITTEN=0  # an item line could not be appended to manifest.items.jsonl
DISK_FULL=0        # the output disk filled up (check_disk_full)
RESERVE_KB=4096    # kept free in the output directory for the manifest (see init_run)
