#!/bin/bash
# A tight log cap: a 3 MB plog whose first stall report sits well after the head keeps it
# (and the last one), whole lines, with the cut recorded in the item's kept_ranges and in
# logs/index.tsv; the kept ranges are byte ranges of the source.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
P=/root/ascend/log/debug/plog/plog-4242_20260613180000000.log
mkdir -p "$(dirname "$SYSROOT$P")"
awk 'BEGIN {
  for (i = 1; i <= 30000; i++) {
    if (i == 9000) print "[ERROR] RUNTIME(4242,python3):2026-06-13-18:03:00.000.001 [stream.cc:1024]4250 SynchronizeExecutedTask: report three minutes timeout! stream_id=47, task_id=1280, sqHead=500, pendingNum=781 FIRST-STALL"
    else if (i > 9000 && i % 1000 == 0) print "[ERROR] RUNTIME(4242,python3):2026-06-13-18:06:00.000.001 [stream.cc:1024]4250 SynchronizeExecutedTask: report three minutes timeout! stream_id=47, task_id=1280, sqHead=500, pendingNum=781 REPEAT-" i
    else printf "[INFO] GE(4242,python3):2026-06-13-18:00:00.%06d [ge_api.cc:88]4242 step %d progress line padded %s\n", i, i, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
  } }' > "$SYSROOT$P"
size=$(wc -c < "$SYSROOT$P")
((size > 3000000)) || fail "the test plog is only $size bytes"
run_collect -p "$TRAIN_PID" --timeout 20 --safe-mode --max-log-mb 1
expect_rc 0
unpack_archive
check_bundle

D=logs/host$P
expect_item "$D" ok
expect_grep "$D" 'FIRST-STALL'
expect_grep "$D" 'REPEAT-30000'
expect_grep "$D" 'step 1 progress'
expect_grep "$D" 'step 29999 progress'
expect_grep "$D" '^\[ascend-collect: [0-9]* bytes cut here\]$'
kept=$(wc -c < "$B/$D")
((kept <= 1100000)) || fail "the capped copy is $kept bytes"
line=$(item_line "$D")
case $line in *'"truncated":true,"kept_ranges":[[0,'*) ;; *) fail "item has no kept_ranges: $line" ;; esac
grep -q "$(printf '^%s\t%s\thost\t4242\t1\t\\[\\[0,' "$D" "$P")" "$B/logs/index.tsv" ||
  fail "logs/index.tsv does not record the cut: $(grep -F "$P" "$B/logs/index.tsv")"
# Each kept range of the source appears in the copy byte for byte, in order.
ranges=$(printf '%s\n' "$line" | sed 's/.*"kept_ranges":\[\(.*\)\],"error".*/\1/' | tr -d '[' | tr ']' '\n' | sed 's/^,//')
n=0
while IFS=, read -r a z; do
  [ -n "$a" ] || continue
  n=$((n + 1))
  tail -c +"$((a + 1))" "$SYSROOT$P" | head -c "$((z - a))" > "$H/range"
  grep -q -F -f <(head -n 1 "$H/range") "$B/$D" || fail "range $a-$z not in the copy"
done <<< "$ranges"
((n >= 3)) || fail "expected head, tail and error ranges, got $n: $ranges"
grep -q 'truncated (head and tail kept): .*plog-4242_20260613180000000.log' "$STDERR_FILE" || fail "summary does not name the cut log"
finish
