#!/usr/bin/env python3
"""The table of bench/compare.sh: medians, rates, ratios against issue 22's targets, RSS curve.

    compare_report.py META.tsv RESULTS.tsv RUNS ALT [--json FILE]

META: size, dir, archive, bytes, lines, archive_bytes. RESULTS: size, tool, run, wall_s,
rss_kib, matches (run 0 is the warm-up and is left out).
"""
import json
import os
import statistics
import subprocess
import sys
import time

TOOLS = [("zstd_only", "zstd -dc alone"), ("zstd_rg", "zstd -dc | rg -c"), ("rg_dir", "rg -c DIR"),
         ("analyze_archive", "analyze archive"), ("analyze_dir", "analyze DIR"),
         ("analyze_archive_1t", "... --threads 1"), ("analyze_dir_1t", "... DIR --threads 1")]
# issue 22: (analyze tool, baseline tool, required ratio, goal ratio)
RATIO_TARGETS = [("analyze_archive", "zstd_rg", 2.0, 1.3), ("analyze_dir", "rg_dir", 4.0, 2.0)]
# for reference, no target: how far analyze is from decompression alone
RATIO_INFO = [("analyze_archive", "zstd_only"), ("analyze_archive", "analyze_archive_1t"),
              ("analyze_dir", "analyze_dir_1t")]
RSS_CAP_MIB, RSS_FLAT_MIB = 200, 32


def size_bytes(text):
    t = text.upper().rstrip("B")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    return float(t[:-1] if t[-1:] in "KMG" else t) * mult


def main():
    args = sys.argv[1:]
    json_path = None
    if "--json" in args:
        i = args.index("--json")
        json_path = args[i + 1]
        del args[i:i + 2]
    meta_path, results_path, runs, alt = args
    meta = {}
    for line in open(meta_path):
        size, d, archive, nbytes, lines, abytes = line.rstrip("\n").split("\t")
        meta[size] = {"dir": d, "archive": archive, "bytes": int(nbytes), "lines": int(lines),
                      "archive_bytes": int(abytes)}
    runs_of = {}
    for line in open(results_path):
        size, tool, run, wall, rss, matches = line.rstrip("\n").split("\t")
        if int(run) < 1:
            continue
        runs_of.setdefault((size, tool), []).append((float(wall), int(rss), matches))

    figures = {}
    print(f"\nmedian of {runs} run(s) each, warm cache; MB = 10^6 bytes of uncompressed input; "
          "RSS: /usr/bin/time %M (largest process)")
    head = f"{'size':>6} {'what':<17} {'wall s':>8} {'MB/s':>8} {'Mlines/s':>9} {'RSS MiB':>8} {'matches':>8}"
    print(head)
    print("-" * len(head))
    for size, m in meta.items():
        figures[size] = {"bytes": m["bytes"], "lines": m["lines"], "archive_bytes": m["archive_bytes"], "tools": {}}
        for tool, label in TOOLS:
            rs = runs_of.get((size, tool))
            if not rs:
                continue
            wall = statistics.median(r[0] for r in rs)
            rss = statistics.median(r[1] for r in rs) / 1024
            matches = rs[0][2]
            f = {"wall_s": round(wall, 4), "mb_per_s": round(m["bytes"] / 1e6 / wall, 1),
                 "lines_per_s": round(m["lines"] / wall), "peak_rss_mib": round(rss, 1),
                 "walls_s": [r[0] for r in rs], "matching_lines": int(matches) if matches else None}
            figures[size]["tools"][tool] = f
            print(f"{size:>6} {label:<17} {wall:8.3f} {f['mb_per_s']:8.1f} {m['lines'] / wall / 1e6:9.2f} "
                  f"{rss:8.1f} {matches or '-':>8}")
        print(f"{'':>6} input: {m['bytes'] / 1e6:.1f} MB in {m['lines']} lines, archive {m['archive_bytes'] / 1e6:.1f} MB")

    print("\nratios (analyze / baseline; issue 22: required, goal at 1 GiB)")
    for size, fig in figures.items():
        t = fig["tools"]
        fig["ratios"] = {}
        for a, b, req, goal in RATIO_TARGETS:
            if a in t and b in t:
                ratio = t[a]["wall_s"] / t[b]["wall_s"]
                fig["ratios"][f"{a}/{b}"] = round(ratio, 2)
                verdict = "goal met" if ratio <= goal else "required met" if ratio <= req else "NOT met"
                print(f"{size:>6} {a} / {b}: {ratio:6.2f}x  (required {req}x, goal {goal}x: {verdict})")
        for a, b in RATIO_INFO:
            if a in t and b in t:
                ratio = t[a]["wall_s"] / t[b]["wall_s"]
                fig["ratios"][f"{a}/{b}"] = round(ratio, 2)
                note = "decompression alone" if b == "zstd_only" else "two threads against one"
                print(f"{size:>6} {a} / {b}: {ratio:6.2f}x  ({note}; no target)")

    print(f"\npeak RSS curve of analyze (issue 22: under {RSS_CAP_MIB} MiB at 4 GiB, "
          f"RSS(4 GiB) <= RSS(256 MiB) + {RSS_FLAT_MIB} MiB)")
    ordered = sorted(figures, key=size_bytes)
    for size in ordered:
        t = figures[size]["tools"]
        cells = [f"{t[k]['peak_rss_mib']:.1f} MiB ({k.split('_')[1]})" for k in ("analyze_archive", "analyze_dir") if k in t]
        print(f"{size:>6} {size_bytes(size) / (1 << 30):5.2f} GiB: " + ", ".join(cells))
    if len(ordered) > 1 and "analyze_archive" in figures[ordered[0]]["tools"] and "analyze_archive" in figures[ordered[-1]]["tools"]:
        lo = figures[ordered[0]]["tools"]["analyze_archive"]["peak_rss_mib"]
        hi = figures[ordered[-1]]["tools"]["analyze_archive"]["peak_rss_mib"]
        growth = (hi - lo) / ((size_bytes(ordered[-1]) - size_bytes(ordered[0])) / (1 << 20))
        print(f"growth {ordered[0]} -> {ordered[-1]}: {hi - lo:+.1f} MiB ({growth:.2f} MiB per MiB of input)")

    if json_path:
        def sh(*cmd):
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        doc = {"date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "commit": sh("git", "-C", root, "rev-parse", "HEAD"), "cores": os.cpu_count(),
               "mem_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30), 1),
               "uptime": sh("uptime"), "runs": int(runs), "rg_alternation": alt, "sizes": figures}
        with open(json_path, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"\nfigures written to {json_path}")


if __name__ == "__main__":
    main()
