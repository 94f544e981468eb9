#!/usr/bin/env bash
# shellcheck disable=SC2317  # step bodies are called indirectly, by name
#
# GENERATED FILE, DO NOT EDIT: edit collector-script/src/*.sh and run
# collector-script/build.sh (docs/collector.md, "For developers"). Customers copy this
# one file; each part below starts with a line naming its source.

# =========================================================================================
# src/settings.sh
# ascend-collect: gathers the evidence of an Ascend NPU training hang into one bundle for
# ascend-triage. What it collects, its options and exit codes: docs/collector.md. The bundle
# layout is the contract "bundle layout v1".
#
# Rules every source keeps:
# - Read-only: loads no module, resets nothing, writes only under its output directory.
# - Nothing blocks: every external tool and every read of /proc, /sys or a log runs in the
#   background with its output going to files, watched by the main loop. A step past its time
#   gets TERM, then KILL (its whole process group); one still there after that is "abandoned"
#   and the run moves on. A global deadline ends the run with what it has. (The main process
#   reads one host file itself: /proc/uptime, its clock; see now_ms.)
# - Portable: bash 4.2 (CentOS 7) and coreutils, findutils, grep, sed, awk, tar, gzip. Other
#   tools are used when present and their absence is recorded. The constructs of newer bash
#   that must not appear here are listed in tests/collector/test_bash42.sh.
# - JSON is written by the main process only, pure ASCII: every byte outside 0x20-0x7e is
#   written as \u00XX, so any byte (GBK file names included) survives.
#
# Extending: a phase is a function named in PHASES, in the source file of its subsystem with
# its step bodies; each line in it is one step (step_exec, step_copy, step_func, step_gen),
# and each step becomes one item of the manifest. A new source file goes into SOURCES of
# collector-script/build.sh.
#
# This file: the version, the phases, the options and the run state.

COLLECTOR_VERSION=0.1.0
PROG=ascend-collect

PHASES=(system kernel processes modules ascend logs extra device)

# Options (documented in usage and docs/collector.md).
OPT_OUT=/var/tmp
OPT_TIMEOUT=20
OPT_DEADLINE=600
OPT_SAFE=0
OPT_REDACT=1
OPT_PIDS=()
OPT_ADD=()
OPT_LOG_DIRS=()
OPT_SINCE=""
OPT_BOOTS=3
OPT_MAX_LOG_MB=200
OPT_MAX_TOTAL_MB=0   # 0 = no limit beyond the per-log one
OPT_PIP=0            # --pip: pip list/show (opt-in: pip starts site hooks)
OPT_STACKS=0         # --stacks: py-spy dump of each Python target process
OPT_PROBES=0 OPT_PROBE_PYTHON="" OPT_PROBE_DEVICE=0 OPT_PROBE_TIMEOUT=60
OPT_SYSROOT="" OPT_KERNEL="" OPT_DEVICE_LOGS=0
TARGET_PIDS=()   # -p, or found in /proc
ARGS_ORIG=()

KILL_GRACE=2     # seconds after TERM before KILL, and after KILL before "abandoned"
ERR_CAP=65536    # bytes of a step's stderr kept in <path>.err

# Ascend kernel module names (the analyzer ships the same list; modules/ascend-names.txt).
ASCEND_MODULE_PATTERNS=('drv_*' 'ascend_*' 'asdrv_*' 'dbl_*' 'vdrv_*' 'ts_agent' 'ts_agent_vm'
  'ts_debug' 'debug_switch' 'npu_peermem' 'tc_pcidev' 'ubdevshm')

# Tools used when present; their absence is recorded in collector/tools.tsv.
OPTIONAL_TOOLS=(zstd timeout sha256sum stat readlink getconf df mkfifo xz uname dmesg
  journalctl lsmod npu-smi hccn_tool modinfo modprobe lspci mokutil dkms lsinitrd lsinitramfs readelf
  py-spy)

# Bytes kept of the file a process's RANK_TABLE_FILE names (less when --max-log-mb is lower):
# a rank table of thousands of devices is a few hundred KB.
RANK_TABLE_MAX=8388608

# PCI device ids of Huawei's (vendor 0x19e5) Ascend NPUs: 310, 310P, 910, 910B, 910_93, 950
# (docs/collector.md, "NPU presence"). Huawei's other PCI functions (NICs, the Kunpeng
# accelerators of class 0x1200 too) are not NPUs.
NPU_PCI_DEVICE_IDS=(0xd100 0xd500 0xd801 0xd802 0xd803 0xd806)

# Run state.
ROOT=""            # test hook ASCEND_COLLECT_ROOT: read host files under this directory
INTERRUPTED=0
DEADLINE_HIT=0
DEVICE_UNRESPONSIVE=0
STEP_N=0
POLL_FD=""
DATE_NS=0
CLOCK_UPTIME=0 CLOCK_LAST_MS=0 CLOCK_LAST_S=0
TIMEOUT_BIN=""
TIMEOUT_NOTE=""
HASH_TOOL=""
HAVE_STAT=0
REDACT_KINDS=()
TRUNCATED_PATHS=()
declare -A PID_ORIGIN=()
SUMMARY=()         # "status<TAB>path<TAB>reason" of every item not ok
ABANDONED_NOTES=()
COUNT_OK=0 COUNT_ABSENT=0 COUNT_DENIED=0 COUNT_SKIPPED=0 COUNT_FAILED=0
COUNT_TIMED_OUT=0 COUNT_ABANDONED=0 COUNT_TRUNCATED=0 COUNT_SKIPPED_LATE=0
declare -A MADE_DIRS=() TOOL_PATHS=() LOG_DIRS_SEEN=() LOG_DESTS_SEEN=()
HOST_MNTNS="" SINCE_MIN=""
MANIFEST_NOTES=()  # free text for the manifest's "notes"
ARCHIVE_MEMBERS=() ARCHIVE_FAILURE=""  # make_archive: what goes in, why a try failed
# Every item line, also kept here: the output disk may fill up (write_manifest uses these).
ITEM_LINES=()
ITEMS_UNWRITTEN=0  # an item line could not be appended to manifest.items.jsonl
DISK_FULL=0        # the output disk filled up (check_disk_full)
RESERVE_KB=4096    # kept free in the output directory for the manifest (see init_run)

# =========================================================================================
# src/helpers.sh
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

# =========================================================================================
# src/redaction.sh
# Redaction of environments, command lines and logs. Runs inside background steps; the kinds
# of secret found are reported through $STEP_BASE.kinds (merged into the manifest).

note_kind() { printf '%s\n' "$1" >> "$STEP_BASE.kinds"; }

# Whether a variable or option name ($1, any case) names a secret. The last word decides
# first (so HF_TOKEN_PATH or --password-file stay, being paths); then strong words anywhere.
secret_word() {
  local u last
  u=${1^^}
  u=${u//[!A-Z0-9]/_}
  last=${u##*_}
  case $last in
    FILE|FILES|PATH|DIR|SOCK|SOCKET) return 1 ;;
    *TOKEN|KEY|*APIKEY|*SECRETKEY|*ACCESSKEY|*PRIVATEKEY|*PASS|*PWD|AUTH|*PASSWORD|*PASSWD) return 0 ;;
    *PASSPHRASE|*SECRET|SECRETS|CREDENTIAL|CREDENTIALS|CRED|CREDS|*COOKIE|COOKIES|SESSION) return 0 ;;
    SK|AK|JWT|*JWT) return 0 ;;
  esac
  # The default (issue 33): KEY, SECRET, TOKEN, PASS, SK, AK, AUTH or JWT as a word anywhere
  # in the name masks it (DOCKER_AUTH_CONFIG, OBS_SK_ID); TOKENIZERS or SKIP are other words.
  case "_${u}_" in
    *PASSWORD*|*PASSWD*|*PASSPHRASE*|*SECRET*|*CREDENTIAL*|*COOKIE*|*_TOKEN_*) return 0 ;;
    *_API_KEY_*|*_ACCESS_KEY_*|*_PRIVATE_KEY_*) return 0 ;;
    *_KEY_*|*_PASS_*|*_SK_*|*_AK_*|*_AUTH_*|*_JWT_*) return 0 ;;
  esac
  return 1
}

secret_env_name() {
  case $1 in
    ASCEND_*|PWD|OLDPWD) return 1 ;;
  esac
  secret_word "$1"
}

secret_option() {
  local n=${1#-}
  n=${n#-}
  [ ${#n} -ge 2 ] || return 1
  secret_word "$n"
}

# R = environment entry $1 redacted.
redact_env_entry() {
  local e=$1 name
  name=${e%%=*}
  case $name in ASCEND_*) R=$e; return ;; esac
  if [[ $e == *=* ]] && secret_env_name "$name"; then
    R="$name=<redacted>"
    note_kind env_secret
    return
  fi
  R=$e
}

# Programs whose short option takes a password (`sshpass -p SECRET`, `mysql -pSECRET`,
# `redis-cli -a SECRET`); elsewhere -p is a port or a path and stays.
PASSWORD_SHORT_OPTS=" sshpass:-p mysql:-p mysqldump:-p mariadb:-p mysqladmin:-p redis-cli:-a "

# R = command-line argument $1 redacted; REDACT_NEXT carries "the previous option takes a
# secret value" from one argument to the next, REDACT_PROG the program (argv[0]'s name).
redact_arg() {
  local a=$1 name
  if [ -z "$REDACT_PROG" ]; then REDACT_PROG=${a##*/}; R=$a; return; fi
  if [ "$REDACT_NEXT" = 1 ]; then
    REDACT_NEXT=0
    case $a in
      --*) ;;
      *) R='<redacted>'; note_kind cmdline_secret; return ;;
    esac
  fi
  case $a in
    -*=*)
      name=${a%%=*}
      if secret_option "$name"; then R="$name=<redacted>"; note_kind cmdline_secret; return; fi ;;
    -?)
      if [[ $PASSWORD_SHORT_OPTS == *" $REDACT_PROG:$a "* ]]; then REDACT_NEXT=1; fi ;;
    -[pa]?*)
      if [[ $PASSWORD_SHORT_OPTS == *" $REDACT_PROG:${a:0:2} "* ]]; then
        R="${a:0:2}<redacted>"; note_kind cmdline_secret; return
      fi
      if secret_option "$a"; then REDACT_NEXT=1; fi ;;
    -*)
      if secret_option "$a"; then REDACT_NEXT=1; fi ;;
    [A-Za-z_]*=*)
      name=${a%%=*}
      if [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && secret_env_name "$name"; then
        R="$name=<redacted>"; note_kind cmdline_secret; return
      fi ;;
  esac
  R=$a
}

# Copies a NUL-separated stream (environ or cmdline) from stdin to stdout, redacted; a last
# record without its NUL stays without it.
redact_nul_stream() {
  local kind=$1 rec term
  REDACT_NEXT=0 REDACT_PROG=""
  while :; do
    rec="" term=1
    IFS= read -r -d '' rec || { [ -n "$rec" ] || break; term=0; }
    if [ "$kind" = environ ]; then redact_env_entry "$rec"; else redact_arg "$rec"; fi
    if ((term)); then printf '%s\0' "$R"; else printf '%s' "$R"; fi
  done
}

# The secret rules (knowledge/secret-rules.tsv, embedded; the analyzer reads the same table): LOG_SED, the sed -E script masking them in logs
# (REC_SED the same without the block rule, for NUL-separated records), and
# LOG_GREP, grep -F -i arguments of their triggers (a text holding none is left byte for byte).
# The PEM block rule is not a row: in a log a private key spans lines, so every line between
# its BEGIN and END lines becomes <redacted> (the line count stays, so do line numbers).
SECRET_RULES='# Secret rules (docs/collector.md#redaction, docs/cli.md#redaction): one table for the collector,
# which masks with GNU sed -E every collected log and rank table and each environ entry and
# command-line argument (as NUL-separated records), and for the analyzer'\''s --redact, which
# compiles the same patterns with RE2 (leftmost-longest, any case) and masks every string it
# prints. tests/collector/secret-samples.tsv holds match and near-miss samples that both check.
# Columns, tab-separated:
#   id       the rule, as the manifest'\''s redaction kinds name it (environ and cmdline)
#   trigger  lower-case fixed strings, "|"-separated: a text holding none of them (any case) is
#            left byte for byte, never run through the pattern
#   pattern  POSIX ERE that RE2 reads the same way (no backslash inside brackets, no
#            back-references), matched without regard to case; the text of group 1 is kept,
#            the rest of the match becomes <redacted>
#   after    empty, or the number of a group whose text is put back after <redacted>
# Values stop at white space, quotes, < > , ; & (so an already masked value is left alone).
id	trigger	pattern	after
assign	password|passwd|passphrase|token|secret|_key|apikey|accesskey|accountkey	((password|passwd|passphrase|token|secret|secret_key|api_key|apikey|access_key|accesskey|accountkey|access_token|secret_access_key|private_key)[[:space:]]*=[[:space:]]*)[^<[:space:],;&"'\''>][^[:space:],;&"'\''<>]*	
colon	password|passwd|passphrase|secret|_key|apikey	((password|passwd|passphrase|secret|secret_key|api_key|apikey|access_key|secret_access_key|private_key)[[:space:]]*:[[:space:]]*)[^<[:space:],;&"'\''>][^[:space:],;&"'\''<>]*	
json	"password|"passwd|"passphrase|"token|"secret|_key"|apikey"|"auth|access_token"	("(password|passwd|passphrase|token|secret|secret_key|api_key|apikey|access_key|access_token|secret_access_key|private_key|auth|authorization)"[[:space:]]*:[[:space:]]*")[^"<][^"]*(")	3
auth_header	authorization	((proxy-)?authorization[[:space:]]*:[[:space:]]*((bearer|basic|token|digest|negotiate)[[:space:]]+)?)[^<[:space:],"'\''>][^[:space:],"'\''<>]*	
key_header	api-key|auth-token|private-token|access-token	((x-api-key|api-key|x-auth-token|private-token|x-access-token)[[:space:]]*:[[:space:]]*)[^<[:space:],"'\''>][^[:space:],"'\''<>]*	
url_credentials	://	([a-z][a-z0-9+.-]*://)[^/@<>[:space:]]+(@)	2
webhook	hooks.slack.com|/api/webhooks/|/bot/v2/hook/|webhook/send?key=|webhook.office.com	((hooks\.slack\.com/services/|discord(app)?\.com/api/webhooks/|open\.(feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/|qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=|\.webhook\.office\.com/webhookb2/))[^<[:space:]"'\''>][^[:space:]"'\''<>]*	
url_query_token	token=|key=|sig=|signature=|sign=|auth=	([?&](token|key|sig|signature|sign|access_token|auth|apikey|api_key)=)[^<&[:space:]"'\''>][^&[:space:]"'\''<>]*	
pem_inline	private key-----	(-----begin ([a-z0-9]+ )*private key-----)[^-]+	
'
build_log_masks() {
  local line rest trig pat after t d=$'\001' nl=$'\n' s=""
  LOG_GREP=() RULE_IDS=() RULE_PATS=()
  while IFS= read -r line; do
    case $line in ''|'#'*|id$'\t'*) continue ;; esac
    rest=${line#*$'\t'}
    trig=${rest%%$'\t'*} rest=${rest#*$'\t'}
    pat=${rest%%$'\t'*} after=${rest#*$'\t'}
    [ "$after" = "$rest" ] && after=""
    [ -n "$pat" ] || continue
    RULE_IDS+=("${line%%$'\t'*}") RULE_PATS+=("$pat")
    s+="s${d}${pat}${d}\\1<redacted>${after:+\\$after}${d}gI$nl"
    while [ -n "$trig" ]; do
      t=${trig%%|*}
      LOG_GREP+=(-e "$t")
      [ "$t" = "$trig" ] && break
      trig=${trig#*|}
    done
  done < <(printf '%s\n' "$SECRET_RULES")
  REC_SED=$s
  LOG_SED=$s'/-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/,/-----END ([A-Z0-9]+ )*PRIVATE KEY-----/{/-----(BEGIN|END) /!s/.*/<redacted>/}'
  LOG_GREP+=(-e "private key-----")
}

# Copies stdin to stdout with the secret rules applied: log lines, or with -z NUL-separated
# records (environ, cmdline), where a key sits whole in one record and no block rule applies
# (a record holding BEGIN and END would start a range that masks every record after it).
mask_text() {
  if [ "${1:-}" = -z ]; then sed -z -E -e "$REC_SED"; else sed -E -e "$LOG_SED"; fi
}

# Notes, as redaction kinds, the ids of the rules that match in the NUL-separated file $1 (an
# environ or cmdline: small, so one grep a rule).
note_rule_kinds() {
  local i
  for ((i = 0; i < ${#RULE_IDS[@]}; i++)); do
    grep -q -z -i -E -e "${RULE_PATS[i]}" "$1" 2>/dev/null && note_kind "${RULE_IDS[i]}"
  done
  return 0
}

# =========================================================================================
# src/runner.sh
# The runner: every step runs in a background process group with its output going to
# files, watched by the main loop (TERM, then KILL, then "abandoned"), and becomes one item
# of the manifest. The step_* functions at the end are what the phases call.

poll_sleep() {
  local d=0.1
  if (($1 < 3)); then d=0.005; elif (($1 < 12)); then d=0.02; fi
  if [ -n "$POLL_FD" ]; then
    read -r -t "$d" -u "$POLL_FD" _
  else
    sleep "$d"
  fi
}

group_alive() { kill -0 -- "-$1" 2>/dev/null || kill -0 "$1" 2>/dev/null; }

# Waits up to $2 seconds for process group $1 to disappear.
wait_group_gone() {
  local end i=0
  now_ms; end=$((NOW_MS + $2 * 1000))
  while group_alive "$1"; do
    poll_sleep $((12 + i)); i=$((i + 1))
    now_ms
    ((NOW_MS >= end)) && return 1
  done
  return 0
}

# Whether group $1 still holds a process that is not a zombie (a container whose init does
# not reap leaves zombies, which are gone for our purpose). GROUP_NOTE says what is left.
group_still_present() {
  local pgid=$1 pid i=0 file=$WORK/group.$1 line live=""
  group_alive "$pgid" || return 1
  PGID_QUERY=$pgid
  bg_group_members </dev/null > "$file" 2>/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && ((i < 40)); do poll_sleep 12; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    GROUP_NOTE="process group $pgid is still there after KILL"
    return 0
  fi
  wait "$pid" 2>/dev/null
  while IFS= read -r line; do
    case $line in *" Z") ;; *) live+="${live:+, }$line" ;; esac
  done < "$file"
  [ -n "$live" ] || return 1
  GROUP_NOTE="process group $pgid is still there after KILL (pid state: $live)"
  return 0
}

# "pid state" of every process in group $1 (to tell zombies from processes stuck in the
# kernel after KILL).
bg_group_members() {
  local f line rest
  for f in /proc/[0-9]*/stat; do
    IFS= read -r line < "$f" 2>/dev/null || continue
    rest=${line##*) }
    # shellcheck disable=SC2086  # split the fields of /proc/<pid>/stat: state ppid pgrp ...
    set -- $rest
    if [ "$3" = "$PGID_QUERY" ]; then
      f=${f#/proc/}
      printf '%s %s\n' "${f%/stat}" "$1"
    fi
  done
}

# TERM, then KILL, the process group of step process $1; W_STATE=abandoned when it stays.
stop_group() {
  local pid=$1
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
  if ! wait_group_gone "$pid" "$KILL_GRACE"; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    if ! wait_group_gone "$pid" "$KILL_GRACE"; then
      GROUP_NOTE=""
      if group_still_present "$pid"; then
        W_STATE=abandoned
        return
      fi
    fi
  fi
  wait "$pid" 2>/dev/null
}

# Watches step process $1 started at $2 (ms) for up to $3 ms. W_STATE: finished (W_RC set),
# late (then stopped), abandoned, interrupted. The clock is read every few polls only: a
# fork is not free on a sick host.
watch_step() {
  local pid=$1 t0=$2 limit=$3 i=0
  W_STATE=finished W_RC=""
  while kill -0 "$pid" 2>/dev/null; do
    if ((INTERRUPTED)); then W_STATE=interrupted; break; fi
    poll_sleep "$i"
    i=$((i + 1))
    if ((i % 5 == 4)); then
      now_ms
      if ((NOW_MS - t0 >= limit)); then W_STATE=late; break; fi
    fi
  done
  if [ "$W_STATE" = finished ]; then
    wait "$pid" 2>/dev/null
    W_RC=$?
    return
  fi
  stop_group "$pid"
}

# Whether a finished step's files say "permission denied": stderr always; stdout too when it
# is short ($3 bytes), since a tool may print its refusal there and exit 0.
permission_message() {
  local out=$1 err=$2 size=$3 re='[Pp]ermission [Dd]enied|[Oo]peration not permitted|insufficient permission|[Aa]ccess denied|must be root|not seeing messages from other users'
  if [ -s "$err" ] && grep -q -E "$re" "$err" 2>/dev/null; then return 0; fi
  if ((size > 0 && size <= 512)) && grep -q -E "$re" "$out" 2>/dev/null; then return 0; fi
  return 1
}

# Gate before a step: sets R_STATUS/R_REASON to skip it; returns 1 to drop it silently
# (after an interrupt nothing more is started or recorded). Leaves NOW_MS set.
step_gate() {
  local kind=$1
  R_STATUS="" R_REASON=""
  if ((INTERRUPTED)); then return 1; fi
  now_ms
  if ((NOW_MS >= DEADLINE_MS)); then
    DEADLINE_HIT=1
    R_STATUS=skipped R_REASON=deadline
  elif [ "$kind" = device ] && ((OPT_SAFE)); then
    R_STATUS=skipped R_REASON=option
  elif [ "$kind" = device ] && ((DEVICE_UNRESPONSIVE)); then
    R_STATUS=skipped R_REASON=device_unresponsive
  fi
  return 0
}

reset_result() {
  R_STATUS="" R_REASON="" R_RC="" R_ERROR="" R_START="" R_DUR="" R_BYTES="" R_SHA=""
  R_MTIME="" R_OUT="" R_KEPT="" R_ERRF=""
}

# Creates the bundle directory holding path $1 (once per directory).
ensure_parent() {
  local d
  case $1 in
    */*)
      d=${1%/*}
      [ -n "${MADE_DIRS[$d]}" ] && return 0
      mkdir -p "$BUNDLE/$d" && MADE_DIRS[$d]=1 ;;
  esac
}

# TP = full path of tool $1, empty when not installed (looked up once).
tool_path() {
  if [ -z "${TOOL_PATHS[$1]+x}" ]; then TOOL_PATHS[$1]=$(type -P "$1" 2>/dev/null); fi
  TP=${TOOL_PATHS[$1]}
}

# Runs BODY ARGS... ($5...) in the background as the step writing bundle path $2 and
# records its item. $1 kind (host|device), $3 source, $4 exec argv JSON (empty for file
# reads). With STEP_KEEP=1 the output stays in the work directory (R_OUT) and no item is
# recorded: the caller records one later.
run_step() {
  local kind=$1 path=$2 source=$3 execj=$4 out err pid t0 limit by_deadline=0 clean=1 size=0
  shift 4
  reset_result
  step_gate "$kind" || return 0
  if [ -n "$R_STATUS" ]; then
    [ "${STEP_KEEP:-0}" = 1 ] || record_item "$path" "$source" "$execj"
    return 0
  fi
  STEP_N=$((STEP_N + 1))
  STEP_BASE=$WORK/steps/$STEP_N
  err=$STEP_BASE.err
  if [ "${STEP_KEEP:-0}" = 1 ]; then
    out=$STEP_BASE.out
  else
    ensure_parent "$path"
    out=$BUNDLE/$path
  fi
  t0=$NOW_MS
  limit=$(( ${STEP_LIMIT:-$OPT_TIMEOUT} * 1000 ))
  if ((DEADLINE_MS - t0 < limit)); then limit=$((DEADLINE_MS - t0)); by_deadline=1; fi
  STEP_INNER_LIMIT=$((limit / 1000 + 2 * KILL_GRACE + 2))
  epoch_now; R_START=$EPOCH
  # A process group of its own (set -m) so that TERM and KILL reach everything it starts;
  # the user's stderr (MSG_FD) is not inherited, so nothing left behind holds it open.
  set -m
  "$@" </dev/null >"$out" 2>"$err" 3>&- &
  pid=$!
  set +m
  watch_step "$pid" "$t0" "$limit"
  now_ms; R_DUR=$((NOW_MS - t0))
  if [ -s "$out" ]; then file_size "$out"; size=$SIZE; fi
  case $W_STATE in
    finished) classify_finished "$execj" "$out" "$err" "$size" ;;
    late)
      R_STATUS=timed_out R_ERROR=timeout clean=0
      if ((by_deadline)); then R_REASON=deadline; DEADLINE_HIT=1; fi ;;
    abandoned)
      R_STATUS=abandoned R_ERROR=unkillable clean=0
      if ((by_deadline)); then R_REASON=deadline; DEADLINE_HIT=1; fi
      ABANDONED_NOTES+=("$path: $GROUP_NOTE")
      printf '%s: %s\n' "$PROG" "$GROUP_NOTE" >> "$err" ;;
    interrupted) R_STATUS=failed R_ERROR=interrupted clean=0 ;;
  esac
  if [ "$kind" = device ]; then
    case $R_STATUS in timed_out|abandoned) DEVICE_UNRESPONSIVE=1 ;; esac
  fi
  if [ -s "$STEP_BASE.mtime" ]; then
    read -r R_MTIME < "$STEP_BASE.mtime"
    [[ $R_MTIME =~ ^[0-9]+$ ]] || R_MTIME=""
  fi
  [ -s "$STEP_BASE.kinds" ] && merge_kinds "$STEP_BASE.kinds"
  if [ -s "$STEP_BASE.kept" ]; then
    read -r R_KEPT < "$STEP_BASE.kept"
    [[ $R_KEPT =~ ^\[(\[[0-9]+,[0-9]+\],?)+\]$ ]] || R_KEPT=""
  fi
  # A file taken on a process's word and refused (owned.sh) says why in the item's error.
  if [ -s "$STEP_BASE.refused" ]; then
    read -r R_ERROR < "$STEP_BASE.refused"
    [[ $R_ERROR =~ ^refused_[a-z_]+$ ]] || R_ERROR=refused
  fi
  # A kept step's stderr is the caller's to store (with the item it records, if any).
  R_ERRF=""
  if [ "${STEP_KEEP:-0}" = 1 ]; then
    [ -s "$err" ] && R_ERRF=$err
    R_OUT=$out
    return 0
  fi
  [ -s "$err" ] && store_err "$err" "$path"
  keep_output "$out" "$size" "$clean"
  record_item "$path" "$source" "$execj"
}

# Decides what stays of a step's output file $1 ($2 bytes). A killed step's file is swapped
# for a snapshot: a process that escaped the kill may still be writing to it.
keep_output() {
  local out=$1 size=$2 clean=$3
  if ((size == 0)) && [ "$R_STATUS" != ok ]; then
    rm -f "$out"
    return 0
  fi
  if ((clean == 0)) && ((size > 0)); then
    mv -f "$out" "$STEP_BASE.out" && cat "$STEP_BASE.out" > "$out"
    file_size "$out"; size=$SIZE
  fi
  R_BYTES=$size
  hash_file "$out"; R_SHA=$HASH
}

classify_finished() {
  local execj=$1 out=$2 err=$3 size=$4 rc=$W_RC
  if [ -n "$execj" ]; then
    R_RC=$rc
    if ((rc == 0)); then
      if permission_message "$out" "$err" "$size"; then
        R_STATUS=denied R_REASON=permission R_ERROR=permission_message
      else
        R_STATUS=ok
      fi
    elif [ -n "$TIMEOUT_BIN" ] && { ((rc == 124)) || ((rc == 137)); }; then
      R_STATUS=timed_out R_ERROR=timeout
    elif ((rc == 127)); then
      R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found
    elif ((rc == 126)) || permission_message "$out" "$err" "$size"; then
      R_STATUS=denied R_REASON=permission R_ERROR=exit_$rc
    else
      R_STATUS=failed R_ERROR=exit_$rc
    fi
    return
  fi
  case $rc in
    0) R_STATUS=ok ;;
    65) R_STATUS=absent R_REASON=source_missing R_ERROR=not_found ;;
    66) R_STATUS=denied R_REASON=permission R_ERROR=permission_denied ;;
    *)
      if permission_message "$out" "$err" "$size"; then
        R_STATUS=denied R_REASON=permission R_ERROR=permission_denied
      else
        R_STATUS=failed R_ERROR=exit_$rc
      fi ;;
  esac
}

merge_kinds() {
  local k have_k
  while IFS= read -r k; do
    [ -n "$k" ] || continue
    for have_k in "${REDACT_KINDS[@]}"; do [ "$have_k" = "$k" ] && continue 2; done
    REDACT_KINDS+=("$k")
  done < "$1"
}

# Keeps the first ERR_CAP bytes of a step's stderr in <path>.err (appended: the listings of
# several log roots share logs/index.tsv.err).
store_err() {
  local err=$1 path=$2
  ensure_parent "$path"
  file_size "$err"
  if ((SIZE > ERR_CAP)); then
    dd if="$err" bs="$ERR_CAP" count=1 2>/dev/null >> "$BUNDLE/$path.err"
    printf '\n[%s: stderr cut at %s of %s bytes]\n' "$PROG" "$ERR_CAP" "$SIZE" >> "$BUNDLE/$path.err"
  else
    cat "$err" >> "$BUNDLE/$path.err"
  fi
}

# Appends the item of the last step (R_* values) to manifest.items.jsonl.
record_item() {
  local path=$1 source=$2 execj=$3 pj sj rj ej st mt shj line
  json_str "$path"; pj=$J
  json_str_or_null "$source"; sj=$J
  json_str_or_null "$R_REASON"; rj=$J
  json_str_or_null "$R_ERROR"; ej=$J
  json_str_or_null "$R_SHA"; shj=$J
  st=null; if [ -n "$R_START" ]; then iso_utc "$R_START"; st="\"$ISO\""; fi
  mt=null; if [ -n "$R_MTIME" ]; then iso_utc "$R_MTIME"; mt="\"$ISO\""; fi
  line="{\"path\":$pj,\"source\":$sj,\"exec\":${execj:-null},\"status\":\"$R_STATUS\""
  line+=",\"reason\":$rj,\"rc\":${R_RC:-null},\"started_utc\":$st,\"duration_ms\":${R_DUR:-null}"
  line+=",\"bytes\":${R_BYTES:-null},\"sha256\":$shj,\"source_mtime_utc\":$mt"
  if [ -n "$R_KEPT" ]; then
    line+=",\"truncated\":true,\"kept_ranges\":$R_KEPT,\"error\":$ej}"
    COUNT_TRUNCATED=$((COUNT_TRUNCATED + 1))
    TRUNCATED_PATHS+=("$path")
  else
    line+=",\"truncated\":false,\"kept_ranges\":null,\"error\":$ej}"
  fi
  ITEM_LINES+=("$line")
  printf '%s\n' "$line" >> "$ITEMS" 2>/dev/null || ITEMS_UNWRITTEN=1
  case $R_STATUS in
    ok) COUNT_OK=$((COUNT_OK + 1)) ;;
    absent) COUNT_ABSENT=$((COUNT_ABSENT + 1)) ;;
    denied) COUNT_DENIED=$((COUNT_DENIED + 1)) ;;
    skipped)
      COUNT_SKIPPED=$((COUNT_SKIPPED + 1))
      case $R_REASON in deadline|device_unresponsive) COUNT_SKIPPED_LATE=$((COUNT_SKIPPED_LATE + 1)) ;; esac ;;
    failed) COUNT_FAILED=$((COUNT_FAILED + 1)) ;;
    timed_out) COUNT_TIMED_OUT=$((COUNT_TIMED_OUT + 1)) ;;
    abandoned) COUNT_ABANDONED=$((COUNT_ABANDONED + 1)) ;;
  esac
  # The summary names the reason, or for a failure its error (exit_<n>, interrupted).
  [ "$R_STATUS" = ok ] || SUMMARY+=("$R_STATUS"$'\t'"$path"$'\t'"${R_REASON:-${R_ERROR#timeout}}")
}

# Records bundle file $1 (already written) as an item with the last step's outcome (R_*).
record_bundle_file() {
  R_BYTES="" R_SHA=""
  if [ -f "$BUNDLE/$1" ]; then
    file_size "$BUNDLE/$1"; R_BYTES=$SIZE
    hash_file "$BUNDLE/$1"; R_SHA=$HASH
  fi
  record_item "$1" "$2" "$3"
}

# Records item $1 (source $2) with the outcome of the step before (its reason and error),
# for a file that could not be made because the step it needs did not succeed.
record_as_before() {
  local st=$R_STATUS re=$R_REASON er=$R_ERROR
  reset_result
  R_STATUS=$st R_REASON=$re R_ERROR=$er
  if [ "$st" != skipped ]; then epoch_now; R_START=$EPOCH; R_DUR=0; fi
  record_item "$1" "$2" ""
}

# Records item $1 as skipped for want of an option (the --pip listings).
record_skipped_option() {
  reset_result
  step_gate host || return 0
  [ -n "$R_STATUS" ] || { R_STATUS=skipped R_REASON=option; }
  record_item "$1" "" ""
}

# step_exec PATH KIND TOOL ARGS...: runs a tool; absent when it is not installed.
step_exec() {
  local path=$1 kind=$2 execj
  shift 2
  json_argv "$@"; execj=$J
  tool_path "$1"
  if [ -z "$TP" ]; then
    reset_result
    step_gate "$kind" || return 0
    [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
    record_item "$path" "" "$execj"
    return 0
  fi
  shift
  run_step "$kind" "$path" "$TP" "$execj" bg_exec "$TP" "$@"
}

# step_copy PATH SOURCE: copies a host file.
step_copy() { run_step host "$1" "$2" "" bg_copy "$2"; }

# step_func PATH SOURCE BODY ARGS...: a collector function reading host files.
step_func() {
  local path=$1 source=$2
  shift 2
  run_step host "$path" "$source" "" "$@"
}

# step_gen PATH FUNCTION ARGS...: content the collector already holds (no host access).
step_gen() {
  local path=$1
  shift
  reset_result
  ensure_parent "$path"
  epoch_now; R_START=$EPOCH; R_DUR=0
  "$@" > "$BUNDLE/$path"
  R_STATUS=ok
  file_size "$BUNDLE/$path"; R_BYTES=$SIZE
  hash_file "$BUNDLE/$path"; R_SHA=$HASH
  record_item "$path" "" ""
}

# =========================================================================================
# src/step_bodies.sh
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

# =========================================================================================
# src/owned.sh
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

# =========================================================================================
# src/system.sh
# Phase system: kernel release, OS, boot, time zone, kernels, PCI devices and device nodes,
# the CPU load.

phase_system() {
  step_exec system/uname.txt host uname -a
  step_copy system/os-release /etc/os-release
  step_copy system/cmdline /proc/cmdline
  step_func system/time.txt "" bg_time_txt
  step_copy system/localtime.tzif /etc/localtime
  step_func system/boot.txt /proc/sys/kernel/random/boot_id bg_boot_txt
  step_func system/kernels.tsv /lib/modules bg_kernels_tsv
  step_func system/pci-devices.tsv /sys/bus/pci/devices bg_pci_tsv
  step_exec system/lspci.txt host lspci -D -nn -k
  step_func system/devices.txt /dev/davinci bg_devices_txt
  # CPU contention (issue 37, slow not stuck): load, pressure (kernels with PSI) and CPUs online.
  step_copy system/loadavg /proc/loadavg
  step_copy system/pressure-cpu /proc/pressure/cpu
  step_copy system/cpu-online /sys/devices/system/cpu/online
  step_copy mounts/mountinfo.txt /proc/self/mountinfo
}

bg_time_txt() {
  local tzfile=$ROOT/etc/localtime epoch utc loc off name="" link posix="" hdr clk=""
  epoch_now; epoch=$EPOCH
  iso_utc "$epoch"; utc=$ISO
  if [ -r "$tzfile" ]; then export TZ=":$tzfile"; else export TZ=UTC0; fi
  printf -v loc '%(%Y-%m-%dT%H:%M:%S)T' "$epoch"
  printf -v off '%(%z)T' "$epoch"
  if [ -L "$tzfile" ]; then
    link=$(readlink "$tzfile" 2>/dev/null)
    case $link in */zoneinfo/*) name=${link##*/zoneinfo/} ;; esac
  fi
  if [ -z "$name" ] && [ -r "$ROOT/etc/timezone" ]; then
    IFS= read -r name < "$ROOT/etc/timezone"
  fi
  if [ -r "$tzfile" ]; then
    # Only TZif version 2 and later end with the POSIX TZ string as their last line.
    IFS= read -r -n 5 hdr < "$tzfile"
    case $hdr in
      TZif[2-9])
        posix=$(tail -n 1 "$tzfile")
        [[ $posix =~ ^[[:print:]]+$ ]] || posix=""
        ;;
    esac
  fi
  have getconf && clk=$(getconf CLK_TCK 2>/dev/null)
  printf 'epoch=%s\nutc=%s\nlocal=%s\nutc_offset=%s\ntimezone=%s\ntz_posix=%s\nclk_tck=%s\n' \
    "$epoch" "$utc" "$loc${off:0:3}:${off:3:2}" "$off" "$name" "$posix" "$clk"
}

bg_boot_txt() {
  local boot_id="" btime="" up="" rest found=0
  if IFS= read -r boot_id < "$ROOT/proc/sys/kernel/random/boot_id"; then found=1; fi
  if [ -r "$ROOT/proc/stat" ]; then
    btime=$(awk '$1 == "btime" { print $2; exit }' "$ROOT/proc/stat") && found=1
  fi
  if read -r up rest < "$ROOT/proc/uptime"; then found=1; fi
  ((found)) || exit_missing_or_denied "$ROOT/proc/stat"
  printf 'boot_id=%s\nbtime=%s\nuptime_s=%s\n' "$boot_id" "$btime" "$up"
}

bg_kernels_tsv() {
  local kd k run boot="" im dm f bd
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  read_value "$ROOT/proc/sys/kernel/osrelease"; run=$V
  if [ -z "$ROOT" ] && have grubby; then
    boot=$(grubby --default-kernel 2>/dev/null)
    boot=${boot##*/vmlinuz-}
  fi
  tsv_row kver running boot_default initramfs_mtime modules_dep_mtime
  for kd in "$ROOT"/lib/modules/*; do
    [ -d "$kd" ] || continue
    k=${kd##*/} im="" dm="" bd=""
    [ -n "$boot" ] && { [ "$k" = "$boot" ] && bd=1 || bd=0; }
    if ((HAVE_STAT)); then
      for f in "$ROOT/boot/initramfs-$k.img" "$ROOT/boot/initrd.img-$k" "$ROOT/boot/initrd-$k"; do
        [ -f "$f" ] && { im=$(stat -c %Y "$f" 2>/dev/null); break; }
      done
      [ -f "$kd/modules.dep" ] && dm=$(stat -c %Y "$kd/modules.dep" 2>/dev/null)
    fi
    tsv_row "$k" "$([ "$k" = "$run" ] && echo 1 || echo 0)" "$bd" "$im" "$dm"
  done
}

bg_pci_tsv() {
  local d drv w
  [ -d "$ROOT/sys/bus/pci/devices" ] || exit_missing_or_denied "$ROOT/sys/bus/pci/devices"
  tsv_row address vendor device class driver link_width
  for d in "$ROOT"/sys/bus/pci/devices/*; do
    [ -e "$d" ] || continue
    drv=""
    [ -L "$d/driver" ] && { drv=$(readlink "$d/driver"); drv=${drv##*/}; }
    read_value "$d/current_link_width"; w=$V
    read_value "$d/vendor"; local v=$V
    read_value "$d/device"; local dv=$V
    read_value "$d/class"; local c=$V
    tsv_row "${d##*/}" "$v" "$dv" "$c" "$drv" "$w"
  done
}

bg_devices_txt() {
  local f nodes=()
  for f in "$ROOT"/dev/davinci* "$ROOT/dev/devmm_svm" "$ROOT/dev/hisi_hdc"; do
    if [ -e "$f" ] || [ -L "$f" ]; then nodes+=("$f"); fi
  done
  ((${#nodes[@]})) || { echo "no /dev/davinci*, /dev/devmm_svm or /dev/hisi_hdc" >&2; exit 65; }
  [ -n "$ROOT" ] || exec ls -l "${nodes[@]}"
  # Under a root other than /, the nodes' paths as the host names them.
  # shellcheck disable=SC2012  # ls -l is the format the contract names
  ls -l "${nodes[@]}" | while IFS= read -r f; do printf '%s\n' "${f/" $ROOT/dev/"/ /dev/}"; done
}

# =========================================================================================
# src/kernel.sh
# Phase kernel: dmesg, the kernel journal of this and earlier boots, taint, secure boot,
# syslog files.

phase_kernel() {
  local n f
  step_exec kernel/dmesg.txt host dmesg
  journal_step 0
  step_copy kernel/tainted /proc/sys/kernel/tainted
  step_exec kernel/secure-boot.txt host mokutil --sb-state
  step_exec kernel/boots.txt host journalctl --list-boots --utc --no-pager
  boots_json_step
  # Earlier boots: only those the journal lists (an absent boot is no failure).
  if [ -f "$BUNDLE/kernel/boots.txt" ]; then
    for ((n = 1; n <= OPT_BOOTS; n++)); do
      grep -q -E "^ *-$n " "$BUNDLE/kernel/boots.txt" && journal_step "-$n"
    done
  fi
  STEP_KEEP=1 step_func kernel/syslog /var/log bg_list_named /var/log 'messages*' 'kern.log*' 'syslog*'
  if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_func "kernel/syslog/${f##*/}" "$f" bg_copy_capped "$f" "$LOG_CAP"
    done < "$R_OUT"
  fi
}

# kernel/boots.json: the JSON list of boots, where the installed systemd writes one (older
# ones print the text form whatever -o says: then absent).
boots_json_step() {
  local argv=(journalctl --list-boots -o json --no-pager)
  tool_path journalctl
  if [ -z "$TP" ]; then step_exec kernel/boots.json host "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step host kernel/boots.json "$TP" "$J" bg_json_only "$TP" "${argv[@]:1}"
}

# Runs the tool $1... and keeps its output only when it is JSON; otherwise exit 127: the
# tool that writes this form is absent.
bg_json_only() {
  local f=$STEP_BASE.full rc c=""
  "$@" > "$f"
  rc=$?
  ((rc == 0)) || { cat "$f"; rm -f "$f"; return "$rc"; }
  IFS= read -r -n 1 c < "$f"
  case $c in
    "["|"{") cat "$f"; rm -f "$f" ;;
    *) rm -f "$f"; echo "$1 printed no JSON (this version has no JSON form)" >&2; exit 127 ;;
  esac
}

# The kernel journal of boot $1 (0, -1, ...), head and tail kept beyond the log cap.
journal_step() {
  local b=$1 argv
  argv=(journalctl -k -b "$b" -o json --all --no-pager)
  tool_path journalctl
  if [ -z "$TP" ]; then step_exec "kernel/journal-b$b.jsonl" host "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step host "kernel/journal-b$b.jsonl" "$TP" "$J" bg_exec_capped "$LOG_CAP" "$TP" "${argv[@]:1}"
}

# =========================================================================================
# src/processes.sh
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

# =========================================================================================
# src/python.sh
# Python packages and the collector's own environment. Package lists come from metadata files
# (dist-info, egg-info, egg-link) read through each process's root: nothing is executed but
# `python3 -I -S` (no site hooks) for the default interpreter's directories, and, only with
# --pip, pip itself (which starts site hooks: customer code).

# The environment, packages and (with --pip) pip listings: after the process steps, since
# they read the collected maps, environ and cmdline.
python_steps() {
  local pid
  step_func env/collector-env "" bg_collector_env
  for pid in "${TARGET_PIDS[@]}"; do
    step_func "processes/$pid/packages.tsv" "/proc/$pid/root" bg_proc_packages "$pid"
    step_func "processes/$pid/torch_npu-version.py" "/proc/$pid/root" bg_proc_torch_npu_version "$pid"
  done
  step_py collector/python3-paths.txt python3 -I -S -c "$PY_PATHS_CODE"
  if [ "$R_STATUS" = ok ]; then
    step_func python/packages.tsv python3 bg_default_packages
  elif [ -n "$R_STATUS" ]; then
    record_as_before python/packages.tsv python3
  fi
  if ((OPT_PIP)); then
    pip_steps
  else
    record_skipped_option python/pip-list.json
    record_skipped_option python/pip-show.txt
    for pid in "${TARGET_PIDS[@]}"; do record_skipped_option "processes/$pid/pip-list.json"; done
  fi
}

# The packages `pip show` is asked about with --pip.
PIP_SHOW_PACKAGES=(torch torch_npu torchvision torchaudio numpy apex deepspeed mindspeed
  transformers accelerate)

PY_PATHS_CODE='import sys, site
print("version=%d.%d" % sys.version_info[:2])
print("prefix=" + sys.prefix)
for p in getattr(site, "getsitepackages", lambda: [])(): print("site=" + p)
u = getattr(site, "getusersitepackages", None)
if u: print("user=" + u())'

# Whether variable $1 of the collector's own environment goes into env/collector-env.
collector_env_name() {
  case $1 in
    ASCEND_*|HCCL_*|HCCN_*|PATH|PYTHONPATH|LD_LIBRARY_PATH|LD_PRELOAD|*TASK_QUEUE*|PYTORCH_NPU_*|ACL_*) return 0 ;;
  esac
  return 1
}

# env/collector-env: the environment the collector was started with (its own
# /proc/<pid>/environ, which its later exports do not change), filtered and redacted.
bg_collector_env() {
  local src=/proc/$$/environ rec
  need_readable "$src"
  while IFS= read -r -d '' rec || [ -n "$rec" ]; do
    collector_env_name "${rec%%=*}" || continue
    if ((OPT_REDACT)); then redact_env_entry "$rec"; else R=$rec; fi
    printf '%s\0' "$R"
  done < "$src"
}

# V with leading and trailing blanks (and a CR) removed.
trim_value() {
  V=${1%$'\r'}
  while [[ $V == [[:blank:]]* ]]; do V=${V#?}; done
  while [[ $V == *[[:blank:]] ]]; do V=${V%?}; done
}

# MD_NAME, MD_VERSION = the Name: and Version: headers of metadata file $1 (its header block
# only: the long description after the first empty line is not read).
read_metadata() {
  local line n=0
  MD_NAME="" MD_VERSION=""
  [ -f "$1" ] && [ -r "$1" ] || return 1
  while ((n < 400)) && IFS= read -r line; do
    n=$((n + 1))
    [ -n "${line%$'\r'}" ] || break
    case $line in
      Name:*) [ -n "$MD_NAME" ] || { trim_value "${line#Name:}"; MD_NAME=$V; } ;;
      Version:*) [ -n "$MD_VERSION" ] || { trim_value "${line#Version:}"; MD_VERSION=$V; } ;;
    esac
    [ -n "$MD_NAME" ] && [ -n "$MD_VERSION" ] && break
  done < "$1"
  return 0
}

# TSV rows (name, version, location, kind) of the packages in directory $2 as the process
# names it, $3 the same directory as the collector reaches it, $1 the process's root; $4 = 1
# for the directory of the process's script, whose egg-info is a project checkout in use
# (setup.py develop): kind editable.
list_site_packages() {
  local root=$1 loc=$2 dir=$3 checkout=${4:-0} e base stem md kind where p f
  for e in "$dir"/*.dist-info "$dir"/*.egg-info "$dir"/*.egg-link; do
    [ -e "$e" ] || continue
    base=${e##*/} where=$loc md=""
    case $base in
      *.dist-info)
        kind=dist-info md=$e/METADATA
        # An editable install (pip install -e): its code lives where direct_url.json says.
        if [ -f "$e/direct_url.json" ] && grep -q '"editable": *true' "$e/direct_url.json" 2>/dev/null; then
          kind=editable
          p=$(sed -n 's#.*"url": *"file://\([^"]*\)".*#\1#p' "$e/direct_url.json" 2>/dev/null | head -n 1)
          [ -n "$p" ] && where=$p
        fi ;;
      *.egg-info)
        kind=egg-info
        ((checkout)) && kind=editable
        if [ -d "$e" ]; then md=$e/PKG-INFO; else md=$e; fi ;;
      *.egg-link)
        # setup.py develop: the first line names the project directory, whose *.egg-info
        # holds the metadata.
        kind=editable
        p=""
        IFS= read -r p < "$e" 2>/dev/null
        trim_value "$p"; p=$V
        [ -n "$p" ] && where=$p
        case $p in
          /*)
            if resolve_in_root "$root" "$p"; then
              for f in "$root$RESOLVED"/*.egg-info; do
                if [ -d "$f" ]; then md=$f/PKG-INFO; else md=$f; fi
                break
              done
            fi ;;
        esac ;;
    esac
    read_metadata "$md"
    # Without metadata, the directory's own name: name-version.dist-info.
    stem=${base%.*}
    if [ -z "$MD_NAME" ]; then
      MD_NAME=$stem
      [[ $stem == *-* ]] && MD_NAME=${stem%%-*}
    fi
    if [ -z "$MD_VERSION" ] && [[ $stem == *-* ]] && [ "$kind" != editable ]; then
      MD_VERSION=${stem#*-}
      MD_VERSION=${MD_VERSION%%-*}
    fi
    tsv_row "$MD_NAME" "$MD_VERSION" "$where" "$kind"
  done
}

# packages.tsv: the packages of directories $3... seen through root $1 ($2: the directory of
# the process's script, or empty), sorted by name; exit 65 when none of them exists.
bg_packages_tsv() {
  local root=$1 script=$2 d seen=$'\n' any=0 tab=$'\t'
  shift 2
  : > "$STEP_BASE.rows"
  for d in ${script:+"$script"} "$@"; do
    case $d in /*) ;; *) continue ;; esac
    resolve_in_root "$root" "$d" || continue
    [ -d "$root$RESOLVED" ] || continue
    [[ $seen == *$'\n'"$RESOLVED"$'\n'* ]] && continue
    seen+=$RESOLVED$'\n'
    any=1
    list_site_packages "$root" "$d" "$root$RESOLVED" "$([ "$d" = "$script" ] && echo 1 || echo 0)" >> "$STEP_BASE.rows"
  done
  ((any)) || { echo "no package directory exists: $*" >&2; exit 65; }
  tsv_row name version location kind
  sort -f -t "$tab" -k1,1 -k3,3 "$STEP_BASE.rows"
  rm -f "$STEP_BASE.rows"
}

# PY_SCRIPT_DIR = the directory of the script process $1 runs (sys.path[0]: the working
# directory for -m and -c), from its collected cmdline and its cwd link (or PWD); a0 = its
# argv[0].
proc_script_dir() {
  local b=$BUNDLE/processes/$1 args=() a cwd="" i=1 script=""
  PY_SCRIPT_DIR=""
  [ -f "$b/cmdline" ] || return 0
  while IFS= read -r -d '' a || [ -n "$a" ]; do args+=("$a"); done < "$b/cmdline"
  a0=${args[0]}
  case ${a0##*/} in python*) ;; *) return 0 ;; esac
  cwd=$(readlink "$ROOT/proc/$1/cwd" 2>/dev/null)
  if [ -z "$cwd" ] && [ -f "$b/environ" ]; then
    while IFS= read -r -d '' a || [ -n "$a" ]; do case $a in PWD=/*) cwd=${a#PWD=} ;; esac; done < "$b/environ"
  fi
  while ((i < ${#args[@]})); do
    a=${args[i]}
    case $a in
      -m|-c) script=$cwd/-; break ;;
      -W|-X|-Q) i=$((i + 2)); continue ;;
      -*) i=$((i + 1)); continue ;;
      *) script=$a; break ;;
    esac
  done
  [ -n "$script" ] || return 0
  case $script in /*) ;; *) [ -n "$cwd" ] || return 0; script=$cwd/$script ;; esac
  PY_SCRIPT_DIR=${script%/*}
  PY_SCRIPT_DIR=${PY_SCRIPT_DIR:-/}
}

# What process $1's Python is, from its collected maps, environ, cmdline and exe.txt (no
# host file is read): PY_VER (3.10), PY_EXE (the interpreter as the process started it, a
# path inside its root), PY_TNPU (the torch_npu directory of its mapped libtorch_npu.so),
# PY_DIRS (its package directories, the one holding torch_npu first; existence unchecked).
proc_python() {
  local b=$BUNDLE/processes/$1 p d rec home="" pypath="" venv="" conda="" nouser="" a0="" exe=""
  local sites=() prefixes=() tnpu_site="" v pre
  PY_VER="" PY_EXE="" PY_TNPU="" PY_DIRS=() PY_PATH=""
  if [ -f "$b/maps" ]; then
    while read -r _ _ _ _ _ p; do
      p=${p% (deleted)}
      case $p in /*) ;; *) continue ;; esac
      if [ -z "$PY_VER" ] && [[ $p =~ python(3\.[0-9]+) ]]; then PY_VER=${BASH_REMATCH[1]}; fi
      case $p in */libtorch_npu.so*) [ -n "$PY_TNPU" ] || PY_TNPU=${p%/lib/libtorch_npu.so*} ;; esac
      d=""
      case $p in
        */site-packages/*) d=${p%%/site-packages/*}/site-packages ;;
        */dist-packages/*) d=${p%%/dist-packages/*}/dist-packages ;;
      esac
      [ -n "$d" ] || continue
      [[ " ${sites[*]} " == *" $d "* ]] || sites+=("$d")
      case $p in */libtorch_npu.so*) tnpu_site=$d ;; esac
    done < "$b/maps"
  fi
  if [ -f "$b/environ" ]; then
    while IFS= read -r -d '' rec || [ -n "$rec" ]; do
      case $rec in
        HOME=*) home=${rec#*=} ;;
        PYTHONPATH=*) pypath=${rec#*=} ;;
        VIRTUAL_ENV=*) venv=${rec#*=} ;;
        CONDA_PREFIX=*) conda=${rec#*=} ;;
        PYTHONNOUSERSITE=?*) nouser=1 ;;
        PATH=*) PY_PATH=${rec#*=} ;;
      esac
    done < "$b/environ"
  fi
  proc_script_dir "$1"
  [ -f "$b/exe.txt" ] && IFS= read -r exe < "$b/exe.txt"
  exe=${exe% (deleted)}
  # The interpreter it was started as (a venv's bin/python is a link that exe resolves away).
  case ${a0##*/} in
    python*) PY_EXE=$a0 ;;
  esac
  [ -n "$PY_EXE" ] || case ${exe##*/} in python*) PY_EXE=$exe ;; esac
  if [ -z "$PY_VER" ]; then
    for p in "$PY_EXE" "$exe"; do
      [[ ${p##*/} =~ ^python(3\.[0-9]+)$ ]] && { PY_VER=${BASH_REMATCH[1]}; break; }
    done
  fi
  [ -n "$tnpu_site" ] && PY_DIRS+=("$tnpu_site")
  for d in "${sites[@]}"; do [ "$d" = "$tnpu_site" ] || PY_DIRS+=("$d"); done
  # PYTHONPATH, then the user's site, then the installation's own directories.
  pypath=$pypath:
  while [ -n "$pypath" ]; do
    d=${pypath%%:*} pypath=${pypath#*:}
    case $d in /*) PY_DIRS+=("$d") ;; esac
  done
  [ -z "$PY_VER" ] || [ -n "$nouser" ] || [ -z "$home" ] || PY_DIRS+=("$home/.local/lib/python$PY_VER/site-packages")
  for p in "$PY_EXE" "$exe"; do
    case $p in /*/bin/*) pre=${p%/bin/*}; prefixes+=("${pre:-/}") ;; esac
  done
  [ -n "$venv" ] && prefixes+=("$venv")
  [ -n "$conda" ] && prefixes+=("$conda")
  if [ -n "$PY_VER" ]; then
    v=python$PY_VER
    for pre in "${prefixes[@]}"; do
      pre=${pre%/}
      PY_DIRS+=("$pre/local/lib/$v/dist-packages" "$pre/local/lib/$v/site-packages"
        "$pre/local/lib64/$v/site-packages" "$pre/lib/python3/dist-packages"
        "$pre/lib/$v/dist-packages" "$pre/lib64/$v/site-packages" "$pre/lib/$v/site-packages")
    done
  fi
}

# processes/<pid>/packages.tsv of process $1, read through its root.
bg_proc_packages() {
  proc_python "$1"
  ((${#PY_DIRS[@]})) || { echo "process $1 shows no Python (maps, exe, cmdline)" >&2; exit 65; }
  bg_packages_tsv "$ROOT/proc/$1/root" "$PY_SCRIPT_DIR" "${PY_DIRS[@]}"
}

# processes/<pid>/torch_npu-version.py: torch_npu/version.py beside the mapped
# libtorch_npu.so, else in the first package directory that has one.
bg_proc_torch_npu_version() {
  local root=$ROOT/proc/$1/root d cands=()
  proc_python "$1"
  [ -n "$PY_TNPU" ] && cands+=("$PY_TNPU/version.py")
  for d in "${PY_DIRS[@]}"; do cands+=("$d/torch_npu/version.py"); done
  for d in "${cands[@]}"; do
    case $d in /*) ;; *) continue ;; esac
    resolve_in_root "$root" "$d" || continue
    if [ -f "$root$RESOLVED" ]; then
      need_readable "$root$RESOLVED"
      exec cat "$root$RESOLVED"
    fi
  done
  echo "no torch_npu/version.py through /proc/$1/root" >&2
  exit 65
}

# The interpreter of process $1 as a path inside its root, for the --pip listings: the one
# it was started as, found on its PATH when it was started by name.
bg_proc_interpreter() {
  local root=$ROOT/proc/$1/root p d
  proc_python "$1"
  p=$PY_EXE
  case $p in
    "") echo "process $1 shows no Python interpreter" >&2; exit 65 ;;
    */*) ;;
    *)
      d=$PY_PATH:
      while [ -n "$d" ]; do
        if [[ ${d%%:*} == /* ]] && resolve_in_root "$root" "${d%%:*}/$p" && [ -x "$root$RESOLVED" ]; then
          p=${d%%:*}/$p
          break
        fi
        d=${d#*:}
      done ;;
  esac
  case $p in /*) ;; *) echo "interpreter $p not found on the process's PATH" >&2; exit 65 ;; esac
  if ! resolve_in_root "$root" "$p" || [ ! -x "$root$RESOLVED" ]; then
    echo "no interpreter $p through /proc/$1/root" >&2
    exit 65
  fi
  printf '%s\n' "$p"
}

# The directories the default python3 lists (collector/python3-paths.txt), for
# python/packages.tsv.
bg_default_packages() {
  local f=$BUNDLE/collector/python3-paths.txt line dirs=()
  [ -f "$f" ] || exit_missing_or_denied "$f"
  while IFS= read -r line; do
    case $line in site=/*|user=/*) dirs+=("${line#*=}") ;; esac
  done < "$f"
  ((${#dirs[@]})) || { echo "python3 listed no package directory" >&2; exit 65; }
  bg_packages_tsv "$ROOT" "" "${dirs[@]}"
}

# A tool run from the collector's temporary directory: `python -m` puts the working
# directory on sys.path, and the user's may hold anything.
bg_exec_in_tmp() {
  cd "${TMPDIR:-/}" || exit 66
  bg_exec "$@"
}

# step_py PATH TOOL ARGS...: like step_exec, run from the temporary directory, with
# STEP_LIMIT three timeouts (pip reads every installed package's metadata).
step_py() {
  local path=$1 execj
  shift
  json_argv "$@"; execj=$J
  tool_path "$1"
  if [ -z "$TP" ]; then
    reset_result
    step_gate host || return 0
    [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
    record_item "$path" "" "$execj"
    return 0
  fi
  shift
  STEP_LIMIT=$((OPT_TIMEOUT * 3)) run_step host "$path" "$TP" "$execj" bg_exec_in_tmp "$TP" "$@"
}

# --pip: pip list and pip show of the default python3 and of each process's interpreter,
# with the process's PYTHONPATH and HOME; a process in a mount namespace of its own through
# chroot into its root (root only).
pip_steps() {
  local pid py rec env_args pre pipenv=(PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1)
  step_py python/pip-list.json env "${pipenv[@]}" python3 -m pip list --format=json
  step_py python/pip-show.txt env "${pipenv[@]}" python3 -m pip show "${PIP_SHOW_PACKAGES[@]}"
  for pid in "${TARGET_PIDS[@]}"; do
    ((INTERRUPTED)) && break
    STEP_KEEP=1 step_func "processes/$pid/pip-list.json" "/proc/$pid/root" bg_proc_interpreter "$pid"
    py=""
    [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ] && IFS= read -r py < "$R_OUT"
    if [ -z "$py" ]; then
      [ -n "$R_STATUS" ] || continue
      [ "$R_STATUS" = ok ] && R_STATUS=absent R_REASON=source_missing R_ERROR=not_found
      [ -n "$R_ERRF" ] && store_err "$R_ERRF" "processes/$pid/pip-list.json"
      record_as_before "processes/$pid/pip-list.json" "/proc/$pid/root"
      record_as_before "processes/$pid/pip-show.txt" "/proc/$pid/root"
      continue
    fi
    env_args=(-u PYTHONPATH)
    if [ -f "$BUNDLE/processes/$pid/environ" ]; then
      while IFS= read -r -d '' rec || [ -n "$rec" ]; do
        case $rec in PYTHONPATH=*|HOME=*) env_args+=("$rec") ;; esac
      done < "$BUNDLE/processes/$pid/environ"
    fi
    if [ "${PID_ORIGIN[$pid]}" = host ]; then
      pre=("$ROOT$py")
    else
      pre=()
      if ((EUID != 0)); then
        reset_result
        R_STATUS=denied R_REASON=permission R_ERROR=chroot_needs_root
        record_item "processes/$pid/pip-list.json" "/proc/$pid/root" ""
        record_as_before "processes/$pid/pip-show.txt" "/proc/$pid/root"
        continue
      fi
      tool_path chroot
      pre=("${TP:-chroot}" "$ROOT/proc/$pid/root" "$py")
    fi
    step_py "processes/$pid/pip-list.json" env "${env_args[@]}" "${pipenv[@]}" "${pre[@]}" -m pip list --format=json
    step_py "processes/$pid/pip-show.txt" env "${env_args[@]}" "${pipenv[@]}" "${pre[@]}" -m pip show "${PIP_SHOW_PACKAGES[@]}"
  done
}

# =========================================================================================
# src/modules.sh
# Phase modules: the Ascend kernel modules loaded (lsmod, /proc/modules, /sys/module) and
# installed (/lib/modules tree, modules.dep, modinfo, modprobe, configs, initramfs, DKMS).

phase_modules() {
  step_gen modules/ascend-names.txt gen_ascend_names
  step_exec modules/lsmod.txt host lsmod
  step_copy modules/proc-modules.txt /proc/modules
  step_func modules/sysfs.tsv /sys/module bg_sysfs_tsv
  # Every module file of every kernel is hashed and read: more time than one tool call.
  STEP_LIMIT=$((OPT_TIMEOUT * 4)) step_func modules/tree.tsv /lib/modules bg_tree_tsv
  step_func modules/modules.dep.txt /lib/modules bg_modules_dep
  module_tool_steps
  copy_listed modules/config /etc/modprobe.d /lib/modprobe.d /usr/lib/modprobe.d /run/modprobe.d \
    /etc/depmod.d /lib/depmod.d /etc/modules-load.d
  initramfs_steps
  step_exec modules/dkms-status.txt host dkms status
  step_func modules/dkms-tree.txt /var/lib/dkms/davinci_ascend bg_dkms_tree
}

gen_ascend_names() { printf '%s\n' "${ASCEND_MODULE_PATTERNS[@]}"; }

bg_sysfs_tsv() {
  local d name version srcversion build_id initstate taint refcnt holders h note
  [ -d "$ROOT/sys/module" ] || exit_missing_or_denied "$ROOT/sys/module"
  tsv_row name version srcversion build_id initstate taint refcnt holders
  for d in "$ROOT"/sys/module/*; do
    name=${d##*/}
    is_ascend_module "$name" || continue
    read_value "$d/version"; version=$V
    read_value "$d/srcversion"; srcversion=$V
    read_value "$d/initstate"; initstate=$V
    read_value "$d/taint"; taint=$V
    read_value "$d/refcnt"; refcnt=$V
    build_id=""
    note=$d/notes/.note.gnu.build-id
    if [ -r "$note" ]; then
      build_id=$(od -An -v -tx1 -j16 "$note" 2>/dev/null | tr -d ' \n')
    fi
    holders=""
    for h in "$d"/holders/*; do
      [ -e "$h" ] || [ -L "$h" ] || continue
      holders+="${holders:+,}${h##*/}"
    done
    tsv_row "$name" "$version" "$srcversion" "$build_id" "$initstate" "$taint" "$refcnt" "$holders"
  done
}

# "srcversion<TAB>vermagic<TAB>build_id" of module file $1 (compression $2), read from its
# decompressed content: a temporary file under the output directory (TMPDIR), removed after.
module_strings() {
  local dec f bid="" hex
  case $2 in
    none) dec=() ;;
    gz) dec=(gzip -dc) ;;
    xz) have xz || return 0; dec=(xz -dc) ;;
    zst) have zstd || return 0; dec=(zstd -dcq) ;;
    *) return 0 ;;
  esac
  if ((${#dec[@]})); then
    f=${TMPDIR:-/tmp}/module.$BASHPID
    "${dec[@]}" < "$1" > "$f" 2>/dev/null || { rm -f "$f"; return 0; }
  else
    f=$1
  fi
  # The GNU build-id note: readelf where it reads the file, else the note's bytes (namesz 4,
  # descsz 20, type 3, "GNU\0", then the 20-byte id), looked for in the first 64 KiB: a
  # module's notes are its first sections, and a whole module in hex is megabytes of text.
  if have readelf; then
    bid=$(readelf -n "$f" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\).*/\1/p' | head -n 1)
  fi
  if [ -z "$bid" ]; then
    hex=$(head -c 65536 "$f" 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
    case $hex in
      *040000001400000003000000474e5500????????????????????????????????????????*)
        hex=${hex#*040000001400000003000000474e5500}
        bid=${hex:0:40} ;;
    esac
  fi
  tr '\0' '\n' < "$f" 2>/dev/null | awk -v bid="$bid" '
    !s && /^srcversion=/ { s = substr($0, 12) }
    !v && /^vermagic=/ { v = substr($0, 10) }
    s && v { exit }
    END { printf "%s\t%s\t%s", s, v, bid }'
  [ "$f" = "$1" ] || rm -f "$f"
}

bg_tree_tsv() {
  local kd kver f base mod hp type lt lm rp exists comp size tm tc sha sv vm bi strs st
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  tsv_row kver module path type link_target resolved_path target_exists compression size \
    link_mtime target_mtime target_ctime sha256 srcversion build_id vermagic
  for kd in "$ROOT"/lib/modules/*; do
    [ -d "$kd" ] || continue
    kver=${kd##*/}
    find "$kd" \( -type f -o -type l \) -name '*.ko*' -print0 |
      while IFS= read -r -d '' f; do
        base=${f##*/}
        mod=${base%%.ko*}
        mod=${mod//-/_}
        is_ascend_module "$mod" || continue
        hp=${f#"$ROOT"}
        type=f lt="" lm=""
        if [ -L "$f" ]; then
          type=l
          lt=$(readlink "$f")
          ((HAVE_STAT)) && lm=$(stat -c %Y "$f" 2>/dev/null)
        fi
        resolve_in_root "$ROOT" "$hp"
        rp=$RESOLVED
        exists=0 size="" tm="" tc="" sha="" sv="" vm="" bi=""
        case ${rp:-$hp} in
          *.ko) comp=none ;;
          *.ko.xz) comp=xz ;;
          *.ko.zst) comp=zst ;;
          *.ko.gz) comp=gz ;;
          *) comp="" ;;
        esac
        if [ -n "$rp" ] && [ -f "$ROOT$rp" ]; then
          exists=1
          if ((HAVE_STAT)); then
            st=$(stat -c '%s %Y %Z' "$ROOT$rp" 2>/dev/null)
            # shellcheck disable=SC2086  # three numbers
            set -- $st
            size=$1 tm=$2 tc=$3
          else
            file_size "$ROOT$rp"; size=$SIZE
          fi
          hash_file "$ROOT$rp"; sha=$HASH
          strs=$(module_strings "$ROOT$rp" "$comp")
          sv=${strs%%$'\t'*}
          vm=${strs#*$'\t'}
          bi=${vm#*$'\t'}
          vm=${vm%%$'\t'*}
        fi
        tsv_row "$kver" "$mod" "$hp" "$type" "$lt" "$rp" "$exists" "$comp" "$size" "$lm" \
          "$tm" "$tc" "$sha" "$sv" "$bi" "$vm"
      done
  done
}

# Lines of each kernel's modules.dep that name an Ascend module, prefixed "<kver>:".
bg_modules_dep() {
  local kd re='(^|/)(drv_|ascend_|asdrv_|dbl_|vdrv_|ts_agent|ts_debug|debug_switch|npu_peermem|tc_pcidev|ubdevshm)' any=0
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  for kd in "$ROOT"/lib/modules/*; do
    [ -f "$kd/modules.dep" ] || continue
    any=1
    grep -E "$re" "$kd/modules.dep" | sed "s#^#${kd##*/}:#"
  done
  ((any)) || { echo "no modules.dep under /lib/modules" >&2; exit 65; }
  return 0
}

# KVERS = the running kernel and the boot default (from system/kernels.tsv); MODNAMES = the
# Ascend modules loaded or installed (from modules/sysfs.tsv and modules/tree.tsv).
modules_known() {
  local f k
  KVERS=() MODNAMES=()
  declare -A known=()
  f=$BUNDLE/system/kernels.tsv
  if [ -f "$f" ]; then
    while IFS=$'\t' read -r k run boot _; do
      [ "$k" = kver ] && continue
      if [ "$run" = 1 ] || [ "$boot" = 1 ]; then KVERS+=("$k"); fi
    done < "$f"
  fi
  for f in sysfs tree; do
    [ -f "$BUNDLE/modules/$f.tsv" ] || continue
    while IFS=$'\t' read -r a b _; do
      [ "$f" = tree ] && a=$b
      case $a in name|module|"") continue ;; esac
      [ -n "${known[$a]}" ] && continue
      known[$a]=1
      MODNAMES+=("$a")
    done < "$BUNDLE/modules/$f.tsv"
  done
}

module_tool_steps() {
  local k m
  modules_known
  for k in "${KVERS[@]}"; do
    for m in "${MODNAMES[@]}"; do
      step_exec "modules/modinfo/$k/$m.txt" host modinfo -k "$k" "$m"
      step_exec "modules/modprobe-deps/$k/$m.txt" host modprobe -S "$k" --show-depends "$m"
    done
  done
  for m in "${MODNAMES[@]}"; do
    step_exec "modules/modprobe-dry-run/$m.txt" host modprobe -n -v "$m"
  done
}

initramfs_steps() {
  local k tool=""
  tool_path lsinitrd; [ -n "$TP" ] && tool=$TP
  if [ -z "$tool" ]; then tool_path lsinitramfs; tool=$TP; fi
  for k in "${KVERS[@]}"; do
    if [ -z "$tool" ]; then
      reset_result
      step_gate host || return 0
      [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
      record_item "modules/initramfs-$k.txt" "/boot" ""
      continue
    fi
    step_func "modules/initramfs-$k.txt" /boot bg_initramfs "$k" "$tool"
  done
}

# Ascend entries of the initramfs of kernel $1 ($2 = lsinitrd or lsinitramfs).
bg_initramfs() {
  local k=$1 tool=$2 img="" f
  for f in "/boot/initramfs-$k.img" "/boot/initrd.img-$k" "/boot/initrd-$k"; do
    [ -e "$ROOT$f" ] && { img=$ROOT$f; break; }
  done
  [ -n "$img" ] || { echo "no initramfs for $k" >&2; exit 65; }
  need_readable "$img"
  "$tool" "$img" > "$STEP_BASE.full" || return $?
  grep -E 'drv_|ascend|asdrv_|dbl_|davinci|npu' "$STEP_BASE.full"
  rm -f "$STEP_BASE.full"
  return 0
}

bg_dkms_tree() {
  local d=$ROOT/var/lib/dkms/davinci_ascend
  [ -d "$d" ] || exit_missing_or_denied "$d"
  find "$d/" -maxdepth 6 -printf '%M %s %TY-%Tm-%Td %TH:%TM %p\t%l\n' | sed "s#^\([^/]*\)$ROOT/#\1/#"
}

# =========================================================================================
# src/ascend.sh
# Phase ascend: the Ascend install (install info, driver and firmware versions, CANN installs
# and their component versions, paths named by the processes' variables, seclog, hccn.conf).

phase_ascend() {
  local p drv=/usr/local/Ascend id dir kind f rel line
  step_copy ascend/ascend_install.info /etc/ascend_install.info
  if [ -f "$BUNDLE/ascend/ascend_install.info" ]; then
    p=$(sed -n 's/^Driver_Install_Path_Param=//p' "$BUNDLE/ascend/ascend_install.info" | head -n 1)
    case $p in /*) drv=${p%/} ;; esac
  fi
  step_copy ascend/driver-version.info "$drv/driver/version.info"
  step_copy ascend/firmware-version.info "$drv/firmware/version.info"
  step_func ascend/cann/index.tsv /usr/local/Ascend bg_cann_index /usr/local/Ascend "$drv" /etc/Ascend
  if [ -f "$BUNDLE/ascend/cann/index.tsv" ]; then
    while IFS=$'\t' read -r id dir kind _ _ _ f; do
      [ "$id" = id ] && continue
      [[ $id =~ ^c[0-9]+$ ]] || continue
      rel=${f#"$dir"/}
      step_copy "ascend/cann/$id/$rel" "$f"
      for line in version.cfg version.info; do
        [ -e "$ROOT$dir/$line" ] && step_copy "ascend/cann/$id/$line" "$dir/$line"
      done
      cann_component_versions "$id" "$dir" "$kind"
    done < "$BUNDLE/ascend/cann/index.tsv"
  fi
  step_func ascend/paths.tsv /usr/local/Ascend bg_paths_tsv "${TARGET_PIDS[@]}"
  STEP_KEEP=1 step_func ascend/seclog /var/log/ascend_seclog bg_list_named /var/log/ascend_seclog '*'
  if [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_func "ascend/seclog/${f##*/}" "$f" bg_copy_capped "$f" "$LOG_CAP"
    done < "$R_OUT"
  elif [ -n "$R_STATUS" ] && [ "$R_STATUS" != absent ]; then
    [ -n "$R_ERRF" ] && store_err "$R_ERRF" ascend/seclog
    record_item ascend/seclog /var/log/ascend_seclog ""
  fi
  step_copy ascend/hccn.conf /etc/hccn.conf
}

# ascend/cann/index.tsv rows, one install a line: every *_install.info within a bounded
# depth of the install roots; copies of each install's info files are made by the caller.
bg_cann_index() {
  local r f dir kind ver id=0 rd base seen=" " any=0
  tsv_row id install_dir kind version resolved_dir seen_from info_file
  for r in "$@"; do
    [ -d "$ROOT$r" ] || continue
    any=1
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      dir=${f%/*}
      case $dir in *-linux) dir=${dir%/*} ;; esac
      base=${f##*/}
      case $base in
        ascend_toolkit_*) kind=toolkit ;;
        ascend_cann_*) kind=cann ;;
        ascend_nnal_*|*nnal*) kind=nnal ;;
        ascend_nnae_*|*nnae*) kind=nnae ;;
        *ops*|*opp*) kind=ops ;;
        *) kind=cann ;;
      esac
      ver=$(sed -n 's/^[Vv]ersion=//p' "$ROOT$f" 2>/dev/null | head -n 1)
      resolve_in_root "$ROOT" "$dir"; rd=$RESOLVED
      [[ $seen == *" $rd/$base "* ]] && continue
      seen+="$rd/$base "
      id=$((id + 1))
      tsv_row "c$id" "$dir" "$kind" "$ver" "$rd" host "$f"
    done < <(find "$ROOT$r/" -maxdepth 4 -name '*_install.info' -print0 2>/dev/null)
  done
  ((any)) || { echo "no CANN install root ($*)" >&2; exit 65; }
  return 0
}

# Copies the share/info/<component>/version.info files of CANN install $2 (index id $1,
# kind $3) to ascend/cann/<id>/share/info/...: the ops ones for an ops install, the others
# for the toolkit (both kinds may share one directory).
cann_component_versions() {
  local id=$1 dir=$2 kind=$3 f comp
  STEP_KEEP=1 step_func "ascend/cann/$id/share/info" "$dir/share/info" bg_list_files "$dir/share/info" 2
  [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ] || return 0
  while IFS= read -r -d '' f; do
    f=${f#"$ROOT"}
    case $f in */share/info/*/version.info) ;; *) continue ;; esac
    comp=${f%/version.info}
    comp=${comp##*/}
    case $kind:$comp in
      ops:ops*|ops:opp*) ;;
      ops:*|*:ops*|*:opp*) continue ;;
    esac
    step_copy "ascend/cann/$id/${f#"$dir"/}" "$f"
  done < "$R_OUT"
}

# ascend/paths.tsv: the Ascend links and every directory named by an Ascend variable,
# LD_LIBRARY_PATH or PYTHONPATH of a collected process (from its collected environ), each
# resolved through that process's root.
bg_paths_tsv() {
  local pid env rec name val p via t seen=" "
  tsv_row path exists type resolved_path seen_from
  path_row() {
    local via=$1 p=$2 from=$3 rp e=0 t=-
    [[ $seen == *" $from:$p "* ]] && return 0
    seen+="$from:$p "
    resolve_in_root "$ROOT$via" "$p"; rp=$RESOLVED
    if [ -L "$ROOT$via$p" ]; then t=l; elif [ -d "$ROOT$via$p" ]; then t=d; elif [ -e "$ROOT$via$p" ]; then t=f; fi
    [ -e "$ROOT$via$rp" ] && e=1
    tsv_row "$p" "$e" "$t" "$rp" "$from"
  }
  for p in /usr/local/Ascend/ascend-toolkit/latest /usr/local/Ascend/cann /usr/local/Ascend/latest \
    /usr/local/Ascend/nnal/atb/latest /usr/local/Ascend/driver; do
    if [ -e "$ROOT$p" ] || [ -L "$ROOT$p" ]; then path_row "" "$p" host; fi
  done
  for pid in "$@"; do
    env=$BUNDLE/processes/$pid/environ
    [ -f "$env" ] || continue
    via=/proc/$pid/root
    [ "${PID_ORIGIN[$pid]}" = host ] && via=""
    while IFS= read -r -d '' rec || [ -n "$rec" ]; do
      name=${rec%%=*} val=${rec#*=}
      case $name in ASCEND_*|LD_LIBRARY_PATH|PYTHONPATH) ;; *) continue ;; esac
      val=$val:
      while [ -n "$val" ]; do
        p=${val%%:*} val=${val#*:}
        case $p in /*) path_row "$via" "$p" "pid:$pid" ;; esac
      done
    done < "$env"
  done
}

# =========================================================================================
# src/logs.sh
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

# =========================================================================================
# src/extra.sh
# Phase extra: files the user asked for with --add.

# Files the user asked for with --add: under extra/<original path>.
phase_extra() {
  local p
  for p in "${OPT_ADD[@]}"; do
    if [ -d "$ROOT$p" ]; then copy_listed extra "$p"; else step_copy "extra$p" "$p"; fi
  done
}

# =========================================================================================
# src/stacks.sh
# --stacks: `py-spy dump --pid P` of each target Python process, between the two thread
# samples. py-spy stops the process for the moment it reads the stacks from its memory and
# changes nothing; it is not a device tool. Without --stacks each dump is recorded as skipped
# (reason option), so that the analyzer can name the option that would have collected it.

stack_steps() {
  local pid path
  for pid in "${TARGET_PIDS[@]}"; do
    python_process "$pid" || continue
    path=processes/$pid/py-spy-dump.txt
    if ((OPT_STACKS)); then
      step_exec "$path" host py-spy dump --pid "$pid"
    else
      record_skipped_option "$path"
    fi
  done
}

# Whether target process $1 runs Python, from its collected files (no host file is read):
# its exe or argv[0] is python*, or it maps libpython.
python_process() {
  local b=$BUNDLE/processes/$1 exe="" argv0=""
  [ -f "$b/exe.txt" ] && IFS= read -r exe < "$b/exe.txt"
  [ -f "$b/cmdline" ] && IFS= read -r -d '' argv0 < "$b/cmdline"
  case ${exe##*/}:${argv0##*/} in python*|*:python*) return 0 ;; esac
  [ -f "$b/maps" ] && grep -q -F libpython "$b/maps"
}

# =========================================================================================
# src/device.sh
# Phase device: npu-smi and hccn_tool, last among the phases: a device tool may hang, and a
# device step that times out or is abandoned makes the later ones skipped
# (device_unresponsive). None of them runs in --safe-mode.

# What hccn_tool is asked about each device (logic id N): ascend/hccn-<query>-N.txt holds
# `hccn_tool -i N -<query> -g`. link: up or down; net_health: the RoCE port's health check;
# ip: its address and mask; optical: the optical module; link_stat: link up/down history;
# stat: packet and error counters.
HCCN_QUERIES=(link net_health ip optical link_stat stat)

phase_device() {
  local npu chip logic rest k q seen_ids=" " seen_npus logics=()
  step_exec ascend/npu-smi-info.txt device npu-smi info
  step_exec ascend/npu-smi-map.txt device npu-smi info -m
  [ -f "$BUNDLE/ascend/npu-smi-map.txt" ] || return 0
  # Rows "NPU ID  Chip ID  Chip Logic ID  Chip Name"; a chip without a logic id ("-") is the
  # MCU: it has no health or usages of its own.
  while read -r npu chip logic rest; do
    [[ $npu =~ ^[0-9]+$ && $chip =~ ^[0-9]+$ && $logic =~ ^[0-9]+$ ]] || continue
    step_exec "ascend/npu-smi-health-$npu-$chip.txt" device npu-smi info -t health -i "$npu" -c "$chip"
    [[ $seen_ids == *" $logic "* ]] || { seen_ids+="$logic "; logics+=("$logic"); }
  done < "$BUNDLE/ascend/npu-smi-map.txt"
  # Usages several times: a stuck device shows the same counters in every sample. Beside them
  # what makes a rank slow rather than stuck (issue 37): per NPU `-t common` (rated and current
  # AI Core clock, use, temperature, power of each chip), per chip `-t temp` and `-t power`.
  # npu-smi has no `-t freq`: the clock is only in `-t common`, which takes no chip id.
  for k in 1 2 3; do
    seen_npus=" "
    while read -r npu chip logic rest; do
      [[ $npu =~ ^[0-9]+$ && $chip =~ ^[0-9]+$ && $logic =~ ^[0-9]+$ ]] || continue
      usage_step "$npu" "$chip" "$k"
      sampled_step temp "ascend/npu-smi-temp-$npu-$chip.$k.txt" -i "$npu" -c "$chip"
      sampled_step power "ascend/npu-smi-power-$npu-$chip.$k.txt" -i "$npu" -c "$chip"
      [[ $seen_npus == *" $npu "* ]] && continue
      seen_npus+="$npu "
      sampled_step common "ascend/npu-smi-common-$npu.$k.txt" -i "$npu"
    done < "$BUNDLE/ascend/npu-smi-map.txt"
  done
  for logic in "${logics[@]}"; do
    for q in "${HCCN_QUERIES[@]}"; do
      step_exec "ascend/hccn-$q-$logic.txt" device hccn_tool -i "$logic" "-$q" -g
    done
  done
}

# npu-smi usages of NPU $1 chip $2, sample $3, with its sampled_utc= line first.
usage_step() {
  sampled_step usages "ascend/npu-smi-usages-$1-$2.$3.txt" -i "$1" -c "$2"
}

# `npu-smi info -t $1` into $2 with the ids $3...: one timed, sampled step like the usages.
sampled_step() {
  local path=$2 argv
  argv=(npu-smi info -t "$1" "${@:3}")
  tool_path npu-smi
  if [ -z "$TP" ]; then step_exec "$path" device "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step device "$path" "$TP" "$J" bg_sampled "$TP" "${argv[@]:1}"
}

# One npu-smi usages sample: "sampled_utc=" then the tool's output.
bg_sampled() {
  epoch_now; iso_utc "$EPOCH"
  printf 'sampled_utc=%s\n' "$ISO"
  bg_exec "$@"
}

# =========================================================================================
# src/device_logs.sh
# Phase device_logs (--device-logs): msnpureport's export of the device logs.

# msnpureport writes a time-stamped directory into its working directory (a scratch
# directory here); what it wrote goes to ascend/device-logs/ as it is, one item a file, and
# its own messages to ascend/msnpureport.txt. It talks to the device: a device step.
phase_device_logs() {
  local argv=(msnpureport -f) scratch=$WORK/device-logs f rel execj status
  json_argv "${argv[@]}"; execj=$J
  tool_path msnpureport
  if [ -z "$TP" ]; then step_exec ascend/msnpureport.txt device "${argv[@]}"; return; fi
  mkdir -p "$scratch"
  STEP_LIMIT=$((OPT_TIMEOUT * 6)) \
    STEP_KEEP=1 run_step device ascend/msnpureport.txt "$TP" "$execj" bg_exec_in "$scratch" "$TP" "${argv[@]:1}"
  [ -n "$R_STATUS" ] || return 0
  status=$R_STATUS
  if [ -n "$R_OUT" ]; then
    ensure_parent ascend/msnpureport.txt
    cat "$R_OUT" > "$BUNDLE/ascend/msnpureport.txt"
    [ -n "$R_ERRF" ] && store_err "$R_ERRF" ascend/msnpureport.txt
    record_bundle_file ascend/msnpureport.txt "$TP" "$execj"
  else
    record_item ascend/msnpureport.txt "$TP" "$execj"
  fi
  [ -d "$scratch" ] || return 0
  # A copy, not a move: a tool that escaped the kill may still be writing in the scratch.
  mkdir -p "$BUNDLE/ascend/device-logs" && cp -R "$scratch/." "$BUNDLE/ascend/device-logs/"
  while IFS= read -r -d '' f; do
    rel=${f#"$BUNDLE/"}
    R_STATUS=$status
    record_bundle_file "$rel" "msnpureport export" "$execj"
  done < <(find "$BUNDLE/ascend/device-logs" -type f -print0 | sort -z)
}

# Runs tool $2... in directory $1 (msnpureport writes into its working directory).
bg_exec_in() {
  cd "$1" || exit 66
  shift
  bg_exec "$@"
}

# =========================================================================================
# src/probes.sh
# Phase probes (--probes): small torch_npu checks on one device, each a step of its own.
# What each probe result means: docs/probes.md.

PROBE_NAMES=(ones_copyback cpu_rand_h2d matmul rand randn randint)

# The probe program (src/probe.py), one small check per run, chosen by name. The build
# embeds it here as a quoted string (not a here-document: see usage); the run writes it to
# collector/probe.py. It imports the job's torch_npu, does
# its work on one device, synchronises, and prints one value; a fault shows as an exception
# (exit 1) or as no end at all (the collector's timeout).
PROBE_CODE='# ascend-collect device probe: python probe.py NAME --device N (docs/probes.md)
import os
import sys

name, device = sys.argv[1], int(sys.argv[3])
import torch
import torch_npu

info = os.environ.get("ASCEND_COLLECT_PROBE_INFO")
if info:
    with open(info, "w") as f:
        f.write("torch_npu_version=%s\n" % getattr(torch_npu, "__version__", ""))
torch.npu.set_device(device)
dev = "npu:%d" % device

if name == "ones_copyback":      # fill on the device, copy back: memory and a plain kernel
    y = torch.ones(1024, device=dev).sum() / 1024
elif name == "cpu_rand_h2d":     # random on the CPU, copied to the device and back: H2D/D2H
    c = torch.rand(1024)
    y = (c.to(dev).cpu() - c).abs().max()
elif name == "matmul":           # a small matrix product: the compute units
    a = torch.ones(256, 256, device=dev)
    y = (a @ a)[0, 0]
elif name == "rand":             # the random generators on the device
    y = torch.rand(1024, device=dev).mean()
elif name == "randn":
    y = torch.randn(1024, device=dev).std()
elif name == "randint":
    y = torch.randint(0, 100, (1024,), device=dev).max()
else:
    sys.exit("unknown probe " + name)
torch.npu.synchronize()
print(y.item())
'

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

# =========================================================================================
# src/sysroot.sh
# --sysroot DIR --kernel KVER: a dead host's disk. Its phases read files under the image and
# tell tools where the image is; what needs the live host is recorded as skipped.

# Records bundle path $1 as skipped: a live-host step a sysroot collection cannot make.
skip_live() {
  reset_result
  step_gate host || return 0
  [ -n "$R_STATUS" ] || { R_STATUS=skipped R_REASON=option R_ERROR=sysroot; }
  record_item "$1" "$2" ""
}

gen_sysroot_txt() { printf 'collection=sysroot\nsysroot=%s\nkernel=%s\n' "$OPT_SYSROOT" "$OPT_KERNEL"; }

phase_sysroot_system() {
  step_gen system/sysroot.txt gen_sysroot_txt
  MANIFEST_NOTES+=("sysroot collection: files read under $OPT_SYSROOT, kernel $OPT_KERNEL; no process, device or live-kernel steps")
  skip_live system/uname.txt ""
  step_copy system/os-release /etc/os-release
  skip_live system/cmdline /proc/cmdline
  step_func system/time.txt /etc/localtime bg_sysroot_time_txt
  resolve_in_root "$ROOT" /etc/localtime || RESOLVED=/etc/localtime
  step_copy system/localtime.tzif "$RESOLVED"
  skip_live system/boot.txt /proc/sys/kernel/random/boot_id
  step_func system/kernels.tsv /lib/modules bg_kernels_tsv
  skip_live system/pci-devices.tsv /sys/bus/pci/devices
  skip_live system/lspci.txt ""
  skip_live system/devices.txt /dev/davinci
  skip_live mounts/mountinfo.txt /proc/self/mountinfo
}

# system/time.txt with the image's zone: /etc/localtime is usually an absolute link, which
# must resolve inside the image; bg_time_txt reads it through a link in the work directory.
bg_sysroot_time_txt() {
  local tz=$WORK/tzroot
  mkdir -p "$tz/etc" || exit 66
  if resolve_in_root "$ROOT" /etc/localtime && [ -f "$ROOT$RESOLVED" ]; then
    ln -sfn "$ROOT$RESOLVED" "$tz/etc/localtime"
  fi
  [ -f "$ROOT/etc/timezone" ] && cp "$ROOT/etc/timezone" "$tz/etc/timezone"
  ROOT=$tz bg_time_txt
}

# The kernel journal of the image (journalctl -D), its syslog files, nothing of the live
# kernel. Boot -0 is the image's last boot (with -D, boot 0 would be the live host's).
phase_sysroot_kernel() {
  local n f jd=$ROOT/var/log/journal
  skip_live kernel/dmesg.txt ""
  skip_live kernel/tainted /proc/sys/kernel/tainted
  skip_live kernel/secure-boot.txt ""
  if [ -d "$jd" ]; then
    step_exec kernel/boots.txt host journalctl -D "$jd" --list-boots --utc --no-pager
    sysroot_journal_step 0
    if [ -f "$BUNDLE/kernel/boots.txt" ]; then
      for ((n = 1; n <= OPT_BOOTS; n++)); do
        grep -q -E "^ *-$n " "$BUNDLE/kernel/boots.txt" && sysroot_journal_step "$n"
      done
    fi
  else
    reset_result
    R_STATUS=absent R_REASON=source_missing R_ERROR=not_found
    record_item kernel/journal-b0.jsonl /var/log/journal ""
  fi
  STEP_KEEP=1 step_func kernel/syslog /var/log bg_list_named /var/log 'messages*' 'kern.log*' 'syslog*'
  if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_func "kernel/syslog/${f##*/}" "$f" bg_copy_capped "$f" "$LOG_CAP"
    done < "$R_OUT"
  fi
}

# Boot -$1 of the image's journal as kernel/journal-b0.jsonl, journal-b-1.jsonl, ...
sysroot_journal_step() {
  local path=kernel/journal-b0.jsonl argv
  ((${1} > 0)) && path=kernel/journal-b-$1.jsonl
  argv=(journalctl -D "$ROOT/var/log/journal" -k -b "-$1" -o json --all --no-pager)
  tool_path journalctl
  if [ -z "$TP" ]; then step_exec "$path" host "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step host "$path" "$TP" "$J" bg_exec_capped "$LOG_CAP" "$TP" "${argv[@]:1}"
}

# Module files of the image: the tree, modules.dep, configs and initramfs as on a live host;
# modinfo -b and modprobe -d resolve against the image for kernel --kernel.
phase_sysroot_modules() {
  local m
  step_gen modules/ascend-names.txt gen_ascend_names
  skip_live modules/lsmod.txt ""
  skip_live modules/proc-modules.txt /proc/modules
  skip_live modules/sysfs.tsv /sys/module
  step_func modules/tree.tsv /lib/modules bg_tree_tsv
  step_func modules/modules.dep.txt /lib/modules bg_modules_dep
  modules_known
  KVERS=("$OPT_KERNEL")
  for m in "${MODNAMES[@]}"; do
    step_exec "modules/modinfo/$OPT_KERNEL/$m.txt" host modinfo -b "$ROOT" -k "$OPT_KERNEL" "$m"
    step_exec "modules/modprobe-deps/$OPT_KERNEL/$m.txt" host modprobe -d "$ROOT" -S "$OPT_KERNEL" --show-depends "$m"
  done
  copy_listed modules/config /etc/modprobe.d /usr/lib/modprobe.d /run/modprobe.d /etc/depmod.d \
    /lib/depmod.d /etc/modules-load.d
  initramfs_steps
  skip_live modules/dkms-status.txt ""
  step_func modules/dkms-tree.txt /var/lib/dkms/davinci_ascend bg_dkms_tree
}

# What a dead host cannot give: its processes and its devices.
phase_sysroot_live() {
  skip_live processes /proc
  skip_live ascend/npu-smi-info.txt ""
  skip_live ascend/npu-smi-map.txt ""
}

# =========================================================================================
# src/presence.sh
# NPU presence: whether this host shows an Ascend NPU at all, from what the run collected (no
# host file is read here). A collector run on the wrong host, or in a container started
# without devices, says so in its result line and in manifest.json's "npu_presence":
#
#   ascend_modules_loaded  rows of modules/sysfs.tsv (Ascend kernel modules loaded)
#   driver_installed       ascend/driver-version.info was found
#   device_nodes           /dev/davinci* nodes in system/devices.txt
#   npu_pci_devices        rows of system/pci-devices.tsv with an Ascend NPU's PCI id
#   npu_processes          target processes (found in /proc, or given with -p)
#   state                  npu_visible: a device node or an NPU process is seen;
#                          devices_not_visible: a driver or NPU PCI device, but no device
#                            node and no NPU process (a container without devices?);
#                          no_npu: none of the five; unknown: what decides was not collected
#
# Each count or flag is null when its file could not be collected (denied, timed out, or not
# attempted, as in a --sysroot collection).

# ISTATUS = the status of the last item recorded for bundle path $1 ("" when none).
item_status() {
  local line
  ISTATUS=""
  line=$(grep -F "{\"path\":\"$1\"," "$ITEMS" 2>/dev/null | tail -n 1)
  [[ $line =~ \"status\":\"([a-z_]+)\" ]] && ISTATUS=${BASH_REMATCH[1]}
}

# N = the data rows of TSV bundle file $1 for which awk condition $2 holds (its header gives
# the column names: $c["vendor"]); "" when the item is neither ok nor absent, 0 when absent.
count_rows() {
  item_status "$1"
  case $ISTATUS in
    ok) N=$(awk -F'\t' "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2 { n++ } END { print n + 0 }" "$BUNDLE/$1" 2>/dev/null) ;;
    absent) N=0 ;;
    *) N="" ;;
  esac
}

check_npu_presence() {
  local ids="" id
  NP_MODULES="" NP_DRIVER="" NP_NODES="" NP_PCI="" NP_PROCS=""
  count_rows modules/sysfs.tsv 1; NP_MODULES=$N
  item_status ascend/driver-version.info
  case $ISTATUS in ok) NP_DRIVER=true ;; absent) NP_DRIVER=false ;; esac
  item_status system/devices.txt
  case $ISTATUS in
    ok) NP_NODES=$(grep -c -F ' /dev/davinci' "$BUNDLE/system/devices.txt" 2>/dev/null) ;;
    absent) NP_NODES=0 ;;
  esac
  for id in "${NPU_PCI_DEVICE_IDS[@]}"; do ids+="${ids:+|}$id"; done
  count_rows system/pci-devices.tsv "tolower(\$c[\"vendor\"]) == \"0x19e5\" && tolower(\$c[\"device\"]) ~ /^($ids)\$/"
  NP_PCI=$N
  [ -n "$OPT_SYSROOT" ] || NP_PROCS=${#TARGET_PIDS[@]}
  if [[ ${NP_NODES:-0} -gt 0 || ${NP_PROCS:-0} -gt 0 ]]; then
    NP_STATE=npu_visible
  elif [ -z "$NP_NODES" ] || [ -z "$NP_PROCS" ]; then
    NP_STATE=unknown
  elif [[ ${NP_MODULES:-0} -gt 0 || $NP_DRIVER == true || ${NP_PCI:-0} -gt 0 ]]; then
    NP_STATE=devices_not_visible
  elif [ -z "$NP_MODULES" ] || [ -z "$NP_DRIVER" ] || [ -z "$NP_PCI" ]; then
    NP_STATE=unknown
  else
    NP_STATE=no_npu
  fi
}

# The manifest's "npu_presence" line (ends with a comma: more fields follow).
manifest_npu_presence() {
  printf '"npu_presence": {"state": "%s", "ascend_modules_loaded": %s, "driver_installed": %s, "device_nodes": %s, "npu_pci_devices": %s, "npu_processes": %s},\n' \
    "$NP_STATE" "${NP_MODULES:-null}" "${NP_DRIVER:-null}" "${NP_NODES:-null}" "${NP_PCI:-null}" "${NP_PROCS:-null}"
}

# What the result line says instead of "complete" or "partial" on a host without an NPU;
# empty otherwise.
npu_presence_result() {
  case $NP_STATE in
    no_npu) NP_RESULT="no NPU here: no Ascend driver, no /dev/davinci* node, no Huawei NPU PCI device, no NPU process (the wrong host, or a container started without devices)" ;;
    devices_not_visible) NP_RESULT="no NPU device visible: no /dev/davinci* node and no NPU process, though the Ascend driver or an NPU PCI device is there (a container started without devices?)" ;;
    *) NP_RESULT="" ;;
  esac
}

# =========================================================================================
# src/options.sh
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

# =========================================================================================
# src/start.sh
# Start of a run: locale, tools, output and work directories, timeout(1) and free-space checks.

record_locale() {
  ORIG_LOCALE=${LC_ALL:-${LC_CTYPE:-${LANG:-}}}
  ORIG_LOCALE=${ORIG_LOCALE:-C}
  ORIG_LOCALE_VARS=()
  local v
  for v in LANG LC_ALL LC_CTYPE LC_MESSAGES LC_TIME; do
    if [ -n "${!v+x}" ]; then ORIG_LOCALE_VARS+=("$v" "${!v}"); fi
  done
}

detect_tools() {
  local t
  if have sha256sum; then HASH_TOOL=sha256sum
  elif have shasum; then HASH_TOOL=shasum
  elif have openssl; then HASH_TOOL=openssl
  fi
  have stat && HAVE_STAT=1
  local d
  d=$(date +%s%N 2>/dev/null)
  [[ $d =~ ^[0-9]{16,}$ ]] && DATE_NS=1
  if read -r d _ 2>/dev/null < /proc/uptime && [[ $d =~ ^[0-9]+\.[0-9]{2}$ ]]; then CLOCK_UPTIME=1; fi
  TOOLS_ABSENT=()
  for t in "${OPTIONAL_TOOLS[@]}"; do have "$t" || TOOLS_ABSENT+=("$t"); done
}

gen_tools_tsv() {
  local t p note
  tsv_row tool path present note
  for t in "${OPTIONAL_TOOLS[@]}"; do
    tool_path "$t"; p=$TP
    note=""
    [ "$t" = timeout ] && note=$TIMEOUT_NOTE
    tsv_row "$t" "$p" "$([ -n "$p" ] && echo 1 || echo 0)" "$note"
  done
}

on_signal() {
  if ((INTERRUPTED)); then
    progress "interrupted again: stopping without an archive"
    exit 130
  fi
  INTERRUPTED=1
  progress "interrupted: stopping the current step and archiving what exists"
}

# A trustworthy timeout(1) bounds every tool even if the collector itself dies; one that
# does not behave (or hangs) is not used.
probe_timeout() {
  have timeout || { TIMEOUT_NOTE="absent"; return 0; }
  STEP_LIMIT=5 step_exec collector/timeout-check.txt host timeout -k 1 3 sleep 0
  if [ "$R_STATUS" = ok ]; then
    TIMEOUT_BIN=$(type -P timeout)
    TIMEOUT_NOTE="used as an inner guard"
  else
    TIMEOUT_NOTE="not used: its check ended $R_STATUS"
    progress "timeout(1) misbehaves ($R_STATUS); relying on the collector's own watch"
  fi
}

check_free_space() {
  local min_mb=${ASCEND_COLLECT_MIN_FREE_MB:-300} avail
  [[ $min_mb =~ ^[0-9]+$ ]] || min_mb=300
  STEP_LIMIT=10 step_exec collector/df.txt host df -Pk "$OUT"
  if [ "$R_STATUS" != ok ]; then
    progress "could not measure free space in $OUT ($R_STATUS); going on"
    return 0
  fi
  avail=$(awk 'NR == 2 { print $4 }' "$BUNDLE/collector/df.txt")
  [[ $avail =~ ^[0-9]+$ ]] || return 0
  if ((avail < min_mb * 1024)); then
    progress "refusing to start: $((avail / 1024)) MB free in $OUT, at least $min_mb MB needed"
    rm -rf "$BUNDLE" "$WORK"
    exit 2
  fi
}

init_run() {
  local host ts
  ROOT=${ASCEND_COLLECT_ROOT:-}
  ROOT=${ROOT%/}
  if [ -z "$ROOT" ]; then
    PATH=$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/Ascend/driver/tools
  fi
  export PATH
  umask 077
  detect_tools
  epoch_now; START_S=$EPOCH
  now_ms; START_MS=$NOW_MS
  DEADLINE_MS=$((START_MS + OPT_DEADLINE * 1000))
  iso_utc "$START_S"; COLLECTED_AT=$ISO
  ts=${ISO//[-:]/}
  host=${HOSTNAME:-unknown}
  HOST=$host
  host=${host//[!A-Za-z0-9._-]/_}
  OUT=$OPT_OUT
  mkdir -p "$OUT" 2>/dev/null || { progress "cannot create output directory $OUT"; exit 2; }
  OUT=$(cd "$OUT" && pwd) || { progress "cannot enter output directory $OPT_OUT"; exit 2; }
  BUNDLE_NAME=ascend-bundle-$host-$ts
  if [ -e "$OUT/$BUNDLE_NAME" ] || [ -e "$OUT/$BUNDLE_NAME.tar.zst" ] || [ -e "$OUT/$BUNDLE_NAME.tar.gz" ]; then
    BUNDLE_NAME=$BUNDLE_NAME-$$
  fi
  BUNDLE=$OUT/$BUNDLE_NAME
  WORK=$OUT/.$BUNDLE_NAME.work
  if ! mkdir "$BUNDLE" "$WORK" "$WORK/tmp" "$WORK/steps" 2>/dev/null; then
    progress "cannot write in $OUT"
    exit 2
  fi
  export TMPDIR=$WORK/tmp
  # Room for the manifest if the output disk fills up during the run: freed at the end.
  # A disk without that room gets no reserve (a part of one would only fill it sooner).
  head -c $((RESERVE_KB * 1024)) /dev/zero > "$WORK/reserve" 2>/dev/null
  file_size "$WORK/reserve"
  ((SIZE == RESERVE_KB * 1024)) || rm -f "$WORK/reserve"
  exec 3>&2 2>>"$WORK/shell.stderr"
  MSG_FD=3
  ITEMS=$BUNDLE/manifest.items.jsonl
  : > "$ITEMS"
  if have mkfifo && mkfifo "$WORK/poll" 2>/dev/null; then
    exec {POLL_FD}<>"$WORK/poll"
  fi
  build_log_masks
  LOG_CAP=$((OPT_MAX_LOG_MB * 1048576))
  if ((OPT_MAX_TOTAL_MB > 0 && OPT_MAX_TOTAL_MB * 1048576 / 4 < LOG_CAP)); then
    LOG_CAP=$((OPT_MAX_TOTAL_MB * 1048576 / 4))
  fi
  trap on_signal INT TERM
  progress "collecting into $BUNDLE (timeout ${OPT_TIMEOUT}s per step, deadline ${OPT_DEADLINE}s)"
  check_free_space
  probe_timeout
}

# =========================================================================================
# src/finish.sh
# End of a run: manifest.json, the archive, the summary and the exit code.

finish_run() {
  local rc=0 size
  if [ -e "${ROOT}/.dockerenv" ] || [ -e "${ROOT}/run/.containerenv" ]; then
    IN_CONTAINER=true
  else
    IN_CONTAINER=false
  fi
  check_disk_full
  step_gen collector/tools.tsv gen_tools_tsv
  check_npu_presence
  epoch_now; FINISHED_S=$EPOCH
  # An interrupt from here on must not lose the archive: it is already being made.
  trap '' INT TERM
  if ! write_manifest; then
    progress "cannot write manifest.json: the output file system of $OUT is full; no bundle was kept (free space, or use -o elsewhere)"
    rm -rf "$BUNDLE" "$WORK"
    progress "result: nothing usable (exit 2)"
    exit 2
  fi
  if ((COUNT_DENIED + COUNT_FAILED + COUNT_TIMED_OUT + COUNT_ABANDONED > 0)) ||
     ((INTERRUPTED || DEADLINE_HIT || DEVICE_UNRESPONSIVE || DISK_FULL)); then
    rc=1
  fi
  ((COUNT_SKIPPED_LATE > 0)) && rc=1
  print_summary
  report_shell_messages
  if make_archive; then
    file_size "$ARCHIVE"; size=$SIZE
    rm -rf "$BUNDLE" "$WORK"
    progress "archive: $ARCHIVE ($size bytes)"
  else
    rm -rf "$WORK"
    progress "could not write the archive; the bundle directory is $BUNDLE"
    rc=1
  fi
  ((COUNT_OK > 0)) || rc=2
  npu_presence_result
  # On a host without an NPU the bundle is not "complete" evidence of an NPU fault: the
  # result line says what is missing instead.
  if [ "$NP_STATE" = no_npu ] && ((rc < 2)); then
    progress "result: $NP_RESULT (exit $rc)"
    exit "$rc"
  fi
  [ -n "$NP_RESULT" ] && progress "$NP_RESULT"
  case $rc in
    0) progress "result: complete (exit 0)" ;;
    1) progress "result: partial (exit 1)" ;;
    2) progress "result: nothing usable (exit 2)" ;;
  esac
  exit "$rc"
}

# Whether the output disk filled up during the run (an item line could not be written, or
# 64 KiB cannot be written now): then the reserve made at the start is freed, the item list
# is written again from memory, and the manifest notes it.
check_disk_full() {
  local probe=$WORK/space-probe
  DISK_FULL=$ITEMS_UNWRITTEN
  head -c 65536 /dev/zero > "$probe" 2>/dev/null
  file_size "$probe"
  ((SIZE == 65536)) || DISK_FULL=1
  rm -f "$probe" "$WORK/reserve"
  ((DISK_FULL)) || return 0
  progress "the output file system of $OUT filled up during the run: items written after that are failed or cut"
  MANIFEST_NOTES+=("the output file system filled up during the run: items written after that are failed or cut (their status says so)")
  printf '%s\n' "${ITEM_LINES[@]}" > "$ITEMS.tmp" 2>/dev/null && mv -f "$ITEMS.tmp" "$ITEMS"
}

# Returns 1 when manifest.json could not be written whole (a full disk): the previous one, if
# any, stays.
write_manifest() {
  local f=$BUNDLE/manifest.json line first=1 i g out sep k
  iso_utc "$FINISHED_S"
  {
    printf '{\n"format": "ascend-bundle",\n"format_version": 1,\n'
    json_str "$COLLECTOR_VERSION"; printf '"collector_version": %s,\n' "$J"
    json_str "$HOST"; printf '"host": %s,\n' "$J"
    printf '"collected_at_utc": "%s",\n"finished_utc": "%s",\n' "$COLLECTED_AT" "$ISO"
    json_argv "${ARGS_ORIG[@]}"; printf '"args": %s,\n' "$J"
    printf '"uid": %s,\n' "$EUID"
    out="" sep=""
    for g in "${GROUPS[@]}"; do out+="$sep$g"; sep=","; done
    printf '"groups": [%s],\n' "$out"
    json_str_or_null "$SUDO_USER"; printf '"sudo_user": %s,\n' "$J"
    json_str "$ORIG_LOCALE"; printf '"locale": %s,\n' "$J"
    out="" sep=""
    for ((i = 0; i < ${#ORIG_LOCALE_VARS[@]}; i += 2)); do
      json_str "${ORIG_LOCALE_VARS[i]}"; out+="$sep$J: "
      json_str "${ORIG_LOCALE_VARS[i + 1]}"; out+=$J; sep=", "
    done
    printf '"locale_env": {%s},\n' "$out"
    printf '"in_container": %s,\n' "$IN_CONTAINER"
    out="" sep=""
    for k in "${REDACT_KINDS[@]}"; do json_str "$k"; out+="$sep$J"; sep=", "; done
    printf '"redaction": {"enabled": %s, "kinds": [%s]},\n' \
      "$( ((OPT_REDACT)) && echo true || echo false)" "$out"
    out="" sep=""
    for k in "${OPT_PIDS[@]}"; do out+="$sep$k"; sep=","; done
    printf '"options": {"timeout_s": %s, "deadline_s": %s, "safe_mode": %s, "pids": [%s]' \
      "$OPT_TIMEOUT" "$OPT_DEADLINE" "$( ((OPT_SAFE)) && echo true || echo false)" "$out"
    out="" sep=""
    for k in "${TARGET_PIDS[@]}"; do out+="$sep$k"; sep=","; done
    printf ', "target_pids": [%s], "boots": %s, "since_minutes": %s, "max_log_mb": %s, "pip": %s, "stacks": %s},\n' \
      "$out" "$OPT_BOOTS" "${SINCE_MIN:-null}" "$OPT_MAX_LOG_MB" "$( ((OPT_PIP)) && echo true || echo false)" \
      "$( ((OPT_STACKS)) && echo true || echo false)"
    printf '"interrupted": %s,\n"deadline_reached": %s,\n"device_unresponsive": %s,\n' \
      "$( ((INTERRUPTED)) && echo true || echo false)" \
      "$( ((DEADLINE_HIT)) && echo true || echo false)" \
      "$( ((DEVICE_UNRESPONSIVE)) && echo true || echo false)"
    if [ -n "$ROOT" ]; then json_str "$ROOT"; printf '"test_root": %s,\n' "$J"; fi
    manifest_mode_fields
    manifest_npu_presence
    printf '"items": [\n'
    for line in "${ITEM_LINES[@]}"; do
      ((first)) || printf ',\n'
      printf '%s' "$line"
      first=0
    done
    printf '\n]\n}\n'
  } > "$f.tmp" 2>/dev/null
  # A write that failed on the way leaves the file without its end.
  if [ "$(tail -c 4 "$f.tmp" 2>/dev/null)" = $']\n}' ]; then
    mv -f "$f.tmp" "$f" && return 0
  fi
  rm -f "$f.tmp"
  return 1
}

# Manifest fields of the run modes (--sysroot, --probes) and the run's notes (each line ends
# with a comma: more fields follow).
manifest_mode_fields() {
  local out="" sep="" n
  if [ -n "$OPT_SYSROOT" ]; then
    json_str "$OPT_SYSROOT"; out=$J
    json_str "$OPT_KERNEL"
    printf '"collection": "sysroot",\n"sysroot": {"dir": %s, "kernel": %s},\n' "$out" "$J"
  fi
  if ((OPT_PROBES)); then
    json_str_or_null "$PROBE_PY_HOST"
    printf '"probe_options": {"device": %s, "timeout_s": %s, "python": %s},\n' \
      "$OPT_PROBE_DEVICE" "$OPT_PROBE_TIMEOUT" "$J"
  fi
  ((${#MANIFEST_NOTES[@]})) || return 0
  out=""
  for n in "${MANIFEST_NOTES[@]}"; do json_str "$n"; out+="$sep$J"; sep=", "; done
  printf '"notes": [%s],\n' "$out"
}

# The archive, manifest.json first. Sets ARCHIVE (empty on failure). A hung tar or
# compressor must not hang the run: each try is stopped when its output has not grown for
# --timeout seconds; a failed zstd try is retried with gzip, and when no archive can be made
# the bundle directory stays, its manifest's notes saying why (the analyzer reads it as is).
make_archive() {
  local e name
  ARCHIVE_MEMBERS=("$BUNDLE_NAME/manifest.json")
  for e in "$BUNDLE"/* "$BUNDLE"/.[!.]*; do
    [ -e "$e" ] || continue
    name=${e##*/}
    [ "$name" = manifest.json ] && continue
    ARCHIVE_MEMBERS+=("$BUNDLE_NAME/$name")
  done
  ARCHIVE=""
  if have zstd; then
    archive_try zstd "$OUT/$BUNDLE_NAME.tar.zst" && return 0
    MANIFEST_NOTES+=("archive: tar | zstd $ARCHIVE_FAILURE; tried tar | gzip instead")
    progress "archive: tar | zstd $ARCHIVE_FAILURE; trying gzip"
    write_manifest
  fi
  archive_try gzip "$OUT/$BUNDLE_NAME.tar.gz" && return 0
  MANIFEST_NOTES+=("archive: tar | gzip $ARCHIVE_FAILURE; the bundle is this directory, not an archive")
  progress "archive: tar | gzip $ARCHIVE_FAILURE"
  write_manifest
  return 1
}

# The archiving pipeline with compressor $1 into $2 (a process group of its own).
bg_archive() {
  tar -cf - -C "$OUT" "${ARCHIVE_MEMBERS[@]}" | "$1" -q -c > "$2"
  local statuses="${PIPESTATUS[0]} ${PIPESTATUS[1]}"
  [ "$statuses" = "0 0" ]
}

# One try of the archive with compressor $1 into $2: ARCHIVE on success, else
# ARCHIVE_FAILURE says what happened.
archive_try() {
  local comp=$1 dest=$2 part=$2.part err=$WORK/archive.err pid i=0 last=-1 t_last rc msg=""
  set -m
  bg_archive "$comp" "$part" </dev/null 2>"$err" 3>&- &
  pid=$!
  set +m
  now_ms; t_last=$NOW_MS
  W_STATE=finished
  while kill -0 "$pid" 2>/dev/null; do
    poll_sleep "$i"
    i=$((i + 1))
    ((i % 5 == 4)) || continue
    now_ms
    file_size "$part"
    if ((SIZE != last)); then
      last=$SIZE t_last=$NOW_MS
    elif ((NOW_MS - t_last >= OPT_TIMEOUT * 1000)); then
      W_STATE=late
      break
    fi
  done
  if [ "$W_STATE" = late ]; then
    stop_group "$pid"
    ARCHIVE_FAILURE="made no progress for ${OPT_TIMEOUT}s and was stopped"
    [ "$W_STATE" = abandoned ] && ARCHIVE_FAILURE+=" (still there after KILL: $GROUP_NOTE)"
    rm -f "$part"
    return 1
  fi
  wait "$pid"
  rc=$?
  if ((rc == 0)) && mv -f "$part" "$dest"; then
    ARCHIVE=$dest
    return 0
  fi
  [ -s "$err" ] && IFS= read -r msg < "$err"
  ARCHIVE_FAILURE="failed${msg:+ ($msg)}"
  rm -f "$part"
  return 1
}

print_summary() {
  local status label e s p r n shown
  progress "items: $COUNT_OK ok, $COUNT_ABSENT absent, $COUNT_DENIED denied, $COUNT_FAILED failed, $COUNT_TIMED_OUT timed out, $COUNT_ABANDONED abandoned, $COUNT_SKIPPED skipped, $COUNT_TRUNCATED truncated"
  for status in absent denied failed timed_out abandoned skipped; do
    label=${status//_/ }
    n=0 shown=""
    for e in "${SUMMARY[@]}"; do
      s=${e%%$'\t'*}
      [ "$s" = "$status" ] || continue
      p=${e#*$'\t'}; r=${p#*$'\t'}; p=${p%%$'\t'*}
      n=$((n + 1))
      if ((n <= 12)); then shown+="${shown:+, }$p${r:+ ($r)}"; fi
    done
    ((n > 12)) && shown+=", and $((n - 12)) more"
    ((n > 0)) && progress "$label: $shown"
  done
  if ((${#TRUNCATED_PATHS[@]})); then
    progress "truncated (head and tail kept): ${TRUNCATED_PATHS[*]:0:12}"
  else
    progress "truncated: none"
  fi
  for e in "${ABANDONED_NOTES[@]}"; do progress "abandoned: $e (it may be stuck in the kernel)"; done
  ((${#TOOLS_ABSENT[@]})) && progress "tools absent: ${TOOLS_ABSENT[*]}"
}

# What the shell itself said, less its reports of the steps it killed: a collector bug
# must not go unseen.
report_shell_messages() {
  local f=$WORK/shell.stderr
  [ -s "$f" ] || return 0
  grep -v -E 'line [0-9]+: +[0-9]+ (Killed|Terminated|Hangup|Interrupt|Quit|Aborted|Broken pipe)' "$f" |
    sed "s/^/$PROG: shell: /" >&"$MSG_FD"
}

# =========================================================================================
# src/main.sh
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
