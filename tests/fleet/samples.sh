#!/usr/bin/env bash
# ascend-triage fleet on the generated 4-node samples (samples/fleet-4node*): the map step
# writes schema-valid summaries; the reduce names the faulty node first whatever the order of
# its arguments (summaries, bundles, a directory, an @list), also when that node's clock runs
# 5 minutes ahead, and names node 1 in the variant where node 1 faults; analyze of all four
# bundles (and of their directory) leads with the same node; the wait graph (fleet's and analyze's) roots at the faulty
# rank; bad summaries exit 2 naming the file; an older summary without wait edges still loads.
# Usage: samples.sh BIN JSON_SCHEMA_CHECK REPO_ROOT
set -euo pipefail
bin=$1 check=$2 root=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

first_node() {  # the node the text report names first
  sed -n 's/^  1\. origin  \([^ :]*\).*/\1/p' "$1"
}

for variant in fleet-4node fleet-4node-skew fleet-4node-node1; do
  want=node3 wantrank=7
  [ "$variant" = fleet-4node-node1 ] && want=node1 wantrank=2
  dir=$tmp/$variant
  mkdir -p "$dir"
  for n in 0 1 2 3; do
    rc=0
    "$bin" --quiet analyze --format summary "$root/samples/$variant/node$n" -o "$dir/node$n.json" || rc=$?
    [ "$rc" = 1 ] || fail "$variant node$n: analyze --format summary exited $rc, want 1 (findings)"
  done
  "$check" "$root/docs/schemas/summary.schema.json" "$dir"/node*.json >/dev/null ||
    fail "$variant: a summary breaks docs/schemas/summary.schema.json"
  # Several orders of the summaries: the same report, byte for byte, naming $want first.
  ref=""
  for order in "0 1 2 3" "3 2 1 0" "2 0 3 1" "1 3 0 2" "3 0 1 2"; do
    args=()
    for n in $order; do args+=("$dir/node$n.json"); done
    rc=0
    "$bin" fleet "${args[@]}" >"$tmp/out.txt" || rc=$?
    [ "$rc" = 1 ] || fail "$variant ($order): fleet exited $rc, want 1"
    got=$(first_node "$tmp/out.txt")
    [ "$got" = "$want" ] || { cat "$tmp/out.txt"; fail "$variant ($order): first origin is '$got', want $want"; }
    if [ -z "$ref" ]; then ref=$(cat "$tmp/out.txt"); elif [ "$ref" != "$(cat "$tmp/out.txt")" ]; then
      fail "$variant ($order): the report depends on the argument order"
    fi
  done
  # Waiters: every other node, after the origin.
  waiters=$(grep -c '^ *[0-9]*\. waiter ' "$tmp/out.txt" || true)
  [ "$waiters" = 3 ] || { cat "$tmp/out.txt"; fail "$variant: $waiters waiters, want 3"; }
  # The summaries' directory, an @list, and the bundles themselves give the same report.
  printf '%s\n' "$dir/node2.json" "# a comment" "$dir/node0.json" "$dir/node3.json" "$dir/node1.json" >"$tmp/list.txt"
  "$bin" fleet "@$tmp/list.txt" >"$tmp/list.out" || true
  [ "$(cat "$tmp/list.out")" = "$ref" ] || fail "$variant: @list gives another report"
  "$bin" fleet "$dir" >"$tmp/dir.out" || true
  [ "$(cat "$tmp/dir.out")" = "$ref" ] || fail "$variant: a directory of summaries gives another report"
  "$bin" --quiet fleet -j 2 "$root/samples/$variant/node1" "$root/samples/$variant/node3" \
    "$root/samples/$variant/node0" "$root/samples/$variant/node2" >"$tmp/bundles.out" || true
  [ "$(first_node "$tmp/bundles.out")" = "$want" ] || { cat "$tmp/bundles.out"; fail "$variant: bundles: first is not $want"; }
  "$bin" --quiet fleet "$root/samples/$variant" >"$tmp/bdir.out" || true
  [ "$(first_node "$tmp/bdir.out")" = "$want" ] || fail "$variant: directory of bundles: first is not $want"
  for fmt in md json html; do
    "$bin" fleet --format "$fmt" "$dir" >"$tmp/out.$fmt" || true
    grep -q "$want" "$tmp/out.$fmt" || fail "$variant: --format $fmt does not name $want"
  done
  # The HTML page: the origin's row first, a lane per node, nothing that runs or loads.
  grep -q "<tr class=\"sev-error\"><td>1</td><td><span class=\"badge\">origin</span></td><td>$want rank $wantrank " "$tmp/out.html" ||
    fail "$variant: HTML: the first row is not the origin $want rank $wantrank"
  [ "$(grep -c '<circle ' "$tmp/out.html")" = 4 ] || fail "$variant: HTML: want one chart lane per node"
  grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$tmp/out.html" || fail "$variant: HTML: no CSP"
  ! grep -qiE '<script|<img|<link|src=|href="http' "$tmp/out.html" || fail "$variant: HTML: something that runs or loads"
  python3 - "$tmp/out.json" "$want" "$wantrank" <<'PY' || fail "$variant: JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "ascend-triage-fleet/1", r["schema"]
n = r["nodes"]
assert n[0]["node"] == sys.argv[2] and n[0]["role"] == "origin", n[0]
assert n[0]["first_finding"]["class"] == "device-error", n[0]
assert [x["role"] for x in n[1:]] == ["waiter"] * 3, n
# The wait graph: the seven other ranks report the faulty device's heartbeat lost, by address.
g = r["wait_graph"]
assert (g["edges"], g["ranks"], g["nodes_with_waits"]) == (7, 8, 4), g
root = g["root"]
assert (root["node"], root["rank"], root["waiters"], root["in_cycle"]) == (sys.argv[2], sys.argv[3], 7, False), root
assert root["agrees_with_cause_first_order"] and root["disagreement"] == "", root
assert root["corrected_first_error_us"] is not None, root
PY
  # The text names the root with its count, and the cause-first order agrees.
  grep -q "^Wait graph (7 wait edges from 4 nodes, 8 ranks): rank $wantrank dev [01] on $want: 7 ranks waited on it;.*The cause-first order names the same node first\.$" \
    "$tmp/out.txt" || { cat "$tmp/out.txt"; fail "$variant: the wait graph's root is not rank $wantrank on $want"; }
  # analyze of all four bundles agrees with fleet on the origin: its host comes first, and no
  # other host's "insufficient evidence" ranks above it (docs/verdict.md, several hosts). The
  # origin's AI Core exception carries no errorStr and no device-side evidence, so it names
  # no cause (issue 36, "Symptom or cause"): insufficient evidence leads there, device hardware
  # second on the same host with the other ranks' timeouts as its consequences.
  "$bin" --quiet analyze --format json "$root/samples/$variant"/node* >"$tmp/all.json" || true
  python3 - "$tmp/all.json" "$want" <<'PY' || fail "$variant: analyze of all bundles does not lead with $want"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["verdict"]["ranked"]
assert (r[0]["id"], r[0]["host"]) == ("insufficient-evidence", sys.argv[2]), r[0]
assert (r[1]["id"], r[1]["host"]) == ("device-hardware", sys.argv[2]), r[1]
assert d["verdict"]["next_check"]["separates"] == "insufficient-evidence vs device-hardware", d["verdict"]["next_check"]
# The other ranks' timeouts are its consequences: counted by the processes whose lines the
# consequences cite (one finding per host and event since issue 38, not one per process).
plogs = {e["entry"] for c in r[1]["consequences"] for e in d["findings"][c["index"]]["evidence"]}
assert len(plogs) >= 6, r[1]
PY
  # The sample's directory as one input is its four node directories (ingest/load.cpp).
  "$bin" --quiet analyze --format json "$root/samples/$variant" >"$tmp/dir.json" || true
  python3 - "$tmp/dir.json" "$want" <<'PY' || fail "$variant: analyze of the directory does not lead with $want"
import json, sys
r = json.load(open(sys.argv[1]))["verdict"]["ranked"]
assert (r[0]["id"], r[0]["host"]) == ("insufficient-evidence", sys.argv[2]), r[0]
assert (r[1]["id"], r[1]["host"]) == ("device-hardware", sys.argv[2]), r[1]
PY
  # analyze names the same rank the others waited on, on its own host.
  python3 - "$tmp/all.json" "$want" "$wantrank" <<'PY' || fail "$variant: analyze's wait root is not rank $wantrank on $want"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["id"] == "collective/wait-root"]
assert len(f) == 1, f
assert f[0]["host"] == sys.argv[2] and f[0]["observed"].startswith("rank %s dev " % sys.argv[3]), f[0]
assert f[0]["observed"].endswith(" on %s: 7 ranks waited on it" % sys.argv[2]), f[0]
# "In short" names what fleet names: the root rank, its host, device and pid, its own failure,
# and no waiting rank's pid (correlator/passes/verdict_reply.cpp).
d = json.load(open(sys.argv[1]))
reply, root = d["verdict"]["reply"], f[0]["values"]
origin = [x for x in d["findings"] if x["id"] == "device-exception/aicore-exception"][0]["values"]
assert reply.startswith("No cause named yet. 7 ranks waited on %s; its failure (error): AI Core" % root["root"]), reply
assert "\nWhere: host %s, device %s, rank %s, pid %s.\n" % (sys.argv[2], root["root_device"], sys.argv[3], origin["pid"]) in reply, reply
PY
done

# The skew variant: node3's offset is measured at +300 s (the marker jitter is < 1 s).
"$bin" fleet "$tmp/fleet-4node-skew" >"$tmp/skew.txt" || true
grep -Eq '^  node3 +\+(299|300)\.[0-9] s' "$tmp/skew.txt" || { cat "$tmp/skew.txt"; fail "skew: node3 not measured at +300 s"; }
# Node 2's other firmware patch is the one difference from the majority.
grep -q 'firmware: 9.0.0.0.205 on 3 of 4 nodes; differs: node2 9.0.0.0.201;' "$tmp/skew.txt" ||
  { cat "$tmp/skew.txt"; fail "firmware difference of node2 not reported"; }

# Bad input: exit 2 and the file named.
d=$tmp/fleet-4node
head -c 100 "$d/node0.json" >"$tmp/truncated.json"
"$bin" --quiet analyze --format json "$root/samples/fleet-4node/node0" -o "$tmp/report.json" || true
sed 's/"first_utc_us": \([0-9]*\)/"first_utc_us": "\1"/' "$d/node1.json" >"$tmp/wrongtype.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/wrongtype.json" || fail "wrongtype.json is not JSON"
printf 'not json at all\n' >"$tmp/text.json"
# Times at the int64 limit printed impossible dates and a zero skew (issue 33): refused.
sed 's/"first_utc_us": [0-9][0-9]*/"first_utc_us": 9223372036854775807/' "$d/node1.json" >"$tmp/farfuture.json"
! "$check" "$root/docs/schemas/summary.schema.json" "$tmp/wrongtype.json" >/dev/null 2>&1 ||
  fail "the summary schema accepts a string where first_utc_us is an integer"
truncate -s 300M "$tmp/huge.json"  # sparse: refused by its size, never read
for bad in truncated report wrongtype text huge farfuture; do
  rc=0
  "$bin" fleet "$d/node0.json" "$tmp/$bad.json" 2>"$tmp/err" >/dev/null || rc=$?
  [ "$rc" = 2 ] || fail "$bad.json: exit $rc, want 2"
  grep -q "$tmp/$bad.json" "$tmp/err" || { cat "$tmp/err"; fail "$bad.json: the error does not name the file"; }
done
grep -q "$tmp/wrongtype.json: /nodes/0/findings/0/first_utc_us: expected an integer or null" \
  <("$bin" fleet "$tmp/wrongtype.json" 2>&1) || fail "the wrong type is not named by its JSON Pointer"
grep -q 'is not ascend-triage-summary/1' <("$bin" fleet "$tmp/report.json" 2>&1) || fail "a full report is not told apart"
# A summary written before issue 37 (no waits, no addresses) is read as one without wait lines.
python3 - "$d/node1.json" "$tmp/old.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for n in s["nodes"]:
    del n["waits"], n["addresses"]
json.dump(s, open(sys.argv[2], "w"))
PY
"$check" "$root/docs/schemas/summary.schema.json" "$tmp/old.json" >/dev/null || fail "an older summary breaks the schema"
rc=0; "$bin" fleet "$d/node0.json" "$tmp/old.json" "$d/node2.json" "$d/node3.json" >"$tmp/old.out" || rc=$?
[ "$rc" = 1 ] || fail "with an older summary: exit $rc, want 1"
grep -q '^Wait graph (5 wait edges from 3 nodes, 6 ranks): rank 7 dev 1 on node3: 5 ranks waited on it' "$tmp/old.out" ||
  { cat "$tmp/old.out"; fail "with an older summary: the wait graph of the other three"; }
# A hostile host name reaches the HTML as text only (escaped; control bytes shown as \xNN).
python3 - "$d/node1.json" "$tmp/hostile.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for n in s["nodes"]:
    n["host"] = '<script>alert(1)</script>"\x1b[2J&'
json.dump(s, open(sys.argv[2], "w"))
PY
"$bin" fleet --format html "$d/node0.json" "$tmp/hostile.json" >"$tmp/hostile.html" || true
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;&quot;\\x1b\[2J&amp;' "$tmp/hostile.html" ||
  { grep -n 'alert' "$tmp/hostile.html" | head -3; fail "HTML: a hostile host name is not escaped"; }
! grep -q '<script' "$tmp/hostile.html" || fail "HTML: a host name became markup"
! LC_ALL=C grep -q $'\x1b' "$tmp/hostile.html" || fail "HTML: a control byte reached the page"
rc=0; "$bin" fleet "$tmp/missing.json" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "missing input: exit $rc, want 2"
echo "fleet samples: ok"
