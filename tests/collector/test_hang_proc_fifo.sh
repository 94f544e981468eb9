#!/bin/bash
# Reads that block (a /proc/<pid>/maps and a /sys/module file that are FIFOs, as a read of a
# process stuck in the driver blocks): each such step times out, keeps what it had written,
# and the run goes on; a host read does not mark the device unresponsive.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
rm "$SYSROOT/proc/$TRAIN_PID/maps" "$SYSROOT/sys/module/drv_pcie_host/version"
mkfifo "$SYSROOT/proc/$TRAIN_PID/maps" "$SYSROOT/sys/module/drv_pcie_host/version"
run_collect -p "$TRAIN_PID" --timeout 6
expect_rc 1
((ELAPSED < 120)) || fail "the run took ${ELAPSED}s"
unpack_archive
check_bundle

expect_item processes/$TRAIN_PID/maps timed_out
expect_no_file processes/$TRAIN_PID/maps
expect_item modules/sysfs.tsv timed_out
# The rows read before the blocking file are kept.
expect_grep modules/sysfs.tsv '^ascend_trs_core'
expect_item processes/$TRAIN_PID/status ok
expect_item modules/tree.tsv ok
expect_item ascend/npu-smi-info.txt ok
expect_item ascend/npu-smi-map.txt ok
grep -q '"device_unresponsive": false' "$B/manifest.json" || fail "device marked unresponsive by a host read"
finish
