#!/bin/bash
# The collector customers copy is built from collector-script/src/ by collector-script/build.sh:
# the committed ascend-collect.sh must be exactly what the build makes now (someone edited the
# built file, or edited src/ and did not rebuild, otherwise). The sources pass shellcheck on
# their own, less the checks that need the other files (variables set in one file and used
# in another; the built file's shellcheck covers those). The build refuses a source that is
# not in its list.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_tool shellcheck
H=$(mktemp -d)
SCRIPT_DIR=$(dirname "$COLLECTOR")
[ -f "$SCRIPT_DIR/build.sh" ] || { fail "no build.sh beside $COLLECTOR"; finish; }

"$BASH" "$SCRIPT_DIR/build.sh" "$H/built.sh" || fail "build.sh failed"
if ! cmp -s "$H/built.sh" "$COLLECTOR"; then
  fail "ascend-collect.sh differs from a fresh build: edit collector-script/src/ and run collector-script/build.sh"
  diff "$COLLECTOR" "$H/built.sh" | head -n 20
fi
head -n 5 "$COLLECTOR" | grep -q 'GENERATED FILE, DO NOT EDIT' || fail "no generated-file banner"

# Every function and embedded program comes from a source: the probe program is src/probe.py.
# shellcheck source=/dev/null
code=$(. "$COLLECTOR"; printf '%s' "$PROBE_CODE")
[ "$code" = "$(cat "$SCRIPT_DIR/src/probe.py")" ] || fail "PROBE_CODE is not src/probe.py"

# A source file missing from the build's list fails the build (and writes nothing).
mkdir -p "$H/copy"
cp -R "$SCRIPT_DIR/build.sh" "$SCRIPT_DIR/src" "$H/copy/"
printf '# shellcheck shell=bash\nstray() { :; }\n' > "$H/copy/src/stray.sh"
if "$BASH" "$H/copy/build.sh" "$H/stray-built.sh" 2> "$H/stray.err"; then
  fail "build.sh accepted a source missing from its list"
fi
grep -q 'stray.sh is not listed' "$H/stray.err" || fail "build.sh did not name the unlisted source: $(cat "$H/stray.err")"
[ ! -e "$H/stray-built.sh" ] || fail "a failed build wrote its output"

(cd "$SCRIPT_DIR/src" && shellcheck -e SC2034,SC2154,SC2153,SC2004 ./*.sh) || fail "shellcheck: collector-script/src"
shellcheck "$SCRIPT_DIR/build.sh" || fail "shellcheck: build.sh"
finish
