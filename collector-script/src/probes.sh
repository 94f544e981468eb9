# shellcheck shell=bash
# Phase probes (--probes): small torch_npu checks on one device, each a step of its own.
# What each probe result means: docs/probes.md.

PROBE_NAMES=(ones_copyback cpu_rand_h2d matmul rand randn randint)

# The probe program (src/probe.py), one small check per run, chosen by name. The build
# embeds it here as a quoted string (not a here-document: see usage); the run writes it to
# collector/probe.py. It imports the job's torch_npu, does
# its work on one device, synchronises, and prints one value; a fault shows as an exception
# (exit 1) or as no end at all (the collector's timeout).
# @embed PROBE_CODE probe.py

gen_probe_code() { printf '%s' "$PROBE_CODE"; }

phase_probes() {
  local name
  mkdir -p "$BUNDLE/probes/logs" "$BUNDLE/probes/work"
  step_gen collector/probe.py gen_probe_code
  probe_interpreter
  probe_environment
  if [ -n "$PROBE_PY_HOST" ]; then
    progress "probes on device $OPT_PROBE_DEVICE with $PROBE_PY_HOST (${OPT_PROBE_TIMEOUT}s each)"
  fi
  PROBE_SKIP_ERROR=""
  for name in "${PROBE_NAMES[@]}"; do
    probe_run "$name"
  done
  rm -rf "$BUNDLE/probes/work"
}

# One probe: gate, run, then its JSON and one item for each of its files.
probe_run() {
  local name=$1 base=probes/$1 execj argv limit rem marker="" pid="" rc="" outcome tv ver="" f
  argv=("$PROBE_PY_HOST" "$BUNDLE/collector/probe.py" "$name" --device "$OPT_PROBE_DEVICE")
  json_argv "${argv[@]}"; execj=$J
  reset_result
  step_gate host || return 0
  if [ -z "$R_STATUS" ]; then
    if ((OPT_SAFE)); then R_STATUS=skipped R_REASON=option R_ERROR=safe_mode
    elif ((DEVICE_UNRESPONSIVE)); then R_STATUS=skipped R_REASON=device_unresponsive R_ERROR=$PROBE_SKIP_ERROR
    elif [ -z "$PROBE_PY_EXEC" ]; then R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found
    fi
  fi
  if [ -n "$R_STATUS" ]; then
    record_item "$base.json" "$PROBE_PY_HOST" "$execj"
    return 0
  fi
  mkdir -p "$BUNDLE/probes/work/$name/cache" "$BUNDLE/probes/logs/$name"
  # The probe's limit leaves the body time to record, stop and report before the run's end.
  limit=$((OPT_PROBE_TIMEOUT * 1000))
  rem=$((DEADLINE_MS - NOW_MS - (2 * KILL_GRACE + 10) * 1000))
  ((rem < limit)) && limit=$rem
  ((limit < 1000)) && limit=1000
  # The run's own bound on the body, for a body that hangs itself: generous, never reached
  # otherwise.
  STEP_KEEP=1 STEP_LIMIT=$((limit / 1000 + 2 * KILL_GRACE + 30)) run_step host "$base.json" \
    "$PROBE_PY_HOST" "$execj" bg_probe "$name" "$limit" "$OPT_PROBE_DEVICE" "$PROBE_PY_EXEC" \
    "$BUNDLE/collector/probe.py"
  [ -n "$R_STATUS" ] || return 0
  [ -s "$STEP_BASE.probe" ] && read -r marker < "$STEP_BASE.probe"
  [ -s "$STEP_BASE.pid" ] && read -r pid < "$STEP_BASE.pid"
  [ -s "$STEP_BASE.rc" ] && read -r rc < "$STEP_BASE.rc"
  [[ $rc =~ ^[0-9]+$ ]] || rc=""
  R_RC=$rc R_ERROR=""
  case $R_STATUS:$marker in
    abandoned:*|*:abandoned*)
      outcome=abandoned R_STATUS=abandoned R_ERROR=unkillable
      ABANDONED_NOTES+=("$base.json: probe process ${pid:-?} is still there after KILL (state ${marker#abandoned })")
      MANIFEST_NOTES+=("probe $name was abandoned (still there after KILL): device_unresponsive, the later probes are skipped")
      DEVICE_UNRESPONSIVE=1 PROBE_SKIP_ERROR=probe_abandoned ;;
    timed_out:*|*:killed) outcome=timeout R_STATUS=timed_out R_ERROR=timeout ;;
    failed:*) outcome=interrupted R_ERROR=${R_ERROR:-interrupted} ;;
    *)
      if [ "$rc" = 0 ]; then outcome=pass R_STATUS=ok
      else outcome=error R_STATUS=failed R_ERROR=exit_${rc:-unknown}
      fi ;;
  esac
  if [ -s "$STEP_BASE.info" ]; then
    ver=$(sed -n 's/^torch_npu_version=//p' "$STEP_BASE.info" | head -n 1)
  fi
  tv=false; case $outcome in timeout|abandoned) tv=true ;; esac
  iso_utc "$R_START"
  {
    printf '{"name":"%s","argv":%s,"device":%s,' "$name" "$execj" "$OPT_PROBE_DEVICE"
    json_str "$PROBE_PY_HOST"; printf '"python":%s,' "$J"
    json_str_or_null "$ver"; printf '"torch_npu_version":%s,' "$J"
    printf '"started_utc":"%s","rc":%s,"timed_out":%s,"duration_ms":%s,' "$ISO" "${rc:-null}" "$tv" "$R_DUR"
    printf '"stdout_file":"%s.stdout","stderr_file":"%s.stderr","outcome":"%s",' "$base" "$base" "$outcome"
    json_str_or_null "${PROBE_ENV_PID:+pid:$PROBE_ENV_PID}"; printf '"env_from":%s,' "$J"
    json_argv "${PROBE_ENV_NAMES[@]}"; printf '"env_vars":%s,' "$J"
    printf '"log_dir":"probes/logs/%s"}\n' "$name"
  } > "$BUNDLE/$base.json"
  [ -n "$R_ERRF" ] && store_err "$R_ERRF" "$base.json"
  for f in json stdout stderr status threads.txt; do
    [ -f "$BUNDLE/$base.$f" ] && record_bundle_file "$base.$f" "$PROBE_PY_HOST" "$execj"
  done
  # The probe's own plogs, as its runtime wrote them.
  while IFS= read -r -d '' f; do
    R_STATUS=ok R_REASON="" R_ERROR="" R_RC=""
    record_bundle_file "${f#"$BUNDLE/"}" "ASCEND_PROCESS_LOG_PATH of probe $name" ""
  done < <(find "$BUNDLE/probes/logs/$name" -type f -print0 2>/dev/null | sort -z)
  progress "probe $name: $outcome${rc:+ (rc $rc)}"
}

# The probe interpreter: --probe-python, else the first target process's interpreter as
# seen from its root (its argv[0], looked up on its own PATH, else its exe), else python3.
# PROBE_PY_HOST is the path as recorded, PROBE_PY_EXEC the one run; PROBE_ENV_PID the
# process whose library and Python paths the probes take.
probe_interpreter() {
  local pid via argv0="" path="" rec d c
  PROBE_PY_HOST="" PROBE_PY_EXEC="" PROBE_ENV_PID=""
  if [ -n "$OPT_PROBE_PYTHON" ]; then
    PROBE_PY_HOST=$OPT_PROBE_PYTHON PROBE_PY_EXEC=$OPT_PROBE_PYTHON
    return 0
  fi
  for pid in "${TARGET_PIDS[@]}"; do
    [ -f "$BUNDLE/processes/$pid/cmdline" ] || continue
    IFS= read -r -d '' argv0 < "$BUNDLE/processes/$pid/cmdline"
    via=/proc/$pid/root
    [ "${PID_ORIGIN[$pid]}" = host ] && via=""
    c=""
    case ${argv0##*/} in
      python*)
        case $argv0 in
          /*) c=$argv0 ;;
          */*) ;;
          *)
            while IFS= read -r -d '' rec || [ -n "$rec" ]; do
              case $rec in PATH=*) path=${rec#PATH=} ;; esac
            done < "$BUNDLE/processes/$pid/environ"
            path=$path:
            while [ -n "$path" ]; do
              d=${path%%:*} path=${path#*:}
              case $d in /*) ;; *) continue ;; esac
              if [ -x "$ROOT$via$d/$argv0" ] && [ -f "$ROOT$via$d/$argv0" ]; then c=$d/$argv0; break; fi
            done ;;
        esac ;;
    esac
    if [ -z "$c" ] && [ -f "$BUNDLE/processes/$pid/exe.txt" ]; then
      IFS= read -r c < "$BUNDLE/processes/$pid/exe.txt"
      case ${c##*/} in python*) ;; *) c="" ;; esac
    fi
    if [ -n "$c" ] && [ -x "$ROOT$via$c" ] && [ -f "$ROOT$via$c" ]; then
      PROBE_PY_HOST=$via$c PROBE_PY_EXEC=$ROOT$via$c
      # A container's paths mean nothing outside it: its environment is not taken.
      [ -z "$via" ] && PROBE_ENV_PID=$pid
      return 0
    fi
  done
  tool_path python3
  PROBE_PY_HOST=$TP PROBE_PY_EXEC=$TP
}

# PROBE_ENV = "NAME=value" of the target process's library, Python and Ascend paths (from
# its collected environ), so that the probes import what the job imports. Not taken: the
# probes' own log, work and cache paths, and device visibility (--probe-device decides).
probe_environment() {
  local env=$BUNDLE/processes/$PROBE_ENV_PID/environ rec name
  PROBE_ENV=() PROBE_ENV_NAMES=()
  [ -n "$PROBE_ENV_PID" ] && [ -f "$env" ] || return 0
  while IFS= read -r -d '' rec || [ -n "$rec" ]; do
    name=${rec%%=*}
    [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ && $rec == *=* ]] || continue
    case $name in
      ASCEND_PROCESS_LOG_PATH|ASCEND_WORK_PATH|ASCEND_CACHE_PATH|*VISIBLE_DEVICES) continue ;;
      LD_LIBRARY_PATH|PYTHONPATH|PYTHONHOME|ASCEND_*|TOOLCHAIN_HOME) ;;
      *) continue ;;
    esac
    PROBE_ENV+=("$rec")
    PROBE_ENV_NAMES+=("$name")
  done < "$env"
}

# PSTATE = the state letter of process $1 from /proc/<pid>/stat, empty when it is gone.
# (The one place the probes read a process's state: the test of an unkillable probe
# replaces it, as no test can make a process that survives KILL.)
proc_state() {
  local line
  PSTATE=""
  IFS= read -r line 2>/dev/null < "/proc/$1/stat" || return 0
  line=${line##*) }
  PSTATE=${line%% *}
}

# Whether probe process $1 has ended (gone, or a zombie).
probe_gone() {
  proc_state "$1"
  case $PSTATE in ""|Z) return 0 ;; esac
  return 1
}

# Waits up to KILL_GRACE seconds (by the clock: a loaded host makes every poll slower) for
# probe process $1 to end.
probe_wait_gone() {
  local end
  now_ms; end=$((NOW_MS + KILL_GRACE * 1000))
  while ! probe_gone "$1"; do
    poll_sleep 12
    now_ms
    ((NOW_MS < end)) || return 1
  done
  return 0
}

# Step body of one probe ($1 name, $2 limit in ms, $3 device, $4 interpreter, $5 program):
# the probe runs as a child of this body, in this step's process group. At its time limit
# the body records its state (<name>.status, <name>.threads.txt) first, then sends TERM to
# the group (the body ignores it), KILL to what is left, and says in $STEP_BASE.probe how it
# ended: "killed", or "abandoned <state>" when the probe is still there after KILL.
bg_probe() {
  local name=$1 limit=$2 dev=$3 py=$4 prog=$5 dir=$BUNDLE/probes pid t0 e m members
  cd "$dir/work/$name" || exit 66
  for e in "${PROBE_ENV[@]}"; do export "${e?}"; done
  export ASCEND_PROCESS_LOG_PATH=$dir/logs/$name ASCEND_WORK_PATH=$dir/work/$name \
    ASCEND_CACHE_PATH=$dir/work/$name/cache ASCEND_COLLECT_PROBE_INFO=$STEP_BASE.info \
    PYTHONDONTWRITEBYTECODE=1
  "$py" "$prog" "$name" --device "$dev" </dev/null >"$dir/$name.stdout" 2>"$dir/$name.stderr" &
  pid=$!
  printf '%s\n' "$pid" > "$STEP_BASE.pid"
  now_ms; t0=$NOW_MS
  while ! probe_gone "$pid"; do
    now_ms
    if ((NOW_MS - t0 >= limit)); then
      cat "/proc/$pid/status" > "$dir/$name.status" 2>/dev/null
      (ROOT="" bg_threads "$pid") > "$dir/$name.threads.txt" 2>/dev/null
      trap '' TERM
      kill -TERM -- "-$BASHPID" 2>/dev/null
      probe_wait_gone "$pid"
      # KILL to every member of the group but this body. The list is read whole first: the
      # scanner runs in this group too, and the /proc glob is in string order ("10003" before
      # "9995", a wrapped pid before 32763), so it can list itself before the probe; a KILL
      # sent while it scans then ends the scan before the probe is reached.
      PGID_QUERY=$BASHPID
      members=()
      mapfile -t members < <(bg_group_members 2>/dev/null)
      for m in ${members[@]+"${members[@]}"}; do
        m=${m%% *}
        [ "$m" = "$BASHPID" ] || kill -KILL "$m" 2>/dev/null
      done
      probe_wait_gone "$pid"
      if probe_gone "$pid"; then
        wait "$pid" 2>/dev/null
        printf '%s\n' "$?" > "$STEP_BASE.rc"
        printf 'killed\n' > "$STEP_BASE.probe"
      else
        printf 'abandoned %s\n' "$PSTATE" > "$STEP_BASE.probe"
      fi
      exit 124
    fi
    poll_sleep 20
  done
  wait "$pid"
  printf '%s\n' "$?" > "$STEP_BASE.rc"
  exit 0
}
