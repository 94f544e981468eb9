#!/bin/bash
# The output disk fills up mid-run (a tmpfs of a few MB as the output directory, a 20 MB
# plog to copy). With room for the manifest (the collector keeps 4 MiB free for it from the
# start): a usable archive whose manifest says the disk filled up and whose cut copies are
# `failed`, exit 1. With no room even for that (another program took it all): a clear exit 2 that says why, and nothing
# half-written left behind. Needs root (mount); skipped otherwise.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

MNT=""
umount_out() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; MNT=""; }
trap 'umount_out; cleanup' EXIT
# A fresh fake host whose output directory is a tmpfs of $1; a 20 MB plog to copy.
host_with_small_disk() {
  local i
  fake_host_new
  [ "$(id -u)" = 0 ] || skip_test "mounting a small tmpfs needs root"
  mount -t tmpfs -o "size=$1" tmpfs "$OUT" 2>/dev/null || skip_test "cannot mount a tmpfs here"
  MNT=$OUT
  for ((i = 0; i < 160000; i++)); do
    printf '[INFO] RUNTIME(4242,python3):2026-06-13-17:03:%02d.666.123 [stream.cc:1024]4250 filler %d %s\n' \
      $((i % 60)) "$i" "$RANDOM$RANDOM$RANDOM$RANDOM$RANDOM"
  done > "$SYSROOT/root/ascend/log/debug/plog/plog-4242_20260613170000000.log"
}

# Room for the manifest: an honest archive.
host_with_small_disk 8m
run_collect -p "$TRAIN_PID" --timeout 5 --deadline 120
expect_rc 1
unpack_archive
check_manifest_first
check_bundle
grep -q '"notes": \[.*the output file system filled up during the run' "$B/manifest.json" ||
  fail "the manifest does not say the disk filled up: $(grep notes "$B/manifest.json")"
grep -q 'filled up during the run' "$STDERR_FILE" || fail "the run does not say the disk filled up"
expect_item logs/host/root/ascend/log/debug/plog/plog-4242_20260613170000000.log failed
expect_item system/uname.txt ok
n_items=$(grep -c '^{' "$ITEMS")
n_manifest=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$B/manifest.json")
[ "$n_items" = "$n_manifest" ] || fail "manifest.items.jsonl has $n_items items, manifest.json $n_manifest"
if [ -n "$ANALYZER" ] && [ -x "$ANALYZER" ]; then
  "$ANALYZER" analyze --format json "$ARCHIVE" > "$H/report.json" 2> "$H/analyze.err"
  case $? in 0 | 1) ;; *) fail "the analyzer cannot read the archive: $(cat "$H/analyze.err")" ;; esac
  grep -qF '"collector: the output file system filled up during the run' "$H/report.json" ||
    fail "the report does not show the collector's note that the disk filled up"
fi
umount_out
cleanup

# No room even for the manifest: another program fills the disk to the last byte during
# the run (from the dmesg stub), on a disk too small for the reserve. Exit 2, said plainly,
# nothing of the bundle left behind.
host_with_small_disk 3m
mv "$H/bin/dmesg" "$H/bin/dmesg.real"
# shellcheck disable=SC2016  # the stub's variables expand when it runs
printf '#!/bin/bash\nhead -c 20000000 /dev/zero > "$FAKE_HOST/out/other-program.dat" 2>/dev/null\nexec "$FAKE_HOST/bin/dmesg.real" "$@"\n' > "$H/bin/dmesg"
chmod 755 "$H/bin/dmesg"
run_collect -p "$TRAIN_PID" --timeout 5 --deadline 120
expect_rc 2
grep -q 'cannot write manifest.json: the output file system of .* is full' "$STDERR_FILE" ||
  fail "exit 2 without saying the disk is full: $(tail -n 3 "$STDERR_FILE")"
left=$(find "$OUT" -mindepth 1 ! -name other-program.dat | head -n 3)
[ -z "$left" ] || fail "a half-written bundle was left: $left"
finish
