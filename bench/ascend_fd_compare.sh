#!/usr/bin/env bash
# Issue 37: MindCluster ascend-fd and ascend-triage on the same inputs, side by side: the root
# worker/device each names, and the wall time of each. Not in CI (it needs ascend-fd's source).
#
# The inputs are ascend-fd's own root-cluster system-test cases (tests/data/ascend-fd-st/, copied
# from Ascend/mind-cluster, Apache-2.0; see the NOTICE there), each a directory of worker-N/
# directories. ascend-fd runs from its source tree: `parse -i worker-N -o OUT/parsed/worker-N`
# for each worker, then `diag -i OUT/parsed -o OUT/diag`, as its tests do; it needs Debian's
# python3-ply and /usr/bin/python3. ascend-triage runs `analyze --format json` on all the
# case's worker directories at once.
#
#   bench/ascend_fd_compare.sh [--fd-src DIR] [--triage BIN] [--cases DIR]
#     --fd-src  ascend-fd's src/ (default: $ASCEND_FD_SRC, else a checkout of Ascend/mind-cluster
#               at ../mind-cluster, component/ascend-faultdiag/src)
# Prints one row per case: case, ascend-fd's root and chain, its seconds, ascend-triage's leading
# hypothesis, its wait root, its seconds. Exit 77 when ascend-fd or ply is missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
fd_src=${ASCEND_FD_SRC:-$root/../mind-cluster/component/ascend-faultdiag/src}
triage=$root/build/ascend-triage
cases=$root/tests/data/ascend-fd-st
while (($#)); do
  case $1 in
    --fd-src) fd_src=$2; shift 2 ;;
    --triage) triage=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    *) echo "usage: $0 [--fd-src DIR] [--triage BIN] [--cases DIR]" >&2; exit 2 ;;
  esac
done
py=/usr/bin/python3
if [ ! -f "$fd_src/ascend_fd/cli.py" ] || ! "$py" -c 'import ply' 2>/dev/null; then
  echo "ascend_fd_compare: need ascend-fd's source (--fd-src, now $fd_src) and python3-ply" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ascend-fd reads its version from src/ascend_fd/Version.info, which a source checkout lacks:
# run a copy that has one, so the checkout stays untouched.
cp -r "$fd_src" "$work/src"
[ -f "$work/src/ascend_fd/Version.info" ] || printf 'source\nunknown\n' >"$work/src/ascend_fd/Version.info"
cat >"$work/fd.py" <<EOF
import sys
sys.path.insert(0, "$work/src")
from ascend_fd.cli import main
sys.argv = ["ascend-fd"] + sys.argv[1:]
main()
EOF
mkdir -p "$work/home"
now() { date +%s.%N; }

printf 'case\tascend-fd root\tascend-fd chain\tascend-fd s\tascend-triage lead\tascend-triage wait root\tascend-triage s\n'
for case_dir in "$cases"/*/; do
  name=$(basename "$case_dir")
  workers=("$case_dir"worker-*)
  out=$work/out-$name
  t0=$(now)
  for w in "${workers[@]}"; do
    mkdir -p "$out/parsed/$(basename "$w")"
    HOME=$work/home "$py" "$work/fd.py" parse -i "$w" -o "$out/parsed/$(basename "$w")" >/dev/null 2>&1 || true
  done
  mkdir -p "$out/diag"
  HOME=$work/home "$py" "$work/fd.py" diag -i "$out/parsed" -o "$out/diag" >/dev/null 2>&1 || true
  t1=$(now)
  rc=0
  "$triage" --quiet analyze --format json "${workers[@]}" >"$out/triage.json" 2>/dev/null || rc=$?
  t2=$(now)
  "$py" - "$out/diag/fault_diag_result/diag_report.json" "$out/triage.json" "$name" "$t0" "$t1" "$t2" "$rc" <<'PY'
import json, sys
fd_path, tr_path, name, t0, t1, t2, rc = sys.argv[1:]
try:
    rcres = json.load(open(fd_path, encoding="utf-8"))["Root_Cluster"]
    fd_root = ", ".join(rcres.get("root_cause_device", [])) or "-"
    fd_chain = rcres.get("remote_link", "") or "-"
except (OSError, ValueError, KeyError):
    fd_root, fd_chain = "(no result)", "-"
try:
    r = json.load(open(tr_path, encoding="utf-8"))
    ranked = r.get("verdict", {}).get("ranked", [])
    lead = ranked[0]["id"] if ranked else "no fault found"
    roots = [f["title"] for f in r.get("findings", []) if f["id"] == "collective/wait-root"]
    root = roots[0] if roots else "-"
except (OSError, ValueError, KeyError):
    lead, root = f"(exit {rc})", "-"
print(f"{name}\t{fd_root}\t{fd_chain}\t{float(t1) - float(t0):.2f}\t{lead}\t{root}\t{float(t2) - float(t1):.2f}")
PY
done
