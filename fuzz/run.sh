#!/usr/bin/env bash
# The fuzz targets' ctest checks (fuzz/CMakeLists.txt), with the sanitizers' options set so
# that any report fails:
#   run.sh replay BIN NAME           every committed corpus file and crash file of NAME, once
#   run.sh fuzz SECONDS BIN...       fuzz one of the targets, picked at random (or the one
#                                    named by FUZZ_TARGET), SECONDS from a copy of its corpus;
#                                    a crash input is kept under $FUZZ_ARTIFACTS (default:
#                                    fuzz-artifacts/ in the working directory)
# One target for the whole time rather than a few seconds each: replaying a corpus alone takes
# seconds, and over many CI runs every target gets its turn.
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
    bins=("$@")
    bin=${bins[RANDOM % ${#bins[@]}]}
    if [ -n "${FUZZ_TARGET:-}" ]; then
      bin=""
      for b in "${bins[@]}"; do [ "$(name_of "$b")" = "$FUZZ_TARGET" ] && bin=$b; done
      [ -n "$bin" ] || { echo "no target $FUZZ_TARGET" >&2; exit 2; }
    fi
    name=$(name_of "$bin")
    artifacts=${FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
    mkdir -p "$artifacts"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mapfile -t dirs < <(dirs_of "$name")
    for d in "${dirs[@]}"; do cp -r "$d/." "$work/"; done
    echo "fuzzing $name for ${seconds}s (FUZZ_TARGET=$name repeats this choice)"
    if ! "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$name-" "$work" >"$work.log" 2>&1; then
      tail -n 60 "$work.log"
      rm -f "$work.log"
      echo "FAIL: $name: the input is under $artifacts/$name-*" >&2
      exit 1
    fi
    grep -E '^#[0-9]+ +DONE|stat::' "$work.log" || tail -n 5 "$work.log"
    rm -f "$work.log"
    ;;
  *)
    echo "usage: run.sh replay BIN NAME | run.sh fuzz SECONDS BIN..." >&2
    exit 2
    ;;
esac
