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
    *TOKEN|KEY|*APIKEY|*SECRETKEY|*ACCESSKEY|*PRIVATEKEY|PASS|*PWD|AUTH|*PASSWORD|*PASSWD) return 0 ;;
    *PASSPHRASE|*SECRET|SECRETS|CREDENTIAL|CREDENTIALS|CRED|CREDS|*COOKIE|COOKIES|SESSION) return 0 ;;
  esac
  case "_${u}_" in
    *PASSWORD*|*PASSWD*|*PASSPHRASE*|*SECRET*|*CREDENTIAL*|*COOKIE*|*_TOKEN_*) return 0 ;;
    *_API_KEY_*|*_ACCESS_KEY_*|*_PRIVATE_KEY_*) return 0 ;;
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

URL_CRED_RE='([A-Za-z][A-Za-z0-9+.-]*://)([^/@<>[:space:]]+)@'
KV_SECRET_RE='(password|passwd|passphrase|token|secret|secret_key|api_key|apikey|access_key)=([^<[:space:],;&"'"'"'>][^[:space:],;&"'"'"'<>]*)'

# R = R with credentials of URLs removed.
strip_url_credentials() {
  local i=0
  while [[ $R =~ $URL_CRED_RE ]] && ((i < 50)); do
    R=${R/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}<redacted>@"}
    note_kind url_credentials
    i=$((i + 1))
  done
}

# R = R with "password=...", "token=..." values masked.
mask_secret_pairs() {
  local i=0
  shopt -s nocasematch
  while [[ $R =~ $KV_SECRET_RE ]] && ((i < 50)); do
    R=${R/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}=<redacted>"}
    note_kind secret_pattern
    i=$((i + 1))
  done
  shopt -u nocasematch
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
  strip_url_credentials
}

# R = command-line argument $1 redacted; REDACT_NEXT carries "the previous option takes a
# secret value" from one argument to the next.
redact_arg() {
  local a=$1 name
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
    -*)
      if secret_option "$a"; then REDACT_NEXT=1; fi ;;
    [A-Za-z_]*=*)
      name=${a%%=*}
      if [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && secret_env_name "$name"; then
        R="$name=<redacted>"; note_kind cmdline_secret; return
      fi ;;
  esac
  R=$a
  strip_url_credentials
  mask_secret_pairs
}

# Copies a NUL-separated stream (environ or cmdline) from stdin to stdout, redacted; a last
# record without its NUL stays without it.
redact_nul_stream() {
  local kind=$1 rec term
  REDACT_NEXT=0
  while :; do
    rec="" term=1
    IFS= read -r -d '' rec || { [ -n "$rec" ] || break; term=0; }
    if [ "$kind" = environ ]; then redact_env_entry "$rec"; else redact_arg "$rec"; fi
    if ((term)); then printf '%s\0' "$R"; else printf '%s' "$R"; fi
  done
}

# Case-insensitive BRE for the word $1 ("ab" -> "[Aa][Bb]").
ci_bre() {
  local w=$1 i c u out=""
  for ((i = 0; i < ${#w}; i++)); do
    c=${w:i:1}
    case $c in
      [a-z]) u=${c^^}; out+="[$c$u]" ;;
      *) out+=$c ;;
    esac
  done
  CI=$out
}

# The sed script masking secrets in collected logs, and the grep patterns that decide
# whether a log needs it (a log without them is copied byte for byte).
build_log_masks() {
  local w s="" nl=$'\n' v="[^<[:space:],;&\"'>][^[:space:],;&\"'<>]*"
  for w in password passwd passphrase token secret secret_key api_key apikey access_key; do
    ci_bre "$w"
    s+="s/\\($CI\\)=$v/\\1=<redacted>/g$nl"
  done
  s+="s#\\([A-Za-z][A-Za-z0-9+.-]*://\\)[^/@<>[:space:]][^/@<>[:space:]]*@#\\1<redacted>@#g$nl"
  ci_bre "authorization: bearer"
  s+="s/\\($CI\\) *[^[:space:]\"'<>][^[:space:]\"'<>]*/\\1 <redacted>/g"
  LOG_SED=$s
  LOG_GREP=(-e 'password=' -e 'passwd=' -e 'passphrase=' -e 'token=' -e 'secret='
    -e 'secret_key=' -e 'api_key=' -e 'apikey=' -e 'access_key=' -e 'authorization: bearer'
    -e '://[^/@<>[:space:]][^/@<>[:space:]]*@')
}
