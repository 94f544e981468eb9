#!/usr/bin/env bash
# README.md and docs/cli.md must name exactly the report formats of `BIN formats` (the
# table in reports/formats.cpp): README's `--format X` examples, and in docs/cli.md's
# analyze section the `--format a|b|...` list (in the table's order) and the format table.
#   check-format-docs.sh BIN SOURCE_DIR
set -u
bin=$1 src=$2
names=$("$bin" formats | cut -f1) || { echo "FAIL: $bin formats"; exit 1; }
[ -n "$names" ] || { echo "FAIL: $bin formats listed nothing"; exit 1; }
want=$(sort <<<"$names")
fail=0
differs() {  # differs WHAT GOT: reports a set that is not the table's
  if [ "$2" != "$want" ]; then
    echo "FAIL: $1 does not list exactly the table's formats"
    diff <(echo "$want") <(echo "$2") | sed 's/^</  missing:/;s/^>/  not a format:/' | grep '^  '
    fail=1
  fi
}
readme=$(grep -o -- '--format [a-z0-9]*' "$src/README.md" | cut -d' ' -f2 | sort -u)
differs "README.md (--format X)" "$readme"
section=$(awk '/^## /{on = ($0 ~ /^## analyze/)} on' "$src/docs/cli.md")
pipe=$(grep -o -- '`--format [a-z0-9|]*`' <<<"$section" | head -n1 | tr -d '`' | cut -d' ' -f2)
if [ "$pipe" != "$(paste -sd'|' <<<"$names")" ]; then
  echo "FAIL: docs/cli.md analyze: \`--format $pipe\` is not \`--format $(paste -sd'|' <<<"$names")\`"
  fail=1
fi
rows=$(grep -o '^| `[a-z0-9]*`' <<<"$section" | tr -d '|` ' | sort -u)
differs "docs/cli.md analyze format table" "$rows"
[ "$fail" -eq 0 ] && echo "ok: README.md and docs/cli.md list the $(wc -l <<<"$names") formats of the table"
exit "$fail"
