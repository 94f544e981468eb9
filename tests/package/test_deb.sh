#!/usr/bin/env bash
# The Debian package end to end: cpack builds ascend-triage_<version>_<arch>.deb from the build
# tree; it holds the binary, the knowledge files, the collector, the lnav formats, the man page
# and the bash completion, with Depends computed; `dpkg -i` installs it, the installed binary analyses
# samples/incident-loose-files with the build tree's exit code and byte-identical JSON report
# (also with the installed knowledge files as --knowledge); `dpkg -r` removes every file.
#   test_deb.sh BUILD_DIR SOURCE_DIR BIN VERSION
#
# dpkg works on a scratch root (--root) whose database starts as a copy of this machine's, so
# the dependency check is the real one, and nothing outside the scratch root changes. A plain
# `dpkg -i` on the machine would replace (and `dpkg -r` then remove) an ascend-triage the
# operator installed, race the other worktrees' suites over /usr/bin/ascend-triage, and fail on
# the dpkg lock whenever apt runs; the installed binary runs from the scratch root on the
# machine's shared libraries.
# Needs root (dpkg gives the files to root); exit 77 (skipped) only when not root.
set -uo pipefail
build=$1 src=$2 bin=$3 version=$4

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (dpkg installs files owned by root)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in cpack dpkg dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || fail "$tool not found (scripts/bootstrap.sh test installs dpkg-dev)"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The package, built into a directory of its own (concurrent runs share no staging area).
(cd "$build" && cpack -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack -G DEB failed"; }
arch=$(dpkg --print-architecture)
deb=$tmp/out/ascend-triage_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $(basename "$deb"); cpack wrote: $(ls "$tmp/out")"
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Computed by dpkg-shlibdeps: the package of every library the binary links (NEEDED) is named.
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
libs=$(ldd "$bin" | awk -v needed="$(tr '\n' ' ' <<<"$needed")" '
  BEGIN { split(needed, n, " "); for (i in n) want[n[i]] = 1 }
  $2 == "=>" && ($1 in want) { print $3 }')
[ "$(wc -w <<<"$libs")" = "$(wc -w <<<"$needed")" ] || fail "ldd resolves [$libs] for [$needed]"
for lib in $libs; do
  # ldd may print /lib/... for a file its package lists as /usr/lib/... (merged /usr).
  owner=$( (dpkg -S "$lib" || dpkg -S "/usr$lib") 2>/dev/null | head -n1 | cut -d: -f1)
  [ -n "$owner" ] || fail "no package owns $lib"
  tr ',|' '\n' <<<"$depends" | awk '{ print $1 }' | grep -qxF -- "$owner" ||
    fail "Depends does not name $owner (for $lib)"
done

dpkg-deb -c "$deb" | awk '{ print $6 }' >"$tmp/contents"
for f in ./usr/bin/ascend-triage ./usr/share/man/man1/ascend-triage.1.gz \
  ./usr/share/bash-completion/completions/ascend-triage \
  ./usr/share/ascend-triage/ascend-collect.sh \
  ./usr/share/ascend-triage/knowledge/signatures/plog.json \
  ./usr/share/ascend-triage/knowledge/verdict/hypotheses.json \
  ./usr/share/ascend-triage/knowledge/error-codes.tsv; do
  grep -qx -- "$f" "$tmp/contents" || fail "the package lacks $f"
done
for f in "$src"/packaging/lnav/*.json; do
  grep -qx -- "./usr/share/ascend-triage/lnav/$(basename "$f")" "$tmp/contents" ||
    fail "the package lacks /usr/share/ascend-triage/lnav/$(basename "$f")"
done

# 2. dpkg -i on the scratch root, its database a copy of the machine's (dependency check).
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
cp /var/lib/dpkg/status "$root/var/lib/dpkg/status"
touch "$root/var/lib/dpkg/available"
# dpkg reads every installed package's file list to check for file conflicts.
cp /var/lib/dpkg/info/*.list "$root/var/lib/dpkg/info/" 2>/dev/null
dpkg --root="$root" --force-script-chrootless --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
  { cat "$tmp/dpkg.log"; fail "dpkg -i refused the package"; }
cat "$tmp/dpkg.log"
status=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status} ${Version}' ascend-triage)
[ "$status" = "install ok installed $version" ] || fail "after dpkg -i: status '$status'"
installed=$root/usr/bin/ascend-triage
[ -x "$installed" ] || fail "no executable $installed"
cmp -s "$src/collector-script/ascend-collect.sh" "$root/usr/share/ascend-triage/ascend-collect.sh" ||
  fail "the installed collector differs from collector-script/ascend-collect.sh"
[ -x "$root/usr/share/ascend-triage/ascend-collect.sh" ] || fail "the installed collector is not executable"
for f in "$src"/packaging/lnav/*.json; do
  cmp -s "$f" "$root/usr/share/ascend-triage/lnav/$(basename "$f")" ||
    fail "the installed lnav format $(basename "$f") differs from packaging/lnav/"
done

# 3. The installed binary against the build tree's, on the same sample from the same directory.
cd "$src" || exit 1
sample=samples/incident-loose-files
"$installed" --version | grep -qx "ascend-triage $version" || fail "installed --version: $("$installed" --version)"
"$bin" analyze --format json "$sample" >"$tmp/build.json"
want=$?
[ "$want" = 1 ] || fail "build tree's binary: exit $want on $sample, expected 1 (findings)"
grep -q '"id": "stream-stall"' "$tmp/build.json" || fail "no stream-stall finding in the build tree's report"
"$installed" analyze --format json "$sample" >"$tmp/installed.json"
got=$?
[ "$got" = "$want" ] || fail "installed binary: exit $got, build tree's: $want"
cmp -s "$tmp/build.json" "$tmp/installed.json" ||
  { diff "$tmp/build.json" "$tmp/installed.json" | head -20; fail "the installed binary's report differs"; }
"$installed" --knowledge "$root/usr/share/ascend-triage/knowledge" analyze --format json "$sample" \
  >"$tmp/installed-knowledge.json"
got=$?
[ "$got" = "$want" ] || fail "installed binary with the installed knowledge: exit $got"
cmp -s "$tmp/build.json" "$tmp/installed-knowledge.json" ||
  fail "the installed knowledge files give another report than the built-in ones"
echo "installed binary: exit $got and the build tree's report, with and without --knowledge"

# 4. dpkg -r leaves nothing of the package behind.
dpkg --root="$root" --force-script-chrootless --log=/dev/null -r ascend-triage >"$tmp/dpkg-r.log" 2>&1 ||
  { cat "$tmp/dpkg-r.log"; fail "dpkg -r failed"; }
left=$(cd "$root" && find . -path ./var -prune -o ! -type d -print | head -n5)
[ -z "$left" ] || fail "files left after dpkg -r: $left"
status=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' ascend-triage 2>/dev/null)
[ "$status" = "deinstall ok config-files" ] || [ "$status" = "unknown ok not-installed" ] ||
  [ -z "$status" ] || fail "after dpkg -r: status '$status'"
echo "PASS"
