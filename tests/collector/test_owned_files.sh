#!/bin/bash
# Issue 33: a file taken on a process's word must be one that process could read. Any user
# can become a target (map a file named libascendcl); the collector reads as root. An
# unprivileged process (uid 1000) names /etc/shadow as its rank table, /root/.ssh and /etc
# as log directories, a work path whose log is a link to /root, and a HOME whose ascend/log
# holds a link to /etc/shadow, a root-only plog, a FIFO named like a plog, a non-log file and
# one plog of its own. Nothing of root's may reach the archive, each refusal is an item with
# its reason, its own plog and everything of the real (root) job is still collected.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_test "needs root (files owned by uid 1000)"

fake_host_new
# Root-only secrets.
# shellcheck disable=SC2016  # a literal shadow hash
plant /etc/shadow 'root:$6$SHADOWSALT$SHADOWHASHMARK0123456789:19700:0:99999:7:::\n'
chmod 000 "$SYSROOT/etc/shadow"
mkdir -p "$SYSROOT/root/.ssh"
printf '%s\n' '-----BEGIN OPENSSH PRIVATE KEY-----' SSHKEYMARKb3BlbnNzaC1rZXktdjEAAAAA \
  '-----END OPENSSH PRIVATE KEY-----' > "$SYSROOT/root/.ssh/id_rsa"
chmod 700 "$SYSROOT/root/.ssh"
chmod 600 "$SYSROOT/root/.ssh/id_rsa"
plant /etc/passwd 'root:x:0:0:root:/root:/bin/bash\nPASSWDMARK:x:1000:1000::/home/mallory:/bin/bash\n'

# The attacker: uid 1000, maps a file named libascendcl.
a=5300
plant "/proc/$a/cmdline" 'python3\0evil.py\0'
plant "/proc/$a/environ" 'HOME=/home/mallory\0RANK_TABLE_FILE=/etc/shadow\0ASCEND_PROCESS_LOG_PATH=/root/.ssh\0ASCEND_WORK_PATH=/home/mallory/work\0'
plant "/proc/$a/status" "Name:\tpython3\nState:\tS (sleeping)\nPid:\t$a\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nGroups:\t1000 \n"
plant "/proc/$a/stat" "$a (python3) S 1 $a 1 0 -1 4194304 1 0 0 0 52 4 0 0 20 0 57 0 7745000 0 0\n"
plant "/proc/$a/maps" 'ffff8c000000-ffff8c400000 r-xp 00000000 fd:00 99 /home/mallory/libascendcl.so\n'
fake_process_extras "$a" 4026531840 ../..
# A second one: /etc as its log directory, a huge sparse rank table of its own.
b=5301
plant "/proc/$b/cmdline" 'python3\0evil2.py\0'
plant "/proc/$b/environ" 'HOME=/nonexistent\0ASCEND_PROCESS_LOG_PATH=/etc\0RANK_TABLE_FILE=/home/mallory/huge.json\0'
plant "/proc/$b/status" "Name:\tpython3\nState:\tS (sleeping)\nPid:\t$b\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nGroups:\t1000\n"
plant "/proc/$b/stat" "$b (python3) S 1 $b 1 0 -1 4194304 1 0 0 0 52 4 0 0 20 0 57 0 7745000 0 0\n"
plant "/proc/$b/maps" 'ffff8c000000-ffff8c400000 r-xp 00000000 fd:00 99 /home/mallory/libascendcl.so\n'
fake_process_extras "$b" 4026531840 ../..

m=$SYSROOT/home/mallory l=$SYSROOT/home/mallory/ascend/log/debug/plog
mkdir -p "$m/work" "$l"
ln -s /root "$m/work/log"
ln -s /etc/shadow "$l/plog-1_20260613170000000.log"
printf '[ERROR] ROOTONLYPLOGMARK\n' > "$l/plog-2_20260613170000000.log"
chmod 600 "$l/plog-2_20260613170000000.log"
mkfifo "$l/plog-3_20260613170000000.log"
printf '[ERROR] RUNTIME(5300,python3):2026-06-13-17:03:33.666.123 [stream.cc:1]5300 MALLORYOWNPLOG\n' > "$l/plog-5300_20260613170000000.log"
printf 'NOTALOGMARK\n' > "$SYSROOT/home/mallory/ascend/log/notes.txt"
truncate -s 64M "$m/huge.json"
chown -R 1000:1000 "$m"
chown -h 0:0 "$l/plog-2_20260613170000000.log"
chmod 755 "$m" "$m/ascend" "$m/ascend/log" "$m/ascend/log/debug" "$l"

# --no-redact: nothing is masked, so a secret absent from the bundle was never copied.
run_collect --timeout 10 --safe-mode --no-redact
expect_rc 1
unpack_archive
check_bundle

grep -q "target processes found in /proc: $TRAIN_PID $a $b\$" "$STDERR_FILE" ||
  fail "targets: $(grep 'target processes' "$STDERR_FILE")"
for mark in SHADOWHASHMARK SSHKEYMARK ROOTONLYPLOGMARK PASSWDMARK NOTALOGMARK; do
  hits=$(grep -r -l -a "$mark" "$B")
  [ -z "$hits" ] || fail "$mark reached the bundle: $hits"
done
zstd -dc "$ARCHIVE" 2>/dev/null | grep -a -q -E 'SHADOWHASHMARK|SSHKEYMARK' && fail "a root secret is in the archive"
gzip -dc "$ARCHIVE" 2>/dev/null | grep -a -q -E 'SHADOWHASHMARK|SSHKEYMARK' && fail "a root secret is in the archive"

# expect_refused PATH ERROR: a denied item (reason permission) with that error, and no file.
expect_refused() {
  expect_item "$1" denied permission
  item_line "$1" | grep -q "\"error\":\"$2\"" || fail "$1: expected error $2: $(item_line "$1")"
  [ ! -f "$B/$1" ] || fail "$1 was refused but is in the bundle"
}
expect_refused "processes/$a/rank-table.json" refused_process_cannot_read
expect_refused logs/host/root/.ssh refused_log_root
expect_refused logs/host/etc refused_log_root
expect_refused logs/host/home/mallory/work/log refused_process_cannot_read
hl=logs/host/home/mallory/ascend/log/debug/plog
expect_refused "$hl/plog-1_20260613170000000.log" refused_symlink
expect_refused "$hl/plog-2_20260613170000000.log" refused_process_cannot_read
expect_refused "$hl/plog-3_20260613170000000.log" refused_not_regular
[ -z "$(item_line logs/host/home/mallory/ascend/log/notes.txt)" ] || fail "a file of no log shape was taken"
# Its own plog is taken; its own huge rank table is capped.
expect_item "$hl/plog-5300_20260613170000000.log" ok
expect_grep "$hl/plog-5300_20260613170000000.log" MALLORYOWNPLOG
expect_item "processes/$b/rank-table.json" ok
size=$(wc -c < "$B/processes/$b/rank-table.json")
((size <= 8388608 + 200)) || fail "the rank table keeps $size bytes, over the 8 MB cap"

# The real job (root) loses nothing: its files and the host's log trees.
for f in status maps environ cmdline stat fd.tsv; do expect_item "processes/$TRAIN_PID/$f" ok; done
r=logs/host/root/ascend/log
for f in debug/plog/plog-4242_20260613170033666.log run/plog/plog-4242_20260613170033667.log \
  debug/device-0/device-4242_20260613170040123.log "run/plog/$(printf '\310\325\326\276')-4242.log"; do
  [ -f "$B/$r/$f" ] || fail "the job's log $f was not collected"
done
expect_item logs/host/var/log/npu/slog/host-0/host-0_20260613170033.log ok
expect_item logs/index.tsv ok

# A real job of uid 1000 whose log directory is its own: everything taken, nothing refused.
rm -rf "$H/unpacked" "${OUT:?}"/*
run_collect -p "$a" --timeout 10 --safe-mode --no-redact
unpack_archive
check_bundle
expect_item "$hl/plog-5300_20260613170000000.log" ok
grep -q "$(printf '^%s/plog-5300_20260613170000000.log\t/home/mallory/ascend/log/debug/plog/plog-5300_20260613170000000.log\thost\t5300\t0\t' "$hl")" "$B/logs/index.tsv" ||
  fail "logs/index.tsv row of the process's own plog: $(grep 5300 "$B/logs/index.tsv")"
finish
