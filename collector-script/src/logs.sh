# shellcheck shell=bash
# Phase logs: the plog and device-log trees of each target process and of the host, queued,
# then copied (capped; with --max-total-mb, in an order that keeps what matters first), and
# logs/index.tsv.

phase_logs() {
  local pid d p
  LOG_INDEX_ROWS=() LOG_LIST_STATUS=""
  LOG_DIRS_SEEN=() LOG_DESTS_SEEN=()
  LQ_DEST=() LQ_HP=() LQ_OP=() LQ_ORIGIN=() LQ_PIDS=() LQ_MTIME=() LQ_SIZE=()
  LQ_BASE=() LQ_REL=() LQ_OWNER=() LR_DEST=() LR_SOURCE=() LR_ERROR=()
  mount_ns 1; HOST_MNTNS=$MNTNS
  [ -n "$HOST_MNTNS" ] || { mount_ns self; HOST_MNTNS=$MNTNS; }
  for pid in "${TARGET_PIDS[@]}"; do
    ((INTERRUPTED)) && break
    collect_process_logs "$pid"
  done
  collect_log_root host /root/ascend/log
  STEP_KEEP=1 step_func logs/index.tsv /home bg_home_log_dirs
  # A user's home is the user's word: taken as its owner could read it, like a process's.
  if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
    while IFS= read -r d; do
      p=${d#/home/}
      collect_owned_log_root "dir:/home/${p%%/*}" host "" "$d"
    done < "$R_OUT"
  fi
  collect_log_root host /var/log/npu
  for d in "${OPT_LOG_DIRS[@]}"; do collect_log_root host "$d"; done
  record_log_refusals
  copy_queued_logs
  ((INTERRUPTED)) && [ -z "$LOG_LIST_STATUS" ] && return 0
  reset_result
  if [ "$LOG_LIST_STATUS" = ok ] || [ ${#LOG_INDEX_ROWS[@]} -gt 0 ]; then
    step_gen logs/index.tsv gen_log_index
    return 0
  fi
  R_STATUS=${LOG_LIST_STATUS:-skipped} R_REASON=$LOG_LIST_REASON R_ERROR=$LOG_LIST_ERROR
  R_START=$LOG_LIST_START R_DUR=$LOG_LIST_DUR
  record_item logs/index.tsv /root/ascend/log ""
}

# The directories matching /home/*/ascend/log, one a line (a find, not a glob in the main
# process: a home on a dead NFS server blocks).
bg_home_log_dirs() {
  [ -d "$ROOT/home" ] || exit_missing_or_denied "$ROOT/home"
  find "$ROOT/home/" -mindepth 3 -maxdepth 3 -path '*/ascend/log' -type d 2>/dev/null |
    sed "s#^$ROOT/home//*#/home/#"
}

# Lists every file under directory $2, seen through $3 (empty = the host's /,
# /proc/<pid>/root = a process's root), for logs/$1/<path>: each is queued (LQ_*) for
# copy_queued_logs, the listing's outcome goes to LOG_LIST_*. A directory or file already
# taken is not taken again.
collect_log_root() {
  local origin=$1 dir=$2 via=${3:-}
  [ -z "${LOG_DIRS_SEEN[$origin:$dir]}" ] || return 0
  LOG_DIRS_SEEN[$origin:$dir]=1
  STEP_KEEP=1 step_func logs/index.tsv "$via$dir" bg_list_log_files "$via$dir"
  [ -n "$R_STATUS" ] || return 0
  [ "$R_STATUS" != absent ] && [ -n "$R_ERRF" ] && store_err "$R_ERRF" logs/index.tsv
  # logs/index.tsv reports the first listing that found the directory.
  if [ -z "$LOG_LIST_STATUS" ] || [ "$LOG_LIST_STATUS" = absent ]; then
    LOG_LIST_STATUS=$R_STATUS LOG_LIST_REASON=$R_REASON LOG_LIST_ERROR=$R_ERROR
    LOG_LIST_START=$R_START LOG_LIST_DUR=$R_DUR
  fi
  queue_listed_logs "$R_OUT" "$origin" "$via" "" "$dir"
}

# Queues (LQ_*) the files of listing $1 ("mtime<TAB>size<TAB>path" records) for
# logs/$2/<path>, seen through $3; copied later as process $4 could read them (no pid: a
# root the collector chose, $5, below which no link is followed).
queue_listed_logs() {
  local list=$1 origin=$2 via=$3 owner=$4 rootdir=$5 f hp op dest base pids mt sz
  [ -n "$list" ] && [ -s "$list" ] || return 0
  while IFS=$'\t' read -r -d '' mt sz f; do
    hp=${f#"$ROOT"}
    op=${hp#"$via"}
    dest=logs/$origin$op
    [ -z "${LOG_DESTS_SEEN[$dest]}" ] || continue
    LOG_DESTS_SEEN[$dest]=1
    base=${hp##*/}
    pids=""
    if [[ $base =~ ^(plog|device|device-app)-([0-9]+)_ ]]; then pids=${BASH_REMATCH[2]}; fi
    mt=${mt%%.*}
    [[ $mt =~ ^[0-9]+$ ]] || mt=0
    [[ $sz =~ ^[0-9]+$ ]] || sz=0
    LQ_DEST+=("$dest") LQ_HP+=("$hp") LQ_OP+=("$op") LQ_ORIGIN+=("$origin") LQ_PIDS+=("$pids")
    LQ_MTIME+=("$mt") LQ_SIZE+=("$sz") LQ_OWNER+=("$owner")
    if [ -n "$owner" ]; then
      LQ_BASE+=("$via") LQ_REL+=("$op")
    else
      LQ_BASE+=("$rootdir") LQ_REL+=("${hp#"$rootdir"}")
    fi
  done < "$list"
}

# The log files under directory $4 that target process $1 named (or dir:/home/<user>, see
# need_creds), seen through $3 (origin $2): listed and checked in the background against
# its credentials (bg_list_owned_logs). A directory refused (denied, error refused_<why>)
# or not listed (timed_out, ...) is an item of its own, logs/<origin><dir>; the refused
# files are kept for record_log_refusals.
collect_owned_log_root() {
  local pid=$1 origin=$2 via=$3 dir=$4 err p
  [ -z "${LOG_DIRS_SEEN[$pid:$origin:$dir]}" ] || return 0
  LOG_DIRS_SEEN[$pid:$origin:$dir]=1
  STEP_KEEP=1 step_func logs/index.tsv "$via$dir" bg_list_owned_logs "$pid" "$via" "$dir"
  [ -n "$R_STATUS" ] || return 0
  # A directory refused, or whose lookup hung or was denied, is an item of its own.
  if [[ $R_ERROR == refused* ]] || { [ "$R_STATUS" != ok ] && [ "$R_STATUS" != absent ]; }; then
    [ -n "$R_ERRF" ] && store_err "$R_ERRF" "logs/$origin$dir"
    R_OUT="" R_ERRF=""
    record_item "logs/$origin$dir" "$via$dir" ""
    return 0
  fi
  [ "$R_STATUS" != absent ] && [ -n "$R_ERRF" ] && store_err "$R_ERRF" logs/index.tsv
  if [ -z "$LOG_LIST_STATUS" ] || [ "$LOG_LIST_STATUS" = absent ]; then
    LOG_LIST_STATUS=$R_STATUS LOG_LIST_REASON=$R_REASON LOG_LIST_ERROR=$R_ERROR
    LOG_LIST_START=$R_START LOG_LIST_DUR=$R_DUR
  fi
  [ "$R_STATUS" = ok ] || return 0
  if [ -s "$STEP_BASE.refusals" ]; then
    while IFS=$'\t' read -r -d '' err p; do
      LR_DEST+=("logs/$origin${p#"$via"}") LR_SOURCE+=("$p") LR_ERROR+=("$err")
    done < "$STEP_BASE.refusals"
  fi
  queue_listed_logs "$R_OUT" "$origin" "$via" "$pid" ""
}

# An item (denied, reason permission, error refused_<why>) for each log file a process's
# directory held that the process could not have read, unless a root the collector chose
# took that file anyway.
record_log_refusals() {
  local i
  local -A seen=()
  for ((i = 0; i < ${#LR_DEST[@]}; i++)); do
    if [ -n "${LOG_DESTS_SEEN[${LR_DEST[i]}]}" ] || [ -n "${seen[${LR_DEST[i]}]}" ]; then continue; fi
    seen[${LR_DEST[i]}]=1
    reset_result
    epoch_now; R_START=$EPOCH; R_DUR=0
    R_STATUS=denied R_REASON=permission R_ERROR=${LR_ERROR[i]}
    record_item "${LR_DEST[i]}" "${LR_SOURCE[i]}" ""
  done
}

# The log directories of target process $1, seen through its root: its
# ASCEND_PROCESS_LOG_PATH, ASCEND_WORK_PATH/log and HOME/ascend/log (from the collected
# environ). Origin: host when it shares the host's mount namespace, mnt-<id> otherwise.
collect_process_logs() {
  local pid=$1 env=$BUNDLE/processes/$1/environ rec home="" d dirs=() origin=host via=""
  [ -f "$env" ] || return 0
  while IFS= read -r -d '' rec || [ -n "$rec" ]; do
    case $rec in
      ASCEND_PROCESS_LOG_PATH=?*) dirs+=("${rec#*=}") ;;
      ASCEND_WORK_PATH=?*) dirs+=("${rec#*=}/log") ;;
      HOME=?*) home=${rec#*=} ;;
    esac
  done < "$env"
  [ -n "$home" ] && dirs+=("$home/ascend/log")
  mount_ns "$pid"
  if [ -n "$MNTNS" ] && [ "$MNTNS" != "$HOST_MNTNS" ]; then
    origin=mnt-$MNTNS via=/proc/$pid/root
  fi
  # The paths are only strings here: they are looked up in the listing's child.
  for d in "${dirs[@]}"; do
    case $d in /*) ;; *) continue ;; esac
    collect_owned_log_root "$pid" "$origin" "$via" "$d"
  done
}

# Like bg_list_files, for logs: "mtime<TAB>size<TAB>path" records, NUL-separated.
bg_list_log_files() {
  local d=$ROOT$1 age=()
  [ -e "$d" ] || exit_missing_or_denied "$d"
  if [ ! -r "$d" ] || [ ! -x "$d" ]; then echo "permission denied: $1" >&2; exit 66; fi
  [ -n "$SINCE_MIN" ] && age=(-mmin "-$SINCE_MIN")
  find "$d/" -maxdepth 6 -type f "${age[@]}" -printf '%T@\t%s\t%p\0'
}

# Which of the files listed NUL-separated in file $1 (host paths) hold an ERROR or timeout
# line: their paths, NUL-separated (grep stops reading a file at its first such line).
bg_error_files() {
  local files=() f i
  while IFS= read -r -d '' f; do files+=("$ROOT$f"); done < "$1"
  for ((i = 0; i < ${#files[@]}; i += 100)); do
    grep -l -Z -i -E 'error|timeout|timed out' -- "${files[@]:i:100}" 2>/dev/null
  done
  return 0
}

# Copies queued log $1 (an LQ_* index) capped at $2 bytes, and adds its logs/index.tsv row.
copy_queued_log() {
  local i=$1
  step_func "${LQ_DEST[i]}" "${LQ_HP[i]}" bg_copy_owned_log "${LQ_BASE[i]}" "${LQ_REL[i]}" "${LQ_OWNER[i]}" "$2"
  [ "$R_STATUS" = ok ] || return 0
  LOG_INDEX_ROWS+=("$(tsv_row "${LQ_DEST[i]}" "${LQ_OP[i]}" "${LQ_ORIGIN[i]}" "${LQ_PIDS[i]}" \
    "$([ -n "$R_KEPT" ] && echo 1 || echo 0)" "$R_KEPT")")
}

# Copies the queued logs. Without --max-total-mb every one is taken, each capped at LOG_CAP.
# With it, the logs share what the bundle has left (less a tenth of the bound for the steps
# after them), in this order: the first and the last file of each series (a process's files
# in one directory; the first holds the first stall report, the last the end), then files
# holding ERROR or timeout lines, then the newest. A file that no longer fits whole is cut
# (head, tail, first and last ERROR/timeout) to what is left; one for which less than 64 KiB
# is left is skipped (reason option) and listed in logs/index.tsv with no kept range.
copy_queued_logs() {
  local n=${#LQ_DEST[@]} i key tier used left cap list hits f
  local -A oldest=() newest=() err=() tiers=()
  ((n)) || return 0
  if ((OPT_MAX_TOTAL_MB == 0)); then
    for ((i = 0; i < n; i++)); do copy_queued_log "$i" "$LOG_CAP"; done
    return 0
  fi
  for ((i = 0; i < n; i++)); do
    key=${LQ_ORIGIN[i]}:${LQ_PIDS[i]}:${LQ_OP[i]%/*}
    f=${oldest[$key]}
    if [ -z "$f" ] || ((LQ_MTIME[i] < LQ_MTIME[f])); then oldest[$key]=$i; fi
    f=${newest[$key]}
    if [ -z "$f" ] || ((LQ_MTIME[i] >= LQ_MTIME[f])); then newest[$key]=$i; fi
  done
  list=$WORK/log-files.list
  for ((i = 0; i < n; i++)); do printf '%s\0' "${LQ_HP[i]}"; done > "$list"
  STEP_KEEP=1 step_func logs/index.tsv "" bg_error_files "$list"
  [ -n "$R_ERRF" ] && store_err "$R_ERRF" logs/index.tsv
  if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do err[${f#"$ROOT"}]=1; done < "$R_OUT"
  fi
  # Order: tier (1 first files, 2 last files, 3 with errors, 4 the rest), newest first.
  for f in "${newest[@]}"; do tiers[$f]=2; done
  for f in "${oldest[@]}"; do tiers[$f]=1; done
  for ((i = 0; i < n; i++)); do
    tier=${tiers[$i]:-4}
    [ "$tier" = 4 ] && [ -n "${err[${LQ_HP[i]}]}" ] && tier=3
    printf '%s\t%s\t%s\n' "$tier" "${LQ_MTIME[i]}" "$i"
  done | sort -t "$(printf '\t')" -k1,1n -k2,2nr -k3,3n > "$WORK/log-order.tsv"
  used=$(find "$BUNDLE" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s }')
  left=$((OPT_MAX_TOTAL_MB * 1048576 * 9 / 10 - ${used:-0}))
  while IFS=$'\t' read -r tier _ i; do
    ((INTERRUPTED)) && break
    cap=$LOG_CAP
    ((LQ_SIZE[i] < cap)) && cap=${LQ_SIZE[i]}
    if ((cap > left)); then
      if ((left < 65536)); then
        skip_queued_log "$i"
        continue
      fi
      cap=$left
    fi
    copy_queued_log "$i" "$cap"
    left=$((left - ${R_BYTES:-0}))
  done < "$WORK/log-order.tsv"
}

# Records queued log $1 as skipped for the --max-total-mb budget.
skip_queued_log() {
  local i=$1
  reset_result
  step_gate host || return 0
  [ -n "$R_STATUS" ] || { R_STATUS=skipped R_REASON=option R_ERROR=total_budget; }
  record_item "${LQ_DEST[i]}" "${LQ_HP[i]}" ""
  LOG_INDEX_ROWS+=("$(tsv_row "${LQ_DEST[i]}" "${LQ_OP[i]}" "${LQ_ORIGIN[i]}" "${LQ_PIDS[i]}" 1 "[]")")
}

gen_log_index() {
  tsv_row path original_path origin pids truncated kept_ranges
  local r
  for r in "${LOG_INDEX_ROWS[@]}"; do printf '%s\n' "$r"; done
}
