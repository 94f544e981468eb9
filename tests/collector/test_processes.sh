#!/bin/bash
# Target processes found from /proc without -p, and their files: the host's training
# process and two containers. A container's /etc/localtime is an absolute link resolved
# inside ITS root (New York), not the host's (Shanghai); the two containers' plogs at the
# same path /root/ascend/log land under different origins.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
fake_container_process 5151 4026532501
fake_container_process 6161 4026532602
run_collect --timeout 10 --safe-mode
expect_rc 0
unpack_archive
check_bundle
check_with_analyzer

grep -q 'target processes found in /proc: 4242 5151 6161$' "$STDERR_FILE" ||
  fail "targets not found from /proc: $(grep 'target processes' "$STDERR_FILE")"
[ -e "$B/processes/777" ] && fail "pid 777 (sshd, no Ascend mapping) was collected"

for pid in 4242 5151 6161; do
  for f in status maps environ cmdline stat mountinfo cgroup fd.tsv exe.txt root.txt tz.txt \
    localtime.tzif threads.1.txt threads.2.txt; do
    expect_item "processes/$pid/$f" ok
  done
done
# status is read first (the state check), before maps.
first=$(grep -o '"path":"processes/4242/[^"]*"' "$ITEMS" | head -n 1)
[ "$first" = '"path":"processes/4242/status"' ] || fail "first process item is $first, not status"

grep -q "$(printf '^12\t/dev/davinci0$')" "$B/processes/4242/fd.tsv" || fail "fd.tsv lacks davinci0: $(cat "$B/processes/4242/fd.tsv")"
head -n 1 "$B/processes/4242/fd.tsv" | grep -qx "$(printf 'fd\ttarget')" || fail "fd.tsv header"
expect_grep processes/4242/exe.txt '^/usr/bin/python3.9$'
expect_grep processes/4242/threads.1.txt '^sampled_uptime=86523.47$'
expect_grep processes/4242/threads.2.txt '^/proc/4242/task/4250/wchan:devdrv_manager_ioctl$'
expect_grep processes/4242/threads.1.txt '^/proc/4242/task/4242/stat:4242 (python3) S'

# The host process: Shanghai. The container: New York, from inside its own root.
expect_grep processes/4242/tz.txt '^tz_posix=CST-8$'
expect_grep processes/4242/tz.txt '^utc_offset=+0800$'
expect_grep processes/5151/tz.txt '^tz_posix=EST5EDT,M3.2.0,M11.1.0$'
expect_grep processes/5151/tz.txt '^timezone=America/New_York$'
grep -q -E '^utc_offset=-0[45]00$' "$B/processes/5151/tz.txt" || fail "container utc_offset: $(cat "$B/processes/5151/tz.txt")"
cmp -s "$B/processes/5151/localtime.tzif" "$LIB_DIR/fixtures/America_New_York.tzif" ||
  fail "container localtime.tzif is not the container's New York file"
cmp -s "$B/processes/4242/localtime.tzif" "$LIB_DIR/fixtures/Asia_Shanghai.tzif" ||
  fail "host process localtime.tzif is not the host's file"

# Same log path in two containers: two origins, both in logs/index.tsv.
for c in 5151:4026532501 6161:4026532602; do
  pid=${c%%:*} ns=${c#*:}
  p=logs/mnt-$ns/root/ascend/log/debug/plog/plog-${pid}_20260613170033666.log
  expect_item "$p" ok
  expect_grep "$p" "container $ns stall"
  grep -q "$(printf '^%s\t/root/ascend/log/debug/plog/plog-%s_20260613170033666.log\tmnt-%s\t%s\t' "$p" "$pid" "$ns" "$pid")" "$B/logs/index.tsv" ||
    fail "logs/index.tsv row for container $pid: $(grep "mnt-$ns" "$B/logs/index.tsv")"
done
# The host process's HOME is /root: its logs are the host's, taken once.
expect_item logs/host/root/ascend/log/debug/plog/plog-4242_20260613170033666.log ok
[ "$(grep -c -F 'logs/host/root/ascend/log/debug/plog/plog-4242_20260613170033666.log' "$B/logs/index.tsv")" = 1 ] ||
  fail "host plog listed more than once in logs/index.tsv"
finish
