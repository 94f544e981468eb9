#!/usr/bin/env bash
# The HTML report in a real browser (headless Chromium, Debian's `chromium` package):
#  1. the incident sample's report renders to a non-trivial PNG;
#  2. the XSS fixture's report (tests/data/xss-bundle) runs none of its payloads: after
#     loading, the DOM has no title set to XSS-MARKER and no data-xss attribute, both with the
#     page as shipped and with its Content-Security-Policy removed (so escaping alone is
#     tested, not only the policy);
#  3. control: a page with the raw payloads does set the markers (the check can fail).
#   test_html_in_chromium.sh BIN SOURCE_DIR
# Exit 77 (skipped) when chromium is missing, except with CI=true: then it fails.
set -u
bin=$1 src=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: chromium is not installed and CI=true (scripts/bootstrap.sh test installs it)"
    exit 1
  fi
  echo "SKIP: chromium is not installed (apt-get install chromium)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One fresh profile per run; no network, no updates, no first-run pages.
chrome() {
  local profile
  profile=$(mktemp -d "$tmp/profile.XXXXXX")
  timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --no-first-run --disable-background-networking --disable-component-update \
    --user-data-dir="$profile" "$@" 2>>"$tmp/chromium.log"
}
fail() {
  echo "FAIL: $*"
  echo "--- chromium log (tail)"
  tail -n 20 "$tmp/chromium.log"
  exit 1
}

cd "$src" || exit 1
# 1. Screenshot of the incident report.
"$bin" --color never analyze --format html -o "$tmp/incident.html" samples/incident-910b-before-reboot
[ $? -le 1 ] || fail "analyze of the incident sample failed"
chrome --screenshot="$tmp/incident.png" --window-size=1280,2000 "file://$tmp/incident.html" >/dev/null ||
  fail "chromium --screenshot exited $?"
[ -f "$tmp/incident.png" ] || fail "no screenshot written"
size=$(stat -c %s "$tmp/incident.png")
[ "$(head -c 8 "$tmp/incident.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot is not a PNG"
[ "$size" -gt 30000 ] || fail "screenshot is only $size bytes: a blank page?"
echo "ok: incident report rendered, PNG $size bytes"

# 2. The XSS fixture: payloads stay text.
"$bin" --color never analyze --format html -o "$tmp/xss.html" tests/data/xss-bundle
[ $? -le 1 ] || fail "analyze of the XSS fixture failed"
grep -q 'XSS-MARKER' "$tmp/xss.html" || fail "the fixture's payload is not in the report (the test would prove nothing)"
grep -v 'http-equiv="Content-Security-Policy"' "$tmp/xss.html" >"$tmp/xss-no-csp.html"
check_inert() {  # $1 page, $2 label
  local dom=$tmp/$2.dom
  chrome --dump-dom --virtual-time-budget=3000 "file://$1" >"$dom" || fail "$2: chromium --dump-dom exited $?"
  grep -q 'device-exception' "$dom" || fail "$2: the dumped DOM lacks the finding (empty dump?)"
  grep -q '<title>XSS-MARKER' "$dom" && fail "$2: a payload set the document title"
  grep -q 'data-xss="1"' "$dom" && fail "$2: a payload set data-xss on the body"
  echo "ok: $2: no payload ran ($(stat -c %s "$dom") bytes of DOM)"
}
check_inert "$tmp/xss.html" "report as shipped"
check_inert "$tmp/xss-no-csp.html" "report without its CSP"

# 3. Control: the same payloads unescaped do run in this browser.
cat >"$tmp/control.html" <<'HTML'
<!DOCTYPE html><html><head><title>control</title></head><body><p>device-exception</p>
<img src=x onerror="document.title='XSS-MARKER'">
<script>document.body.setAttribute('data-xss','1')</script></body></html>
HTML
chrome --dump-dom --virtual-time-budget=3000 "file://$tmp/control.html" >"$tmp/control.dom" || fail "control: chromium exited $?"
grep -q 'data-xss="1"' "$tmp/control.dom" || fail "control: the raw script did not run: the check cannot detect XSS"
grep -q '<title>XSS-MARKER' "$tmp/control.dom" || fail "control: the raw onerror did not run: the check cannot detect XSS"
echo "ok: control page ran both payloads (the check detects them)"
