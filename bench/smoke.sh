#!/usr/bin/env bash
# ctest bench.smoke: the benchmark harness runs end to end on a tiny bundle, so it cannot rot.
#   bench/smoke.sh ASCEND_TRIAGE WORK_DIR
# Checks: the generator is deterministic for a seed; compare.sh --quick measures all five
# commands; zstd|rg and rg on the directory count the same matching lines (the same bytes
# were searched); analyze reads the generated bundle and finds its stall. Exit 77 (skip)
# when a tool is missing, as compare.sh says.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
triage=$1 work=$2
rm -rf "$work"
mkdir -p "$work/a" "$work/b"

python3 "$here/gen_bundle.py" --size 2M --seed 7 --no-pack --out "$work/a" >/dev/null
python3 "$here/gen_bundle.py" --size 2M --seed 7 --no-pack --out "$work/b" >/dev/null
cmp "$work"/a/*/manifest.json "$work"/b/*/manifest.json || { echo "FAIL: gen_bundle is not deterministic for a seed"; exit 1; }

rc=0
BENCH_DIR=$work/cache bash "$here/compare.sh" --quick --json "$work/figures.json" --triage "$triage" 8M >"$work/compare.log" 2>&1 || rc=$?
cat "$work/compare.log"
((rc == 0)) || exit "$rc"

python3 - "$work/figures.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
fig = doc["sizes"]["8M"]
tools = fig["tools"]
assert set(tools) == {"zstd_only", "zstd_rg", "rg_dir", "analyze_archive", "analyze_dir",
                     "analyze_archive_1t", "analyze_dir_1t"}, tools.keys()
assert 8 << 20 <= fig["bytes"] < 9 << 20, fig["bytes"]
for name, t in tools.items():
    assert t["wall_s"] > 0 and t["peak_rss_mib"] > 0 and t["lines_per_s"] > 0, (name, t)
assert tools["zstd_rg"]["matching_lines"] == tools["rg_dir"]["matching_lines"] > 0, tools
assert set(fig["ratios"]) == {"analyze_archive/zstd_rg", "analyze_dir/rg_dir", "analyze_archive/zstd_only",
                              "analyze_archive/analyze_archive_1t", "analyze_dir/analyze_dir_1t"}, fig["ratios"]
assert doc["rg_alternation"].count("|") > 20
print("bench.smoke: figures complete;", tools["zstd_rg"]["matching_lines"], "matching lines in both rg forms")
PY

archive=$(ls "$work"/cache/8M-seed1/*.tar.zst)
"$triage" analyze --format json "$archive" -o "$work/report.json" || [ $? -eq 1 ]
python3 - "$work/report.json" <<'PY'
import json, sys
ids = [f["id"] for f in json.load(open(sys.argv[1]))["findings"]]
assert "stream-stall" in ids, f"the generated stall was not found: {ids}"
assert "input-damaged/checksum" not in ids and "bundle/missing-entry" not in ids, ids
print("bench.smoke: analyze reads the generated bundle and finds its stall")
PY
rm -rf "$work"
