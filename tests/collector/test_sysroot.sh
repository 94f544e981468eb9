#!/bin/bash
# --sysroot DIR --kernel KVER on the fake host's files as a mounted disk image: the module
# files and the logs of the fixed locations (/root/ascend/log, /home/*/ascend/log,
# /var/log/npu) come out the same as in a live collection of that host; the journal is read
# with journalctl -D, modinfo with -b and modprobe with -d; no live tool is called; process,
# device and live-kernel steps are skipped (reason option, error sysroot); an absolute
# /etc/localtime link resolves inside the image; the manifest says it was a sysroot run.
# Also the refusals of the options of Collector C.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
plant /home/alice/ascend/log/debug/plog/plog-5151_20260613170000000.log \
  '[ERROR] RUNTIME(5151,python3):2026-06-13-17:00:00.000.001 [stream.cc:10]5151 alice stall\n'
for t in modinfo modprobe; do
  # shellcheck disable=SC2016  # a script written out: its expansions are for later
  printf '#!/bin/bash\n. "$FAKE_HOST/bin/_hang.sh"\nrecord_call %s "$@"\necho "%s of $*"\n' "$t" "$t" > "$H/bin/$t"
  chmod 755 "$H/bin/$t"
done

# The live collection of the module and log phases (the test hook reads the same files).
cat > "$H/driver.sh" <<'DRIVER'
# shellcheck source=/dev/null
. "$1"
shift
ARGS_ORIG=("$@")
record_locale
export LC_ALL=C
parse_args "$@"
init_run
phase_modules
phase_logs
finish_run
DRIVER
env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_ROOT="$SYSROOT" ASCEND_COLLECT_MIN_FREE_MB=1 \
  "$BASH" "$H/driver.sh" "$COLLECTOR" -o "$OUT" 2> "$H/live.stderr"
unpack_archive
LIVE=$H/live
mv "$B" "$LIVE"
rm -f "$ARCHIVE"

# The disk image: a journal directory, an absolute /etc/localtime link to a zone that
# exists only inside the image.
mkdir -p "$SYSROOT/var/log/journal/0123456789abcdef0123456789abcdef" "$SYSROOT/usr/share/zoneinfo/Test"
: > "$SYSROOT/var/log/journal/0123456789abcdef0123456789abcdef/system.journal"
mv "$SYSROOT/etc/localtime" "$SYSROOT/usr/share/zoneinfo/Test/Image"
ln -s /usr/share/zoneinfo/Test/Image "$SYSROOT/etc/localtime"
cp "$H/state/journal-b0.jsonl" "$H/state/journal-b-0.jsonl"
plant /etc/hostname 'dead-node-03\n'
: > "$H/state/calls"
STDERR_FILE=$H/collector.stderr
env -i PATH="$H/bin" HOME=/root FAKE_HOST="$H" ASCEND_COLLECT_MIN_FREE_MB=1 \
  "$BASH" "$COLLECTOR" -o "$OUT" --sysroot "$SYSROOT/" --kernel "$KVER" --timeout 10 2> "$STDERR_FILE"
RC=$?
expect_rc 0
unpack_archive
check_manifest_first
check_bundle
check_with_analyzer

# The same module files and logs as the live run.
for f in modules/tree.tsv modules/modules.dep.txt modules/config/etc/modprobe.d/ascend.conf; do
  expect_item "$f" ok
  cmp -s "$B/$f" "$LIVE/$f" || fail "$f differs from the live collection"
done
live_logs=$(cd "$LIVE" && find logs/host -type f | sort)
sys_logs=$(cd "$B" && find logs/host -type f | sort)
[ -n "$live_logs" ] || fail "the live run collected no logs"
[ "$live_logs" = "$sys_logs" ] || fail "log files differ: live [$live_logs] sysroot [$sys_logs]"
for f in $sys_logs; do cmp -s "$B/$f" "$LIVE/$f" || fail "$f differs from the live collection"; done
for f in logs/host/root/ascend/log/debug/plog/plog-4242_20260613170033666.log \
  logs/host/home/alice/ascend/log/debug/plog/plog-5151_20260613170000000.log \
  logs/host/var/log/npu/slog/host-0/host-0_20260613170033.log; do
  expect_file "$f"
done
cmp -s "$B/logs/index.tsv" "$LIVE/logs/index.tsv" || fail "logs/index.tsv differs from the live collection"

# Tools told where the image is; no live tool called.
grep -q "^journalctl -D $SYSROOT/var/log/journal -k -b -0 -o json --all --no-pager\$" "$H/state/calls" ||
  fail "journal not read with -D and boot -0: $(grep journalctl "$H/state/calls")"
grep -q "^journalctl -D $SYSROOT/var/log/journal -k -b -1 " "$H/state/calls" || fail "earlier boot not read"
cmp -s "$B/kernel/journal-b0.jsonl" "$H/state/journal-b0.jsonl" || fail "journal-b0.jsonl differs"
grep -q "^modinfo -b $SYSROOT -k $KVER drv_pcie_host\$" "$H/state/calls" || fail "modinfo not called with -b"
grep -q "^modprobe -d $SYSROOT -S $KVER --show-depends drv_pcie_host\$" "$H/state/calls" || fail "modprobe not called with -d"
expect_item "modules/modinfo/$KVER/drv_pcie_host.txt" ok
expect_item "modules/modprobe-deps/$KVER/drv_pcie_host.txt" ok
grep -q -E '^(uname|dmesg|lsmod|npu-smi|hccn_tool) ' "$H/state/calls" && fail "a live tool was called: $(cat "$H/state/calls")"
for p in system/uname.txt system/cmdline system/boot.txt kernel/dmesg.txt modules/lsmod.txt modules/sysfs.tsv \
  processes ascend/npu-smi-info.txt mounts/mountinfo.txt; do
  expect_item "$p" skipped option
  grep -q "\"path\":\"$p\".*\"error\":\"sysroot\"" "$ITEMS" || fail "$p: skip does not say sysroot"
done
expect_no_file processes

# The image's zone, through its own absolute link.
expect_item system/localtime.tzif ok
grep -q '"path":"system/localtime.tzif","source":"/usr/share/zoneinfo/Test/Image"' "$ITEMS" || fail "localtime.tzif source"
cmp -s "$B/system/localtime.tzif" "$SYSROOT/usr/share/zoneinfo/Test/Image" || fail "localtime.tzif is not the image's zone"
expect_grep system/time.txt '^tz_posix=CST-8$'
expect_grep system/time.txt '^timezone=Test/Image$'
# The manifest says what this was.
grep -q '"collection": "sysroot"' "$B/manifest.json" || fail "manifest lacks collection: sysroot"
grep -q "\"sysroot\": {\"dir\": \"$SYSROOT\", \"kernel\": \"$KVER\"}" "$B/manifest.json" || fail "manifest lacks the sysroot"
grep -q '"notes": \[.*sysroot collection' "$B/manifest.json" || fail "manifest notes lack the sysroot note"
expect_grep system/sysroot.txt "^kernel=$KVER\$"
grep -q '"host": "dead-node-03"' "$B/manifest.json" || fail "manifest host is not the image's"
case $B in */ascend-bundle-dead-node-03-*) ;; *) fail "bundle name lacks the image's host: $B" ;; esac

# Refusals: exit 2, nothing written.
OUT=$H/out-usage
mkdir -p "$OUT"
for bad in "--sysroot $SYSROOT" "--kernel $KVER" "--sysroot $SYSROOT --kernel $KVER --probes" \
  "--sysroot $SYSROOT --kernel $KVER --device-logs" "--sysroot $SYSROOT --kernel $KVER -p 1" \
  "--sysroot $H/nonexistent --kernel $KVER" "--sysroot $SYSROOT --kernel ../x" "--probe-device abc" \
  "--probe-timeout 0" "--probe-python $H/nonexistent" "--sysroot"; do
  # shellcheck disable=SC2086  # each case is several words
  "$BASH" "$COLLECTOR" -o "$OUT" $bad > "$H/usage.out" 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "'$bad' exits $rc, expected 2"
  grep -q "Try 'ascend-collect --help'" "$H/usage.out" || fail "'$bad' gives no usage hint: $(cat "$H/usage.out")"
done
[ -z "$(ls -A "$OUT")" ] || fail "bad usage wrote into the output directory"
finish
