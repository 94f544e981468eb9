#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine, run as root: installs the Debian packages that are
# missing, builds in Release, then runs either the demo or the whole test suite.
#   scripts/bootstrap.sh demo   analyse the bundled incident sample (exit 0 or 1 = success)
#   scripts/bootstrap.sh test   run every test through ctest, then the sanitized suite
# Idempotent, and quiet when nothing is missing.
set -eo pipefail
cd "$(dirname "$0")/.."

mode=${1:-demo}
packages=(g++ cmake ninja-build pkg-config libre2-dev libsimdjson-dev libzstd-dev libfmt-dev
  catch2 libarchive-dev libcli11-dev nettle-dev zlib1g-dev zstd shellcheck help2man)
# collector tests: check_bundle.py, .ko.xz modules; the HTML report's browser test: chromium;
# the package test: dpkg-shlibdeps (dpkg-dev) computes the .deb's Depends; the benchmark
# (bench/compare.sh, ctest bench.smoke): ripgrep and GNU time; fleet triage (tests/fleet/):
# GNU parallel, and Slurm with munge for the job-array test; the sanitized suite and the
# fuzz targets (scripts/sanitize.sh): clang-14 with its runtime (ASan, UBSan, libFuzzer), zip
# for the archive seeds, ccache to rebuild quickly; the lnav formats (packaging/lnav/, ctest
# label lnav): lnav loads them and reads the real excerpts with them
[ "$mode" = test ] && packages+=(python3 xz-utils chromium dpkg-dev ripgrep time parallel slurm-wlm munge
  clang-14 libclang-rt-14-dev zip ccache lnav)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${BUILD_DIR:-build}
# ccache (installed for the test mode) keeps a rebuild of a fresh clone short; paths are taken
# relative to the clone, so clones at other paths share the cache (scripts/sanitize.sh too).
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR=$PWD
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fi
# The demo runs only the analyzer, so it builds only that target (not the unit tests, most of
# the build time); the test mode builds everything. The log is shown only when it fails.
targets=()
[ "$mode" = demo ] && targets=(--target ascend-triage)
if ! cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  echo "build failed (log: $build/build.log)" >&2
  exit 1
fi

case "$mode" in
  demo)
    sample=samples/incident-910b-before-reboot
    [ -d "$sample" ] || sample=tests/data/minimal-bundle
    set +e
    "$build/ascend-triage" analyze "$sample"
    rc=$?
    set -e
    # 0 = nothing at warning or above, 1 = findings: both are a successful analysis.
    [ "$rc" -le 1 ]
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
    # Then the sanitized build (build-asan): its tests and the fuzz corpora (docs/testing.md).
    bash scripts/sanitize.sh
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
