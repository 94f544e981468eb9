#!/usr/bin/env bash
# Issue 22's side-by-side benchmark: for each size, one generated bundle (cached under
# $BENCH_DIR, default /tmp/ascend-triage-bench) is read by
#   zstd -dc ARCHIVE > /dev/null           (decompression alone: the floor of any archive reader)
#   zstd -dc ARCHIVE | rg -c -a ALT        (one process each; -a: the tar stream holds NULs)
#   rg -c --no-filename ALT DIR            (rg's own threads; per-file counts summed afterwards)
#   ascend-triage analyze --format json ARCHIVE -o /dev/null
#   ascend-triage analyze --format json DIR -o /dev/null
#   the same two with --threads 1 (reading and parsing on one thread; the default is 2)
# where ALT is the alternation of the knowledge signatures (bench/signature_alt.py, printed).
# Each figure is the median of --runs runs (default 5) after one warm-up run, so the page
# cache is warm. Prints wall time, MB/s and lines/s of the uncompressed bytes, peak RSS
# (/usr/bin/time %M: the largest process of a pipeline) and the ratios, then the RSS curve.
#
#   bench/compare.sh [--runs N] [--quick] [--json FILE] [--seed N] [--triage PATH] [SIZE...]
#
# SIZE as gen_bundle.py takes it (default: 256M 1G). --quick: one run, no warm-up (the
# ctest bench.smoke). Exit 77 when a tool is missing (the ctest's skip code), 1 when a run fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
root=$(cd "$here/.." && pwd)
runs=5 warmup=1 json="" seed=1 triage="${TRIAGE:-$root/build/ascend-triage}"
sizes=()
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --quick) runs=1 warmup=0; shift ;;
    --json) json=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --triage) triage=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
((${#sizes[@]})) || sizes=(256M 1G)
bench_dir=${BENCH_DIR:-/tmp/ascend-triage-bench}

bench_require compare.sh "$triage"

alt=$(python3 "$here/signature_alt.py" "$root/knowledge")
echo "rg alternation (from knowledge/signatures/*.json, ${#alt} characters):"
echo "$alt"
echo

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results.tsv   # size, tool, run, wall_s, rss_kib, matches
: >"$results"

# One run: bench_measure (lib.sh) sets BENCH_WALL, BENCH_RSS and BENCH_MATCHES.
measure() {
  local size=$1 tool=$2 run=$3 cmd=$4
  bench_measure "$tmp" "$tool" "$cmd" || { echo "compare.sh: $tool failed" >&2; exit 1; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$tool" "$run" "$BENCH_WALL" "$BENCH_RSS" "$BENCH_MATCHES" >>"$results"
}

meta=$tmp/meta.tsv         # size, dir, archive, bytes, lines, archive_bytes
: >"$meta"
for size in "${sizes[@]}"; do
  cache=$bench_dir/$size-seed$seed
  if [ ! -e "$cache/.complete" ]; then
    rm -rf "$cache"
    mkdir -p "$cache"
    echo "generating $size bundle (seed $seed) under $cache ..."
    python3 "$here/gen_bundle.py" --size "$size" --seed "$seed" --out "$cache"
    touch "$cache/.complete"
  else
    echo "reusing $cache"
  fi
  archive=$(ls "$cache"/*.tar.zst)
  dir=${archive%.tar.zst}
  IFS=$'\t' read -r bytes lines _ < <(bench_input_stats "$dir")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$dir" "$archive" "$bytes" "$lines" "$(stat -c %s "$archive")" >>"$meta"

  declare -A cmds=(
    [zstd_only]="zstd -dcq '$archive' >/dev/null"
    [zstd_rg]="zstd -dcq '$archive' | rg -c -a -e \"\$ALT\""
    [rg_dir]="rg -c --no-filename -e \"\$ALT\" '$dir'"
    [analyze_archive]="'$triage' analyze --format json '$archive' -o /dev/null"
    [analyze_dir]="'$triage' analyze --format json '$dir' -o /dev/null"
    [analyze_archive_1t]="'$triage' analyze --threads 1 --format json '$archive' -o /dev/null"
    [analyze_dir_1t]="'$triage' analyze --threads 1 --format json '$dir' -o /dev/null"
  )
  export ALT=$alt
  for tool in zstd_only zstd_rg rg_dir analyze_archive analyze_dir analyze_archive_1t analyze_dir_1t; do
    for ((r = 1 - warmup; r <= runs; r++)); do
      measure "$size" "$tool" "$r" "${cmds[$tool]}"
      echo "  $size $tool run $r: $(tail -n 1 "$results" | cut -f4)s"
    done
  done
done

echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
  "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown); $(date -u +%FT%TZ)"
echo "beside it: $(uptime)"
python3 "$here/compare_report.py" "$meta" "$results" "$runs" "$alt" ${json:+--json "$json"}
