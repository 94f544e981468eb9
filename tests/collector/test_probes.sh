#!/bin/bash
# --probes against a stub interpreter planted where the target process's own python3 is
# (found on its PATH, through its root): ones_copyback passes, cpu_rand_h2d prints a
# torch_npu error and exits 1, rand hangs ignoring TERM. Each probe is its own process; the
# hung one has its state recorded (.status, .threads.txt) before it is killed, and the
# probes after it still run. Only the process and probe phases run (a full run is slow on a
# loaded machine; test_basic covers the rest).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
cp "$LIB_DIR/stubs/python-probe" "$SYSROOT/usr/bin/python3" 2>/dev/null ||
  { mkdir -p "$SYSROOT/usr/bin"; cp "$LIB_DIR/stubs/python-probe" "$SYSROOT/usr/bin/python3"; }
chmod 755 "$SYSROOT/usr/bin/python3"
stub_mode probe-cpu_rand_h2d error
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
phase_processes
phase_probes
finish_run
DRIVER
STDERR_FILE=$H/collector.stderr
t0=$(date +%s)
env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
  "$BASH" "$H/driver.sh" "$COLLECTOR" -o "$OUT" -p "$TRAIN_PID" --probes --probe-device 1 \
  --probe-timeout 3 --timeout 10 2> "$STDERR_FILE"
RC=$?
say "collector exit $RC after $(($(date +%s) - t0))s"
expect_rc 1
unpack_archive
check_manifest_first
check_bundle
check_with_analyzer

# The JSON of each probe: the contract's fields, its outcome, the interpreter it ran.
python3 - "$B" "$TRAIN_PID" <<'PY' || fail "probe JSON checks"
import json, sys
b, pid = sys.argv[1], sys.argv[2]
want = {"ones_copyback": ("pass", 0, False), "cpu_rand_h2d": ("error", 1, False),
        "matmul": ("pass", 0, False), "rand": ("timeout", None, True),
        "randn": ("pass", 0, False), "randint": ("pass", 0, False)}
bad = 0
for name, (outcome, rc, timed_out) in want.items():
    j = json.load(open(f"{b}/probes/{name}.json"))
    for k in ("name", "argv", "device", "python", "torch_npu_version", "started_utc", "rc",
              "timed_out", "duration_ms", "stdout_file", "stderr_file"):
        if k not in j:
            print(f"{name}.json lacks {k}"); bad += 1
    got = (j["outcome"], j["rc"] if outcome != "timeout" else None, j["timed_out"])
    if got != (outcome, rc, timed_out):
        print(f"{name}: got {got}, want {(outcome, rc, timed_out)}"); bad += 1
    if outcome == "timeout" and j["rc"] not in (137, 143):
        print(f"{name}: a killed probe's rc is {j['rc']}"); bad += 1
    if j["python"] != "/usr/bin/python3" or j["argv"][0] != "/usr/bin/python3":
        print(f"{name}: python {j['python']}, argv {j['argv']}"); bad += 1
    if j["argv"][2:] != [name, "--device", "1"] or j["device"] != 1:
        print(f"{name}: argv {j['argv']}, device {j['device']}"); bad += 1
    if j["torch_npu_version"] != "2.9.0.post6" or j["env_from"] != f"pid:{pid}":
        print(f"{name}: version {j['torch_npu_version']}, env_from {j['env_from']}"); bad += 1
    if "LD_LIBRARY_PATH" not in j["env_vars"] or j["name"] != name:
        print(f"{name}: env_vars {j['env_vars']}"); bad += 1
    if j["stdout_file"] != f"probes/{name}.stdout" or j["log_dir"] != f"probes/logs/{name}":
        print(f"{name}: files {j['stdout_file']} {j['log_dir']}"); bad += 1
sys.exit(1 if bad else 0)
PY

expect_item probes/ones_copyback.json ok
expect_item probes/cpu_rand_h2d.json failed
expect_item probes/rand.json timed_out
expect_item probes/randint.json ok
expect_grep probes/ones_copyback.stdout '^1.0$'
expect_grep probes/cpu_rand_h2d.stderr 'error code is 507033'
expect_grep probes/rand.stdout 'partial output before the hang'
# The hung probe's state, taken before it was stopped; none for the others.
expect_grep probes/rand.status '^State:'
expect_grep probes/rand.threads.txt '^sampled_uptime='
expect_grep probes/rand.threads.txt '/task/[0-9]*/stat:[0-9]* (python3) [RSD]'
expect_item probes/rand.status timed_out
expect_item probes/rand.threads.txt timed_out
expect_no_file probes/ones_copyback.status
expect_no_file probes/cpu_rand_h2d.threads.txt
# The hung stub was really killed, and the probes after it ran.
stub=$(sed -n 1p "$H/state/pids")
kill -0 "$stub" 2>/dev/null && fail "the hung probe $stub is still running"
grep -q '^python .* randint --device 1$' "$H/state/calls" || fail "randint did not run after the hung rand"
[ "$(grep -c '^python ' "$H/state/calls")" = 6 ] || fail "not six probe processes: $(cat "$H/state/calls")"
grep -q '"device_unresponsive": false' "$B/manifest.json" || fail "a probe killed cleanly made the device unresponsive"

# Their log, work and cache paths and working directory were inside the bundle; their plogs
# are under probes/logs/<name>/ with an item each; the scratch work directories are gone.
for name in ones_copyback rand; do
  e=$H/state/probe-$name.env
  grep -q "^cwd=$OUT/ascend-bundle-[^/]*/probes/work/$name\$" "$e" || fail "$name cwd: $(cat "$e")"
  grep -q "^log=$OUT/ascend-bundle-[^/]*/probes/logs/$name\$" "$e" || fail "$name log path: $(cat "$e")"
  grep -q "^work=$OUT/ascend-bundle-[^/]*/probes/work/$name\$" "$e" || fail "$name work path"
  grep -q "^cache=$OUT/ascend-bundle-[^/]*/probes/work/$name/cache\$" "$e" || fail "$name cache path"
  grep -q '^ld=/usr/local/Ascend/driver/lib64/driver:' "$e" || fail "$name did not get the job's LD_LIBRARY_PATH"
  plog=$(cd "$B" && echo probes/logs/$name/debug/plog/plog-*.log)
  expect_file "$plog"
  expect_item "$plog" ok
done
expect_no_file probes/work
grep -q 'probe rand: timeout' "$STDERR_FILE" || fail "no progress line for the timed-out probe"

# The analyzer reads the outcomes as written (when it is built).
"$ANALYZER" analyze --format json "$ARCHIVE" > "$H/analysis.txt" 2>&1
grep -q 'probe-results/' "$H/analysis.txt" || fail "the analyzer reports no probe-results finding"
for want in '6 probes on device 1: ' 'ones_copyback: pass (rc 0, [0-9]* ms)' \
  'cpu_rand_h2d: failed (rc 1, [0-9]* ms), error code 507033'; do
  grep -q "$want" "$H/analysis.txt" ||
    fail "the analyzer does not read the probes as written ($want): $(grep -m1 'probes on device' "$H/analysis.txt")"
done
grep -q 'rand: timed out' "$H/analysis.txt" || fail "the analyzer does not see rand time out"
finish
