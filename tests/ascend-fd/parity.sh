#!/usr/bin/env bash
# ascend_fd.parity (issue 37): analyze of each case of tests/data/ascend-fd-st/ (all its
# worker-N directories at once) leads with the root worker and device that ascend-fd's own
# tests require of it (component/ascend-faultdiag/test/st/test_st.py, as the README there states;
# not from our output): the leading hypothesis is supported by collective/wait-root first,
# and that finding names the worker (root_host) and device (root_device) and, for a cycle,
# both devices of the cycle in its chain. The same with the case's directory as the one input
# (a directory of worker-N directories is its members).
# Usage: parity.sh BIN REPO_ROOT
set -euo pipefail
bin=$1 root=$2
cases=$root/tests/data/ascend-fd-st
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# case | root worker | root device(s) | other worker:device the chain must name ("" = none)
while IFS='|' read -r name worker devices chain; do
  inputs=("$cases/$name"/worker-*)
  single=$(( ${#inputs[@]} == 1 ))
  # The worker directories as inputs, and the case's directory (its members) as one input.
  for form in workers directory; do
  rc=0
  if [ $form = workers ]; then args=("${inputs[@]}"); else args=("$cases/$name"); fi
  "$bin" --quiet analyze --format json "${args[@]}" >"$tmp/$name.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "FAIL: $name ($form): analyze exited $rc"; fail=1; continue; }
  python3 - "$tmp/$name.json" "$name ($form)" "$worker" "$devices" "$chain" "$single" <<'PY' || fail=1
import json, sys
path, name, worker, devices, chain, single = sys.argv[1:]
r = json.load(open(path))
ranked = r["verdict"]["ranked"]
roots = [f for f in r["findings"] if f["id"] == "collective/wait-root"]
def fail(msg):
    print(f"FAIL: {name}: {msg}")
    print("  lead:", ranked[0]["id"] if ranked else None, ranked[0].get("host") if ranked else None)
    for f in roots:
        print("  wait-root:", f["observed"], f.get("values"))
    sys.exit(1)
if worker == "-":  # ascend-fd: "Unknown Device": no member's device may be named the root
    for f in roots:
        v = f.get("values", {})
        if v.get("root_host") not in (None, "", "(no log read)") and v.get("root_device"):
            fail("names a root device where ascend-fd names none")
    print(f"ok: {name}: no root device named")
    sys.exit(0)
if not ranked or not roots:
    fail("no leading hypothesis or no collective/wait-root finding")
lead = ranked[0]
sup = lead.get("supporting", [])
if not sup or sup[0]["id"] != "collective/wait-root":
    fail("the leading hypothesis is not supported first by collective/wait-root")
if len(roots) != 1:
    fail(f"{len(roots)} collective/wait-root findings, want 1")
f = roots[0]
v = f.get("values", {})
if v.get("root_host") != worker:
    fail(f"root worker {v.get('root_host')!r}, want {worker}")
# One input is no job of several members: its host is what its files say (none here).
if lead.get("host") != worker and not (single == "1" and lead.get("host") == ""):
    fail(f"the leading hypothesis is on {lead.get('host')!r}, want {worker}")
if sorted(v.get("root_device", "").split(",")) != sorted(devices.split(",")):
    fail(f"root device {v.get('root_device')!r}, want {devices}")
if chain:
    w, d = chain.split(":")
    if f"dev {d} on {w}" not in v.get("chain", ""):
        fail(f"the chain {v.get('chain')!r} does not name {w} device {d}")
if not f.get("evidence"):
    fail("no evidence lines")
print(f"ok: {name}: {f['observed']}")
PY
  done
done <<'CASES'
event-timeout|worker-1|0|worker-0:0
transport-timeout|worker-1|1|worker-0:2
aicpu-notify|worker-0|11|worker-1:3
transport-init|worker-0|0|worker-2:2
transport-init-no-device-id|-||
cqe|worker-9|4,5|
CASES
exit $fail
