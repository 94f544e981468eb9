#!/bin/bash
# --max-total-mb: a process's long series of plogs does not fit. The first file (holding the
# first stall report) and the last are kept, then the one holding an ERROR line, then the
# newest; the oldest files without errors are skipped (reason option) and listed in
# logs/index.tsv with no kept range; the bundle stays within the bound.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
D=/root/ascend/log/debug/plog
# The fake host's own logs are older than the series.
find "$SYSROOT/root/ascend/log" "$SYSROOT/var/log/npu" -type f -exec touch -d @1781312400 {} +
t=1781400000
for k in 1 2 3 4 5 6 7 8; do
  f=$SYSROOT$D/plog-4242_2026061400${k}000000.log
  awk -v k="$k" 'BEGIN {
    for (i = 1; i <= 4000; i++) {
      if (k == 1 && i == 2500) print "[EVENT] RUNTIME(4242,python3):2026-06-14-00:03:00.000.001 [stream.cc:1402]4242 SynchronizeExecutedTask:report three minutes timeout! stream_id=47, sq_id=9, task_id=1280, sqHead=500, flip_num=0, pendingNum=781. FIRST-STALL"
      else if (k == 4 && i == 100) print "[ERROR] GE(4242,python3):2026-06-14-00:40:00.000.001 [graph.cc:12]4242 something failed: ERROR-IN-4"
      else printf "[INFO] GE(4242,python3):2026-06-14-00:%02d:00.%06d [ge_api.cc:88]4242 file %d step %d padded %s\n", k, i, k, i, "xxxxxxxxxxxxxxxxxxxx"
    } }' > "$f"
  touch -d "@$((t + k * 600))" "$f"
done
size=$(wc -c < "$SYSROOT$D/plog-4242_20260614001000000.log")
((size > 350000 && size < 500000)) || fail "a series file is $size bytes"

run_collect -p "$TRAIN_PID" --timeout 20 --safe-mode --max-total-mb 2
expect_rc 0
unpack_archive
check_bundle

L=logs/host$D
for k in 1 8 4 7; do expect_item "$L/plog-4242_2026061400${k}000000.log" ok; done
expect_grep "$L/plog-4242_20260614001000000.log" 'FIRST-STALL'
expect_grep "$L/plog-4242_20260614004000000.log" 'ERROR-IN-4'
for k in 2 3; do
  p=$L/plog-4242_2026061400${k}000000.log
  expect_item "$p" skipped option
  expect_no_file "$p"
  grep -q "$(printf '^%s\t%s\thost\t4242\t1\t\\[\\]$' "$p" "$D/plog-4242_2026061400${k}000000.log")" "$B/logs/index.tsv" ||
    fail "logs/index.tsv does not list the skipped $p: $(grep -F "00${k}000000" "$B/logs/index.tsv")"
done
# The fake host's small logs (first and last of their own series) are all there.
expect_item logs/host/root/ascend/log/debug/device-0/device-4242_20260613170040123.log ok
expect_item logs/host/var/log/npu/slog/host-0/host-0_20260613170033.log ok
total=$(find "$B" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
((total <= 2 * 1048576)) || fail "the bundle holds $total bytes, over --max-total-mb 2"
say "bundle bytes: $total"
finish
