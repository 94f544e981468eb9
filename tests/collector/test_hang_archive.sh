#!/bin/bash
# tar or zstd stuck while archiving (ignoring TERM). A hung zstd: the try is stopped when its
# output stops growing for --timeout seconds and the archive is made with gzip, its manifest
# noting why. A hung tar: no archive can be made; the bundle directory stays, complete, its
# manifest noting why, and the run says so (exit 1). Both within the deadline.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

hang_tool() { rm -f "$H/bin/$1"; cp "$LIB_DIR/stubs/hang-forever" "$H/bin/$1"; chmod 755 "$H/bin/$1"; }
DEADLINE=120
# The analyzer reads what the run left (exit 0 or 1: findings, no damage) and shows the
# collector's note $2 in the bundle summary.
analyzer_reads() {
  "$ANALYZER" analyze --format json "$1" > "$H/report.json" 2> "$H/analyze.err"
  case $? in 0 | 1) ;; *) fail "the analyzer cannot read $1: $(cat "$H/analyze.err")" ;; esac
  grep -q '"id": "input-damaged' "$H/report.json" && fail "the analyzer finds $1 damaged"
  grep -qF "\"collector: $2" "$H/report.json" || fail "the report does not show the collector's note '$2'"
}

# zstd hangs: gzip instead.
fake_host_new
hang_tool zstd
run_collect -p "$TRAIN_PID" --timeout 3 --deadline "$DEADLINE"
expect_rc 0
((ELAPSED < DEADLINE)) || fail "zstd hang: the run took ${ELAPSED}s, past its deadline"
find_archive
case $ARCHIVE in *.tar.gz) ;; *) fail "zstd hang: expected a .tar.gz archive, got '$ARCHIVE'" ;; esac
[ -z "$(find "$OUT" -name '*.part')" ] || fail "zstd hang: a partial archive was left: $(ls "$OUT")"
unpack_archive
check_manifest_first
check_bundle
grep -q '"notes": \[.*archive: tar | zstd made no progress for 3s and was stopped; tried tar | gzip instead' "$B/manifest.json" ||
  fail "zstd hang: the manifest does not say what happened: $(grep notes "$B/manifest.json")"
grep -q '^zstd -q -c' "$H/state/calls" || fail "zstd hang: the hung zstd was not the one called"
analyzer_reads "$ARCHIVE" "archive: tar | zstd made no progress"

# tar hangs: the bundle stays a directory.
cleanup
fake_host_new
hang_tool tar
run_collect -p "$TRAIN_PID" --timeout 3 --deadline "$DEADLINE"
expect_rc 1
((ELAPSED < DEADLINE)) || fail "tar hang: the run took ${ELAPSED}s, past its deadline"
find_archive
[ -z "$ARCHIVE" ] || fail "tar hang: an archive appeared: $ARCHIVE"
[ -z "$(find "$OUT" -name '*.part')" ] || fail "tar hang: a partial archive was left: $(ls "$OUT")"
B=$(echo "$OUT"/ascend-bundle-*)
ITEMS=$B/manifest.items.jsonl
[ -d "$B" ] || { fail "tar hang: no bundle directory in $OUT: $(ls "$OUT")"; finish; }
[ "$(grep -c '^tar ' "$H/state/calls")" = 2 ] || fail "tar hang: expected two tries (zstd, gzip): $(grep '^tar' "$H/state/calls")"
check_bundle
grep -q 'archive: tar | gzip made no progress for 3s and was stopped; the bundle is this directory, not an archive' "$B/manifest.json" ||
  fail "tar hang: the manifest does not say why there is no archive: $(grep notes "$B/manifest.json")"
grep -q "could not write the archive; the bundle directory is $B" "$STDERR_FILE" ||
  fail "tar hang: the run does not say where the bundle is"
expect_item system/uname.txt ok
analyzer_reads "$B" "archive: tar | gzip made no progress"
finish
