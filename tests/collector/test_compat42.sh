#!/bin/bash
# The nearest this machine has to CentOS 7's bash 4.2: bash's own compatibility level 42
# (BASH_COMPAT=42), which restores 4.2's treatment of quoting and backslashes, the things
# escaping depends on. The helpers' checks and a full collection must pass under it.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

BASH_COMPAT=42 "$BASH" "$LIB_DIR/test_helpers.sh" "$COLLECTOR" || fail "helpers under BASH_COMPAT=42"

fake_host_new
BASH_COMPAT=42 run_collect -p "$TRAIN_PID" --timeout 10
expect_rc 0
unpack_archive
check_manifest_first
check_bundle
L=logs/host/root/ascend/log
expect_item "$L/run/plog/quote\\\"and\\\\back.log" ok
expect_item "$L/run/plog/\\u00c8\\u00d5\\u00d6\\u00be-4242.log" ok
grep -q -F 'run/plog/quote"and\\back.log' "$B/logs/index.tsv" || fail "logs/index.tsv escaping under BASH_COMPAT=42"
tr '\0' '\n' < "$B/processes/$TRAIN_PID/environ" | grep -qx 'HF_TOKEN=<redacted>' || fail "redaction under BASH_COMPAT=42"
finish
