#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): a second build, build-asan, with clang-14,
# -fsanitize=address,undefined and the libFuzzer targets (fuzz/), then through ctest:
#   - the unit test cases, golden, corpus, unexplained, determinism, cli, robustness,
#     report-schema and knowledge-check tests, sanitized;
#   - every committed fuzz corpus and crash file replayed through its target;
#   - FUZZ_SECONDS (default 60) of fuzzing shared among the targets.
# Any ASan, LeakSanitizer or UBSan report fails the test it happens in.
# Not run sanitized: collector (bash), browser, package, bench, layers and lnav tests (they test
# no C++ path the others miss), the allocation-count and peak-RSS tests (the 300 MB line, the
# journal growth test `memory: ...`, the gzip bomb, the 10M-line paste and the 100k members: they measure the
# optimised build; ASan's shadow memory would break the RSS bound), cli.progress_only_on_a_
# terminal (it bounds redraws by a run length the sanitized binary exceeds several times),
# the second, whole unit run under TZ=XXX-8 (the same code as the discovered unit test cases),
# and the determinism test over thread counts (132 s sanitized: it compares --threads 1 and 2
# reports, which the optimised build does; every sanitized run already reads with two threads).
#   scripts/sanitize.sh          BUILD_DIR=build-asan, FUZZ_SECONDS=60
set -eo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-asan}
fuzz_seconds=${FUZZ_SECONDS:-60}
if ! command -v clang++-14 >/dev/null; then
  echo "sanitize.sh: clang++-14 is missing (Debian packages clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 with line tables: the sanitizers' usual trade between speed and readable stacks.
# With debug info ccache hashes the working directory (hash_dir) unless told not to, and a
# fresh clone's build-asan would then never hit: CCACHE_NOHASHDIR. The price is that the line
# tables may name the directory of the clone that first compiled a file.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DCMAKE_CXX_COMPILER=clang++-14 \
  -DASCEND_SANITIZE=ON -DFUZZ_SECONDS="$fuzz_seconds" \
  "${launcher[@]}" >/dev/null
if ! cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  echo "sanitized build failed (log: $build/build.log)" >&2
  exit 1
fi
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
not_sanitized='^(collector\.|browser: |package\.|bench\.|layers: |lnav: |prerequisites$|input: 300 MB|memory: |robustness\.hostile_inputs\.(bomb|paste|members|storm|kstorm|jobstorm|oom)$|cli\.progress_only_on_a_terminal$|all unit tests under|.* allocates? nothing per line$|fuzz: |determinism: the report does not depend on the thread count$)'
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -E "$not_sanitized"
# The fuzz tests last and one at a time: the short run uses both cores' worth of time.
ctest --test-dir "$build" --output-on-failure -L fuzz
