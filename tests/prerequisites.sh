#!/usr/bin/env bash
# The tools the tests need, each with the tests that need it. With CI=true every one must be
# there (exit 1 names what is missing); elsewhere the missing ones are reported and the test
# passes: the tests that need them then report themselves as skipped (exit 77), never as
# passed. docs/testing.md lists what skips and why.
set -u
missing=()
check() {  # check WHAT WHO-NEEDS-IT COMMAND...
  local what=$1 who=$2
  shift 2
  local c
  for c in "$@"; do
    if command -v "$c" >/dev/null 2>&1; then
      printf 'ok       %-12s %s\n' "$what" "$(command -v "$c")"
      return
    fi
  done
  printf 'MISSING  %-12s needed by %s\n' "$what" "$who"
  missing+=("$what")
}
check python3 "corpus, unexplained, determinism and collector tests" python3
check bash "collector, golden and browser tests" bash
check tar "collector tests (archives)" tar
check gzip "collector tests (.tar.gz without zstd, .ko.gz)" gzip
check zstd "collector tests (.tar.zst), determinism test" zstd
check xz "collector.files (.ko.xz modules)" xz
check timeout "collector tests (hung stubs)" timeout
check setsid "collector tests (hung stubs)" setsid
check mkfifo "collector.hang_proc_fifo" mkfifo
check shellcheck "collector.shellcheck, collector.build" shellcheck
check setpriv "collector.nonroot" setpriv
check chromium "browser: html report in headless chromium" chromium chromium-browser
check parallel "fleet: map with GNU parallel" parallel
check slurm "fleet: map as a Slurm job array" slurmctld
check slurmd "fleet: map as a Slurm job array" slurmd
check sbatch "fleet: map as a Slurm job array" sbatch
check munged "fleet: map as a Slurm job array" munged
check gnu-time "robustness.hostile_inputs.{bomb,paste} (peak RSS)" /usr/bin/time
check clang-14 "scripts/sanitize.sh: the sanitized suite and the fuzz targets" clang++-14
check lnav "lnav: the formats load, their samples and real excerpts parse" lnav
if [ "$(id -u)" = 0 ]; then
  printf 'ok       %-12s uid 0\n' root
else
  printf 'MISSING  %-12s needed by collector.nonroot (switches to an unprivileged user), collector.disk_full (mounts a tmpfs), fleet Slurm test\n' root
  missing+=(root)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "every prerequisite is there"
  exit 0
fi
if [ "${CI:-}" = true ]; then
  echo "FAIL: CI=true and missing: ${missing[*]} (scripts/bootstrap.sh test installs the packages)"
  exit 1
fi
echo "missing: ${missing[*]}: the tests that need them will report skipped (CI=true would fail here)"
exit 0
