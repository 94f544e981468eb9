#!/bin/bash
# A probe that cannot be killed is "abandoned": the device counts as unresponsive and the
# later probes are skipped, saying why; the interpreter comes from --probe-python. No test
# can make a process that survives KILL, so the one place the collector reads a probe's
# state (proc_state) is replaced by a driver: it answers "D" for the hung stub's pid. The
# stub itself is really signalled and really dies. Then --safe-mode: no probe runs at all.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
cp "$LIB_DIR/stubs/python-probe" "$H/python-probe"
chmod 755 "$H/python-probe"
stub_mode probe-rand hang
cat > "$H/driver.sh" <<'DRIVER'
# shellcheck source=/dev/null
. "$1"
shift
ARGS_ORIG=("$@")
record_locale
export LC_ALL=C
parse_args "$@"
init_run
proc_state() {
  local line
  PSTATE=""
  if grep -qx "$1" "$FAKE_HOST/state/pids" 2>/dev/null; then PSTATE=D; return 0; fi
  IFS= read -r line 2>/dev/null < "/proc/$1/stat" || return 0
  line=${line##*) }
  PSTATE=${line%% *}
}
phase_probes
finish_run
DRIVER
# Runs the driver with the options $@ (RC, STDERR_FILE).
run_driver() {
  STDERR_FILE=$H/collector.stderr
  env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
    "$BASH" "$H/driver.sh" "$COLLECTOR" -o "$OUT" "$@" 2> "$STDERR_FILE"
  RC=$?
}
run_driver --probes --probe-python "$H/python-probe" --probe-timeout 2
expect_rc 1
unpack_archive
check_bundle

expect_item probes/ones_copyback.json ok
expect_item probes/rand.json abandoned
grep -q '"path":"probes/rand.json".*"error":"unkillable"' "$ITEMS" || fail "abandoned probe lacks error unkillable"
expect_grep probes/rand.json '"outcome":"abandoned"'
expect_grep probes/rand.json '"timed_out":true'
expect_grep probes/rand.json "\"python\":\"$H/python-probe\""
expect_grep probes/rand.json '"env_from":null'
expect_grep probes/rand.status '^State:'
for name in randn randint; do
  expect_item "probes/$name.json" skipped device_unresponsive
  grep -q "\"path\":\"probes/$name.json\".*\"error\":\"probe_abandoned\"" "$ITEMS" || fail "$name: skip does not name the abandoned probe"
  expect_no_file "probes/$name.json"
done
grep -q '"device_unresponsive": true' "$B/manifest.json" || fail "manifest does not say the device is unresponsive"
grep -q '"notes": \[.*probe rand was abandoned' "$B/manifest.json" || fail "manifest notes do not say why"
grep -q 'abandoned: probes/rand.json: probe process [0-9]* is still there after KILL (state D)' "$STDERR_FILE" ||
  fail "summary does not report the abandoned probe"
grep -q 'skipped: probes/randn.json (device_unresponsive)' "$STDERR_FILE" || fail "summary does not list the skipped probes"
[ "$(grep -c '^python ' "$H/state/calls")" = 4 ] || fail "probes ran after the abandoned one: $(cat "$H/state/calls")"
# Killed: gone, or a zombie until its new parent reaps it (the body that started it is gone).
stub=$(sed -n 1p "$H/state/pids")
for ((i = 0; i < 150; i++)); do  # up to 15 s: the KILL lands late on a loaded machine
  state=$(sed -n 's/^[0-9]* ([^)]*) \([A-Z]\).*/\1/p' "/proc/$stub/stat" 2>/dev/null)
  case $state in ""|Z) break ;; esac
  sleep 0.1
done
case $state in ""|Z) ;; *) fail "the hung probe was not really killed (state $state)" ;; esac

# --safe-mode: every probe skipped with reason option, no interpreter started.
OUT=$H/out-safe
mkdir -p "$OUT"
: > "$H/state/calls"
run_driver --probes --safe-mode --probe-python "$H/python-probe"
expect_rc 0
unpack_archive
for name in ones_copyback cpu_rand_h2d matmul rand randn randint; do
  expect_item "probes/$name.json" skipped option
done
[ ! -s "$H/state/calls" ] || fail "--safe-mode started a probe: $(cat "$H/state/calls")"
finish
