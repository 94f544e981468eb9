#!/usr/bin/env bash
# Writes the man page from the binary's own help, so that it cannot drift from the CLI:
# help2man reads `BIN --help` and `BIN --version`; a SUBCOMMANDS section quotes each
# subcommand's `--help` (and each nested one's, e.g. knowledge check) verbatim.
#   gen-man.sh BIN HELP2MAN OUT.1.gz
set -eo pipefail
help2man=$2 out=$3
# Run by name, found through PATH: CLI11 prints argv[0] in its usage lines, and the page must
# say "ascend-triage", not the build directory.
PATH="$(cd "$(dirname "$1")" && pwd):$PATH"
bin=$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The names listed under "Subcommands:" in a CLI11 help text, one per line.
subcommands() {
  "$bin" "$@" --help | awk '/^[A-Za-z ]*:$/ { in_list = ($0 == "Subcommands:"); next }
                           in_list && /^  [a-z]/ { sub(/,$/, "", $1); print $1 }'
}
# roff: backslashes print as such; a line starting with . or ' is text, not a request.
as_roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
section() {
  echo ".SS \"ascend-triage $*\""
  echo ".nf"
  "$bin" "$@" --help | as_roff
  echo ".fi"
}

{
  echo "[SUBCOMMANDS]"
  echo "Each subcommand takes --help; its text follows."
  for sub in $(subcommands); do
    section "$sub"
    for nested in $(subcommands "$sub"); do section "$sub" "$nested"; done
  done
  echo "[SEE ALSO]"
  echo "The command line, the report formats and the exit codes are described in"
  echo ".I /usr/share/doc/ascend-triage/docs/cli.md"
  echo "and the collector to run on the NPU host is"
  echo ".IR /usr/share/ascend-triage/ascend-collect.sh ."
} >"$tmp/include"

# The page's date is the build's, or SOURCE_DATE_EPOCH's when set (reproducible builds).
"$help2man" --no-info --section 1 \
  --name "offline triage of Huawei Ascend NPU hang and timeout bundles" \
  --include "$tmp/include" --output "$tmp/page.1" "$bin"
# help2man knows EXAMPLES but makes "Exit status:" a subsection of it: a section of its own.
sed -i 's/^\.SS "Exit status:"$/.SH "EXIT STATUS"/' "$tmp/page.1"
# help2man exits 0 even when the program printed nothing it could use.
grep -q '^\.SH SUBCOMMANDS' "$tmp/page.1" || { echo "gen-man.sh: no subcommands in $tmp/page.1" >&2; exit 1; }
grep -q '^\.SH "EXIT STATUS"' "$tmp/page.1" && grep -q '^\.SH EXAMPLES' "$tmp/page.1" ||
  { echo "gen-man.sh: no EXAMPLES or EXIT STATUS in $tmp/page.1" >&2; exit 1; }
gzip -9n <"$tmp/page.1" >"$out"
