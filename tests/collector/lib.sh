# shellcheck shell=bash
# Test harness for the collector: builds a fake host from raw state in a temporary
# directory and runs ascend-collect.sh against it.
#
#   $H/sysroot   the host's files: /proc/<pid> copies, /proc/modules, /sys/module, a
#                /lib/modules tree with real symlinks, /etc, plog trees under /root
#                (the collector reads it through its test hook ASCEND_COLLECT_ROOT)
#   $H/bin       the only PATH the collector sees: stubs (npu-smi, dmesg, journalctl, lsmod,
#                uname) whose output is derived from that state, and links to the real
#                basic tools
#   $H/state     stub behaviour (<tool>.mode: ok, hang, error), their data, the calls made
#                and the pids of hung stubs (killed by pid when the test ends)
#   $H/out       the collector's output directory
#
# Usage in a test:  . lib.sh "$@"; fake_host_new; run_collect ...; unpack_archive; ...
# Exit status of a test: 0 pass, 1 fail, 77 skipped.

COLLECTOR=${1:?usage: test.sh ascend-collect.sh [ascend-triage]}
ANALYZER=${2:-}
COLLECTOR=$(cd "$(dirname "$COLLECTOR")" && pwd)/$(basename "$COLLECTOR")
LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TEST_NAME=$(basename "$0" .sh)
H=""
FAILURES=0

# The pid of the training process planted in the fake host.
TRAIN_PID=4242

# Secrets planted by the fake host; none of them may appear in a redacted bundle.
# shellcheck disable=SC2034  # used by the tests
SECRETS=(hunter2CMDSECRET sk-live-APIKEYSECRET URLPASSSECRET hf_ENVTOKENSECRET
  ENVPASSWORDSECRET AWSSECRETVALUE PROXYPASSSECRET LOGPASSWORDSECRET LOGTOKENSECRET)

say() { printf '%s: %s\n' "$TEST_NAME" "$*"; }
fail() { say "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
skip_test() { say "SKIP: $*"; exit 77; }
# A check that cannot run without a tool skips the whole test (77, which ctest reports as
# skipped), never just itself: a test that passes has run every check. With CI=true the
# prerequisites test fails on the missing tool.
need_tool() { command -v "$1" >/dev/null 2>&1 || skip_test "$1 not installed"; }
need_analyzer() {
  if [ -z "$ANALYZER" ] || [ ! -x "$ANALYZER" ]; then skip_test "ascend-triage not given or not built"; fi
}
finish() {
  if ((FAILURES > 0)); then say "$FAILURES failure(s)"; exit 1; fi
  say "PASS"
  exit 0
}

cleanup() {
  local p
  if [ -n "$H" ] && [ -f "$H/state/pids" ]; then
    while read -r p; do
      [[ $p =~ ^[0-9]+$ ]] && kill -KILL "$p" 2>/dev/null
    done < "$H/state/pids"
  fi
  [ -n "$H" ] && [ -z "${KEEP_FAKE_HOST:-}" ] && rm -rf "$H"
}
trap cleanup EXIT

# Writes $2 (printf format, NULs allowed via \0) to sysroot file $1.
plant() {
  mkdir -p "$(dirname "$SYSROOT$1")"
  # shellcheck disable=SC2059  # the content is a printf format on purpose
  printf "$2" > "$SYSROOT$1"
}

fake_bin_base() {
  local t p
  mkdir -p "$H/bin"
  for t in cat date mkdir rm mv cp wc sha256sum sleep stat readlink tr head tail od df sort cut \
    chmod touch ls id env basename dirname mktemp ln find grep sed awk tar gzip zstd getconf \
    timeout mkfifo dd xz setsid seq uniq tee; do
    p=$(type -P "$t") && ln -s "$p" "$H/bin/$t"
  done
  cp "$LIB_DIR"/stubs/_hang.sh "$H/bin/"
  for t in npu-smi dmesg journalctl lsmod uname hccn_tool; do cp "$LIB_DIR/stubs/$t" "$H/bin/$t"; done
  chmod 755 "$H/bin"/*
}

# Removes tool $1 from the fake host's PATH.
fake_bin_remove() { rm -f "$H/bin/$1"; }

# Puts the timeout(1) that never exits on PATH.
fake_bin_hanging_timeout() {
  rm -f "$H/bin/timeout"
  cp "$LIB_DIR/stubs/timeout-that-never-exits" "$H/bin/timeout"
  chmod 755 "$H/bin/timeout"
}

stub_mode() { printf '%s\n' "$2" > "$H/state/$1.mode"; }

# A module file whose .modinfo carries vermagic and srcversion, as modinfo reads them, and
# a GNU build-id note whose 20-byte id is the module's srcversion bytes (see build_id_of).
module_file() {
  mkdir -p "$(dirname "$1")"
  {
    printf '\177ELF fake module %s\0license=GPL\0srcversion=%s\0depends=\0vermagic=%s SMP mod_unload aarch64\0' \
      "$2" "$3" "$KVER"
    printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000'
    printf '%s' "$3" | head -c 20
  } > "$1"
}

# The build id module_file writes for srcversion $1 (hex of its first 20 bytes).
build_id_of() { printf '%s' "$1" | head -c 20 | od -An -v -tx1 | tr -d ' \n'; }

fake_sysroot() {
  local p=$TRAIN_PID m
  KVER=5.10.0-182.0.0.95.oe2203sp3.aarch64
  mkdir -p "$SYSROOT"
  plant /proc/sys/kernel/osrelease "$KVER\n"
  plant /proc/sys/kernel/hostname 'npu-node-07\n'
  plant /proc/sys/kernel/random/boot_id '5e1f0c3a-9d2b-4c1e-8f6a-0b7d3e2a1c90\n'
  plant /proc/sys/kernel/tainted '12288\n'
  plant /proc/cmdline 'BOOT_IMAGE=/vmlinuz-5.10.0-182.0.0.95.oe2203sp3.aarch64 root=/dev/mapper/openeuler-root ro iommu.passthrough=1\n'
  plant /proc/stat 'cpu  10132153 290696 3084719 46828483 16683 0 25195 0 0 0\nintr 1462898 0 0\nctxt 1990473\nbtime 1781312400\nprocesses 2619\nprocs_running 1\n'
  plant /proc/uptime '86523.47 1382713.32\n'
  # CPU load (issue 37): the kernel's formats.
  plant /proc/loadavg '0.52 0.58 0.59 3/1234 56789\n'
  plant /proc/pressure/cpu 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n'
  plant /sys/devices/system/cpu/online '0-191\n'
  plant /proc/modules 'drv_devmm_host 1359872 12 - Live 0xffff800009c3e000 (OE)\ndrv_pcie_host 3121152 4 drv_devmm_host,ascend_trs_core, Live 0xffff80000a120000 (OE)\nascend_trs_core 991232 2 - Live 0xffff800009a10000 (OE)\nnvme 57344 3 - Live 0xffff800009930000\n'
  plant /etc/os-release 'NAME="openEuler"\nVERSION="22.03 (LTS-SP3)"\nID="openEuler"\nVERSION_ID="22.03"\nPRETTY_NAME="openEuler 22.03 (LTS-SP3)"\n'
  plant /etc/timezone 'Asia/Shanghai\n'
  cp "$LIB_DIR/fixtures/Asia_Shanghai.tzif" "$SYSROOT/etc/localtime"

  # The training process: secrets in its environment and command line.
  plant "/proc/$p/cmdline" 'python3\0train.py\0--password\0hunter2CMDSECRET\0--api-key=sk-live-APIKEYSECRET\0--data\0https://alice:URLPASSSECRET@data.example.com/set\0--max-tokens\0004096\0--epochs\0003\0'
  plant "/proc/$p/environ" 'HOME=/root\0PATH=/usr/local/Ascend/ascend-toolkit/latest/bin:/usr/bin:/bin\0ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest\0ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest\0LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/ascend-toolkit/latest/lib64\0HF_TOKEN=hf_ENVTOKENSECRET\0DB_PASSWORD=ENVPASSWORDSECRET\0AWS_SECRET_ACCESS_KEY=AWSSECRETVALUE\0HTTPS_PROXY=http://bob:PROXYPASSSECRET@proxy.example.com:3128\0TOKENIZERS_PARALLELISM=false\0PASSWORD_FILE=/etc/train/pw.txt\0NOTE=two\nlines\0GBK_DIR=/data/\310\325\326\276\0TASK_QUEUE_ENABLE=1\0'
  plant "/proc/$p/status" 'Name:\tpython3\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nNgid:\t0\nPid:\t4242\nPPid:\t4200\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nThreads:\t57\nvoluntary_ctxt_switches:\t1201\n'
  plant "/proc/$p/schedstat" '1830000000 257000000 8123\n'
  plant "/proc/$p/stat" '4242 (python3) S 4200 4242 4200 34816 4242 4194304 81283 0 12 0 52331 4120 0 0 20 0 57 0 7745000 19876544512 1234567 18446744073709551615 1 1 0 0 0 0 0 16781312 1098 0 0 0 17 12 0 0 0 0 0\n'
  plant "/proc/$p/maps" 'aaaab1e40000-aaaab1e41000 r-xp 00000000 fd:00 1317 /usr/bin/python3.9\nffff8c000000-ffff8c400000 r-xp 00000000 fd:00 5518 /usr/local/Ascend/ascend-toolkit/8.5.0/aarch64-linux/lib64/libascendcl.so\nffff8d000000-ffff8d200000 r-xp 00000000 fd:00 6602 /usr/local/Ascend/driver/lib64/driver/libascend_hal.so\n'
  chmod 400 "$SYSROOT/proc/$p/environ"
  fake_process_extras "$p" 4026531840 ../..
  ln -s /dev/davinci0 "$SYSROOT/proc/$p/fd/12"
  ln -s /dev/davinci_manager "$SYSROOT/proc/$p/fd/13"
  ln -s /root/ascend/log/debug/plog/plog-4242_20260613170033666.log "$SYSROOT/proc/$p/fd/14"
  # A process that maps nothing of Ascend's and holds no davinci node: never a target.
  plant /proc/777/maps 'aaaab1e40000-aaaab1e41000 r-xp 00000000 fd:00 1317 /usr/sbin/sshd\n'
  plant /proc/777/status 'Name:\tsshd\nState:\tS (sleeping)\n'
  mkdir -p "$SYSROOT/proc/777/fd"
  ln -s /dev/null "$SYSROOT/proc/777/fd/0"
  # The host's own mount namespace (pid 1).
  mkdir -p "$SYSROOT/proc/1/ns"
  ln -s 'mnt:[4026531840]' "$SYSROOT/proc/1/ns/mnt"

  # /sys/module: three Ascend modules (one with a build id note) and one other.
  for m in drv_pcie_host drv_devmm_host ascend_trs_core nvme; do
    mkdir -p "$SYSROOT/sys/module/$m/holders" "$SYSROOT/sys/module/$m/notes"
    plant "/sys/module/$m/initstate" 'live\n'
    plant "/sys/module/$m/refcnt" '4\n'
    plant "/sys/module/$m/taint" 'OE\n'
  done
  plant /sys/module/drv_pcie_host/version '24.1.rc2\n'
  plant /sys/module/drv_pcie_host/srcversion 'A1B2C3D4E5F60718293A4B5\n'
  printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000\336\255\276\357\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020' \
    > "$SYSROOT/sys/module/drv_pcie_host/notes/.note.gnu.build-id"
  ln -s ../../drv_devmm_host "$SYSROOT/sys/module/drv_pcie_host/holders/drv_devmm_host"
  ln -s ../../ascend_trs_core "$SYSROOT/sys/module/drv_pcie_host/holders/ascend_trs_core"

  # /lib/modules: real files in updates/, DKMS links (one into /var/lib/dkms, one relative,
  # one dangling), a compressed module, and a module that is not Ascend's.
  local lm=$SYSROOT/lib/modules/$KVER dkms=/var/lib/dkms/davinci_ascend/1.0/$KVER/aarch64/module
  module_file "$lm/updates/drv_pcie_host.ko" drv_pcie_host A1B2C3D4E5F60718293A4B5
  module_file "$SYSROOT$dkms/drv_devmm_host.ko" drv_devmm_host 0F0E0D0C0B0A09080706050
  module_file "$lm/updates/asdrv_fms.ko.tmp" asdrv_fms 99AA88BB77CC66DD55EE44F
  gzip -c "$lm/updates/asdrv_fms.ko.tmp" > "$lm/updates/asdrv_fms.ko.gz"
  rm "$lm/updates/asdrv_fms.ko.tmp"
  if command -v xz >/dev/null 2>&1; then
    module_file "$lm/extra/ascend_queue.ko.tmp" ascend_queue 1234567890ABCDEFFEDCBA9
    xz -c "$lm/extra/ascend_queue.ko.tmp" > "$lm/extra/ascend_queue.ko.xz"
    rm "$lm/extra/ascend_queue.ko.tmp"
  fi
  printf '%s\n' "updates/drv_pcie_host.ko:" "updates/dkms/drv_devmm_host.ko: updates/drv_pcie_host.ko" \
    "kernel/drivers/nvme/host/nvme.ko:" > "$lm/modules.dep"
  plant /etc/modprobe.d/ascend.conf 'options drv_pcie_host debug=0\n'
  # The installation: version files, a toolkit, the security log, PCI devices, device nodes.
  plant /etc/ascend_install.info 'Driver_Install_Type=run\nUserName=HwHiAiUser\nDriver_Install_Path_Param=/usr/local/Ascend\nDriver_Install_Status=complete\n'
  plant /usr/local/Ascend/driver/version.info 'Version=24.1.rc2\nascendhal_version=7.35.23\n'
  plant /usr/local/Ascend/firmware/version.info 'Version=7.5.0.1.129\n'
  plant /usr/local/Ascend/ascend-toolkit/8.5.0/aarch64-linux/ascend_toolkit_install.info 'package_name=Ascend-cann-toolkit\nversion=8.5.0\ninnerversion=V100R001C25SPC001B215\narch=aarch64\n'
  plant /usr/local/Ascend/ascend-toolkit/8.5.0/version.cfg '# version: 1.0\nruntime_running_version=[8.5.0.1:8.5.0]\n'
  ln -s 8.5.0 "$SYSROOT/usr/local/Ascend/ascend-toolkit/latest"
  plant /var/log/ascend_seclog/operation.log '2026-06-10 10:00:00 install driver 24.1.rc2 success\n'
  plant /var/log/messages 'Jun 13 17:03:33 npu-node-07 kernel: [ascend] [devmm] [ERROR] ioctl timeout\n'
  plant /var/log/npu/slog/host-0/host-0_20260613170033.log '[ERROR] DRV(1234,hdcd):2026-06-13-17:03:33.000.001 [hdc.c:10] hdc timeout\n'
  plant /sys/bus/pci/devices/0000:c1:00.0/vendor '0x19e5\n'
  plant /sys/bus/pci/devices/0000:c1:00.0/device '0xd802\n'
  plant /sys/bus/pci/devices/0000:c1:00.0/class '0x120000\n'
  plant /sys/bus/pci/devices/0000:c1:00.0/current_link_width '16\n'
  mkdir -p "$SYSROOT/sys/bus/pci/drivers/devdrv_device_driver"
  ln -s ../../../bus/pci/drivers/devdrv_device_driver "$SYSROOT/sys/bus/pci/devices/0000:c1:00.0/driver"
  plant /dev/davinci0 ''
  plant /dev/davinci_manager ''
  plant /dev/devmm_svm ''
  plant /proc/self/mountinfo '22 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/root rw\n'

  module_file "$lm/kernel/drivers/nvme/host/nvme.ko" nvme 1111111111111111111111
  mkdir -p "$lm/updates/dkms"
  ln -s "$dkms/drv_devmm_host.ko" "$lm/updates/dkms/drv_devmm_host.ko"
  ln -s ../drv_pcie_host.ko "$lm/updates/dkms/drv_pcie_host.ko"
  ln -s /var/lib/dkms/davinci_ascend/0.9/$KVER/aarch64/module/ascend_trs_core.ko \
    "$lm/updates/dkms/ascend_trs_core.ko"

  # Plog trees under /root/ascend/log, one file with a GBK name, secrets in two lines.
  local log=/root/ascend/log
  plant "$log/debug/plog/plog-4242_20260613170033666.log" '[ERROR] RUNTIME(4242,python3):2026-06-13-17:03:33.666.123 [stream.cc:1024]4250 SynchronizeExecutedTask: report three minutes timeout! stream_id=47, task_id=1280, sqHead=500, pendingNum=781\n[INFO] GE(4242,python3):2026-06-13-17:03:34.001.002 [ge_api.cc:88]4242 connect db password=LOGPASSWORDSECRET user=train\n'
  plant "$log/run/plog/plog-4242_20260613170033667.log" '[EVENT] RUNTIME(4242,python3):2026-06-13-17:00:33.667.001 [runtime.cc:55]4242 TaskLaunched\n[INFO] HCCL(4242,python3):2026-06-13-17:00:34.100.001 [hccl.cc:12]4242 fetch url https://ops.example.com/?token=LOGTOKENSECRET done'
  plant "$log/debug/device-0/device-4242_20260613170040123.log" '[ERROR] AICPU(2211,aicpu_scheduler):2026-06-13-17:00:40.123.456 [ae_kernel.cc:105][tid:2216] kernel timeout\n'
  plant "$log/run/plog/$(printf '\310\325\326\276')-4242.log" 'GBK-named log\n'
  plant "$log/run/plog/quote\"and\\back.log" 'a name with a quote and a backslash\n'
  chmod 700 "$SYSROOT/root"
}

# The per-process files the collector reads: mountinfo, cgroup, fd/, exe, root, ns/mnt and
# two threads under task/. $1 pid, $2 mount namespace id, $3 what its root link points to
# (relative, so that it stays inside the fake host).
fake_process_extras() {
  local p=$1 t
  plant "/proc/$p/mountinfo" '22 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/root rw\n'
  plant "/proc/$p/cgroup" '0::/system.slice/train.service\n'
  mkdir -p "$SYSROOT/proc/$p/fd" "$SYSROOT/proc/$p/ns"
  ln -s /dev/null "$SYSROOT/proc/$p/fd/0"
  ln -s /usr/bin/python3.9 "$SYSROOT/proc/$p/exe"
  ln -s "$3" "$SYSROOT/proc/$p/root"
  ln -s "mnt:[$2]" "$SYSROOT/proc/$p/ns/mnt"
  for t in "$p" $((p + 8)); do
    plant "/proc/$p/task/$t/stat" "$t (python3) S 4200 $p 4200 0 -1 4194304 1 0 0 0 52 4 0 0 20 0 57 0 7745000 0 0\n"
    plant "/proc/$p/task/$t/wchan" 'devdrv_manager_ioctl'
  done
}

# A container process $1 in mount namespace $2 whose root is $SYSROOT/containers/<pid>: its
# /etc/localtime is an ABSOLUTE link to New York's zone that exists only inside its root
# (the host's /usr/share/zoneinfo has no such file), and its plogs sit at the same path
# as the host's, /root/ascend/log.
fake_container_process() {
  local p=$1 ns=$2 c=/containers/$1
  plant "/proc/$p/cmdline" 'python3\0train.py\0'
  plant "/proc/$p/environ" "HOME=/root\0ASCEND_PROCESS_LOG_PATH=/root/ascend/log\0"
  plant "/proc/$p/status" "Name:\tpython3\nState:\tS (sleeping)\nPid:\t$p\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n"
  plant "/proc/$p/stat" "$p (python3) S 1 $p 1 0 -1 4194304 1 0 0 0 52 4 0 0 20 0 57 0 7745000 0 0\n"
  plant "/proc/$p/maps" 'ffff8e000000-ffff8e400000 r-xp 00000000 fd:00 7001 /usr/local/lib/python3.9/site-packages/torch_npu/lib/libtorch_npu.so\n'
  fake_process_extras "$p" "$ns" "../..$c"
  mkdir -p "$SYSROOT$c/usr/share/zoneinfo/America" "$SYSROOT$c/etc"
  cp "$LIB_DIR/fixtures/America_New_York.tzif" "$SYSROOT$c/usr/share/zoneinfo/America/New_York"
  ln -s /usr/share/zoneinfo/America/New_York "$SYSROOT$c/etc/localtime"
  plant "$c/root/ascend/log/debug/plog/plog-${p}_20260613170033666.log" "[ERROR] RUNTIME($p,python3):2026-06-13-05:03:33.666.123 [stream.cc:1024]$p container $ns stall\n"
}

fake_state() {
  mkdir -p "$H/state"
  : > "$H/state/pids"
  : > "$H/state/calls"
  cp "$LIB_DIR/fixtures/npu-smi-info-910b.txt" "$H/state/npu-smi-info.txt"
  printf '%s\n' 'NPU ID                         Chip ID                        Chip Logic ID                  Chip Name' \
    '0                              0                              0                              Ascend 910B3' \
    '1                              0                              1                              Ascend 910B3' > "$H/state/npu-smi-map.txt"
  printf '%s\n' '[    3.204311] drv_pcie_host: loading out-of-tree module taints kernel.' \
    '[86400.101220] [ascend] [devmm] [ERROR] [devmm_svm_ioctl 1203] <python3:4242> ioctl timeout' > "$H/state/dmesg.txt"
  printf '%s\n' '{"__REALTIME_TIMESTAMP":"1781398800101220","_BOOT_ID":"5e1f0c3a9d2b4c1e8f6a0b7d3e2a1c90","MESSAGE":"drv_pcie_host: loading out-of-tree module taints kernel.","PRIORITY":"4"}' > "$H/state/journal-b0.jsonl"
  printf '%s\n' '{"__REALTIME_TIMESTAMP":"1781212400101220","_BOOT_ID":"0a1f0c3a9d2b4c1e8f6a0b7d3e2a1c91","MESSAGE":"drv_pcie_host: loading out-of-tree module taints kernel.","PRIORITY":"4"}' > "$H/state/journal-b-1.jsonl"
  printf '%s\n' 'IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY' \
    ' -1 0a1f0c3a9d2b4c1e8f6a0b7d3e2a1c91 Tue 2026-06-09 08:00:00 UTC Fri 2026-06-12 23:59:00 UTC' \
    '  0 5e1f0c3a9d2b4c1e8f6a0b7d3e2a1c90 Sat 2026-06-13 00:00:00 UTC Sat 2026-06-13 17:10:00 UTC' > "$H/state/boots.txt"
}

# Builds a fresh fake host; sets H, SYSROOT, OUT.
fake_host_new() {
  umask 022
  H=$(mktemp -d "${TMPDIR:-/tmp}/ascend-collect-test.XXXXXX") || exit 1
  chmod 755 "$H"
  SYSROOT=$H/sysroot
  OUT=$H/out
  mkdir -p "$OUT"
  fake_bin_base
  fake_state
  fake_sysroot
}

# Runs the collector against the fake host: RC, STDERR_FILE, ELAPSED (seconds).
run_collect() {
  local t0
  t0=$(date +%s)
  STDERR_FILE=$H/collector.stderr
  env -i ${BASH_COMPAT:+BASH_COMPAT=$BASH_COMPAT} PATH="$H/bin" HOME=/root LANG=zh_CN.GBK FAKE_HOST="$H" "${EXTRA_ENV[@]}" \
    ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB="${MIN_FREE_MB:-1}" \
    "$BASH" "${COLLECTOR_COPY:-$COLLECTOR}" -o "$OUT" "$@" 2> "$STDERR_FILE"
  RC=$?
  ELAPSED=$(($(date +%s) - t0))
  say "collector exit $RC after ${ELAPSED}s"
}

# Sets ARCHIVE to the one archive in $OUT.
find_archive() {
  local a
  ARCHIVE=""
  for a in "$OUT"/ascend-bundle-*.tar.zst "$OUT"/ascend-bundle-*.tar.gz; do
    [ -f "$a" ] && ARCHIVE=$a
  done
}

# Unpacks the archive with plain tar; sets B (the bundle directory) and ITEMS.
unpack_archive() {
  find_archive
  if [ -z "$ARCHIVE" ]; then
    fail "no archive in $OUT"
    cat "$STDERR_FILE"
    finish
  fi
  rm -rf "$H/unpacked"
  mkdir -p "$H/unpacked"
  tar -xf "$ARCHIVE" -C "$H/unpacked" || fail "plain tar cannot open $ARCHIVE"
  B=$(echo "$H"/unpacked/ascend-bundle-*)
  ITEMS=$B/manifest.items.jsonl
  [ -d "$B" ] || { fail "archive holds no bundle directory"; finish; }
}

# The item line of bundle path $1 (as JSON-encoded in the manifest).
item_line() { grep -F "{\"path\":\"$1\"," "$ITEMS"; }

# expect_item PATH STATUS [REASON]
expect_item() {
  local line
  line=$(item_line "$1")
  if [ -z "$line" ]; then fail "no item for $1"; return; fi
  case $line in
    *"\"status\":\"$2\""*) ;;
    *) fail "$1: expected status $2: $line"; return ;;
  esac
  if [ -n "${3:-}" ]; then
    case $line in
      *"\"reason\":\"$3\""*) ;;
      *) fail "$1: expected reason $3: $line" ;;
    esac
  fi
}

expect_file() { [ -f "$B/$1" ] || fail "missing file $1"; }
expect_no_file() { [ ! -e "$B/$1" ] || fail "unexpected file $1"; }
expect_grep() { grep -q -e "$2" "$B/$1" 2>/dev/null || fail "$1 does not contain '$2'"; }
expect_rc() { [ "$RC" = "$1" ] || { fail "exit status $RC, expected $1"; sed 's/^/  | /' "$STDERR_FILE"; }; }

# Validates the bundle against the contract with python3 (the build requires python3).
check_bundle() {
  python3 "$LIB_DIR/check_bundle.py" "$B" || fail "bundle does not pass check_bundle.py"
}

# The archive's first member must be manifest.json.
check_manifest_first() {
  local first
  first=$(tar -tf "$ARCHIVE" | head -n 1)
  case $first in
    ascend-bundle-*/manifest.json) ;;
    *) fail "first archive member is '$first', not manifest.json" ;;
  esac
}

# Runs the analyzer's inventory on the archive; 0 or 1 required (tests calling it start
# with need_analyzer).
check_with_analyzer() {
  local rc
  "$ANALYZER" inventory "$ARCHIVE" > "$H/inventory.txt" 2>&1
  rc=$?
  if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then
    say "ascend-triage inventory: exit $rc"
    return
  fi
  fail "ascend-triage inventory exits $rc on the archive"
  sed 's/^/  | /' "$H/inventory.txt" | head -40
}
