#!/usr/bin/env bash
# The HTML timeline's focus chart, measured in a real browser (issue 25): for each incident
# sample, at a 1280 px window, the stall's rendered width is at least 20 % of the focus
# chart's (getBoundingClientRect in headless Chromium, not the SVG's own numbers), while on
# the whole-range chart it is under 5 % (the control: without the focus chart the stall is
# a few pixels wide, so the check can fail).
# The measuring script is added to a copy of the report with its Content-Security-Policy
# removed; the report itself runs no script.
#   test_focus_chart.sh BIN SOURCE_DIR
# Exit 77 (skipped) when chromium is missing, except with CI=true: then it fails.
set -u
bin=$1 src=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: chromium is not installed and CI=true"; exit 1; }
  echo "SKIP: chromium is not installed (apt-get install chromium)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$tmp/chromium.log" 2>/dev/null; exit 1; }

measure_js='<script>
window.addEventListener("load", () => {
  const width = (label) => {
    const svg = document.querySelector(`svg[aria-label="${label}"]`);
    if (!svg) return "none";
    let stall = 0;
    svg.querySelectorAll("rect.tl-stall").forEach(r => { stall = Math.max(stall, r.getBoundingClientRect().width); });
    return `${svg.getBoundingClientRect().width.toFixed(1)}:${stall.toFixed(1)}`;
  };
  const p = document.createElement("pre");
  p.id = "measure";
  p.textContent = `focus=${width("timeline of the incident window")} whole=${width("timeline of the whole evidence")}`;
  document.body.appendChild(p);
});
</script>'

for sample in incident-910b-before-reboot incident-910b-after-reboot; do
  "$bin" --color never analyze --format html -o "$tmp/$sample.html" "$src/samples/$sample"
  [ $? -le 1 ] || fail "$sample: analyze failed"
  grep -v 'http-equiv="Content-Security-Policy"' "$tmp/$sample.html" |
    awk -v js="$measure_js" '/<\/body>/ { print js } { print }' >"$tmp/$sample.measure.html"
  profile=$(mktemp -d "$tmp/profile.XXXXXX")
  timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-background-networking --disable-component-update --user-data-dir="$profile" \
    --window-size=1280,2000 --virtual-time-budget=3000 --dump-dom "file://$tmp/$sample.measure.html" \
    >"$tmp/$sample.dom" 2>>"$tmp/chromium.log" || fail "$sample: chromium exited $?"
  line=$(grep -o '<pre id="measure">[^<]*' "$tmp/$sample.dom" | sed 's/.*>//') || fail "$sample: no measurement in the DOM (did the script run?)"
  echo "$sample: $line"
  python3 - "$sample" "$line" <<'PY' || exit 1
import sys
sample, line = sys.argv[1], sys.argv[2]
parts = dict(p.split("=", 1) for p in line.split())
def ratio(v):
    if v == "none":
        sys.exit(f"FAIL: {sample}: chart missing ({line})")
    w, s = (float(x) for x in v.split(":"))
    if w < 600:
        sys.exit(f"FAIL: {sample}: chart only {w} px wide at a 1280 px window")
    return s / w
focus, whole = ratio(parts["focus"]), ratio(parts["whole"])
if focus < 0.20:
    sys.exit(f"FAIL: {sample}: the stall is {focus:.1%} of the focus chart (want >= 20 %)")
if whole >= 0.05:
    sys.exit(f"FAIL: {sample}: control: the stall is already {whole:.1%} of the whole-range chart")
print(f"ok: {sample}: stall {focus:.1%} of the focus chart, {whole:.1%} of the whole range")
PY
done
