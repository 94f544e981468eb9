# shellcheck shell=bash
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
