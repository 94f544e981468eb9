#!/usr/bin/env bash
# The bash completion (packaging/ascend-triage.bash-completion), run as bash runs it on TAB:
# it offers every subcommand the binary's --help lists, at the top and under `knowledge`, the
# formats that `ascend-triage formats` prints after `analyze --format`, and every option of
# `analyze --help` after `analyze --`; a binary named otherwise is completed from its own help.
#   test_completion.sh COMPLETION_FILE BIN
set -uo pipefail
completion=$1 bin=$2
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=/dev/null
. "$completion" || fail "cannot source $completion"
complete -p ascend-triage | grep -q -- '-F _ascend_triage' || fail "no completion registered for ascend-triage"

# What bash offers for the words "$@" (the last one being completed), one per line, sorted.
offered() {
  COMP_WORDS=("$bin" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _ascend_triage
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
# The names listed in a help text's "Subcommands:" section, read here with sed, not the
# completion's own parser.
listed_subcommands() {
  "$bin" "$@" --help | sed -n '/^Subcommands:$/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\)[, ].*/\1/p' | sort
}
same() {  # same NAME EXPECTED GOT
  [ "$2" = "$3" ] || fail "$1: expected [$(tr '\n' ' ' <<<"$2")] got [$(tr '\n' ' ' <<<"$3")]"
  echo "ok: $1: $(tr '\n' ' ' <<<"$3")"
}

top=$(listed_subcommands)
[ "$(wc -l <<<"$top")" -ge 7 ] || fail "the CLI lists only: $top"
same "subcommands" "$top" "$(offered "")"
same "knowledge subcommands" "$(listed_subcommands knowledge)" "$(offered knowledge "")"
same "after a global option and its value" "$top" "$(offered --color never "")"
same "analyze --format" "$("$bin" formats | cut -f1 | sort)" "$(offered analyze --format "")"
same "analyze --" "$("$bin" analyze --help | grep -oE '^  (-[a-z],)?--[a-z-]+' | tr ',' '\n' |
  sed 's/^ *//' | grep -- '^--' | sort -u)" \
  "$(offered analyze -- | grep -vxE -- '--(version|color|utc-offset|knowledge|quiet)')"
same "analyze --format=js" "$(printf 'json\njsonl')" "$(offered analyze --format = js)"
same "explain stream-stall" "stream-stall" "$(offered explain stream-stall | grep -x stream-stall)"
# Control: a command with another subcommand list gets that list (the offer is not fixed).
fake=$(mktemp)
trap 'rm -f "$fake"' EXIT
printf '#!/bin/sh\nprintf "Usage: x\\n\\nSubcommands:\\n  zeta  a\\n  analyze  b\\n\\n"\n' >"$fake"
chmod +x "$fake"
bin=$fake
same "control: another binary's subcommands" "$(printf 'analyze\nzeta')" "$(offered "")"
echo PASS
