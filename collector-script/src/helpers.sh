# shellcheck shell=bash
# Small helpers: messages, JSON and TSV escaping, clocks, hashes, paths (no forks unless said).

# Messages for the user go to MSG_FD: the original stderr. The shell's own stderr goes to a
# file in the work directory once the run starts, since bash reports each killed step there
# ("line N: PID Killed ...").
MSG_FD=2
progress() { printf '%s: %s\n' "$PROG" "$*" >&"$MSG_FD"; }

have() { command -v "$1" >/dev/null 2>&1; }

# RS = $1 with every $2 replaced by $3. A loop, not ${s//x/y}: bash 4.2 and bash 5 treat a
# backslash in the replacement differently, and escaping is all about backslashes.
replace_all() {
  local s=$1 out=""
  while [[ $s == *"$2"* ]]; do
    out+=${s%%"$2"*}$3
    s=${s#*"$2"}
  done
  RS=$out$s
}

# Sets J to the JSON string literal of $1. Printable ASCII is escaped in bash; anything else
# goes byte by byte through od and awk (needs LC_ALL=C, which the collector runs with).
json_str() {
  local s=$1 bs=\\ dq='"'
  if [[ $s != *[![:print:]]* ]]; then
    if [[ $s == *[\\\"]* ]]; then
      replace_all "$s" "$bs" "$bs$bs"
      replace_all "$RS" "$dq" "$bs$dq"
      s=$RS
    fi
    J="\"$s\""
    return
  fi
  J="\"$(printf '%s' "$s" | od -An -v -tu1 | awk '
    { for (i = 1; i <= NF; i++) {
        c = $i + 0
        if (c == 34) printf "\\\""
        else if (c == 92) printf "\\\\"
        else if (c >= 32 && c <= 126) printf "%c", c
        else printf "\\u%04x", c } }')\""
}

# J = JSON string, or null when $1 is empty.
json_str_or_null() { if [ -z "$1" ]; then J=null; else json_str "$1"; fi; }

# J = JSON array of the arguments as strings.
json_argv() {
  local a out="" sep=""
  for a in "$@"; do json_str "$a"; out+="$sep$J"; sep=","; done
  J="[$out]"
}

# ISO = ISO 8601 UTC of epoch seconds $1 (civil-from-days; no date(1), no zone database).
iso_utc() {
  local t=$1 s z era doe yoe y doy mp d m
  s=$((t % 86400)); z=$((t / 86400))
  if ((s < 0)); then s=$((s + 86400)); z=$((z - 1)); fi
  z=$((z + 719468))
  era=$(( (z >= 0 ? z : z - 146096) / 146097 ))
  doe=$((z - era * 146097))
  yoe=$(( (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 ))
  y=$((yoe + era * 400))
  doy=$((doe - (365 * yoe + yoe / 4 - yoe / 100)))
  mp=$(( (5 * doy + 2) / 153 ))
  d=$((doy - (153 * mp + 2) / 5 + 1))
  m=$(( mp < 10 ? mp + 3 : mp - 9 ))
  if ((m <= 2)); then y=$((y + 1)); fi
  printf -v ISO '%04d-%02d-%02dT%02d:%02d:%02dZ' "$y" "$m" "$d" \
    $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
}

epoch_now() { printf -v EPOCH '%(%s)T' -1; }

# NOW_MS = a millisecond clock for durations and time limits. /proc/uptime, read with a
# builtin, is the one /proc file the main process reads itself: a global counter that never
# waits on a process, and a fork per reading (date) is not free on a sick host. Elsewhere:
# date +%s%N, or whole seconds where date has no %N.
now_ms() {
  local up
  if ((CLOCK_UPTIME)); then
    # "seconds.hundredths"; parsed without =~ so that callers' BASH_REMATCH survives.
    if read -r up _ 2>/dev/null < /proc/uptime && [[ $up == [0-9]*.[0-9][0-9] ]] &&
       [[ $up != *[!0-9.]* ]]; then
      NOW_MS=$((${up%.*} * 1000 + 10#${up#*.} * 10))
      CLOCK_LAST_MS=$NOW_MS CLOCK_LAST_S=$SECONDS
    else
      # Cannot happen on Linux; stay monotonic on bash's whole seconds.
      NOW_MS=$((CLOCK_LAST_MS + (SECONDS - CLOCK_LAST_S) * 1000))
    fi
  elif ((DATE_NS)); then
    up=$(date +%s%N)
    NOW_MS=$((10#$up / 1000000))
  else
    epoch_now
    NOW_MS=$((EPOCH * 1000))
  fi
}

# T = $1 escaped for a TSV field (\\, \t, \n, \r).
tsv_esc() {
  local s=$1 bs=\\
  if [[ $s == *[$'\\\t\n\r']* ]]; then
    replace_all "$s" "$bs" "$bs$bs"
    replace_all "$RS" $'\t' "${bs}t"
    replace_all "$RS" $'\n' "${bs}n"
    replace_all "$RS" $'\r' "${bs}r"
    s=$RS
  fi
  T=$s
}

# Prints the fields as one TSV line.
tsv_row() {
  local f line="" sep=""
  for f in "$@"; do tsv_esc "$f"; line+="$sep$T"; sep=$'\t'; done
  printf '%s\n' "$line"
}

# HASH = lowercase hex sha256 of file $1 (empty when no tool can compute it).
hash_file() {
  local out=""
  case $HASH_TOOL in
    sha256sum) out=$(sha256sum < "$1" 2>/dev/null) ;;
    shasum) out=$(shasum -a 256 < "$1" 2>/dev/null) ;;
    openssl) out=$(openssl dgst -sha256 < "$1" 2>/dev/null); out=${out##*= } ;;
  esac
  HASH=${out%% *}
  [[ $HASH =~ ^[0-9a-f]{64}$ ]] || HASH=""
}

# SIZE = size in bytes of file $1.
file_size() {
  local n
  n=$(wc -c < "$1" 2>/dev/null) || n=0
  SIZE=$((n + 0))
}

# First line of file $1 into V (empty when unreadable).
read_value() { V=""; { IFS= read -r V < "$1"; } 2>/dev/null; }

# RESOLVED = absolute path $2 with every symlink resolved inside root $1 (absolute targets
# start again at $1, not at the collector's /). Returns 1 on a loop.
resolve_in_root() {
  local root=$1 rest=$2 out="" comp link hops=0
  while [ -n "$rest" ]; do
    comp=${rest%%/*}
    if [ "$comp" = "$rest" ]; then rest=""; else rest=${rest#*/}; fi
    case $comp in
      ""|.) continue ;;
      ..) out=${out%/*}; continue ;;
    esac
    if [ -L "$root$out/$comp" ]; then
      hops=$((hops + 1))
      if ((hops > 40)); then RESOLVED=""; return 1; fi
      link=$(readlink "$root$out/$comp") || { RESOLVED=""; return 1; }
      case $link in /*) out="" ;; esac
      rest=$link${rest:+/$rest}
    else
      out=$out/$comp
    fi
  done
  RESOLVED=${out:-/}
}

is_ascend_module() {
  local p
  for p in "${ASCEND_MODULE_PATTERNS[@]}"; do
    # shellcheck disable=SC2254  # the patterns are globs
    case $1 in $p) return 0 ;; esac
  done
  return 1
}
