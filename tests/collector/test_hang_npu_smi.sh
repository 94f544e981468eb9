#!/bin/bash
# npu-smi stuck like a dead driver: it ignores TERM and leaves a setsid grandchild holding
# its stdout. The run still ends, records the call as timed_out (keeping what it printed),
# skips the next device call with reason device_unresponsive, and never waits for the
# grandchild (which outlives the run and is killed by pid when the test ends).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
stub_mode npu-smi hang
run_collect -p "$TRAIN_PID" --timeout 3
expect_rc 1
# The stub and its grandchild give up after 150 s: a run waiting for either takes longer
# (the bound leaves room for a loaded machine: a full run is some 90 steps).
((ELAPSED < 120)) || fail "the run took ${ELAPSED}s: it waited for the hung tool"
unpack_archive
check_manifest_first
check_bundle

expect_item ascend/npu-smi-info.txt timed_out
expect_grep ascend/npu-smi-info.txt 'partial output before the hang'
expect_item ascend/npu-smi-map.txt skipped device_unresponsive
expect_no_file ascend/npu-smi-map.txt
[ "$(grep -c '^npu-smi ' "$H/state/calls")" = 1 ] || fail "npu-smi was called again after it hung: $(cat "$H/state/calls")"
grep -q '"device_unresponsive": true' "$B/manifest.json" || fail "manifest does not say the device is unresponsive"
expect_item system/uname.txt ok
expect_item processes/$TRAIN_PID/environ ok
grep -q 'timed out: .*ascend/npu-smi-info.txt' "$STDERR_FILE" || fail "summary does not list the timed-out call"
grep -q 'skipped: .*ascend/npu-smi-map.txt (device_unresponsive)' "$STDERR_FILE" || fail "summary does not list the skipped call"

# The grandchild escaped the process group and is still there, holding the file.
grandchild=$(sed -n 2p "$H/state/pids")
kill -0 "$grandchild" 2>/dev/null || fail "the setsid grandchild should still be running"
finish
