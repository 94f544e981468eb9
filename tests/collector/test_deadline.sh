#!/bin/bash
# Several tools hang (dmesg, journalctl, lsmod, npu-smi) and --deadline 10: the run ends
# within the deadline plus a loose margin, with what it has: steps cut by the deadline say
# so (reason deadline), later ones are skipped, and the archive is valid.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
for t in dmesg journalctl lsmod npu-smi; do stub_mode "$t" hang; done
run_collect -p "$TRAIN_PID" --timeout 4 --deadline 10
expect_rc 1
((ELAPSED <= 40)) || fail "the run took ${ELAPSED}s, more than the deadline (10 s) + 30 s"
unpack_archive
check_manifest_first
check_bundle

expect_item system/uname.txt ok
expect_item kernel/dmesg.txt timed_out
grep -q '"reason":"deadline"' "$ITEMS" || fail "no item says the deadline cut it"
grep -q '"deadline_reached": true' "$B/manifest.json" || fail "manifest does not say the deadline was reached"
expect_item ascend/npu-smi-info.txt skipped deadline
grep -q '^npu-smi ' "$H/state/calls" && fail "npu-smi was called after the deadline"
finish
