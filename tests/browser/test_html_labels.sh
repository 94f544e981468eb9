#!/usr/bin/env bash
# The HTML report of every sample in headless Chromium (issue 38), one of two checks:
#   labels:   no two <text> labels of a timeline SVG overlap (their getBBox boxes, measured by
#             tests/browser/measure_html.js; more than 0.5 px both ways is an overlap);
#   markdown: no text node outside <pre>, <code> and SVG <title> shows a backtick or "**".
# Samples: every samples/<name>/ (the fleet ones, samples/<name>/node*/, analysed together);
# for labels, those whose page draws a timeline.
# A control page first: two overlapping labels and a literal `code` must be reported, so the
# check can fail. The measuring script goes into a copy of each report with its
# Content-Security-Policy removed; the report itself runs no script.
#   test_html_labels.sh BIN SOURCE_DIR labels|markdown
# Exit 77 (skipped) when chromium is missing, except with CI=true: then it fails.
set -u
bin=$1 src=$2 mode=$3
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: chromium is not installed and CI=true"; exit 1; }
  echo "SKIP: chromium is not installed (apt-get install chromium)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$tmp/chromium.log" 2>/dev/null; exit 1; }

# measure PAGE NAME: loads a copy of PAGE with the script, prints the JSON result.
measure() {
  local page=$1 name=$2 profile
  { grep -v 'http-equiv="Content-Security-Policy"' "$page" | sed '/<\/body>/,$d'
    printf '<script>\n'; cat "$src/tests/browser/measure_html.js"; printf '</script>\n</body>\n</html>\n'; } >"$tmp/$name.measure.html"
  profile=$(mktemp -d "$tmp/profile.XXXXXX")
  timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-background-networking --disable-component-update --user-data-dir="$profile" \
    --window-size=1280,2000 --virtual-time-budget=3000 --dump-dom "file://$tmp/$name.measure.html" \
    >"$tmp/$name.dom" 2>>"$tmp/chromium.log" || fail "$name: chromium exited $?"
  python3 - "$tmp/$name.dom" <<'PY' || fail "$name: no measurement in the DOM (did the script run?)"
import html, re, sys
m = re.findall(r'<pre id="measure">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
if not m:
    sys.exit(1)
print(html.unescape(m[-1]))
PY
}

# judge NAME JSON EXPECT: EXPECT "clean" fails on a finding, "dirty" fails without one.
judge() {
  python3 - "$mode" "$1" "$2" "$3" <<'PY'
import json, sys
mode, name, text, expect = sys.argv[1:]
r = json.loads(text)
found = r["overlaps"] if mode == "labels" else r["markdown"]
what = f'{r["labels"]} label(s) in {r["svgs"]} timeline SVG(s)' if mode == "labels" else "every text node"
if expect == "dirty":
    if not found:
        sys.exit(f"FAIL: control {name}: nothing reported: the check cannot fail")
    print(f"ok: control {name}: {len(found)} reported ({found[0]})")
    sys.exit(0)
if mode == "labels" and r["svgs"] == 0:
    print(f"-- {name}: no timeline SVG (no dated event)")
    sys.exit(3)
if mode == "labels" and r["labels"] == 0:
    sys.exit(f"FAIL: {name}: no timeline label measured (the check would prove nothing)")
if found:
    print(f"FAIL: {name}: {len(found)} problem(s) in {what}:")
    for f in found[:20]:
        print("  " + f)
    sys.exit(1)
print(f"ok: {name}: {what}, none {'overlaps' if mode == 'labels' else 'shows Markdown'}")
PY
}

cat >"$tmp/control.html" <<'HTML'
<!DOCTYPE html><html><head><title>control</title></head><body><p>run `npu-smi info` **now**</p>
<section class="timeline"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 60" aria-label="control">
<text x="10" y="30" style="font:12px sans-serif">reboot</text><text x="30" y="32" style="font:12px sans-serif">collected</text>
</svg></section>
</body></html>
HTML
judge control "$(measure "$tmp/control.html" control)" dirty || exit 1

cd "$src" || exit 1
status=0 pages=0
for dir in samples/*/; do
  name=$(basename "$dir")
  [ "$name" = tools ] && continue
  if [ -d "$dir/node0" ]; then set -- "$dir"node*/; else set -- "$dir"; fi
  "$bin" --color never analyze --format html -o "$tmp/$name.html" "$@" >/dev/null 2>"$tmp/$name.err"
  [ $? -le 1 ] || { echo "FAIL: $name: analyze failed: $(head -c 300 "$tmp/$name.err")"; status=1; continue; }
  json=$(measure "$tmp/$name.html" "$name") || exit 1
  judge "$name" "$json" clean
  case $? in
    0) pages=$((pages + 1)) ;;
    3) ;;
    *) status=1 ;;
  esac
done
# Seven samples draw a timeline (incident-loose-files has no dated event).
[ "$status" -ne 0 ] || [ "$pages" -ge 7 ] || fail "only $pages sample page(s) measured"
exit $status
