#!/bin/bash
# The collector's helpers on their own (the script is sourced: it defines functions and runs
# nothing): the byte-exact JSON string encoder (GBK bytes, control characters), epoch to
# ISO 8601, TSV escaping, the redaction rules and symlink resolution inside a root.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../collector-script/ascend-collect.sh
. "$COLLECTOR"
export LC_ALL=C
WORKDIR=$(mktemp -d)
H=$WORKDIR
STEP_BASE=$WORKDIR/step

# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got [$2], want [$3]"; }

# --- JSON strings: printable ASCII escaped in bash, every other byte as \u00XX.
json_str 'plain text'; expect_eq plain "$J" '"plain text"'
json_str 'a"b\c'; expect_eq quotes "$J" '"a\"b\\c"'
json_str ''; expect_eq empty "$J" '""'
json_str $'tab\there\nnl\r\x01\x1f\x7f'; expect_eq control "$J" '"tab\u0009here\u000anl\u000d\u0001\u001f\u007f"'
json_str $'/data/\xc8\xd5\xd6\xbe.log'; expect_eq gbk "$J" '"/data/\u00c8\u00d5\u00d6\u00be.log"'
json_str $'\xff"\\\xe6\x97\xa5'; expect_eq "high bytes with quote and backslash" "$J" '"\u00ff\"\\\u00e6\u0097\u00a5"'
json_str '  leading and trailing  '; expect_eq spaces "$J" '"  leading and trailing  "'
json_str $'ends with newline\n'; expect_eq "trailing newline" "$J" '"ends with newline\u000a"'
json_str_or_null ''; expect_eq null "$J" null
json_argv a 'b c' $'\xc8'; expect_eq argv "$J" '["a","b c","\u00c8"]'
# Every byte 1..255 round-trips: JSON-decoded and mapped back code point = byte.
all=""
for ((i = 1; i < 256; i++)); do
  # shellcheck disable=SC2059  # the format is the octal escape of byte i
  printf -v c "\\$(printf '%03o' "$i")"
  all+=$c
done
json_str "$all"
printf '%s' "$J" > "$WORKDIR/all.json"
printf '%s' "$all" > "$WORKDIR/all.bin"
python3 -c 'import json,sys
s = json.load(open(sys.argv[1], "rb"))
assert s.encode("latin-1") == open(sys.argv[2], "rb").read(), "round trip differs"
raw = open(sys.argv[1], "rb").read()
assert all(0x20 <= b <= 0x7e for b in raw), "not printable ASCII"' "$WORKDIR/all.json" "$WORKDIR/all.bin" ||
  fail "bytes 1-255 do not round-trip through json_str"

# --- epoch to ISO 8601 UTC without date(1).
iso_utc 0; expect_eq epoch0 "$ISO" 1970-01-01T00:00:00Z
iso_utc 951782400; expect_eq leapday "$ISO" 2000-02-29T00:00:00Z
iso_utc -1; expect_eq "before 1970" "$ISO" 1969-12-31T23:59:59Z
iso_utc 4102444799; expect_eq "end of 2099" "$ISO" 2099-12-31T23:59:59Z
for t in 1 59 86399 86400 915148799 1234567890 1709251199 1709251200 1781312400 2147483648; do
  iso_utc "$t"; expect_eq "iso $t" "$ISO" "$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ)"
done

# --- TSV fields.
tsv_esc $'a\tb\nc\rd\\e'; expect_eq tsv "$T" 'a\tb\nc\rd\\e'
expect_eq tsv_row "$(tsv_row x '' $'y\tz')" "$(printf 'x\t\ty\\tz')"

# --- Which names are secrets.
for n in HF_TOKEN GITHUB_TOKEN DB_PASSWORD MYSQL_PWD AWS_SECRET_ACCESS_KEY AWS_ACCESS_KEY_ID \
  OPENAI_API_KEY WANDB_API_KEY api_key SESSION_SECRET NPM_CONFIG__AUTH COOKIE \
  GOOGLE_APPLICATION_CREDENTIALS redis_passwd HUGGING_FACE_HUB_TOKEN; do
  secret_env_name "$n" || fail "$n should be a secret name"
done
for n in ASCEND_HOME_PATH ASCEND_SECRET_TEST PWD OLDPWD PATH LD_LIBRARY_PATH TOKENIZERS_PARALLELISM \
  PASSWORD_FILE HF_TOKEN_PATH SSH_AUTH_SOCK XDG_SESSION_ID HOME KEYBOARD TASK_QUEUE_ENABLE; do
  secret_env_name "$n" && fail "$n should not be a secret name"
done
for o in --password --token --api-key --api_key --hf-token --auth-token --secret --db-passwd --key; do
  secret_option "$o" || fail "$o should take a secret value"
done
for o in --max-tokens --tokenizer --password-file --key-file -p --epochs --monkey; do
  secret_option "$o" && fail "$o should not take a secret value"
done

# --- Redacting environ and cmdline streams (NUL-separated, bytes kept): the name and option
# rules of redaction.sh, then the secret rules (secret-rules.tsv) over the records.
build_log_masks
printf 'A=1\0HF_TOKEN=abc\0ASCEND_HOME_PATH=/usr/local/Ascend\0P=http://u:pw@h:1/x\0NL=a\nb\0G=\310\325\0LAST=noterm' > "$WORKDIR/env"
redact_nul_stream environ < "$WORKDIR/env" | mask_text -z > "$WORKDIR/env.out"
note_rule_kinds "$WORKDIR/env"
printf 'A=1\0HF_TOKEN=<redacted>\0ASCEND_HOME_PATH=/usr/local/Ascend\0P=http://<redacted>@h:1/x\0NL=a\nb\0G=\310\325\0LAST=noterm' > "$WORKDIR/env.want"
cmp -s "$WORKDIR/env.out" "$WORKDIR/env.want" || fail "environ redaction: $(od -c "$WORKDIR/env.out" | head -5)"
printf 'py\0--password\0s1\0--token=s2\0--max-tokens\08\0HF_TOKEN=s3\0x password=s4 user=u\0--flag\0--auth\0--next\0\0' > "$WORKDIR/cmd"
redact_nul_stream cmdline < "$WORKDIR/cmd" | mask_text -z > "$WORKDIR/cmd.out"
note_rule_kinds "$WORKDIR/cmd"
printf 'py\0--password\0<redacted>\0--token=<redacted>\0--max-tokens\08\0HF_TOKEN=<redacted>\0x password=<redacted> user=u\0--flag\0--auth\0--next\0\0' > "$WORKDIR/cmd.want"
cmp -s "$WORKDIR/cmd.out" "$WORKDIR/cmd.want" || fail "cmdline redaction: $(tr '\0' '|' < "$WORKDIR/cmd.out")"
for k in env_secret url_credentials cmdline_secret assign; do
  grep -qx "$k" "$STEP_BASE.kinds" || fail "kind $k not reported"
done

# --- Masking secrets in log lines (sed, case-insensitive), other bytes untouched.
printf '%s\n' 'a Password=Pw1 b' 'url https://u:pw@host/x and token=T1,next' \
  'Authorization: Bearer abc.def' 'stream_id=47, task_id=1280' 'secret_key=K2;api_key=K3' > "$WORKDIR/log"
printf '\310\325 passwd=p5\n' >> "$WORKDIR/log"
mask_text < "$WORKDIR/log" > "$WORKDIR/log.out"
printf '%s\n' 'a Password=<redacted> b' 'url https://<redacted>@host/x and token=<redacted>,next' \
  'Authorization: Bearer <redacted>' 'stream_id=47, task_id=1280' 'secret_key=<redacted>;api_key=<redacted>' > "$WORKDIR/log.want"
printf '\310\325 passwd=<redacted>\n' >> "$WORKDIR/log.want"
cmp -s "$WORKDIR/log.out" "$WORKDIR/log.want" || fail "log masking: $(diff "$WORKDIR/log.want" "$WORKDIR/log.out")"
grep -q -i -F "${LOG_GREP[@]}" "$WORKDIR/log" || fail "log grep does not see the secrets"
printf 'stream_id=47 task_id=1280\n' > "$WORKDIR/clean.log"
grep -q -i "${LOG_GREP[@]}" "$WORKDIR/clean.log" && fail "log grep flags a clean log"

# --- Symlinks resolved inside a root, never through the collector's /.
r=$WORKDIR/root
mkdir -p "$r/a/b" "$r/var/lib/dkms/m"
: > "$r/var/lib/dkms/m/x.ko"
ln -s /var/lib/dkms/m/x.ko "$r/a/b/abs.ko"
ln -s ../b/abs.ko "$r/a/b/rel.ko"
ln -s /etc/passwd "$r/a/b/host.ko"
ln -s loop2 "$r/a/loop1"; ln -s loop1 "$r/a/loop2"
resolve_in_root "$r" /a/b/abs.ko; expect_eq absolute "$RESOLVED" /var/lib/dkms/m/x.ko
resolve_in_root "$r" /a/b/rel.ko; expect_eq relative "$RESOLVED" /var/lib/dkms/m/x.ko
resolve_in_root "$r" /a/b/host.ko; expect_eq "stays in root" "$RESOLVED" /etc/passwd
[ -e "$r$RESOLVED" ] && fail "resolution escaped the root"
resolve_in_root "$r" /a/loop1 && fail "a link loop should fail"

# --- Module names.
for m in drv_pcie_host ascend_trs_core asdrv_fms dbl_algorithm ts_agent npu_peermem; do
  is_ascend_module "$m" || fail "$m should be an Ascend module"
done
for m in nvme ts_agentx mlx5_core; do is_ascend_module "$m" && fail "$m is not an Ascend module"; done

rm -rf "$WORKDIR"
H=""
finish
