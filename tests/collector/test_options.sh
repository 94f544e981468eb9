#!/bin/bash
# Options and refusals: --help, --version, bad usage (exit 2, nothing written), refusing to
# start below the free-space margin (exit 2, nothing left behind), --safe-mode (no device
# tool is called; the calls are skipped with reason option), a -p process that is gone and
# pids given twice.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
out=$("$BASH" "$COLLECTOR" --help 2>&1); rc=$?
[ "$rc" = 0 ] || fail "--help exits $rc"
for w in 'Usage: ascend-collect' --out --pid --timeout --deadline --safe-mode --no-redact --version 'Exit codes'; do
  case $out in *"$w"*) ;; *) fail "--help does not mention $w" ;; esac
done
out=$("$BASH" "$COLLECTOR" --version 2>&1); rc=$?
if [ "$rc" != 0 ] || [ "$out" != "ascend-collect 0.1.0" ]; then fail "--version: $rc '$out'"; fi

for bad in "--bogus" "--timeout 0" "--timeout abc" "--deadline" "-p abc" "--pid 12,x" "-o"; do
  # shellcheck disable=SC2086  # each case is several words
  "$BASH" "$COLLECTOR" $bad > "$H/usage.out" 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "'$bad' exits $rc, expected 2"
  grep -q "Try 'ascend-collect --help'" "$H/usage.out" || fail "'$bad' gives no usage hint: $(cat "$H/usage.out")"
done
[ -z "$(ls -A "$OUT")" ] || fail "bad usage wrote into the output directory"

MIN_FREE_MB=999999999 run_collect
expect_rc 2
grep -q 'refusing to start: .* MB free' "$STDERR_FILE" || fail "no message about free space"
[ -z "$(ls -A "$OUT")" ] || fail "a refused run left files: $(ls -A "$OUT")"
[ ! -s "$H/state/calls" ] || fail "a refused run called tools: $(cat "$H/state/calls")"

run_collect --safe-mode -p 99999 -p "$TRAIN_PID" --pid="$TRAIN_PID,099999"
expect_rc 0
unpack_archive
check_bundle
expect_item ascend/npu-smi-info.txt skipped option
expect_item ascend/npu-smi-map.txt skipped option
grep -q '^npu-smi' "$H/state/calls" && fail "--safe-mode called npu-smi"
expect_item processes/99999/environ absent source_missing
expect_item processes/99999/maps absent source_missing
expect_item processes/$TRAIN_PID/maps ok
grep -q '"safe_mode": true, "pids": \[99999,4242\]' "$B/manifest.json" || fail "manifest options: $(grep options "$B/manifest.json")"
finish
