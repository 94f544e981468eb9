#!/usr/bin/env bash
# Fleet benchmark (issue 24): generates a fleet (bench/gen_fleet.py), then measures the map
# (`fleet` mapping every bundle, -j = all cores) and the reduce alone (`fleet` on the kept
# summaries), and checks that the faulty node is named first.
#   bench/fleet_bench.sh [--triage BIN] [NODES [SIZE_PER_NODE]]     (default 64 32M)
# Bundles are kept under $BENCH_DIR (default /tmp/ascend-triage-bench). Prints one line of
# figures and `uptime`: the figures depend on the machine's load.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../build/ascend-triage
if [ "${1:-}" = --triage ]; then bin=$2; shift 2; fi
nodes=${1:-64} size=${2:-32M}
[ -x "$bin" ] || { echo "no $bin (build first or --triage BIN)"; exit 77; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time, Debian: time) is needed"; exit 77; }
dir=${BENCH_DIR:-/tmp/ascend-triage-bench}/fleet-$nodes-$size
if [ ! -f "$dir/done" ]; then
  rm -rf "$dir"
  python3 "$here/gen_fleet.py" --nodes "$nodes" --size "$size" --out "$dir/bundles" >/dev/null
  touch "$dir/done"
fi
bytes=$(du -sb "$dir/bundles" | cut -f1)
cores=$(nproc)
rm -rf "$dir/summaries"
sync
t0=$(date +%s.%N)
rc=0
/usr/bin/time -f '%M' -o "$dir/map.rss" "$bin" --quiet fleet -j "$cores" --keep-summaries "$dir/summaries" \
  "$dir/bundles" -o "$dir/map.txt" || rc=$?
t1=$(date +%s.%N)
[ "$rc" -le 1 ] || { echo "fleet (map) exited $rc"; exit 1; }
/usr/bin/time -f '%e %M' -o "$dir/reduce.time" "$bin" fleet "$dir/summaries" -o "$dir/reduce.txt" || true
# One map child's peak RSS: what each of the -j children in flight holds at most.
one=$(ls -d "$dir"/bundles/*/ | head -n 1)
/usr/bin/time -f '%M' -o "$dir/child.rss" "$bin" --quiet analyze --format summary "$one" -o /dev/null || true
first=$(sed -n 's/^  1\. origin  \([^ :]*\).*/\1/p' "$dir/reduce.txt")
# GNU time puts "Command exited with non-zero status 1" first when fleet has findings.
read -r reduce_s reduce_rss < <(tail -n 1 "$dir/reduce.time")
summary_bytes=$(du -cb "$dir"/summaries/*.json | tail -1 | cut -f1)
python3 - "$nodes" "$bytes" "$t0" "$t1" "$cores" "$reduce_s" "$reduce_rss" "$(tail -n 1 "$dir/map.rss")" "$first" \
  "$summary_bytes" "$(tail -n 1 "$dir/child.rss")" <<'PY'
import sys
nodes, size, t0, t1, cores, rs, rrss, mrss, first, sb, crss = sys.argv[1:]
wall = float(t1) - float(t0)
print(f"fleet bench: {nodes} nodes, {int(size) / 1e9:.2f} GB, {cores} cores: map+reduce {wall:.1f} s "
      f"= {int(nodes) / wall:.2f} bundles/s, {int(size) / 1e6 / wall:.0f} MB/s; "
      f"peak RSS: fleet {int(mrss) / 1024:.0f} MiB, one map child {int(crss) / 1024:.0f} MiB (at most {cores} in flight); "
      f"reduce alone {float(rs):.2f} s, {int(rrss) / 1024:.0f} MiB over {int(sb) / 1e3:.0f} kB of summaries; "
      f"first: {first}")
PY
uptime
