#!/usr/bin/env bash
# Screenshot of the HTML report of samples/incident-910b-before-reboot for the README:
#   bash scripts/screenshot-report.sh [BUILD_DIR]     (default: build)
# Writes docs/img/incident-910b-before-reboot.png (1280 px wide, the top 2000 px of the page)
# with headless Chromium (Debian's `chromium`), offline: no network, a throw-away profile.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "screenshot-report: chromium is not installed (apt-get install chromium)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
set +e
"$build/ascend-triage" --color never analyze --format html -o "$tmp/report.html" samples/incident-910b-before-reboot
rc=$?
set -e
[ "$rc" -le 1 ] || { echo "screenshot-report: analyze failed (exit $rc)" >&2; exit 1; }
mkdir -p docs/img
out=docs/img/incident-910b-before-reboot.png
timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --disable-background-networking --disable-component-update --user-data-dir="$tmp/profile" \
  --hide-scrollbars --screenshot="$src/$out" --window-size=1280,2000 "file://$tmp/report.html" >/dev/null 2>"$tmp/log" ||
  { cat "$tmp/log" >&2; exit 1; }
echo "screenshot-report: wrote $out ($(stat -c %s "$out") bytes)"
