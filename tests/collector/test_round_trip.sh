#!/bin/bash
# Round trip: a fake host built from the raw state of samples/incident-910b-before-reboot
# (its processes, modules, kernel, installation, logs and tool outputs, by incident_host.py)
# is collected and the archive analysed; the stall, observation-point, module and library
# findings must be those of the sample itself, with the same key values (stream 47 frozen
# at sqHead 500, the module sets, the resident set, the mapped CANN). Probes are not part
# of it (Collector C).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_tool python3
need_analyzer
SAMPLE=$(cd "$LIB_DIR/../../samples/incident-910b-before-reboot" 2>/dev/null && pwd) || skip_test "no samples/"

umask 022
H=$(mktemp -d "${TMPDIR:-/tmp}/ascend-collect-test.XXXXXX") || exit 1
chmod 755 "$H"
SYSROOT=$H/sysroot
OUT=$H/out
mkdir -p "$OUT" "$H/state"
: > "$H/state/pids"
: > "$H/state/calls"
fake_bin_base
for t in modinfo modprobe dkms lsinitramfs lspci python3; do cp "$LIB_DIR/stubs/$t" "$H/bin/$t"; done
chmod 755 "$H/bin"/*
pids=$(python3 "$LIB_DIR/incident_host.py" "$SAMPLE" "$H") || { fail "incident_host.py failed"; finish; }
say "fake host from the sample, process $pids"

run_collect --timeout 20 --boots 1 --add /root/work/det/train_0904.log
expect_rc 0
unpack_archive
check_bundle
grep -q "target processes found in /proc: $pids\$" "$STDERR_FILE" || fail "targets: $(grep 'target processes' "$STDERR_FILE")"

"$ANALYZER" analyze --format json "$SAMPLE" > "$H/want.json" 2> "$H/want.err"
rc=$?; [ "$rc" -le 1 ] || { fail "analyze of the sample exits $rc: $(head -5 "$H/want.err")"; finish; }
"$ANALYZER" analyze --format json "$ARCHIVE" > "$H/got.json" 2> "$H/got.err"
rc=$?; [ "$rc" -le 1 ] || { fail "analyze of the round trip exits $rc: $(head -5 "$H/got.err")"; finish; }
python3 "$LIB_DIR/compare_findings.py" "$H/want.json" "$H/got.json" > "$H/compare.txt"
rc=$?
sed 's/^/  | /' "$H/compare.txt"
[ "$rc" = 0 ] || fail "the round trip's findings differ from the sample's"

# The key values, named: the frozen stream and the resident (stale DKMS) module set.
python3 - "$H/got.json" <<'PY' || fail "key values missing from the round trip's analysis"
import json, sys
fs = json.load(open(sys.argv[1]))["findings"]
def one(fid, **want):
    ok = [f for f in fs if f["id"] == fid and all(f.get("values", {}).get(k) == v for k, v in want.items())]
    if not ok:
        print("no %s with %s" % (fid, want))
    return bool(ok)
good = one("stream-stall", pid="48213", stream_id="47", sq_head="500", task_id="1280", samples="7")
good &= one("observation-point")
good &= one("module-provenance/two-sets", kver="5.15.0-119-generic")
good &= one("library-provenance", pid="48213")
sys.exit(0 if good else 1)
PY
finish
