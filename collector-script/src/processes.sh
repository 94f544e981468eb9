# shellcheck shell=bash
# Phase processes: the target processes (found in /proc, or -p) and, per process, its status,
# maps, environ, cmdline, fds, root, time zone, two thread samples (and with --stacks their
# Python stacks between them) and the rank table its RANK_TABLE_FILE names; then the Python
# steps.

phase_processes() {
  local pid d p
  if [ ${#OPT_PIDS[@]} -eq 0 ]; then
    STEP_KEEP=1 step_func processes /proc bg_find_targets
    if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
      while IFS= read -r p; do
        [[ $p =~ ^[0-9]+$ ]] && TARGET_PIDS+=("$p")
      done < <(sort -n "$R_OUT")
    fi
    progress "target processes found in /proc: ${TARGET_PIDS[*]:-none}"
  else
    TARGET_PIDS=("${OPT_PIDS[@]}")
  fi
  for pid in "${TARGET_PIDS[@]}"; do
    d=processes/$pid
    # status first: its State line says whether the process is stuck in the kernel.
    step_copy "$d/status" "/proc/$pid/status"
    step_copy "$d/maps" "/proc/$pid/maps"
    step_func "$d/environ" "/proc/$pid/environ" bg_copy_nul environ "/proc/$pid/environ"
    step_func "$d/cmdline" "/proc/$pid/cmdline" bg_copy_nul cmdline "/proc/$pid/cmdline"
    step_copy "$d/stat" "/proc/$pid/stat"
    # Time on a CPU and waiting for one (its status holds the context switches).
    step_copy "$d/schedstat" "/proc/$pid/schedstat"
    step_copy "$d/mountinfo" "/proc/$pid/mountinfo"
    step_copy "$d/cgroup" "/proc/$pid/cgroup"
    step_func "$d/fd.tsv" "/proc/$pid/fd" bg_fd_tsv "$pid"
    step_func "$d/exe.txt" "/proc/$pid/exe" bg_readlink "$pid" exe
    step_func "$d/root.txt" "/proc/$pid/root" bg_readlink "$pid" root
    step_func "$d/tz.txt" "/proc/$pid/root/etc/localtime" bg_proc_tz "$pid"
    step_func "$d/localtime.tzif" "/proc/$pid/root/etc/localtime" bg_proc_tzif "$pid"
    step_func "$d/threads.1.txt" "/proc/$pid/task" bg_threads "$pid"
  done
  stack_steps
  # The second thread sample a while after the first: a thread that has not moved is stuck.
  for pid in "${TARGET_PIDS[@]}"; do
    step_func "processes/$pid/threads.2.txt" "/proc/$pid/task" bg_threads "$pid"
  done
  # Where each process's files are: the host's, or a mount namespace of its own.
  mount_ns 1; HOST_MNTNS=$MNTNS
  [ -n "$HOST_MNTNS" ] || { mount_ns self; HOST_MNTNS=$MNTNS; }
  for pid in "${TARGET_PIDS[@]}"; do
    mount_ns "$pid"
    if [ -n "$MNTNS" ] && [ "$MNTNS" != "$HOST_MNTNS" ]; then
      PID_ORIGIN[$pid]=mnt-$MNTNS
    else
      PID_ORIGIN[$pid]=host
    fi
  done
  rank_table_steps
  python_steps
}

# processes/<pid>/rank-table.json of each target process whose collected environ sets
# RANK_TABLE_FILE: the file it names, as the process sees it.
rank_table_steps() {
  local pid env rec file
  for pid in "${TARGET_PIDS[@]}"; do
    env=$BUNDLE/processes/$pid/environ
    [ -f "$env" ] || continue
    file=""
    while IFS= read -r -d '' rec || [ -n "$rec" ]; do
      case $rec in RANK_TABLE_FILE=?*) file=${rec#*=} ;; esac
    done < "$env"
    [ -n "$file" ] || continue
    step_func "processes/$pid/rank-table.json" "$file" bg_rank_table "$pid" "$file"
  done
}

# The file $2 (RANK_TABLE_FILE of process $1; relative to its working directory when not
# absolute) read through the process's root, or from the host's / for a process in the host's
# mount namespace, only when the process itself could read it (owned_open: a regular file,
# checked as opened; never under /proc, /sys or /dev); capped (RANK_TABLE_MAX, or the log cap
# when lower) and redacted like a log.
bg_rank_table() {
  local pid=$1 file=$2 via=/proc/$1/root cap=$RANK_TABLE_MAX cwd kind=""
  [ "${PID_ORIGIN[$pid]}" = host ] && via="" kind=host
  need_creds "$pid"
  PC_ANY=0
  case $file in
    /*) ;;
    *)
      cwd=$(readlink "$ROOT/proc/$pid/cwd" 2>/dev/null) || { echo "RANK_TABLE_FILE=$file is relative and /proc/$pid/cwd cannot be read" >&2; exit 65; }
      file=$cwd/$file ;;
  esac
  resolve_in_root "$ROOT$via" "$file" || { echo "a link loop in $file through ${via:-/}" >&2; exit 65; }
  case $RESOLVED in
    /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) refuse refused_system_path "$file resolves to $RESOLVED" ;;
  esac
  ((LOG_CAP < cap)) && cap=$LOG_CAP
  owned_open "$ROOT$via" "$RESOLVED" "$kind"
  ROOT="" bg_copy_capped /proc/self/fd/9 "$cap"
}

# Target processes, one pid a line: every process holding a /dev/davinci* node open or
# mapping an Ascend runtime library, found by reading /proc (never ps or pgrep, which read
# every process's cmdline and hang on one stuck in the kernel). The fd links come first:
# reading them takes no lock of the process, while its maps waits on its memory map lock,
# which a process stuck in the driver may hold; each maps read is bounded on its own.
bg_find_targets() {
  local d pid found=" " lim=()
  [ -d "$ROOT/proc" ] || exit_missing_or_denied "$ROOT/proc"
  [ -n "$TIMEOUT_BIN" ] && lim=("$TIMEOUT_BIN" -k 1 3)
  while IFS= read -r d; do
    pid=${d%/fd}; pid=${pid##*/}
    [[ $pid =~ ^[0-9]+$ ]] || continue
    [[ $found == *" $pid "* ]] && continue
    found+="$pid "
    printf '%s\n' "$pid"
  done < <(find "$ROOT"/proc/[0-9]*/fd -mindepth 1 -maxdepth 1 -lname '/dev/davinci*' -printf '%h\n' 2>/dev/null)
  for d in "$ROOT"/proc/[0-9]*; do
    pid=${d##*/}
    [[ $pid =~ ^[0-9]+$ ]] || continue
    [[ $found == *" $pid "* ]] && continue
    if [ -r "$d/maps" ] && "${lim[@]}" grep -q -E 'libascendcl|libascend_hal|libtorch_npu' "$d/maps" 2>/dev/null; then
      found+="$pid "
      printf '%s\n' "$pid"
    fi
  done
}

# environ or cmdline ($1), from /proc path $2: NUL-separated, redacted unless --no-redact.
bg_copy_nul() {
  local src=$ROOT$2
  need_readable "$src"
  if ((OPT_REDACT)); then
    # cat, not a redirection: its exit status tells a failed read from the end of the file
    # shellcheck disable=SC2002
    cat "$src" | redact_nul_stream "$1" | mask_text -z
    set -- "${PIPESTATUS[0]}"
    note_rule_kinds "$src"
    return "$1"
  fi
  exec cat "$src"
}

# fd.tsv of /proc/<pid> ($1): fd, target.
bg_fd_tsv() {
  local d=$ROOT/proc/$1/fd fd target
  [ -e "$d" ] || exit_missing_or_denied "$d"
  if [ ! -r "$d" ] || [ ! -x "$d" ]; then echo "permission denied: /proc/$1/fd" >&2; exit 66; fi
  tsv_row fd target
  find "$d" -mindepth 1 -maxdepth 1 -type l -printf '%f\0%l\0' 2>/dev/null |
    while IFS= read -r -d '' fd && IFS= read -r -d '' target; do tsv_row "$fd" "$target"; done
}

# readlink of /proc/<pid>/<name> ($1, $2).
bg_readlink() {
  local p=$ROOT/proc/$1/$2
  [ -L "$p" ] || [ -e "$p" ] || exit_missing_or_denied "$p"
  readlink "$p" || { echo "permission denied: /proc/$1/$2" >&2; exit 66; }
}

# PROOT = the directory through which process $1 sees its files.
proc_root() { PROOT=$ROOT/proc/$1/root; }

# TZF = the process's /etc/localtime resolved through its root (a host path), TZLINK its
# link text when it is a link; returns 1 when the file is missing.
proc_localtime() {
  TZLINK=""
  proc_root "$1"
  [ -L "$PROOT/etc/localtime" ] && TZLINK=$(readlink "$PROOT/etc/localtime" 2>/dev/null)
  resolve_in_root "$PROOT" /etc/localtime || return 1
  TZF=$PROOT$RESOLVED
  [ -f "$TZF" ]
}

# tz.txt of process $1: TZ from its environ, and the zone of its /etc/localtime.
bg_proc_tz() {
  local pid=$1 tzenv="" rec name="" posix="" off="" hdr
  [ -d "$ROOT/proc/$pid" ] || exit_missing_or_denied "$ROOT/proc/$pid"
  if [ -r "$ROOT/proc/$pid/environ" ]; then
    while IFS= read -r -d '' rec; do
      case $rec in TZ=*) tzenv=${rec#TZ=} ;; esac
    done < "$ROOT/proc/$pid/environ"
  fi
  if proc_localtime "$pid"; then
    case $TZLINK in */zoneinfo/*) name=${TZLINK##*/zoneinfo/} ;; esac
    if [ -z "$name" ] && [ -r "$PROOT/etc/timezone" ]; then IFS= read -r name < "$PROOT/etc/timezone"; fi
    IFS= read -r -n 5 hdr < "$TZF"
    case $hdr in
      TZif[2-9])
        posix=$(tail -n 1 "$TZF")
        [[ $posix =~ ^[[:print:]]+$ ]] || posix="" ;;
    esac
    export TZ=":$TZF"
    printf -v off '%(%z)T' -1
  fi
  printf 'TZ=%s\ntimezone=%s\ntz_posix=%s\nutc_offset=%s\n' "$tzenv" "$name" "$posix" "$off"
}

# The process's /etc/localtime, through its root.
bg_proc_tzif() {
  proc_localtime "$1" || { echo "no /etc/localtime through /proc/$1/root" >&2; exit 65; }
  need_readable "$TZF"
  exec cat "$TZF"
}

# One thread sample of process $1: sampled_uptime=, then grep -H of each thread's stat and
# wchan (and stack, readable by root only).
bg_threads() {
  local pid=$1 up
  [ -d "$ROOT/proc/$pid/task" ] || exit_missing_or_denied "$ROOT/proc/$pid/task"
  read -r up _ < "$ROOT/proc/uptime" 2>/dev/null
  printf 'sampled_uptime=%s\n' "$up"
  cd "$ROOT/" || exit 66
  grep -H '' proc/"$pid"/task/*/stat proc/"$pid"/task/*/wchan 2>/dev/null | sed 's#^proc/#/proc/#'
  if ((EUID == 0)); then
    grep -H '' proc/"$pid"/task/*/stack 2>/dev/null | sed 's#^proc/#/proc/#'
  fi
  return 0
}

# MNTNS = the mount namespace id of process $1 ("" when unreadable).
mount_ns() {
  local l
  MNTNS=""
  l=$(readlink "$ROOT/proc/$1/ns/mnt" 2>/dev/null) || return 0
  [[ $l =~ \[([0-9]+)\] ]] && MNTNS=${BASH_REMATCH[1]}
}
