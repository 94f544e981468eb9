#!/bin/bash
# A device tool that survives KILL (stuck in the kernel, state D) is "abandoned": the run
# moves on, the later device calls are skipped as device_unresponsive, and the summary and
# the step's .err say which process was left behind. A test cannot make an unkillable process,
# so the two probes that see one are replaced: kill -0 on the group keeps answering "there"
# and the /proc scan reports a member in state D. The hung npu-smi is really signalled.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
stub_mode npu-smi hang
cat > "$H/driver.sh" <<'DRIVER'
# shellcheck source=/dev/null
. "$1"
shift
ARGS_ORIG=("$@")
record_locale
export LC_ALL=C
parse_args "$@"
init_run
group_alive() { return 0; }
bg_group_members() { printf '%s D\n' "$PGID_QUERY"; }
phase_system
phase_device
finish_run
DRIVER
STDERR_FILE=$H/collector.stderr
env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
  "$BASH" "$H/driver.sh" "$COLLECTOR" -o "$OUT" --timeout 2 2> "$STDERR_FILE"
RC=$?
expect_rc 1
unpack_archive
check_bundle

expect_item ascend/npu-smi-info.txt abandoned
expect_grep ascend/npu-smi-info.txt 'partial output before the hang'
grep -q '"error":"unkillable"' "$ITEMS" || fail "abandoned item lacks error unkillable"
expect_grep ascend/npu-smi-info.txt.err 'still there after KILL (pid state: [0-9]* D)'
expect_item ascend/npu-smi-map.txt skipped device_unresponsive
expect_item system/uname.txt ok
grep -q 'abandoned: ascend/npu-smi-info.txt: process group [0-9]* is still there after KILL' "$STDERR_FILE" ||
  fail "summary does not report the abandoned process"
# The stub itself was really killed (only the probes were faked).
stub=$(sed -n 1p "$H/state/pids")
sleep 0.5
kill -0 "$stub" 2>/dev/null && fail "the hung npu-smi was not killed"
finish
