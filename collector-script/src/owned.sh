# shellcheck shell=bash
# Files taken on a process's word: the file its RANK_TABLE_FILE names and the logs under the
# directories its environment names. A process becomes a target by mapping a file named
# libascendcl or holding /dev/davinci* open, which any user can do, and the collector reads
# as root; so such a file is taken only when the process's own credentials could read it,
# checked on the object actually opened. Everything here runs in a step's background child:
# a path a process names is never looked up by the main process (a dead NFS mount blocks).

# Log roots no process may name: secrets and pseudo file systems, never logs (and "/").
REFUSED_LOG_ROOTS=(/etc /root/.ssh /proc /sys /dev)

# The log file names the analyzer reads (ingest/layout_rules.cpp): plog-*.log, slog
# host-*.log, device-*.log (device-<pid>_*, device-app-*, device-os_*), event_*.log, and
# anything under hisi_logs/ or slog/dev-os-*/ (device exports). $1: path below the root.
log_shaped() {
  case /$1 in
    */hisi_logs/*|*/slog/dev-os-*/*) return 0 ;;
  esac
  case ${1##*/} in
    plog-*.log|host-*.log|device-*.log|event_*.log) return 0 ;;
  esac
  return 1
}

# Ends the step as refused: error $1 (refused_<why>) for the item, a sentence on stderr.
refuse() {
  printf '%s\n' "$1" > "$STEP_BASE.refused"
  printf 'refused (%s): %s\n' "$1" "$2" >&2
  exit 66
}

# PC_UID, PC_GID (real, effective) and PC_GROUPS (" g g ") of process $1, from its
# /proc status. Returns 1 when the status cannot be read or lacks the lines.
proc_creds() {
  local key a b rest
  PC_UID=() PC_GID=() PC_GROUPS=" "
  [ -r "$ROOT/proc/$1/status" ] || return 1
  while read -r key a b rest; do
    case $key in
      Uid:) PC_UID=("$a" "$b") ;;
      Gid:) PC_GID=("$a" "$b") ;;
      Groups:) PC_GROUPS=" $a $b $rest " ;;
    esac
  done < "$ROOT/proc/$1/status" 2>/dev/null
  [[ ${PC_UID[0]} =~ ^[0-9]+$ && ${PC_UID[1]} =~ ^[0-9]+$ &&
     ${PC_GID[0]} =~ ^[0-9]+$ && ${PC_GID[1]} =~ ^[0-9]+$ ]]
}

# Whether the process (PC_*) may access an object of owner $1, group $2, octal mode $3 for
# bit $4 (4 read, 1 search). Both its real and its effective identity must be allowed: a
# set-uid or set-gid program started by a user runs with that user's environment. Uid 0
# passes (it reads and searches anything); ACLs are not consulted. PC_ANY=1: no check (a
# root the collector chose itself).
cred_may() {
  local fu=$1 fg=$2 m=$((8#$3)) bit=$4 i u
  ((PC_ANY)) && return 0
  for i in 0 1; do
    u=${PC_UID[i]}
    ((u == 0)) && continue
    if ((fu == u)); then
      ((m >> 6 & bit)) || return 1
    elif [[ " ${PC_GID[i]}$PC_GROUPS" == *" $fg "* ]]; then
      ((m >> 3 & bit)) || return 1
    else
      ((m & bit)) || return 1
    fi
  done
  return 0
}

# Checks $1$2 ($1 a trusted base, $2 an absolute path below it holding no "." or ".."),
# with one lstat of each component of $2: no symlink, every directory searchable and the
# last (a regular file, or a directory when $3 = dir) readable by the process (PC_*).
# Sets OW_ID ("dev ino" of the last). Refuses, or exits 65 when a component is missing.
owned_walk() {
  local base=$1 rest=$2 want=${3:-file} p="" comp paths=() lines=() i n y u g m d ino
  while [ -n "$rest" ]; do
    comp=${rest%%/*}
    if [ "$comp" = "$rest" ]; then rest=""; else rest=${rest#*/}; fi
    [ -n "$comp" ] || continue
    p+=/$comp
    paths+=("$base$p")
  done
  n=${#paths[@]}
  ((n > 0)) || refuse refused_not_regular "$2"
  # One find for every component; a missing one ends the output early.
  while read -r y u g m d ino; do lines+=("$y $u $g $m $d $ino"); done < <(
    find "${paths[@]}" -maxdepth 0 -printf '%y %U %G %m %D %i\n' 2>/dev/null)
  for ((i = 0; i < n; i++)); do
    [ -n "${lines[i]}" ] || { echo "no such file: ${paths[i]#"$ROOT"}" >&2; exit 65; }
    # shellcheck disable=SC2086  # six words of find's output: a type letter and numbers
    set -- ${lines[i]}
    y=$1 u=$2 g=$3 m=$4 OW_ID="$5 $6"
    [ "$y" = l ] && refuse refused_symlink "${paths[i]#"$ROOT"} is a symbolic link"
    if ((i < n - 1)) || [ "$want" = dir ]; then
      [ "$y" = d ] || refuse refused_not_directory "${paths[i]#"$ROOT"}"
      cred_may "$u" "$g" "$m" 1 || refuse refused_process_cannot_read "${paths[i]#"$ROOT"}: mode $m owner $u:$g, process uid ${PC_UID[*]}"
    else
      [ "$y" = f ] || refuse refused_not_regular "${paths[i]#"$ROOT"} (type $y)"
      cred_may "$u" "$g" "$m" 4 || refuse refused_process_cannot_read "${paths[i]#"$ROOT"}: mode $m owner $u:$g, process uid ${PC_UID[*]}"
    fi
  done
}

# Opens $1$2 after owned_walk on fd 9 and checks the opened object: the same regular file
# (dev, inode; and, with $3 = host, the same path), readable by the process. Writes its mtime
# for the item. A FIFO swapped in after the walk blocks the open: the step's timeout ends it.
owned_open() {
  local base=$1 path=$2 y u g m d ino mt canon
  owned_walk "$base" "$path"
  exec 9< "$base$path" || { echo "cannot open $path" >&2; exit 66; }
  read -r y u g m d ino mt < <(find -L /proc/self/fd/9 -maxdepth 0 -printf '%y %U %G %m %D %i %T@\n' 2>/dev/null)
  if [ "$y" != f ] || [ "$d $ino" != "$OW_ID" ]; then refuse refused_changed "$path changed while it was opened"; fi
  cred_may "$u" "$g" "$m" 4 || refuse refused_process_cannot_read "$path (as opened)"
  if [ "${3:-}" = host ]; then
    canon=$(cd -P "$base/" 2>/dev/null && pwd -P) || canon=""
    [ "$canon" = / ] && canon=""
    [ "$(readlink /proc/self/fd/9)" = "$canon$path" ] || refuse refused_changed "$path is not the file opened"
  fi
  [ -n "$STEP_BASE" ] && printf '%s\n' "${mt%%.*}" > "$STEP_BASE.mtime"
}

# Whether absolute path $1 is a refused log root or lies under one.
refused_log_root() {
  local r
  [ "$1" = / ] && return 0
  for r in "${REFUSED_LOG_ROOTS[@]}"; do
    case $1 in "$r"|"$r"/*) return 0 ;; esac
  done
  return 1
}

# The credentials (PC_*) of owner $1, or a refusal: a pid (its /proc status), or dir:PATH,
# the owner and group of directory PATH (a home directory under /home: its user's logs).
need_creds() {
  local y u g
  PC_ANY=0
  case $1 in
    dir:*)
      read -r y u g < <(find "$ROOT${1#dir:}" -maxdepth 0 -printf '%y %U %G\n' 2>/dev/null)
      [ "$y" = d ] || refuse refused_no_credentials "${1#dir:} is not a directory"
      PC_UID=("$u" "$u") PC_GID=("$g" "$g") PC_GROUPS=" " ;;
    *) proc_creds "$1" || refuse refused_no_credentials "/proc/$1/status gives no Uid, Gid lines" ;;
  esac
}

# The log files under directory $3 that owner $1 (need_creds) named, seen through $2 (its
# root, or "" for the host's): the directory is resolved inside that root (as the process
# would) and must be searchable by the owner; below it no link is followed. Prints
# "mtime<TAB>size<TAB>path" records (NUL-separated) of the files of a log shape (log_shaped)
# the owner could read; the log-shaped entries refused go to $STEP_BASE.refusals as
# "error<TAB>path" records.
bg_list_owned_logs() {
  local pid=$1 via=$2 dir=$3 base=$ROOT$2 d since=0 y u g m mt sz f rel parent
  local -A ok=()
  need_creds "$pid"
  refused_log_root "$dir" && refuse refused_log_root "$dir"
  resolve_in_root "$base" "$dir" || refuse refused_symlink "a link loop in $dir"
  d=$RESOLVED
  refused_log_root "$d" && refuse refused_log_root "$dir resolves to $d"
  owned_walk "$base" "$d" dir
  if [ -n "$SINCE_MIN" ]; then epoch_now; since=$((EPOCH - SINCE_MIN * 60)); fi
  [ "$d" = / ] && d=""
  ok[$base$d]=1
  : > "$STEP_BASE.refusals"
  while IFS=$'\t' read -r -d '' y u g m mt sz f; do
    parent=${f%/*} rel=${f#"$base$d"/}
    if [ "$y" = d ]; then
      [ -n "${ok[$parent]}" ] && cred_may "$u" "$g" "$m" 1 && ok[$f]=1
      continue
    fi
    log_shaped "$rel" || continue
    if [ "$y" = l ]; then
      printf 'refused_symlink\t%s\0' "${f#"$base"}" >> "$STEP_BASE.refusals"
    elif [ "$y" != f ]; then
      printf 'refused_not_regular\t%s\0' "${f#"$base"}" >> "$STEP_BASE.refusals"
    elif [ -z "${ok[$parent]}" ] || ! cred_may "$u" "$g" "$m" 4; then
      printf 'refused_process_cannot_read\t%s\0' "${f#"$base"}" >> "$STEP_BASE.refusals"
    elif ((${mt%%.*} >= since)); then
      printf '%s\t%s\t%s\0' "$mt" "$sz" "${f#"$ROOT"}"
    fi
  done < <(find "$base$d" -mindepth 1 -maxdepth 6 -printf '%y\t%U\t%G\t%m\t%T@\t%s\t%p\0' 2>/dev/null)
  return 0
}

# Copies log $2 below base $1 (a host path) capped at $4 bytes, after owned_open: with $3 a
# pid, as that process could read it; with $3 empty (a root the collector chose) without
# the credential check, but still with no link followed below $1.
bg_copy_owned_log() {
  local base=$1 path=$2 pid=$3 cap=$4 kind=host
  PC_ANY=0
  if [ -n "$pid" ]; then
    need_creds "$pid"
    case $base in /proc/*) kind="" ;; esac
  else
    PC_ANY=1
  fi
  owned_open "$ROOT$base" "$path" "$kind"
  ROOT="" bg_copy_log_capped /proc/self/fd/9 "$cap"
}
