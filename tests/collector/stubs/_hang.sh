# shellcheck shell=bash
# Shared by the stubs: behave like a tool stuck in the driver. Ignores TERM, records its pid
# (and the grandchild's) in $FAKE_HOST/state/pids so the test can kill them, and gives up
# by itself after a bounded time so nothing outlives a forgotten test by long.
# $1: "alone", or "with-grandchild" to leave a process holding our stdout.
hang_like_a_stuck_tool() {
  local i
  trap '' TERM INT HUP
  echo "$$" >> "$FAKE_HOST/state/pids"
  if [ "$1" = with-grandchild ]; then
    # A grandchild in a session of its own keeps our stdout open after we are killed.
    setsid sleep 150 &
    echo "$!" >> "$FAKE_HOST/state/pids"
  fi
  printf 'partial output before the hang\n'
  for ((i = 0; i < 150; i++)); do sleep 1; done
  exit 0
}

stub_mode() { cat "$FAKE_HOST/state/$1.mode" 2>/dev/null || echo ok; }

record_call() { printf '%s %s\n' "$1" "${*:2}" >> "$FAKE_HOST/state/calls"; }
