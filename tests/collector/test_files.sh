#!/bin/bash
# The host files of the contract on a fake host: kernels, PCI devices, device nodes, module
# dependencies and configuration, build ids of compressed modules, the installation's version
# files and CANN installs, the paths of the processes' variables, the security log, syslog,
# /var/log/npu, earlier boots' journals, device tools per NPU and chip, --add. Every path of
# the contract is produced or explained by an item, and the analyzer recognises every entry.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_tool xz
need_analyzer

fake_host_new

plant /data/run/train.yaml 'lr: 0.1\n'
run_collect -p "$TRAIN_PID" --timeout 10 --add /data/run/train.yaml
expect_rc 0
unpack_archive
check_bundle

K=5.10.0-182.0.0.95.oe2203sp3.aarch64
for p in system/kernels.tsv system/pci-devices.tsv system/devices.txt mounts/mountinfo.txt \
  kernel/boots.txt kernel/journal-b-1.jsonl kernel/syslog/messages modules/modules.dep.txt \
  modules/config/etc/modprobe.d/ascend.conf modules/dkms-tree.txt ascend/ascend_install.info \
  ascend/driver-version.info ascend/firmware-version.info ascend/cann/index.tsv \
  ascend/cann/c1/aarch64-linux/ascend_toolkit_install.info ascend/cann/c1/version.cfg \
  ascend/paths.tsv ascend/seclog/operation.log ascend/npu-smi-health-0-0.txt \
  ascend/npu-smi-health-1-0.txt ascend/npu-smi-usages-0-0.1.txt ascend/npu-smi-usages-1-0.3.txt \
  ascend/hccn-link-0.txt ascend/hccn-link-1.txt ascend/hccn-net_health-0.txt ascend/hccn-ip-1.txt \
  ascend/hccn-optical-0.txt ascend/hccn-link_stat-1.txt ascend/hccn-stat-0.txt extra/data/run/train.yaml \
  logs/host/var/log/npu/slog/host-0/host-0_20260613170033.log; do
  expect_item "$p" ok
  expect_file "$p"
done
# Tools the fake host lacks: their items say so.
for p in system/lspci.txt kernel/secure-boot.txt "modules/modinfo/$K/drv_pcie_host.txt" \
  "modules/modprobe-deps/$K/drv_pcie_host.txt" modules/modprobe-dry-run/drv_pcie_host.txt \
  "modules/initramfs-$K.txt" modules/dkms-status.txt; do
  expect_item "$p" absent tool_missing
done
expect_item ascend/hccn.conf absent source_missing
# This journalctl prints no JSON list of boots; the fake host has no python3; --pip not given.
expect_item kernel/boots.json absent tool_missing
expect_no_file kernel/boots.json
expect_item python/packages.tsv absent tool_missing
for p in python/pip-list.json python/pip-show.txt "processes/$TRAIN_PID/pip-list.json" \
  "processes/$TRAIN_PID/py-spy-dump.txt"; do
  expect_item "$p" skipped option
done
# No RANK_TABLE_FILE in the process's environment: no rank table item.
[ -z "$(item_line "processes/$TRAIN_PID/rank-table.json")" ] || fail "a rank table item without RANK_TABLE_FILE"

expect_grep system/kernels.tsv "$(printf '^%s\t1\t' "$K")"
expect_grep system/pci-devices.tsv "$(printf '^0000:c1:00.0\t0x19e5\t0xd802\t0x120000\tdevdrv_device_driver\t16$')"
expect_grep system/devices.txt 'davinci_manager'
expect_grep modules/modules.dep.txt "^$K:updates/dkms/drv_devmm_host.ko: updates/drv_pcie_host.ko$"
grep -q nvme "$B/modules/modules.dep.txt" && fail "modules.dep.txt lists nvme"
expect_grep ascend/driver-version.info '^Version=24.1.rc2$'
expect_grep ascend/cann/index.tsv "$(printf '^c1\t/usr/local/Ascend/ascend-toolkit/8.5.0\ttoolkit\t8.5.0\t')"
expect_grep ascend/paths.tsv "$(printf '^/usr/local/Ascend/ascend-toolkit/latest\t1\tl\t/usr/local/Ascend/ascend-toolkit/8.5.0\thost$')"
expect_grep ascend/paths.tsv "$(printf '^/usr/local/Ascend/driver/lib64/driver\t0\t-\t/usr/local/Ascend/driver/lib64/driver\tpid:4242$')"
expect_grep ascend/npu-smi-usages-0-0.2.txt '^sampled_utc=20[0-9-]*T[0-9:]*Z$'
expect_grep ascend/npu-smi-usages-0-0.2.txt 'Aicore Usage Rate'
# Slow, not stuck (issue 37): temperature and power per chip, the AI Core clock per NPU, beside
# the usages and sampled like them; the CPU load; each process's scheduling counters.
for p in ascend/npu-smi-temp-0-0.1.txt ascend/npu-smi-power-1-0.3.txt ascend/npu-smi-common-0.2.txt \
  ascend/npu-smi-common-1.3.txt system/loadavg system/pressure-cpu system/cpu-online \
  "processes/$TRAIN_PID/schedstat"; do
  expect_item "$p" ok
  expect_file "$p"
done
expect_grep ascend/npu-smi-common-0.2.txt '^sampled_utc=20[0-9-]*T[0-9:]*Z$'
expect_grep ascend/npu-smi-common-0.2.txt 'Aicore curFreq(MHZ)'
expect_grep ascend/npu-smi-temp-0-0.1.txt 'NPU Temperature (C)'
expect_grep system/pressure-cpu '^some avg10='
# -t common takes no chip id: asked once per NPU and sample, never with -c.
grep -q -- '-t common -i [0-9]* -c' "$H/state/calls" && fail "npu-smi -t common was asked with a chip id"
[ "$(grep -c -- 'info -t common -i 0$' "$H/state/calls")" = 3 ] || fail "npu-smi -t common -i 0 not asked three times"
cmp -s "$B/kernel/journal-b-1.jsonl" "$H/state/journal-b-1.jsonl" || fail "journal of boot -1 differs"
# Boots the journal does not list are not asked for.
grep -q -- '-b -2' "$H/state/calls" && fail "journal of a boot that is not listed was asked for"

# Build ids from decompressed modules (.ko, .ko.gz, .ko.xz).
col() { awk -F'\t' -v want="$1" -v path="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["path"] == path { print $c[want] }' "$B/modules/tree.tsv"; }
u=/lib/modules/$K
[ "$(col build_id "$u/updates/drv_pcie_host.ko")" = "$(build_id_of A1B2C3D4E5F60718293A4B5)" ] || fail "build id of a .ko"
[ "$(col build_id "$u/updates/asdrv_fms.ko.gz")" = "$(build_id_of 99AA88BB77CC66DD55EE44F)" ] || fail "build id of a .ko.gz"
[ "$(col compression "$u/extra/ascend_queue.ko.xz")" = xz ] || fail "compression of a .ko.xz"
[ "$(col build_id "$u/extra/ascend_queue.ko.xz")" = "$(build_id_of 1234567890ABCDEFFEDCBA9)" ] ||
  fail "build id of a .ko.xz: $(col build_id "$u/extra/ascend_queue.ko.xz")"
[ "$(col srcversion "$u/extra/ascend_queue.ko.xz")" = 1234567890ABCDEFFEDCBA9 ] || fail "srcversion of a .ko.xz"
[ -z "$(find "$OUT" -name 'module.*')" ] || fail "a decompressed module was left behind"

# Every fixed path of the contract is in the bundle or explained by an item.
for p in system/uname.txt system/os-release system/cmdline system/time.txt system/localtime.tzif \
  system/boot.txt system/kernels.tsv system/pci-devices.tsv system/lspci.txt system/devices.txt \
  kernel/journal-b0.jsonl kernel/boots.txt kernel/dmesg.txt kernel/tainted kernel/secure-boot.txt \
  modules/ascend-names.txt modules/lsmod.txt modules/proc-modules.txt modules/sysfs.tsv \
  modules/tree.tsv modules/modules.dep.txt modules/dkms-status.txt modules/dkms-tree.txt \
  ascend/driver-version.info ascend/firmware-version.info ascend/ascend_install.info \
  ascend/cann/index.tsv ascend/paths.tsv ascend/npu-smi-info.txt ascend/npu-smi-map.txt \
  ascend/hccn.conf mounts/mountinfo.txt logs/index.tsv kernel/boots.json env/collector-env \
  python/packages.tsv python/pip-list.json python/pip-show.txt; do
  [ -n "$(item_line "$p")" ] || fail "contract path $p has no item"
done
for f in status maps environ cmdline stat mountinfo cgroup fd.tsv exe.txt root.txt tz.txt \
  localtime.tzif threads.1.txt threads.2.txt packages.tsv torch_npu-version.py pip-list.json; do
  p=processes/$TRAIN_PID/$f
  [ -n "$(item_line "$p")" ] || fail "contract path $p has no item"
done

# The analyzer recognises every entry of the bundle.
"$ANALYZER" inventory "$ARCHIVE" > "$H/inventory.txt" 2>&1
# Outside the contract's known formats by design: the collector's bookkeeping
# (collector/), the user's --add file, and the fake host's oddly named non-plog log (its GBK
# name printed with its invalid UTF-8 bytes as \xNN by the output guard).
sed -n '/^Not recognised/,$p' "$H/inventory.txt" | grep -a '^  ' | LC_ALL=C grep -a -v -E '^  (collector/|extra/|logs/host/root/ascend/log/run/plog/(quote|[^[:print:]]|\\x))' > "$H/unknown.txt"
if ! grep -q ' not recognised, ' "$H/inventory.txt"; then
  fail "no inventory summary: $(head -5 "$H/inventory.txt")"
elif [ -s "$H/unknown.txt" ]; then
  fail "entries the analyzer does not recognise: $(head -20 "$H/unknown.txt")"
fi
grep -a '^  collector/' "$H/inventory.txt" | while IFS= read -r l; do say "not recognised (bookkeeping):$l"; done
finish
