#!/bin/bash
# The evidence of collective-communication failures (issue 21): per device, hccn_tool's link,
# net_health, ip, optical, link_stat and stat (device tools: none after one hangs, none in
# --safe-mode); the file each process's RANK_TABLE_FILE names, read through its own root,
# capped and redacted; with --stacks a py-spy dump of each Python target process (absent
# without py-spy, skipped without the option); and manifest.json's npu_presence on an NPU host.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

QUERIES=(link net_health ip optical link_stat stat)

# Appends NUL-terminated entry $2 to the environ of process $1 (mode kept).
add_env() {
  local f=$SYSROOT/proc/$1/environ m
  m=$(stat -c %a "$f")
  chmod 600 "$f"
  printf '%s\0' "$2" >> "$f"
  chmod "$m" "$f"
}

# --- 1. Everything there: three processes, two devices, py-spy installed, --stacks -------
fake_host_new
cp "$LIB_DIR/stubs/py-spy" "$H/bin/py-spy"
chmod 755 "$H/bin/py-spy"
# The host process's rank table: 1.5 MB of pretty-printed JSON (over the 1 MB log cap given
# below) with a secret in its head.
add_env "$TRAIN_PID" RANK_TABLE_FILE=/etc/hccl/rank_table.json
mkdir -p "$SYSROOT/etc/hccl"
{
  printf '{\n  "version": "1.0",\n  "note": "password=RANKPASSSECRET",\n  "server_count": "1",\n  "server_list": [\n'
  awk 'BEGIN { for (i = 0; i < 20000; i++) printf "    {\"device_id\": \"%d\", \"device_ip\": \"192.168.%d.%d\", \"rank_id\": \"%d\"},\n", i % 8, int(i / 250), i % 250, i }'
  printf '    {"device_id": "7", "device_ip": "192.168.99.99", "rank_id": "20000"}\n  ],\n  "status": "completed"\n}\n'
} > "$SYSROOT/etc/hccl/rank_table.json"
# A container process whose rank table is an absolute link that resolves only inside its root,
# and one whose RANK_TABLE_FILE is relative to its working directory.
fake_container_process 5151 4026532999
add_env 5151 RANK_TABLE_FILE=/user/config/hccl.json
c=$SYSROOT/containers/5151
mkdir -p "$c/user/config" "$c/user/serverid/devindex/config"
printf '{"version": "1.0", "server_count": "1", "status": "completed", "server_list": [{"server_id": "10.0.0.7", "device": [{"device_id": "0", "device_ip": "192.168.10.10", "rank_id": "0"}]}]}\n' \
  > "$c/user/serverid/devindex/config/hccl.json"
ln -s /user/serverid/devindex/config/hccl.json "$c/user/config/hccl.json"
fake_container_process 6161 4026533000
add_env 6161 RANK_TABLE_FILE=config/rank.json
ln -s /job/code "$SYSROOT/proc/6161/cwd"
mkdir -p "$SYSROOT/containers/6161/job/code/config"
printf '{"version": "1.2", "server_count": "1", "status": "completed"}\n' > "$SYSROOT/containers/6161/job/code/config/rank.json"

run_collect --timeout 10 --stacks --max-log-mb 1
expect_rc 0
unpack_archive
check_bundle

for logic in 0 1; do
  for q in "${QUERIES[@]}"; do
    expect_item "ascend/hccn-$q-$logic.txt" ok
    grep -q -x -F -- "hccn_tool -i $logic -$q -g" "$H/state/calls" || fail "hccn_tool -i $logic -$q -g was not called"
  done
done
expect_grep ascend/hccn-net_health-0.txt '^net health status: Success$'
expect_grep ascend/hccn-ip-1.txt '^ipaddr:192.168.10.11$'
expect_grep ascend/hccn-link_stat-1.txt 'link up count'

# Rank tables: the host's capped (head and tail kept) and redacted; the container's read
# through its root; the missing one absent.
r=processes/$TRAIN_PID/rank-table.json
expect_item "$r" ok
item_line "$r" | grep -q '"truncated":true,"kept_ranges":\[\[0,' || fail "$r not capped: $(item_line "$r")"
item_line "$r" | grep -q '"source":"/etc/hccl/rank_table.json"' || fail "$r source: $(item_line "$r")"
expect_grep "$r" '"password=<redacted>"'
expect_grep "$r" '"status": "completed"'
size=$(wc -c < "$B/$r")
((size <= 1048576 + 200)) || fail "$r keeps $size bytes, over the 1 MB cap"
grep -q '"secret_pattern"\|"log_secret"' "$B/manifest.json" || fail "no redaction kind recorded for the rank table"
cmp -s "$B/processes/5151/rank-table.json" "$c/user/serverid/devindex/config/hccl.json" ||
  fail "the container's rank table is not its file read through its root"
expect_item processes/5151/rank-table.json ok
cmp -s "$B/processes/6161/rank-table.json" "$SYSROOT/containers/6161/job/code/config/rank.json" ||
  fail "a relative RANK_TABLE_FILE is not read from the process's working directory"
grep -r -q RANKPASSSECRET "$B" && fail "a rank table's secret is in the bundle"
expect_no_file processes/777/rank-table.json

# py-spy: one dump per Python target process.
for p in "$TRAIN_PID" 5151 6161; do
  expect_item "processes/$p/py-spy-dump.txt" ok
  expect_grep "processes/$p/py-spy-dump.txt" "^Process $p: "
  grep -q -x -F "py-spy dump --pid $p" "$H/state/calls" || fail "py-spy was not run for $p"
done
grep -q '"pip": false, "stacks": true}' "$B/manifest.json" || fail "manifest options do not say --stacks"

# This host shows its NPUs.
grep -q -F '"npu_presence": {"state": "npu_visible", "ascend_modules_loaded": 3, "driver_installed": true, "device_nodes": 2, "npu_pci_devices": 1, "npu_processes": 3},' "$B/manifest.json" ||
  fail "npu_presence: $(grep npu_presence "$B/manifest.json")"
grep -q 'result: complete (exit 0)' "$STDERR_FILE" || fail "result line: $(tail -n 1 "$STDERR_FILE")"

# --- 2. hccn_tool hangs on its first call; --stacks without py-spy -----------------------
rm -rf "$H/unpacked" "${OUT:?}"/*
: > "$H/state/calls"
stub_mode hccn_tool hang
fake_bin_remove py-spy
run_collect -p "$TRAIN_PID" --timeout 3 --stacks
expect_rc 1
unpack_archive
check_bundle
expect_item ascend/hccn-link-0.txt timed_out
for q in "${QUERIES[@]:1}"; do expect_item "ascend/hccn-$q-0.txt" skipped device_unresponsive; done
for q in "${QUERIES[@]}"; do expect_item "ascend/hccn-$q-1.txt" skipped device_unresponsive; done
[ "$(grep -c '^hccn_tool ' "$H/state/calls")" = 1 ] || fail "hccn_tool was called again after it hung: $(grep '^hccn_tool' "$H/state/calls")"
expect_item "processes/$TRAIN_PID/py-spy-dump.txt" absent tool_missing

# --- 3. --safe-mode, no --stacks: no device tool, no py-spy; a rank table that is not there -
add_env "$TRAIN_PID" RANK_TABLE_FILE=/etc/hccl/missing.json
rm -rf "$H/unpacked" "${OUT:?}"/*
: > "$H/state/calls"
stub_mode hccn_tool ok
cp "$LIB_DIR/stubs/py-spy" "$H/bin/py-spy"
chmod 755 "$H/bin/py-spy"
run_collect -p "$TRAIN_PID" --timeout 10 --safe-mode
expect_rc 0
unpack_archive
check_bundle
expect_item "processes/$TRAIN_PID/py-spy-dump.txt" skipped option
grep -q -E '^(hccn_tool|py-spy) ' "$H/state/calls" && fail "called in --safe-mode without --stacks: $(cat "$H/state/calls")"
[ -z "$(item_line ascend/hccn-net_health-0.txt)" ] || fail "an hccn_tool item in --safe-mode (no device map to ask about)"
expect_item ascend/npu-smi-map.txt skipped option
expect_item "processes/$TRAIN_PID/rank-table.json" absent source_missing
finish
