#!/bin/bash
# Secrets planted in a process's environ and cmdline, in a URL and in log lines: the names
# stay with <redacted>, no secret value is anywhere in the unpacked archive or the manifest,
# ASCEND_* and paths stay verbatim, environ/cmdline stay NUL-separated. With --no-redact the
# same values do arrive (so this test can tell).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
run_collect -p "$TRAIN_PID" --timeout 10
expect_rc 0
unpack_archive
check_bundle

for s in "${SECRETS[@]}"; do
  found=$(grep -r -l -a -F -e "$s" "$H/unpacked" 2>/dev/null)
  [ -z "$found" ] || fail "secret $s found in: $found"
  grep -q -a -F -e "$s" "$ARCHIVE" && fail "secret $s in the archive bytes"
done

env=$B/processes/$TRAIN_PID/environ
cmd=$B/processes/$TRAIN_PID/cmdline
entries() { tr '\0' '\n' < "$1"; }
entries "$env" | grep -qx 'HF_TOKEN=<redacted>' || fail "HF_TOKEN name not kept with <redacted>"
entries "$env" | grep -qx 'DB_PASSWORD=<redacted>' || fail "DB_PASSWORD not redacted"
entries "$env" | grep -qx 'AWS_SECRET_ACCESS_KEY=<redacted>' || fail "AWS_SECRET_ACCESS_KEY not redacted"
entries "$env" | grep -qx 'HTTPS_PROXY=http://<redacted>@proxy.example.com:3128' || fail "proxy URL credentials not stripped"
entries "$env" | grep -qx 'ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest' || fail "ASCEND_HOME_PATH not verbatim"
entries "$env" | grep -qx 'LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/ascend-toolkit/latest/lib64' ||
  fail "LD_LIBRARY_PATH not verbatim"
entries "$env" | grep -qx 'PASSWORD_FILE=/etc/train/pw.txt' || fail "a path named *_FILE was redacted"
entries "$env" | grep -qx 'TOKENIZERS_PARALLELISM=false' || fail "TOKENIZERS_PARALLELISM was redacted"
[ "$(tr -cd '\0' < "$env" | wc -c)" = "$(tr -cd '\0' < "$SYSROOT/proc/$TRAIN_PID/environ" | wc -c)" ] ||
  fail "environ lost its NUL separators"
# The whole stream, byte for byte: only the secret values changed.
printf 'HOME=/root\0PATH=/usr/local/Ascend/ascend-toolkit/latest/bin:/usr/bin:/bin\0ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest\0ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest\0LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/ascend-toolkit/latest/lib64\0HF_TOKEN=<redacted>\0DB_PASSWORD=<redacted>\0AWS_SECRET_ACCESS_KEY=<redacted>\0HTTPS_PROXY=http://<redacted>@proxy.example.com:3128\0TOKENIZERS_PARALLELISM=false\0PASSWORD_FILE=/etc/train/pw.txt\0NOTE=two\nlines\0GBK_DIR=/data/\310\325\326\276\0TASK_QUEUE_ENABLE=1\0' > "$H/environ.want"
cmp -s "$env" "$H/environ.want" || fail "environ differs from the expected redaction: $(cmp "$env" "$H/environ.want")"

want=$(printf 'python3\0train.py\0--password\0<redacted>\0--api-key=<redacted>\0--data\0https://<redacted>@data.example.com/set\0--max-tokens\0004096\0--epochs\0003\0' | od -An -c)
[ "$(od -An -c < "$cmd")" = "$want" ] || fail "cmdline: $(tr '\0' '|' < "$cmd")"

L=$B/logs/host/root/ascend/log
grep -q 'connect db password=<redacted> user=train' "$L/debug/plog/plog-4242_20260613170033666.log" || fail "log password not masked"
grep -q 'token=<redacted> done' "$L/run/plog/plog-4242_20260613170033667.log" || fail "log token not masked"
grep -q 'SynchronizeExecutedTask: report three minutes timeout! stream_id=47, task_id=1280, sqHead=500, pendingNum=781' \
  "$L/debug/plog/plog-4242_20260613170033666.log" || fail "the stall line was altered"
cmp -s "$L/debug/device-0/device-4242_20260613170040123.log" "$SYSROOT/root/ascend/log/debug/device-0/device-4242_20260613170040123.log" ||
  fail "a log without secrets was not copied byte for byte"

for k in env_secret url_credentials cmdline_secret log_secret; do
  grep -q "\"kinds\": \[.*\"$k\"" "$B/manifest.json" || fail "manifest redaction kinds lack $k"
done
grep -q '"redaction": {"enabled": true' "$B/manifest.json" || fail "manifest does not say redaction was on"

say "again with --no-redact"
rm -f "$OUT"/*
run_collect -p "$TRAIN_PID" --timeout 10 --no-redact
expect_rc 0
unpack_archive
cmp -s "$B/processes/$TRAIN_PID/environ" "$SYSROOT/proc/$TRAIN_PID/environ" || fail "--no-redact environ is not the original"
grep -q -a -F hunter2CMDSECRET "$B/processes/$TRAIN_PID/cmdline" || fail "--no-redact cmdline lost its value"
grep -q '"redaction": {"enabled": false, "kinds": \[\]}' "$B/manifest.json" || fail "manifest should say redaction was off"
finish
