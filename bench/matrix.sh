#!/usr/bin/env bash
# Issue 35's benchmark matrix: for each size and line mix (bench/gen_mix.py), one generated
# bundle (under $BENCH_DIR, default /tmp/ascend-triage-bench) is read by
#   zstd -dc ARCHIVE > /dev/null          (decompression alone: the limit)
#   zstd -dc ARCHIVE | rg -c -a ALT       (-a: the tar stream holds NULs)
#   rg -c --no-filename ALT DIR           (per-file counts summed)
#   ascend-triage analyze --format json ARCHIVE -o /dev/null
#   ascend-triage analyze --format json DIR -o /dev/null
# with ALT the issue's 6-term alternation. One warm-up run, then the median of --runs runs
# (default 3); a command whose warm-up took longer than --slow seconds (default 30) is not
# run again: its warm-up (after the other commands warmed the cache) is its one run. Wall
# time from EPOCHREALTIME, peak RSS from /usr/bin/time %M (bench/lib.sh, shared with compare.sh).
#
#   bench/matrix.sh [--sizes "256M 1G 4G"] [--mixes "info real ..."] [--json OUT] [--runs N]
#                   [--seed N] [--triage PATH] [--cleanup] [--append] [--slow S]
#                   [--mem-cap SIZE] [--timeout S] [--deadline MINUTES]
#
# Rows go size by size (every mix at the first size, then the next size). --cleanup deletes a
# bundle once its row is measured. --append keeps the rows already in OUT's .tsv files (so
# several invocations make one JSON). analyze runs under `ulimit -v` --mem-cap (default 8G) and
# `timeout` --timeout (default 900 s): a row over either is recorded with its exit code, not
# retried. --deadline: start no new row after MINUTES of this invocation (the rest are listed
# as not run). OUT (default $BENCH_DIR/matrix.json) is rewritten after every row;
# bench/matrix_report.py OUT makes the table and the plot. Exit 77 when a tool is missing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
root=$(cd "$here/.." && pwd)
bench_dir=${BENCH_DIR:-/tmp/ascend-triage-bench}
sizes="256M 1G 4G" mixes="info real warn-flood error-storm distinct-errors many-procs members kernel-flood tracebacks"
runs=3 seed=1 json="" cleanup=0 append=0 slow=30 mem_cap=8G timeout_s=900 deadline=""
triage="${TRIAGE:-$root/build/ascend-triage}"
while (($#)); do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --mixes) mixes=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --triage) triage=$2; shift 2 ;;
    --cleanup) cleanup=1; shift ;;
    --append) append=1; shift ;;
    --slow) slow=$2; shift 2 ;;
    --mem-cap) mem_cap=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --deadline) deadline=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "matrix.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench_require matrix.sh "$triage"
triage=$(cd "$(dirname "$triage")" && pwd)/$(basename "$triage")
json=${json:-$bench_dir/matrix.json}
mkdir -p "$bench_dir" "$(dirname "$json")"
cap_kib=$(python3 -c "import sys; sys.path.insert(0, '$here'); import gen_bundle; print(gen_bundle.parse_size('$mem_cap') // 1024)")

# The issue's alternation, exactly.
export ALT='report three minutes timeout|rtStreamSynchronize|\[ERROR\]|Unknown symbol|E[EZIHL][0-9]{4}|error code is [0-9]+'

results=${json%.json}.runs.tsv   # mix, size, tool, run, wall_s, rss_kib, matches, rc
meta=${json%.json}.meta.tsv      # row|session|skip records (see matrix_report.py --collect)
if ((!append)); then : >"$results"; : >"$meta"; fi
touch "$results" "$meta"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
started=$EPOCHSECONDS

session() {   # session start|end: when, the machine's load, what was asked
  printf 'session\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(date -u +%FT%TZ)" "$(uptime | sed 's/^ *//')" \
    "$sizes" "$mixes" "$runs" >>"$meta"
}
collect() {
  python3 "$here/matrix_report.py" --collect "$meta" "$results" "$json" --triage "$triage" --alt "$ALT"
}

session start
echo "matrix: sizes $sizes; mixes $mixes; $runs run(s) after a warm-up; $(uptime | sed 's/^ *//')"
for size in $sizes; do
  for mix in $mixes; do
    if [ -n "$deadline" ] && ((EPOCHSECONDS - started >= deadline * 60)); then
      printf 'skip\t%s\t%s\tdeadline of %s minutes reached\n' "$mix" "$size" "$deadline" >>"$meta"
      echo "matrix: $mix $size not run (deadline)"
      continue
    fi
    cache=$bench_dir/mix-$mix-$size-seed$seed
    gen_s=""
    if [ ! -e "$cache/.complete" ]; then
      rm -rf "$cache"
      mkdir -p "$cache"
      echo "matrix: generating $mix $size under $cache ..."
      t0=$EPOCHREALTIME
      python3 "$here/gen_mix.py" --mix "$mix" --size "$size" --seed "$seed" --out "$cache"
      gen_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
      touch "$cache/.complete"
    fi
    archive=$(ls "$cache"/*.tar.zst)
    dir=${archive%.tar.zst}
    IFS=$'\t' read -r bytes lines files < <(bench_input_stats "$dir")

    # A row measured again replaces its earlier runs (--append).
    for f in "$results" "$meta"; do
      awk -F'\t' -v m="$mix" -v s="$size" '!(($1 == m && $2 == s) || ($1 == "row" && $2 == m && $3 == s))' "$f" >"$tmp/keep"
      cat "$tmp/keep" >"$f"
    done

    declare -A cmds=(
      [zstd_only]="zstd -dcq '$archive' >/dev/null"
      [zstd_rg]="zstd -dcq '$archive' | rg -c -a -e \"\$ALT\""
      [rg_dir]="rg -c --no-filename -e \"\$ALT\" '$dir'"
      [analyze_archive]="ulimit -v $cap_kib; timeout $timeout_s '$triage' analyze --format json '$archive' -o /dev/null"
      [analyze_dir]="ulimit -v $cap_kib; timeout $timeout_s '$triage' analyze --format json '$dir' -o /dev/null"
    )
    for tool in zstd_only zstd_rg rg_dir analyze_archive analyze_dir; do
      for ((r = 0; r <= runs; r++)); do
        bench_measure "$tmp" "$tool" "${cmds[$tool]}" || true
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mix" "$size" "$tool" "$r" "$BENCH_WALL" "$BENCH_RSS" \
          "$BENCH_MATCHES" "$BENCH_RC" >>"$results"
        echo "  $mix $size $tool run $r: ${BENCH_WALL}s, $((BENCH_RSS / 1024)) MiB${BENCH_MATCHES:+, $BENCH_MATCHES matches}$( ((BENCH_RC > 1)) && echo ", exit $BENCH_RC")"
        # A failed run is not repeated; a slow warm-up is the one run (the cache is warm by now).
        if ((BENCH_RC > 1)) || { ((r == 0)) && awk -v w="$BENCH_WALL" -v s="$slow" 'BEGIN { exit !(w > s) }'; }; then
          break
        fi
      done
    done
    printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mix" "$size" "$dir" "$archive" "$bytes" "$lines" "$files" \
      "$(stat -c %s "$archive")" "$gen_s" >>"$meta"
    collect >/dev/null || echo "matrix.sh: matrix_report.py --collect failed; the runs are kept in $results" >&2
    if ((cleanup)); then rm -rf "$cache"; fi
  done
done
session end
collect
echo "matrix: $(uptime | sed 's/^ *//')"
