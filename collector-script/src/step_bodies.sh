# shellcheck shell=bash
# Step bodies several phases share. Each runs in a background process group with stdout and
# stderr going to files. Exit 65 = source missing, 66 = permission denied (the runner maps
# them to the statuses absent and denied).

# Exit 65 or 66 for a path that cannot be opened: denied when the deepest existing parent
# cannot be searched, missing otherwise.
exit_missing_or_denied() {
  local p=$1
  if [ -L "$p" ]; then echo "dangling link: $p" >&2; exit 65; fi
  while [ -n "$p" ]; do
    [[ $p == */* ]] || break
    p=${p%/*}
    if [ -z "$p" ] || [ -e "$p" ]; then
      if [ -n "$p" ] && { [ ! -x "$p" ] || [ ! -r "$p" ]; }; then
        echo "permission denied: $p" >&2
        exit 66
      fi
      break
    fi
  done
  echo "no such file: $1" >&2
  exit 65
}

# Checks that file $1 exists and can be read; exits 65/66 otherwise.
need_readable() {
  [ -e "$1" ] || exit_missing_or_denied "$1"
  if [ ! -r "$1" ]; then echo "permission denied: $1" >&2; exit 66; fi
}

record_mtime() {
  ((HAVE_STAT)) || return 0
  case $1 in "$ROOT"/proc/*|"$ROOT"/sys/*) return 0 ;; esac
  stat -L -c %Y "$1" > "$STEP_BASE.mtime" 2>/dev/null
}

bg_exec() {
  if [ -n "$TIMEOUT_BIN" ]; then
    exec "$TIMEOUT_BIN" -k "$KILL_GRACE" "$STEP_INNER_LIMIT" "$@"
  fi
  exec "$@"
}

bg_copy() {
  local src=$ROOT$1
  need_readable "$src"
  record_mtime "$src"
  exec cat "$src"
}

bg_copy_log() {
  local src=$ROOT$1 rc
  need_readable "$src"
  record_mtime "$src"
  if ((OPT_REDACT)) && grep -q -i -F "${LOG_GREP[@]}" "$src" 2>/dev/null; then
    mask_text < "$src"
    rc=$?
    note_kind log_secret
    return "$rc"
  fi
  exec cat "$src"
}

# Copies file $1 (host path) capped at $2 bytes: whole when it fits, else its head and tail
# (whole lines) joined by one marker line ($3 = journal: the JSON marker of the contract).
# The kept byte ranges of the source go to $STEP_BASE.kept for the item's kept_ranges.
bg_copy_capped() {
  local src=$ROOT$1 cap=$2 kind=${3:-text} size half n h t
  need_readable "$src"
  record_mtime "$src"
  file_size "$src"; size=$SIZE
  if ((size <= cap)); then bg_copy_log "$1"; return $?; fi
  half=$((cap / 2))
  n=$(head -c "$half" "$src" | tr -cd '\n' | wc -c)
  h=$(head -n "$n" "$src" | wc -c)
  t=$(tail -c "$half" "$src" | tail -n +2 | wc -c)
  {
    head -n "$n" "$src"
    if [ "$kind" = journal ]; then
      printf '{"__ascend_collect_cut__": {"dropped_bytes": %s}}\n' $((size - h - t))
    else
      printf '[%s: %s bytes cut here]\n' "$PROG" $((size - h - t))
    fi
    tail -c "$t" "$src"
  } | if ((OPT_REDACT)); then mask_text; else cat; fi
  printf '[[0,%s],[%s,%s]]\n' "$h" $((size - t)) "$size" > "$STEP_BASE.kept"
}

# A log file ($1) capped at $2 bytes: whole when it fits; else, in four equal shares of the
# cap, its head, its tail, and the lines around its first and its last ERROR or timeout line
# (the first stall report of a long series is the one that matters), whole lines only, each
# gap marked by one line. The kept byte ranges of the source go to $STEP_BASE.kept.
bg_copy_log_capped() {
  local src=$ROOT$1 cap=$2 size q hits fe=0 le=0 offs ofe=-1 ole=-1
  need_readable "$src"
  record_mtime "$src"
  file_size "$src"; size=$SIZE
  if ((size <= cap)); then bg_copy_log "$1"; return $?; fi
  q=$((cap / 4))
  hits=$(grep -n -i -E 'error|timeout|timed out' "$src" | cut -d: -f1 | sed -n '1p;$p' | tr '\n' ' ')
  # shellcheck disable=SC2086  # two line numbers
  [ -n "$hits" ] && set -- $hits && fe=$1 le=${2:-$1}
  if ((fe > 0)); then
    offs=$(awk -v a="$fe" -v b="$le" 'NR == a { printf "%d ", o } NR == b { printf "%d", o; exit } { o += length($0) + 1 }' "$src")
    ofe=${offs%% *} ole=${offs##* }
  fi
  awk -v q="$q" -v size="$size" -v ofe="$ofe" -v ole="$ole" -v prog="$PROG" -v kept="$STEP_BASE.kept" '
    function keep(s) {
      if (s < q || s >= size - q) return 1
      if (ofe >= 0 && s >= ofe - q / 2 && s < ofe + q / 2) return 1
      if (ole >= 0 && s >= ole - q / 2 && s < ole + q / 2) return 1
      return 0
    }
    BEGIN { rs = -1; sep = ""; o = 0 }
    { s = o + 0; o += length($0) + 1; e = (o > size) ? size : o
      if (keep(s)) {
        if (cut > 0) { printf "[%s: %d bytes cut here]\n", prog, cut; cut = 0 }
        print
        if (rs >= 0 && re == s) re = e
        else { if (rs >= 0) { r = r sep "[" rs "," re "]"; sep = "," } rs = s; re = e }
      } else cut += e - s
    }
    END {
      if (cut > 0) printf "[%s: %d bytes cut here]\n", prog, cut
      if (rs >= 0) r = r sep "[" rs "," re "]"
      print "[" r "]" > kept
    }' "$src" | if ((OPT_REDACT)); then mask_text; else cat; fi
}

# A tool's output ($2...) capped at $1 bytes the same way (journal marker).
bg_exec_capped() {
  local cap=$1 f=$STEP_BASE.full rc
  shift
  "$@" > "$f"
  rc=$?
  (ROOT="" bg_copy_capped "$f" "$cap" journal)
  rm -f "$f" "$STEP_BASE.mtime"
  return "$rc"
}

# Every regular file under directory $1 (depth-bounded, $2 levels, default 6), NUL-separated;
# with SINCE_MIN set only files changed in the last SINCE_MIN minutes.
bg_list_files() {
  local d=$ROOT$1 age=()
  [ -e "$d" ] || exit_missing_or_denied "$d"
  if [ ! -r "$d" ] || [ ! -x "$d" ]; then echo "permission denied: $1" >&2; exit 66; fi
  [ -n "$SINCE_MIN" ] && age=(-mmin "-$SINCE_MIN")
  find "$d/" -maxdepth "${2:-6}" -type f "${age[@]}" -print0
}

# Files directly in directory $1 whose names match one of the globs $2..., NUL-separated.
bg_list_named() {
  local d=$ROOT$1 g args=()
  shift
  [ -d "$d" ] || exit_missing_or_denied "$d"
  for g in "$@"; do args+=(${args[0]:+-o} -name "$g"); done
  find "$d/" -mindepth 1 -maxdepth 1 -type f \( "${args[@]}" \) -print0
}

# Copies every file under the directories $2... (depth 3) to $1/<original path>; a directory
# that does not exist is recorded once as absent.
copy_listed() {
  local dest=$1 d f
  shift
  for d in "$@"; do
    STEP_KEEP=1 step_func "$dest$d" "$d" bg_list_files "$d" 3
    if [ "$R_STATUS" != ok ]; then
      if [ -n "$R_STATUS" ] && [ "$R_STATUS" != absent ]; then
        [ -n "$R_ERRF" ] && store_err "$R_ERRF" "$dest$d"
        record_item "$dest$d" "$d" ""
      fi
      continue
    fi
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_copy "$dest$f" "$f"
    done < "$R_OUT"
  done
}
