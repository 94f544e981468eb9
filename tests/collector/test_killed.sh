#!/bin/bash
# A run stopped mid-way, while dmesg hangs (early, to keep the test short). SIGKILL (nothing
# can be saved): manifest.items.jsonl still holds one complete JSON line per finished step.
# SIGTERM and SIGINT: the step in flight is stopped and what exists is archived, with the
# manifest saying the run was interrupted.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
stub_mode dmesg hang

# Starts the collector in the background (its own process group, so SIGINT is not ignored
# the way it is for background jobs); waits until it is inside the hung dmesg call.
start_and_wait_for_hang() {
  local i
  : > "$H/state/calls"
  STDERR_FILE=$H/collector.stderr
  set -m
  env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
    "$BASH" "$COLLECTOR" -o "$OUT" -p "$TRAIN_PID" --timeout 60 2> "$STDERR_FILE" &
  COLLECTOR_PID=$!
  set +m
  for ((i = 0; i < 600; i++)); do
    grep -q '^dmesg' "$H/state/calls" && { sleep 0.5; return 0; }
    sleep 0.1
  done
  fail "the collector never reached dmesg"
  kill -KILL "$COLLECTOR_PID"
  finish
}

# Waits for the collector to exit (bounded); sets RC.
wait_collector() {
  local i
  for ((i = 0; i < 300; i++)); do
    kill -0 "$COLLECTOR_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$COLLECTOR_PID" 2>/dev/null; then
    fail "the collector did not stop after the signal"
    kill -KILL "$COLLECTOR_PID"
  fi
  wait "$COLLECTOR_PID"
  RC=$?
}

say "SIGKILL"
start_and_wait_for_hang
kill -KILL "$COLLECTOR_PID"
wait_collector
find_archive
[ -z "$ARCHIVE" ] || fail "an archive after SIGKILL?"
B=$(echo "$OUT"/ascend-bundle-*[0-9]Z)
ITEMS=$B/manifest.items.jsonl
[ -s "$ITEMS" ] || fail "no manifest.items.jsonl after SIGKILL"
[ "$(tail -c 1 "$ITEMS" | od -An -c | tr -d ' ')" = '\n' ] || fail "manifest.items.jsonl ends in a partial line"
expect_item system/uname.txt ok
expect_item system/boot.txt ok
item_line kernel/dmesg.txt >/dev/null && fail "the step in flight has an item"
python3 -c 'import json, sys
for n, line in enumerate(open(sys.argv[1], "rb").read().split(b"\n")[:-1], 1):
  item = json.loads(line.decode("ascii"))
  assert item["status"] in ("ok", "absent", "denied", "skipped", "failed", "timed_out", "abandoned"), n' "$ITEMS" ||
  fail "manifest.items.jsonl lines are not all JSON items"
rm -rf "${OUT:?}"/* "$OUT"/.ascend-bundle-*

for sig in TERM INT; do
  say "SIG$sig"
  start_and_wait_for_hang
  kill "-$sig" "$COLLECTOR_PID"
  wait_collector
  expect_rc 1
  unpack_archive
  check_manifest_first
  check_bundle
  grep -q '"interrupted": true' "$B/manifest.json" || fail "manifest does not say the run was interrupted"
  expect_item kernel/dmesg.txt failed
  grep -q '"path":"kernel/dmesg.txt".*"error":"interrupted"' "$ITEMS" || fail "the stopped step lacks error interrupted"
  expect_grep kernel/dmesg.txt 'partial output before the hang'
  item_line kernel/journal-b0.jsonl >/dev/null && fail "a step after the interrupt was recorded"
  expect_item system/uname.txt ok
  grep -q 'interrupted: stopping the current step and archiving what exists' "$STDERR_FILE" || fail "no message about the interrupt"
  for f in "$OUT"/* "$OUT"/.[!.]*; do
    case $f in "$OUT"/ascend-bundle-*.tar.zst) ;; *) [ -e "$f" ] && fail "leftover after SIG$sig: $f" ;; esac
  done
  rm -rf "${OUT:?}"/*
done
finish
