# shellcheck shell=bash
# Usage and the command-line options.

# (No here-document: bash 4.2 writes those to a temporary file outside the output directory.)
usage() {
  printf '%s\n' \
    "Usage: $PROG [options]" \
    "" \
    "Collects the evidence of an Ascend NPU hang into one archive for ascend-triage." \
    "Read-only: loads no module, changes nothing, writes only under the output directory." \
    "" \
    "Options:" \
    "  -o, --out DIR      where the archive goes (default: $OPT_OUT)" \
    "  -p, --pid PID      a target process (repeatable, or PID,PID); default: every process" \
    "                     mapping libascendcl, libascend_hal or libtorch_npu or holding" \
    "                     /dev/davinci* open, found in /proc" \
    "      --timeout S    seconds per step before it is stopped (default: $OPT_TIMEOUT)" \
    "      --deadline S   seconds for the whole run, which then ends with what it has" \
    "                     (default: $OPT_DEADLINE)" \
    "      --add PATH     also collect this file or directory (under extra/; repeatable)" \
    "      --log-dir DIR  also collect the logs under DIR (repeatable)" \
    "      --since WHEN   logs changed since WHEN only: 2h, 3d, 90m, or a date (2026-06-13)" \
    "      --boots N      kernel journals of N earlier boots too (default: $OPT_BOOTS)" \
    "      --max-log-mb N keep at most N MB of one log; longer ones keep head, tail and the" \
    "                     first and last ERROR/timeout (default: $OPT_MAX_LOG_MB)" \
    "      --max-total-mb N  bound the bundle: one log keeps at most a quarter of N MB, and" \
    "                     the logs share what is left (first/last file of each process first)" \
    "      --pip          also run pip list and pip show of python3 and of each process's" \
    "                     interpreter (opt-in: pip starts site hooks, i.e. runs their code)" \
    "      --stacks       also dump the Python stacks of each target process with py-spy" \
    "                     (opt-in: py-spy stops the process for the moment of the dump)" \
    "      --safe-mode    call no device tool (npu-smi, hccn_tool): use when they hang" \
    "      --probes       run the device probes (opt-in: needs an idle device you may use;" \
    "                     imports the job's torch_npu; docs/probes.md)" \
    "      --probe-python PATH  interpreter of the probes (default: the target process's)" \
    "      --probe-device N     device of the probes (default: 0)" \
    "      --probe-timeout S    seconds per probe before it is stopped (default: 60)" \
    "      --device-logs  export the device logs with msnpureport (opt-in: talks to the device)" \
    "      --sysroot DIR --kernel KVER  collect from a mounted disk of a host that does not" \
    "                     boot: files under DIR only, no process or device steps" \
    "      --no-redact    keep secret-looking values (default: they are redacted)" \
    "  -h, --help         this text" \
    "      --version      the collector's version" \
    "" \
    "Exit codes: 0 complete; 1 partial (something denied, failed, timed out, abandoned or" \
    "skipped for lack of time); 2 nothing usable, bad usage, or too little free space."
}

usage_error() {
  printf '%s: %s\n' "$PROG" "$1" >&2
  printf "Try '%s --help'.\n" "$PROG" >&2
  exit 2
}

positive_int() {
  if [[ $2 =~ ^[0-9]+$ ]] && ((10#$2 > 0 && 10#$2 <= 86400)); then return 0; fi
  usage_error "$1 needs a whole number of seconds (1-86400), not '$2'"
}

parse_args() {
  local v p
  while [ $# -gt 0 ]; do
    case $1 in
      -o|--out|--timeout|--deadline|-p|--pid|--add|--log-dir|--since|--boots|--max-log-mb|--max-total-mb)
        [ $# -ge 2 ] || usage_error "$1 needs a value"
        v=$2 ;;
      --out=*|--timeout=*|--deadline=*|--pid=*|--add=*|--log-dir=*|--since=*|--boots=*|--max-log-mb=*|--max-total-mb=*) v=${1#*=} ;;
      --probe-python|--probe-device|--probe-timeout|--sysroot|--kernel)
        [ $# -ge 2 ] || usage_error "$1 needs a value"
        v=$2 ;;
      --probe-python=*|--probe-device=*|--probe-timeout=*|--sysroot=*|--kernel=*) v=${1#*=} ;;
      *) v="" ;;
    esac
    case $1 in
      -o|--out|--out=*) OPT_OUT=$v ;;
      --timeout|--timeout=*) positive_int --timeout "$v"; OPT_TIMEOUT=$((10#$v)) ;;
      --deadline|--deadline=*) positive_int --deadline "$v"; OPT_DEADLINE=$((10#$v)) ;;
      -p|--pid|--pid=*)
        v=$v,
        while [ -n "$v" ]; do
          p=${v%%,*} v=${v#*,}
          [[ $p =~ ^[0-9]+$ ]] || usage_error "--pid needs a process id, not '$p'"
          p=$((10#$p))
          [[ " ${OPT_PIDS[*]} " == *" $p "* ]] || OPT_PIDS+=("$p")
        done ;;
      --add|--add=*|--log-dir|--log-dir=*)
        case $v in /*) ;; *) v=$PWD/$v ;; esac
        while [[ $v == */ && $v != / ]]; do v=${v%/}; done
        case $1 in --add*) OPT_ADD+=("$v") ;; *) OPT_LOG_DIRS+=("$v") ;; esac ;;
      --since|--since=*) OPT_SINCE=$v ;;
      --boots|--boots=*)
        if ! [[ $v =~ ^[0-9]+$ ]] || ((10#$v > 100)); then usage_error "--boots needs a number 0-100, not '$v'"; fi
        OPT_BOOTS=$((10#$v)) ;;
      --max-log-mb|--max-log-mb=*|--max-total-mb|--max-total-mb=*)
        if ! [[ $v =~ ^[0-9]+$ ]] || ((10#$v == 0 || 10#$v > 1000000)); then
          usage_error "${1%%=*} needs a whole number of MB, not '$v'"
        fi
        case $1 in --max-log-mb*) OPT_MAX_LOG_MB=$((10#$v)) ;; *) OPT_MAX_TOTAL_MB=$((10#$v)) ;; esac ;;
      --pip) OPT_PIP=1 ;;
      --stacks) OPT_STACKS=1 ;;
      --safe-mode) OPT_SAFE=1 ;;
      --no-redact) OPT_REDACT=0 ;;
      --probes) OPT_PROBES=1 ;;
      --probe-python|--probe-python=*) OPT_PROBE_PYTHON=$v ;;
      --probe-device|--probe-device=*) OPT_PROBE_DEVICE=$v ;;
      --probe-timeout|--probe-timeout=*) positive_int --probe-timeout "$v"; OPT_PROBE_TIMEOUT=$((10#$v)) ;;
      --sysroot|--sysroot=*) OPT_SYSROOT=$v ;;
      --kernel|--kernel=*) OPT_KERNEL=$v ;;
      --device-logs) OPT_DEVICE_LOGS=1 ;;
      -h|--help) usage; exit 0 ;;
      --version) printf '%s %s\n' "$PROG" "$COLLECTOR_VERSION"; exit 0 ;;
      *) usage_error "unknown option '$1'" ;;
    esac
    case $1 in
      -o|--out|--timeout|--deadline|-p|--pid|--add|--log-dir|--since|--boots|--max-log-mb|--max-total-mb) shift 2 ;;
      --probe-python|--probe-device|--probe-timeout|--sysroot|--kernel) shift 2 ;;
      *) shift ;;
    esac
  done
  [ -n "$OPT_OUT" ] || usage_error "--out needs a directory"
  check_mode_options
  [ -z "$OPT_SINCE" ] || since_minutes "$OPT_SINCE"
}

# Checks and settles the options of the run modes (--sysroot, --probes, --device-logs) after
# parse_args; picks the phases.
check_mode_options() {
  local v
  if [ -n "$OPT_SYSROOT" ]; then
    [ -n "$OPT_KERNEL" ] || usage_error "--sysroot needs --kernel KVER (the kernel the host boots)"
    if ((OPT_PROBES || OPT_DEVICE_LOGS || OPT_STACKS)) || [ ${#OPT_PIDS[@]} -gt 0 ]; then
      usage_error "--probes, --device-logs, --stacks and --pid need the live host, not --sysroot"
    fi
    case $OPT_SYSROOT in /*) ;; *) OPT_SYSROOT=$PWD/$OPT_SYSROOT ;; esac
    while [[ $OPT_SYSROOT == */ && $OPT_SYSROOT != / ]]; do OPT_SYSROOT=${OPT_SYSROOT%/}; done
    [ "$OPT_SYSROOT" != / ] || usage_error "--sysroot / is the live host: leave the option out"
    [ -d "$OPT_SYSROOT" ] || usage_error "--sysroot needs a directory, not '$OPT_SYSROOT'"
    [[ $OPT_KERNEL =~ ^[A-Za-z0-9._+-]+$ ]] || usage_error "--kernel needs a kernel release, not '$OPT_KERNEL'"
    [ -d "$OPT_SYSROOT/lib/modules/$OPT_KERNEL" ] ||
      progress "warning: $OPT_SYSROOT/lib/modules/$OPT_KERNEL does not exist"
    # Every host file is read under the image (the same prefix as the test hook), and the
    # bundle carries the image's host name, not the rescue system's.
    ASCEND_COLLECT_ROOT=$OPT_SYSROOT
    if [ -f "$OPT_SYSROOT/etc/hostname" ]; then
      IFS= read -r v < "$OPT_SYSROOT/etc/hostname"
      [[ $v =~ ^[A-Za-z0-9._-]+$ ]] && HOSTNAME=$v
    fi
    PHASES=(sysroot_system sysroot_kernel sysroot_modules ascend logs extra sysroot_live)
  elif [ -n "$OPT_KERNEL" ]; then
    usage_error "--kernel goes with --sysroot"
  fi
  if ! [[ $OPT_PROBE_DEVICE =~ ^[0-9]+$ ]] || ((10#$OPT_PROBE_DEVICE >= 1024)); then
    usage_error "--probe-device needs a device number, not '$OPT_PROBE_DEVICE'"
  fi
  OPT_PROBE_DEVICE=$((10#$OPT_PROBE_DEVICE))
  if [ -n "$OPT_PROBE_PYTHON" ] && [[ $OPT_PROBE_PYTHON != */* ]]; then
    v=$(type -P "$OPT_PROBE_PYTHON") || usage_error "--probe-python: no '$OPT_PROBE_PYTHON' on PATH"
    OPT_PROBE_PYTHON=$v
  fi
  if [ -n "$OPT_PROBE_PYTHON" ] && [ ! -x "$OPT_PROBE_PYTHON" ]; then
    usage_error "--probe-python needs an executable file, not '$OPT_PROBE_PYTHON'"
  fi
  ((OPT_DEVICE_LOGS)) && PHASES+=(device_logs)
  ((OPT_PROBES)) && PHASES+=(probes)
  return 0
}

# SINCE_MIN = minutes since --since ($1: 2h, 3d, 90m, or an ISO date that date(1) reads).
since_minutes() {
  local n e now
  case $1 in
    [0-9]*[mhd])
      n=${1%?}
      [[ $n =~ ^[0-9]+$ ]] || usage_error "--since needs 2h, 3d, 90m or a date, not '$1'"
      case $1 in *m) SINCE_MIN=$((10#$n)) ;; *h) SINCE_MIN=$((10#$n * 60)) ;; *d) SINCE_MIN=$((10#$n * 1440)) ;; esac ;;
    *)
      e=$(date -u -d "$1" +%s 2>/dev/null)
      [[ $e =~ ^[0-9]+$ ]] || usage_error "--since needs 2h, 3d, 90m or a date, not '$1'"
      epoch_now; now=$EPOCH
      SINCE_MIN=$(( (now - e) / 60 + 1 ))
      ((SINCE_MIN > 0)) || SINCE_MIN=1 ;;
  esac
}
