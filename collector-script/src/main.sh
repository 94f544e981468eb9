# shellcheck shell=bash
# main: the phases in order. Sourcing the built file (tests) defines the functions only.

main() {
  local phase i=0
  ARGS_ORIG=("$@")
  record_locale
  export LC_ALL=C
  parse_args "$@"
  init_run
  for phase in "${PHASES[@]}"; do
    i=$((i + 1))
    ((INTERRUPTED)) && break
    progress "[$i/${#PHASES[@]}] $phase"
    "phase_$phase"
  done
  finish_run
}

# Sourcing the file (tests) defines the functions without running anything.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
