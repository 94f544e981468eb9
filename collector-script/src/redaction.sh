# shellcheck shell=bash
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
# @embed SECRET_RULES ../../knowledge/secret-rules.tsv
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
