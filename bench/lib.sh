# Shell functions shared by bench/compare.sh and bench/matrix.sh (sourced, not run).

# bench_require PROG TRIAGE: exit 77 (the ctest skip code) naming every missing tool.
bench_require() {
  local prog=$1 triage=$2 tool missing=()
  for tool in rg:ripgrep zstd:zstd tar:tar python3:python3; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool%%:*} (Debian package ${tool##*:})")
  done
  [ -x /usr/bin/time ] || missing+=("/usr/bin/time (Debian package time)")
  [ -x "$triage" ] || missing+=("$triage (build the analyzer, or give --triage PATH or TRIAGE=)")
  if ((${#missing[@]})); then
    printf '%s: missing, benchmark skipped: %s\n' "$prog" "${missing[@]}" >&2
    exit 77
  fi
}

# bench_measure TMPDIR TOOL CMD: one run of a command line (bash -c, so pipelines work); sets
# BENCH_WALL (seconds, from EPOCHREALTIME), BENCH_RSS (KiB, /usr/bin/time %M: for a pipeline the
# largest process), BENCH_MATCHES (the sum of the last :-field of rg -c output; empty for
# analyze* and zstd_only) and BENCH_RC. Exit 1 of rg (no match) and of analyze (findings at
# warning or above) is success here; returns 1 (after printing the command and its first
# error lines) when the command exited above 1.
bench_measure() {
  local tmp=$1 tool=$2 cmd=$3 t0 t1
  BENCH_RC=0
  t0=$EPOCHREALTIME
  /usr/bin/time -f %M -o "$tmp/rss" bash -c "$cmd" >"$tmp/out" 2>"$tmp/err" || BENCH_RC=$?
  t1=$EPOCHREALTIME
  BENCH_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  BENCH_RSS=$(tail -n 1 "$tmp/rss")
  [[ $BENCH_RSS =~ ^[0-9]+$ ]] || BENCH_RSS=0      # "Command exited with non-zero status" only
  BENCH_MATCHES=$(awk -F: '{ s += $NF } END { print s + 0 }' "$tmp/out")
  [[ $tool = analyze* || $tool = zstd_only ]] && BENCH_MATCHES=""
  if ((BENCH_RC > 1)); then
    echo "$tool failed (exit $BENCH_RC): $cmd" >&2
    sed -n '1,5p' "$tmp/err" >&2
    return 1
  fi
  return 0
}

# bench_input_stats DIR: "bytes<TAB>lines<TAB>files" of a bundle directory.
bench_input_stats() {
  local dir=$1
  printf '%s\t%s\t%s\n' "$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }')" \
    "$(find "$dir" -type f -exec cat {} + | wc -l)" "$(find "$dir" -type f | wc -l)"
}
