#!/bin/bash
# Every external host tool the collector calls stuck for good (modinfo, lspci, dkms, pip,
# hccn_tool; each ignores TERM): each call is stopped at --timeout, recorded timed_out, and
# the run ends with an honest archive within its deadline. pip hangs in --pip only (the
# interpreter's own queries answer); hccn_tool is a device tool, so its first hang marks
# the device unresponsive and its later calls are skipped.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
for t in modinfo lspci dkms; do
  cp "$LIB_DIR/stubs/hang-forever" "$H/bin/$t"
  chmod 755 "$H/bin/$t"
done
stub_mode hccn_tool hang
cp "$LIB_DIR/stubs/python3" "$H/bin/python3"
chmod 755 "$H/bin/python3"
stub_mode pip hang
DEADLINE=150
run_collect -p "$TRAIN_PID" --timeout 2 --deadline "$DEADLINE" --pip
expect_rc 1
((ELAPSED < DEADLINE)) || fail "the run took ${ELAPSED}s, past its deadline of ${DEADLINE}s"
unpack_archive
check_manifest_first
check_bundle

expect_item system/lspci.txt timed_out
expect_item modules/dkms-status.txt timed_out
expect_item python/pip-list.json timed_out
n=$(grep -c '"path":"modules/modinfo/[^"]*",.*"status":"timed_out"' "$ITEMS")
calls=$(grep -c '^modinfo ' "$H/state/calls")
((n >= 1 && n == calls)) || fail "$calls modinfo call(s) but $n timed_out modinfo item(s)"
grep -q '"path":"ascend/hccn-[a-z_]*-0.txt",.*"status":"timed_out"' "$ITEMS" ||
  fail "no hccn_tool item timed_out: $(grep -o '"path":"ascend/hccn[^}]*' "$ITEMS" | head -n 3)"
[ "$(grep -c '^hccn_tool ' "$H/state/calls")" = 1 ] || fail "hccn_tool was called again after it hung"
grep -q '"device_unresponsive": true' "$B/manifest.json" || fail "a hung hccn_tool must mark the device unresponsive"
# What did not depend on the hung tools was collected.
for p in system/uname.txt modules/lsmod.txt "processes/$TRAIN_PID/maps" ascend/npu-smi-info.txt; do
  expect_item "$p" ok
done
grep -q 'timed out: .*system/lspci.txt' "$STDERR_FILE" || fail "the summary does not list the hung lspci"
finish
