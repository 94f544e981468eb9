#!/bin/bash
# A full run on a healthy fake host: every step of Collector A lands at its contract path
# with the right content, the archive is a .tar.zst (or .tar.gz without zstd) that plain
# tar opens with manifest.json first, and the manifest passes the contract checks.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
run_collect -p "$TRAIN_PID" --timeout 10
expect_rc 0
unpack_archive
case $ARCHIVE in *.tar.zst) ;; *) fail "archive is not .tar.zst although zstd is present: $ARCHIVE" ;; esac
check_manifest_first
check_bundle
check_with_analyzer

for p in system/uname.txt system/os-release system/cmdline system/time.txt system/localtime.tzif \
  system/boot.txt kernel/dmesg.txt kernel/journal-b0.jsonl kernel/tainted modules/ascend-names.txt \
  modules/lsmod.txt modules/proc-modules.txt modules/sysfs.tsv modules/tree.tsv \
  processes/$TRAIN_PID/status processes/$TRAIN_PID/stat processes/$TRAIN_PID/cmdline \
  processes/$TRAIN_PID/environ processes/$TRAIN_PID/maps logs/index.tsv \
  ascend/npu-smi-info.txt ascend/npu-smi-map.txt; do
  expect_item "$p" ok
  expect_file "$p"
done

# Copies are byte for byte; tool output comes from the fake host's state.
cmp -s "$B/system/localtime.tzif" "$SYSROOT/etc/localtime" || fail "localtime.tzif differs"
cmp -s "$B/processes/$TRAIN_PID/maps" "$SYSROOT/proc/$TRAIN_PID/maps" || fail "maps differs"
cmp -s "$B/ascend/npu-smi-info.txt" "$H/state/npu-smi-info.txt" || fail "npu-smi-info.txt differs"
cmp -s "$B/kernel/journal-b0.jsonl" "$H/state/journal-b0.jsonl" || fail "journal differs"
expect_grep system/uname.txt '5.10.0-182.0.0.95.oe2203sp3.aarch64'
expect_grep modules/lsmod.txt '^drv_pcie_host  *3121152  4 drv_devmm_host,ascend_trs_core'
grep -q '"source":"/proc/'"$TRAIN_PID"'/maps","exec":null' "$ITEMS" || fail "maps item lacks source or has exec"
grep -q '"exec":\["npu-smi","info"\]' "$ITEMS" || fail "npu-smi item lacks its argv"
grep -q '"path":"system/os-release".*"source_mtime_utc":"20' "$ITEMS" || fail "os-release has no source_mtime_utc"

# time.txt: one instant, the zone and its POSIX string from /etc/localtime.
t=$B/system/time.txt
for k in epoch utc local utc_offset timezone tz_posix clk_tck; do
  grep -q "^$k=" "$t" || fail "time.txt lacks $k="
done
grep -qx 'tz_posix=CST-8' "$t" || fail "tz_posix is not CST-8: $(cat "$t")"
grep -qx 'utc_offset=+0800' "$t" || fail "utc_offset is not +0800"
grep -qx 'timezone=Asia/Shanghai' "$t" || fail "timezone is not Asia/Shanghai"
epoch=$(sed -n 's/^epoch=//p' "$t")
utc=$(sed -n 's/^utc=//p' "$t")
local_time=$(sed -n 's/^local=//p' "$t")
[ "$utc" = "$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)" ] || fail "utc= is not epoch= ($utc, $epoch)"
[ "$local_time" = "$(TZ=CST-8 date -d "@$epoch" +%Y-%m-%dT%H:%M:%S)+08:00" ] || fail "local= is not epoch in +08:00 ($local_time)"

expect_grep system/boot.txt '^boot_id=5e1f0c3a-9d2b-4c1e-8f6a-0b7d3e2a1c90$'
expect_grep system/boot.txt '^btime=1781312400$'
expect_grep system/boot.txt '^uptime_s=86523.47$'

# sysfs.tsv: Ascend modules only, the build id after the note's 16-byte header.
s=$B/modules/sysfs.tsv
head -n 1 "$s" | grep -qx "$(printf 'name\tversion\tsrcversion\tbuild_id\tinitstate\ttaint\trefcnt\tholders')" || fail "sysfs.tsv header"
grep -qx "$(printf 'drv_pcie_host\t24.1.rc2\tA1B2C3D4E5F60718293A4B5\tdeadbeef0102030405060708090a0b0c0d0e0f10\tlive\tOE\t4\tascend_trs_core,drv_devmm_host')" "$s" ||
  fail "sysfs.tsv drv_pcie_host row: $(grep drv_pcie_host "$s")"
grep -q '^nvme' "$s" && fail "sysfs.tsv lists nvme, not an Ascend module"
[ "$(wc -l < "$s")" = 4 ] || fail "sysfs.tsv should have a header and 3 rows"

# tree.tsv: real files, links resolved inside the root, a dangling link, a compressed module.
col() { awk -F'\t' -v want="$1" -v path="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["path"] == path { print $c[want] }' "$B/modules/tree.tsv"; }
k=5.10.0-182.0.0.95.oe2203sp3.aarch64
u=/lib/modules/$k/updates
[ "$(col type "$u/drv_pcie_host.ko")" = f ] || fail "tree.tsv: updates/drv_pcie_host.ko is not type f"
[ "$(col vermagic "$u/drv_pcie_host.ko")" = "$k SMP mod_unload aarch64" ] || fail "tree.tsv: vermagic of drv_pcie_host.ko"
[ "$(col srcversion "$u/drv_pcie_host.ko")" = A1B2C3D4E5F60718293A4B5 ] || fail "tree.tsv: srcversion"
[ "$(col sha256 "$u/drv_pcie_host.ko")" = "$(sha256sum < "$SYSROOT$u/drv_pcie_host.ko" | cut -c1-64)" ] || fail "tree.tsv: sha256"
[ "$(col type "$u/dkms/drv_devmm_host.ko")" = l ] || fail "tree.tsv: dkms link type"
[ "$(col resolved_path "$u/dkms/drv_devmm_host.ko")" = "/var/lib/dkms/davinci_ascend/1.0/$k/aarch64/module/drv_devmm_host.ko" ] ||
  fail "tree.tsv: absolute link not resolved inside the root: $(col resolved_path "$u/dkms/drv_devmm_host.ko")"
[ "$(col target_exists "$u/dkms/drv_devmm_host.ko")" = 1 ] || fail "tree.tsv: dkms target should exist"
[ "$(col resolved_path "$u/dkms/drv_pcie_host.ko")" = "$u/drv_pcie_host.ko" ] || fail "tree.tsv: relative link"
[ "$(col link_target "$u/dkms/drv_pcie_host.ko")" = ../drv_pcie_host.ko ] || fail "tree.tsv: link_target"
[ "$(col target_exists "$u/dkms/ascend_trs_core.ko")" = 0 ] || fail "tree.tsv: dangling link should not exist"
[ "$(col compression "$u/asdrv_fms.ko.gz")" = gz ] || fail "tree.tsv: compression gz"
[ "$(col srcversion "$u/asdrv_fms.ko.gz")" = 99AA88BB77CC66DD55EE44F ] || fail "tree.tsv: srcversion from gz content"
grep -q nvme "$B/modules/tree.tsv" && fail "tree.tsv lists nvme"

# Logs: every plog file under logs/host/<original path>, the GBK name kept as bytes.
L=logs/host/root/ascend/log
expect_item "$L/debug/plog/plog-4242_20260613170033666.log" ok
expect_item "$L/run/plog/\\u00c8\\u00d5\\u00d6\\u00be-4242.log" ok
[ -f "$B/$L/run/plog/$(printf '\310\325\326\276')-4242.log" ] || fail "GBK-named log not stored under its bytes"
cmp -s "$B/$L/debug/device-0/device-4242_20260613170040123.log" "$SYSROOT/root/ascend/log/debug/device-0/device-4242_20260613170040123.log" ||
  fail "device log differs"
grep -q "$(printf '^%s\t/root/ascend/log/debug/plog/plog-4242_20260613170033666.log\thost\t4242\t0\t$' "$L/debug/plog/plog-4242_20260613170033666.log")" "$B/logs/index.tsv" ||
  fail "logs/index.tsv row for the debug plog: $(cat "$B/logs/index.tsv")"
expect_item "$L/run/plog/quote\\\"and\\\\back.log" ok
grep -q -F 'run/plog/quote"and\\back.log' "$B/logs/index.tsv" || fail "logs/index.tsv does not escape a backslash as \\\\"
[ "$(wc -l < "$B/logs/index.tsv")" = 7 ] || fail "logs/index.tsv should have a header and 6 rows (5 plogs, 1 slog)"

grep -q '"locale": "zh_CN.GBK"' "$B/manifest.json" || fail "manifest does not record the original locale"
grep -q '\[8/8\] device' "$STDERR_FILE" || fail "no progress line per phase"
grep -q "archive: $ARCHIVE ([0-9]* bytes)" "$STDERR_FILE" || fail "no archive path and size at the end"
[ -z "$(find "$OUT" -mindepth 1 -maxdepth 1 ! -name 'ascend-bundle-*.tar.zst')" ] || fail "leftovers in the output directory: $(ls -A "$OUT")"

# Without zstd: .tar.gz, and still the same checks.
say "again without zstd"
rm -f "$OUT"/*
fake_bin_remove zstd
run_collect -p "$TRAIN_PID" --timeout 10
expect_rc 0
unpack_archive
case $ARCHIVE in *.tar.gz) ;; *) fail "archive is not .tar.gz without zstd: $ARCHIVE" ;; esac
check_manifest_first
check_bundle
grep -q "$(printf '^zstd\t\t0\t')" "$B/collector/tools.tsv" || fail "tools.tsv does not record zstd as absent"
grep -q 'tools absent: .*zstd' "$STDERR_FILE" || fail "summary does not name zstd as absent"
finish
