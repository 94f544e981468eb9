# shellcheck shell=bash
# Phase extra: files the user asked for with --add.

# Files the user asked for with --add: under extra/<original path>.
phase_extra() {
  local p
  for p in "${OPT_ADD[@]}"; do
    if [ -d "$ROOT$p" ]; then copy_listed extra "$p"; else step_copy "extra$p" "$p"; fi
  done
}
