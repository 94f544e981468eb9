# shellcheck shell=bash
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
