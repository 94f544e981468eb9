#!/bin/bash
# The collector must run on bash 4.2 (CentOS 7): none of the constructs added later may
# appear in its code (comments aside), and no set -u (bash before 4.4 fails on empty arrays).
# Here-documents and here-strings are out too: bash 4.2 writes them to temporary files,
# possibly outside the output directory.
# shellcheck disable=SC2016  # the patterns are regular expressions, not expansions
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
H=""

CHECKS=(
  'parameter transformation ${x@Q} (bash 4.4)|\$\{[^}]*@[QEPAKaUuLk]\}'
  'namerefs (bash 4.3)|(declare|local|typeset)( -[a-zA-Z]+)* -[a-zA-Z]*n'
  'mapfile/readarray -d (bash 4.4)|(mapfile|readarray)( [^;|&]*)? -d'
  'wait -n / -f / -p (bash 4.3+)|\bwait +-[nfp]'
  'EPOCHREALTIME, EPOCHSECONDS, SRANDOM, BASH_ARGV0 (bash 5)|EPOCHREALTIME|EPOCHSECONDS|SRANDOM|BASH_ARGV0'
  'shopt options of bash 4.3+|inherit_errexit|localvar_inherit|localvar_unset|assoc_expand_once|patsub_replacement|globasciiranges'
  'set -u / nounset|(^|[;&|[:space:]])set +-[a-zA-Z]*u|nounset'
  'negative array subscripts (bash 4.3)|\$\{[A-Za-z_][A-Za-z0-9_]*\[-[0-9]'
  'local - (bash 4.4)|(^|[;[:space:]])local +-( |$)'
  'here-documents and here-strings|<<'
)

# Code lines of file $1 (whole-line comments removed: a # inside a line may be data).
code_lines() { grep -v -E '^[[:space:]]*#' "$1"; }

# Prints the lines of file $1 that match check $2 ("what|regex").
hits() { code_lines "$1" | grep -n -E -e "${2#*|}"; }

for c in "${CHECKS[@]}"; do
  found=$(hits "$COLLECTOR" "$c")
  [ -z "$found" ] || fail "${c%%|*}: $found"
done
head -n 1 "$COLLECTOR" | grep -q -E '^#!.*bash' || fail "no bash shebang"
head -n 1 "$COLLECTOR" | grep -q -E ' -[a-zA-Z]*u' && fail "set -u through the shebang"

# The checks must catch what they look for: one planted line per check.
planted=$(mktemp)
printf '%s\n' 'echo "${x@Q}"' 'local -n ref=x' 'mapfile -t -d "" a' 'wait -n' 'echo $EPOCHREALTIME' \
  'shopt -s inherit_errexit' 'set -eu' 'echo ${a[-1]}' 'local -' 'cat <<EOF' > "$planted"
for c in "${CHECKS[@]}"; do
  [ -n "$(hits "$planted" "$c")" ] || fail "the check '${c%%|*}' misses its planted line"
done
rm -f "$planted"
finish
