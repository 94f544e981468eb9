#!/usr/bin/env bash
# ctest bench.matrix_smoke: issue 35's matrix harness runs end to end on a tiny size, so it
# cannot rot. It asserts completeness, never speed.
#   bench/matrix_smoke.sh ASCEND_TRIAGE WORK_DIR
# Checks: gen_mix.py is deterministic for a seed; matrix.sh --runs 1 on 4M of two mixes
# measures all five commands per row and both rg forms count the same lines;
# matrix_report.py makes the table (a verdict on every row) and the SVG (a polyline per mix
# and form). Exit 77 (skip) when a tool is missing, as matrix.sh says.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
triage=$1 work=$2
rm -rf "$work"
mkdir -p "$work/a" "$work/b"

python3 "$here/gen_mix.py" --mix error-storm --size 4M --seed 7 --no-pack --out "$work/a" >/dev/null
python3 "$here/gen_mix.py" --mix error-storm --size 4M --seed 7 --no-pack --out "$work/b" >/dev/null
cmp "$work"/a/*/manifest.json "$work"/b/*/manifest.json || { echo "FAIL: gen_mix is not deterministic for a seed"; exit 1; }

rc=0
BENCH_DIR=$work/cache bash "$here/matrix.sh" --sizes 4M --mixes "error-storm tracebacks" --runs 1 --cleanup \
  --triage "$triage" --json "$work/matrix.json" >"$work/matrix.log" 2>&1 || rc=$?
cat "$work/matrix.log"
((rc == 0)) || exit "$rc"
python3 "$here/matrix_report.py" "$work/matrix.json" --md "$work/matrix.md" --svg "$work/matrix.svg"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
doc = json.load(open(f"{work}/matrix.json"))
rows = {(r["mix"], r["size"]): r for r in doc["rows"]}
assert set(rows) == {("error-storm", "4M"), ("tracebacks", "4M")}, rows.keys()
for key, r in rows.items():
    t = r["tools"]
    assert set(t) == {"zstd_only", "zstd_rg", "rg_dir", "analyze_archive", "analyze_dir"}, (key, t.keys())
    for name, f in t.items():
        assert f["wall_s"] > 0 and f["peak_rss_mib"] > 0 and f["exit"] <= 1, (key, name, f)
    assert t["zstd_rg"]["matching_lines"] == t["rg_dir"]["matching_lines"] > 0, (key, t)
    assert 4 << 20 <= r["bytes"] < 6 << 20, (key, r["bytes"])
assert doc["sessions"][0]["uptime_start"] and doc["sessions"][0]["uptime_end"], doc["sessions"]
md = open(f"{work}/matrix.md").read()
table = [l for l in md.splitlines() if l.startswith(("| error-storm | 4M |", "| tracebacks | 4M |"))
         and ("| archive |" in l or "| dir |" in l)]
assert len(table) == 4 and all(l.split("|")[10].strip() in ("PASS", "FAIL") for l in table), table
svg = open(f"{work}/matrix.svg").read()
assert svg.count("<polyline") == 8, svg.count("<polyline")     # 2 mixes x 2 forms x 2 panels
print("bench.matrix_smoke: 2 rows of 5 commands, table and plot complete")
PY
rm -rf "$work"
