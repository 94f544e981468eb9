#!/usr/bin/env bash
# scripts/regen-goldens.sh must refuse to run when CI=true, and write nothing.
#   test_regen_refuses_in_ci.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
msg=$(CI=true GOLDEN_DIR="$out" bash "$src/scripts/regen-goldens.sh" "$build" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then echo "FAIL: regen-goldens.sh ran with CI=true (exit 0)"; exit 1; fi
case "$msg" in
  *"refusing to run with CI=true"*) ;;
  *) echo "FAIL: no refusal message, got: $msg"; exit 1 ;;
esac
if [ -n "$(ls -A "$out")" ]; then echo "FAIL: files written with CI=true: $(ls -A "$out")"; exit 1; fi
# Control: without CI it does write (so the test above cannot pass by a broken script).
if ! env -u CI GOLDEN_DIR="$out" bash "$src/scripts/regen-goldens.sh" "$build" >/dev/null; then
  echo "FAIL: regen-goldens.sh failed without CI"; exit 1
fi
[ -s "$out/incident-910b-before-reboot/report.html" ] || { echo "FAIL: no report.html written without CI"; exit 1; }
echo "ok: refused with CI=true (exit $rc), wrote the goldens without it"
