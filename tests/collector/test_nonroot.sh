#!/bin/bash
# As an unprivileged user (setpriv to uid/gid 65534, no groups), with the script and the fake
# host in a mktemp -d directory of mode 755: what root alone may read is recorded as denied
# (a private environ, dmesg_restrict, a journal hint with exit 0, root's log directory,
# npu-smi's refusal), everything else is collected, and a bundle is still produced.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_test "needs root to switch to an unprivileged user"
need_tool setpriv

# Under /tmp whatever TMPDIR says: every parent must be searchable by the unprivileged user.
TMPDIR=/tmp fake_host_new
cp "$COLLECTOR" "$H/ascend-collect.sh"
chmod 755 "$H/ascend-collect.sh"
COLLECTOR_COPY=$H/ascend-collect.sh
chmod -R a+rwX "$H/state"
chown 65534:65534 "$OUT"
t0=$(date +%s)
STDERR_FILE=$H/collector.stderr
setpriv --reuid=65534 --regid=65534 --clear-groups \
  env -i PATH="$H/bin" HOME=/nonexistent FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
  "$BASH" "$COLLECTOR_COPY" -o "$OUT" -p "$TRAIN_PID" --timeout 10 2> "$STDERR_FILE"
RC=$?
say "collector exit $RC after $(($(date +%s) - t0))s"
expect_rc 1
unpack_archive
check_bundle
[ "$(stat -c %u "$ARCHIVE")" = 65534 ] || fail "archive not written by the unprivileged user"

expect_item processes/$TRAIN_PID/environ denied permission
expect_no_file processes/$TRAIN_PID/environ
expect_item kernel/dmesg.txt denied permission
expect_grep kernel/dmesg.txt.err 'Operation not permitted'
expect_item kernel/journal-b0.jsonl denied permission
grep -q '"path":"kernel/journal-b0.jsonl".*"rc":0' "$ITEMS" || fail "journal item should keep rc 0"
# /root/ascend/log cannot be listed; /var/log/npu can: the index is made, the denial is in
# its .err.
expect_item logs/index.tsv ok
expect_grep logs/index.tsv.err 'permission denied: .*/root'
expect_item logs/host/var/log/npu/slog/host-0/host-0_20260613170033.log ok
expect_item ascend/npu-smi-info.txt denied permission
for p in system/uname.txt system/time.txt system/boot.txt processes/$TRAIN_PID/maps processes/$TRAIN_PID/cmdline \
  modules/sysfs.tsv modules/tree.tsv modules/lsmod.txt; do
  expect_item "$p" ok
done
grep -q '"uid": 65534' "$B/manifest.json" || fail "manifest uid is not 65534"
grep -q 'denied: .*processes/4242/environ (permission)' "$STDERR_FILE" || fail "summary does not list the denials"
finish
