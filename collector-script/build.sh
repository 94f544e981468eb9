#!/usr/bin/env bash
# Builds collector-script/ascend-collect.sh, the one file customers copy, from the sources in
# collector-script/src/: the files of SOURCES concatenated in that order, each after a line
# naming it, and every "# @embed VAR FILE" line replaced by VAR='<FILE's bytes>' (a quoted
# string: the collector has no here-documents, see tests/collector/test_bash42.sh). FILE is
# relative to src/ (../../knowledge/secret-rules.tsv: the analyzer embeds the same table).
# The built file is committed; tests/collector/test_build.sh checks it is up to date.
#
# Usage: collector-script/build.sh [OUTPUT]   (default: ascend-collect.sh beside this script)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$HERE/src
OUTPUT=${1:-$HERE/ascend-collect.sh}

# The order of the built file: settings and helpers first, then the runner, the phases in
# the order they run, the options, start and finish, and main (which must be last: it runs).
SOURCES=(settings.sh helpers.sh redaction.sh runner.sh step_bodies.sh
  owned.sh system.sh kernel.sh processes.sh python.sh modules.sh ascend.sh logs.sh extra.sh
  stacks.sh device.sh device_logs.sh probes.sh sysroot.sh presence.sh
  options.sh start.sh finish.sh main.sh)

die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

# Every source is listed, and every listed source exists: a file left out would build a
# collector that fails only when the missing function is called.
check_sources() {
  local f listed=" ${SOURCES[*]} "
  for f in "$SRC"/*.sh; do
    [[ $listed == *" ${f##*/} "* ]] || die "src/${f##*/} is not listed in SOURCES"
  done
  for f in "${SOURCES[@]}"; do
    [ -f "$SRC/$f" ] || die "src/$f is listed in SOURCES but does not exist"
  done
}

# VAR='<bytes of file $2>', single quotes inside written as '\''.
embed() {
  local var=$1 file=$SRC/$2 text q="'"
  [ -f "$file" ] || die "$3: embedded file src/$2 does not exist"
  text=$(cat "$file"; printf x)
  text=${text%x}
  printf "%s='%s'\n" "$var" "${text//$q/$q\\$q$q}"
}

# Source file $1 less its first line (the "shellcheck shell=bash" that lints it alone).
emit_source() {
  local f=$1 line n=0 re='^# @embed ([A-Z_][A-Z0-9_]*) ([A-Za-z0-9_./-]+)$'
  printf '\n# %s\n# src/%s\n' "=========================================================================================" "$f"
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    if ((n == 1)); then
      [[ $line == '# shellcheck shell=bash'* ]] || die "src/$f:1: must be '# shellcheck shell=bash'"
      continue
    fi
    if [[ $line =~ $re ]]; then
      embed "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "src/$f:$n"
    else
      printf '%s\n' "$line"
    fi
  done < "$SRC/$f"
}

build() {
  local f
  printf '%s\n' '#!/usr/bin/env bash' \
    '# shellcheck disable=SC2317  # step bodies are called indirectly, by name' \
    '#' \
    '# GENERATED FILE, DO NOT EDIT: edit collector-script/src/*.sh and run' \
    '# collector-script/build.sh (docs/collector.md, "For developers"). Customers copy this' \
    '# one file; each part below starts with a line naming its source.'
  for f in "${SOURCES[@]}"; do emit_source "$f"; done
}

check_sources
tmp=$OUTPUT.tmp.$$
trap 'rm -f "$tmp"' EXIT
build > "$tmp"
mv -f "$tmp" "$OUTPUT"
trap - EXIT
