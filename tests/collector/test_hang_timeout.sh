#!/bin/bash
# A timeout(1) that itself never exits (and ignores TERM): the collector's check of it times
# out, it is not used for any later step, and the run goes on and ends normally.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
fake_bin_hanging_timeout
run_collect -p "$TRAIN_PID" --timeout 3
expect_rc 1
((ELAPSED < 120)) || fail "the run took ${ELAPSED}s"
unpack_archive
check_bundle

expect_item collector/timeout-check.txt timed_out
[ "$(grep -c '^timeout ' "$H/state/calls")" = 1 ] || fail "the hung timeout(1) was used again: $(cat "$H/state/calls")"
grep -q "$(printf '^timeout\t%s\t1\tnot used: its check ended timed_out$' "$H/bin/timeout")" "$B/collector/tools.tsv" ||
  fail "tools.tsv does not say timeout(1) was not used: $(grep timeout "$B/collector/tools.tsv")"
for p in system/uname.txt kernel/dmesg.txt modules/lsmod.txt processes/$TRAIN_PID/maps ascend/npu-smi-info.txt; do
  expect_item "$p" ok
done
grep -q '"device_unresponsive": false' "$B/manifest.json" || fail "a host tool's hang must not mark the device unresponsive"
finish
