#!/bin/bash
# --device-logs: a fake msnpureport on PATH writes its time-stamped tree (slog/dev-os-0/...,
# hisi_logs/*/history.log, kbox.txt, event_*.log) into its working directory; the tree
# lands under ascend/device-logs/ as written, one manifest item a file, its messages in
# ascend/msnpureport.txt. Then msnpureport hangs: it is a device tool, so it times out and
# the device probes after it are skipped as device_unresponsive.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
cp "$LIB_DIR/stubs/msnpureport" "$H/bin/msnpureport"
cp "$LIB_DIR/stubs/python-probe" "$H/python-probe"
chmod 755 "$H/bin/msnpureport" "$H/python-probe"
cat > "$H/driver.sh" <<'DRIVER'
# shellcheck source=/dev/null
. "$1"
shift
ARGS_ORIG=("$@")
record_locale
export LC_ALL=C
parse_args "$@"
init_run
for phase in "${PHASES[@]}"; do
  case $phase in device_logs|probes) "phase_$phase" ;; esac
done
finish_run
DRIVER
run_driver() {
  STDERR_FILE=$H/collector.stderr
  env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
    "$BASH" "$H/driver.sh" "$COLLECTOR" -o "$OUT" "$@" 2> "$STDERR_FILE"
  RC=$?
}
run_driver --device-logs --timeout 5
expect_rc 0
unpack_archive
check_manifest_first
check_bundle
check_with_analyzer

d=ascend/device-logs/2026-06-13-17-20-05
for f in slog/dev-os-0/run/device-os/device-os_20260613171458102.log slog/dev-os-0/run/event/event_20260613171458.log \
  slog/dev-os-0/debug/device-0/device-0_20260613171502770.log hisi_logs/device-0/history.log \
  hisi_logs/device-0/20260613171500-123456000/bbox/kbox.txt message/messages; do
  expect_file "$d/$f"
  expect_item "$d/$f" ok
  grep -q "\"path\":\"$d/$f\",\"source\":\"msnpureport export\",\"exec\":\\[\"msnpureport\",\"-f\"\\]" "$ITEMS" ||
    fail "$d/$f: item lacks its source or argv"
done
expect_grep "$d/slog/dev-os-0/run/event/event_20260613171458.log" 'event_id=0x80E01809'
expect_grep "$d/slog/dev-os-0/run/event/event_20260613171458.log" 'event_id=0x80C98001'
expect_item ascend/msnpureport.txt ok
expect_grep ascend/msnpureport.txt 'export logs success'
# The analyzer reads the export: the HBM ECC event and the AI Core timeout become findings.
"$ANALYZER" analyze --format json "$ARCHIVE" > "$H/report.json" 2> "$H/report.err"
for id in device-exception/hbm-ecc device-exception/aicore-timeout; do
  grep -q "\"id\": *\"$id\"" "$H/report.json" || fail "analyzer: no $id finding from the export"
done
grep -q '^msnpureport -f$' "$H/state/calls" || fail "msnpureport was not called as 'msnpureport -f': $(cat "$H/state/calls")"
[ -z "$(find "$B" -path '*2026-06-13-17-20-05*' ! -path "$B/ascend/device-logs/*" | head -n 1)" ] ||
  fail "the export landed outside ascend/device-logs"

# A hanging export: timed out (a device tool), and the probes after it are skipped.
stub_mode msnpureport hang
OUT=$H/out-hang
mkdir -p "$OUT"
: > "$H/state/calls"
run_driver --device-logs --timeout 1 --probes --probe-python "$H/python-probe"
expect_rc 1
unpack_archive
expect_item ascend/msnpureport.txt timed_out
expect_grep ascend/msnpureport.txt 'partial output before the hang'
expect_item probes/ones_copyback.json skipped device_unresponsive
grep -q '^python ' "$H/state/calls" && fail "a probe ran after the device export hung"
grep -q '"device_unresponsive": true' "$B/manifest.json" || fail "manifest does not say the device is unresponsive"
finish
