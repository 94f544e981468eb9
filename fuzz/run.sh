#!/usr/bin/env bash
# The fuzz targets' ctest checks (fuzz/CMakeLists.txt), with the sanitizers' options set so
# that any report fails:
#   run.sh replay BIN NAME           every committed corpus file and crash file of NAME, once
#   run.sh fuzz SECONDS BIN...       fuzz the targets SECONDS in all (shared out equally),
#                                    from copies of their corpora; a crash is kept under
#                                    $FUZZ_ARTIFACTS (default: the build's fuzz-artifacts/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
name_of() { basename "$1" _fuzz; }
dirs_of() {  # the committed inputs of a target that exist
  local d
  for d in "$here/corpus/$1" "$here/crashes/$1"; do
    [ -d "$d" ] && printf '%s\n' "$d"
  done
  return 0
}
case "${1:-}" in
  replay)
    bin=$2 name=$3
    mapfile -t dirs < <(dirs_of "$name")
    [ ${#dirs[@]} -gt 0 ] || { echo "no corpus for $name under $here" >&2; exit 1; }
    count=$(find "${dirs[@]}" -type f | wc -l)
    # -runs=0: run every input of the given directories once, mutate nothing.
    "$bin" -runs=0 -rss_limit_mb=2048 -timeout=60 "${dirs[@]}"
    echo "replayed $count inputs of $name"
    ;;
  fuzz)
    seconds=$2
    shift 2
    each=$((seconds / $#))
    [ "$each" -ge 1 ] || each=1
    artifacts=${FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
    mkdir -p "$artifacts"
    for bin in "$@"; do
      name=$(name_of "$bin")
      work=$(mktemp -d)
      mapfile -t dirs < <(dirs_of "$name")
      for d in "${dirs[@]}"; do cp -r "$d/." "$work/"; done
      echo "== $name: ${each}s"
      if ! "$bin" -max_total_time="$each" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
          -artifact_prefix="$artifacts/$name-" "$work" 2>&1 | tail -n 20; then
        rm -rf "$work"
        echo "FAIL: $name found a crash: $artifacts/$name-*" >&2
        exit 1
      fi
      rm -rf "$work"
    done
    ;;
  *)
    echo "usage: run.sh replay BIN NAME | run.sh fuzz SECONDS BIN..." >&2
    exit 2
    ;;
esac
