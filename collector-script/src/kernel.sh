# shellcheck shell=bash
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
