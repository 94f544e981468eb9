#!/usr/bin/env python3
"""The figures of bench/matrix.sh (issue 35): JSON, a Markdown table, an SVG plot.

    matrix_report.py --collect META.tsv RUNS.tsv OUT.json [--triage BIN] [--alt ALT]
    matrix_report.py OUT.json [--md FILE] [--svg FILE]

--collect (run by matrix.sh after every row) turns the raw runs into OUT.json: per row (mix,
size) the input's bytes, lines and files, and per command the median wall time and peak RSS
of the measured runs (run 0 is the warm-up; it is the measurement only where it was the only
run, see matrix.sh --slow), every run's figures and the exit code; plus the sessions (start,
end, `uptime` at both) and the rows not run.

The second form prints (or writes to --md) the Markdown table: every (mix, size, form) row with
analyze's time, its ratio to `zstd -dc` (the limit), to `zstd -dc | rg -c` and to `rg -c DIR`,
its peak RSS, and PASS/FAIL per issue 35's required limits (time within 2x of `zstd -dc | rg -c`
on the archive, within 4x of `rg -c` on the directory; peak RSS under 200 MiB at 4 GiB;
RSS(4 GiB) <= RSS(256 MiB) + 32 MiB), then the list of failing rows; and writes the SVG plot
(--svg, default docs/performance-matrix.svg): peak RSS and time against input size, one
polyline per mix (archive solid, directory dashed), both axes logarithmic.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLS = ["zstd_only", "zstd_rg", "rg_dir", "analyze_archive", "analyze_dir"]
MIX_ORDER = ["info", "real", "warn-flood", "error-storm", "distinct-errors", "many-procs", "members",
             "kernel-flood", "tracebacks"]
TIME_LIMIT = {"archive": ("zstd_rg", 2.0), "dir": ("rg_dir", 4.0)}
RSS_CAP_MIB, RSS_FLAT_MIB = 200, 32
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
          "#17becf"]


def size_bytes(text):
    t = text.strip().upper().rstrip("B").removesuffix("I")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
    return int(float(t[:-1] if t[-1:] in "KMG" else t) * mult)


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


# ----- collect ------------------------------------------------------------------------------

def collect(meta_path, runs_path, out_path, triage, alt):
    rows, sessions, skipped = {}, [], []
    for line in open(meta_path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "row":
            mix, size, d, archive, nbytes, lines, files, abytes, gen_s = f[1:10]
            rows[(mix, size)] = {"mix": mix, "size": size, "size_bytes": size_bytes(size), "dir": d,
                                 "archive": archive, "bytes": int(nbytes), "lines": int(lines), "files": int(files),
                                 "archive_bytes": int(abytes), "generate_s": float(gen_s) if gen_s else None,
                                 "tools": {}}
        elif f[0] == "session":
            what, when, up, sizes, mixes, runs = f[1:7]
            if what == "start":
                sessions.append({"start_utc": when, "uptime_start": up, "sizes": sizes.split(),
                                 "mixes": mixes.split(), "runs": int(runs)})
            elif sessions:
                sessions[-1].update(end_utc=when, uptime_end=up)
        elif f[0] == "skip":
            skipped.append({"mix": f[1], "size": f[2], "reason": f[3]})
    raw = {}
    for line in open(runs_path):
        mix, size, tool, run, wall, rss, matches, rc = line.rstrip("\n").split("\t")
        raw.setdefault((mix, size, tool), []).append((int(run), float(wall), int(rss), matches, int(rc)))
    for (mix, size, tool), rs in raw.items():
        if (mix, size) not in rows:
            continue
        measured = [r for r in rs if r[0] >= 1 and r[4] <= 1]
        warmup_counted = False
        if not measured:             # a slow or failed warm-up is the one run
            measured = [r for r in rs if r[0] == 0]
            warmup_counted = True
        rc = max(r[4] for r in rs)
        rows[(mix, size)]["tools"][tool] = {
            "wall_s": round(statistics.median(r[1] for r in measured), 4),
            "peak_rss_mib": round(statistics.median(r[2] for r in measured) / 1024, 1),
            "walls_s": [r[1] for r in measured], "peak_rss_mib_runs": [round(r[2] / 1024, 1) for r in measured],
            "runs": len(measured), "warmup_counted": warmup_counted, "exit": rc,
            "matching_lines": int(measured[0][3]) if measured[0][3] else None}
    doc = {"generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "commit": sh("git", "-C", ROOT, "rev-parse", "HEAD"), "triage": triage,
           "triage_version": sh(triage, "--version") if triage else "",
           "cores": os.cpu_count(),
           "mem_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30), 1),
           "rg_version": sh("rg", "--version").split("\n")[0], "zstd_version": sh("zstd", "--version").strip("* ").split(",")[0],
           "rg_alternation": alt, "sessions": sessions, "skipped": skipped,
           "rows": sorted(rows.values(), key=lambda r: (r["size_bytes"], mix_rank(r["mix"])))}
    with open(out_path + ".part", "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(out_path + ".part", out_path)
    print(f"matrix_report: {len(rows)} rows written to {out_path}")


def mix_rank(mix):
    return MIX_ORDER.index(mix) if mix in MIX_ORDER else len(MIX_ORDER)


# ----- table --------------------------------------------------------------------------------

def fmt_s(t):
    return f"{t:.2f}" if t < 100 else f"{t:.0f}"


def fmt_size(mib):
    return f"{mib:.0f}" if mib < 10240 else f"{mib / 1024:.1f} GiB"


def evaluate(doc):
    """[(row, form, cells)], failures: one entry per (mix, size, form) with the verdicts."""
    by = {(r["mix"], r["size"]): r for r in doc["rows"]}
    smallest = {}
    for r in doc["rows"]:
        if r["mix"] not in smallest or r["size_bytes"] < smallest[r["mix"]]["size_bytes"]:
            smallest[r["mix"]] = r
    out = []
    for r in doc["rows"]:
        t = r["tools"]
        for form in ("archive", "dir"):
            a = t.get(f"analyze_{form}")
            if not a:
                continue
            e = {"mix": r["mix"], "size": r["size"], "form": form, "bytes": r["bytes"], "row": r}
            ok = a["exit"] <= 1
            e["failed_run"] = None if ok else a["exit"]
            e["time"] = a["wall_s"]
            e["rss"] = a["peak_rss_mib"]
            for base in ("zstd_only", "zstd_rg", "rg_dir"):
                e[base] = a["wall_s"] / t[base]["wall_s"] if base in t and t[base]["wall_s"] > 0 else None
            base, limit = TIME_LIMIT[form]
            e["time_verdict"] = ("FAIL" if not ok or e[base] is None or e[base] > limit else "PASS")
            at4g = r["size_bytes"] >= 4 << 30
            # RSS limits are stated at 4 GiB; RSS does not fall as the input grows, so a smaller
            # size already over them fails them too (marked "over at <size>").
            if at4g:
                e["cap_verdict"] = "PASS" if ok and e["rss"] < RSS_CAP_MIB else "FAIL"
            else:
                e["cap_verdict"] = f"FAIL (over at {r['size']})" if e["rss"] >= RSS_CAP_MIB or not ok else "-"
            low = smallest[r["mix"]]
            la = low["tools"].get(f"analyze_{form}")
            if low is r or not la:
                e["flat_verdict"], e["growth"] = "base", None
            else:
                e["growth"] = e["rss"] - la["peak_rss_mib"]
                over = e["growth"] > RSS_FLAT_MIB or not ok
                if at4g:
                    e["flat_verdict"] = "FAIL" if over else "PASS"
                else:
                    e["flat_verdict"] = f"FAIL (over at {r['size']})" if over else "ok so far"
            e["base_size"] = low["size"]
            out.append(e)
    return out


def ratio(x):
    return "-" if x is None else f"{x:.1f}x" if x >= 10 else f"{x:.2f}x"


def table(doc):
    ev = evaluate(doc)
    lines = ["| mix | size | input MB | form | analyze s | vs `zstd -dc` | vs `zstd -dc \\| rg -c` | vs `rg -c DIR` "
             "| peak RSS MiB | time limit | RSS < 200 MiB at 4 GiB | RSS(size) <= RSS(256M) + 32 MiB |",
             "|---|---|---:|---|---:|---:|---:|---:|---:|---|---|---|"]
    for e in ev:
        if e["failed_run"] is not None:
            why = "timeout" if e["failed_run"] == 124 else "exit"
            time_cell = f"{why} {e['failed_run']} after {fmt_s(e['time'])}"
        else:
            time_cell = fmt_s(e["time"])
        limit_base = TIME_LIMIT[e["form"]][0]
        cells = [ratio(e["zstd_only"]), ratio(e["zstd_rg"]), ratio(e["rg_dir"])]
        idx = {"zstd_rg": 1, "rg_dir": 2}[limit_base]
        cells[idx] = f"**{cells[idx]}**"
        growth = "" if e["growth"] is None else f" ({e['growth']:+.1f})"
        lines.append(f"| {e['mix']} | {e['size']} | {e['bytes'] / 1e6:.0f} | {e['form']} | {time_cell} | "
                     + " | ".join(cells) + f" | {fmt_size(e['rss'])} | {e['time_verdict']} | {e['cap_verdict']} | "
                     f"{e['flat_verdict']}{growth} |")
    return "\n".join(lines), ev


def failures(ev):
    out = []
    for e in ev:
        what = []
        base, limit = TIME_LIMIT[e["form"]]
        if e["failed_run"] is not None:
            what.append(f"did not finish (exit {e['failed_run']}{', timeout' if e['failed_run'] == 124 else ''}) "
                        f"after {fmt_s(e['time'])} s, at {fmt_size(e['rss'])} MiB peak RSS")
        elif e["time_verdict"] == "FAIL":
            what.append(f"time {ratio(e[base])} of `{'zstd -dc | rg -c' if base == 'zstd_rg' else 'rg -c DIR'}` "
                        f"(limit {limit:.0f}x; {fmt_s(e['time'])} s)")
        if e["cap_verdict"].startswith("FAIL") and e["failed_run"] is None:
            what.append(f"peak RSS {fmt_size(e['rss'])} MiB (limit under {RSS_CAP_MIB} MiB at 4 GiB)")
        if e["flat_verdict"].startswith("FAIL") and e["failed_run"] is None:
            what.append(f"RSS grows {e['growth']:+.0f} MiB from {e['base_size']} (limit +{RSS_FLAT_MIB} MiB)")
        if what:
            out.append(f"- {e['mix']} {e['size']} {e['form']}: " + "; ".join(what))
    return out


def conditions(doc):
    out = [f"harness commit `{doc['commit'][:9]}`, analyzer `{doc['triage']}` ({doc['triage_version'] or 'version unknown'}); "
           f"{doc['cores']} cores, {doc['mem_gib']} GiB; {doc['rg_version']}; {doc['zstd_version']}"]
    for s in doc["sessions"]:
        out.append(f"session {s['start_utc']} to {s.get('end_utc', '(end not recorded)')}: sizes {' '.join(s['sizes'])}, "
                   f"mixes {' '.join(s['mixes'])}, {s['runs']} run(s) after a warm-up; "
                   f"uptime before: `{s['uptime_start']}`; after: "
                   + (f"`{s['uptime_end']}`" if "uptime_end" in s else "not recorded"))
    slow = [f"{r['mix']} {r['size']} {k}" for r in doc["rows"] for k, t in r["tools"].items() if t["warmup_counted"]]
    if slow:
        out.append("one run only (the warm-up took longer than --slow, or failed): " + ", ".join(slow))
    if doc["skipped"]:
        out.append("not run: " + ", ".join(f"{s['mix']} {s['size']} ({s['reason']})" for s in doc["skipped"]))
    return out


def inputs(doc):
    lines = ["| mix | size | bytes | lines | files | archive MB | generated in s | `rg -c` matches | "
             "`zstd -dc` s | `zstd -dc \\| rg -c` s | `rg -c DIR` s |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in doc["rows"]:
        t = r["tools"]
        g = "-" if r["generate_s"] is None else f"{r['generate_s']:.0f}"
        m = t.get("rg_dir", {}).get("matching_lines")
        cells = [fmt_s(t[k]["wall_s"]) if k in t else "-" for k in ("zstd_only", "zstd_rg", "rg_dir")]
        lines.append(f"| {r['mix']} | {r['size']} | {r['bytes']} | {r['lines']} | {r['files']} | "
                     f"{r['archive_bytes'] / 1e6:.1f} | {g} | {m if m is not None else '-'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ----- plot ---------------------------------------------------------------------------------

def log_ticks(lo, hi):
    ticks = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo * 0.9999 <= v <= hi * 1.0001:
                ticks.append(v)
        e += 1
    return ticks


def svg_plot(doc, path):
    rows = [r for r in doc["rows"]]
    mixes = sorted({r["mix"] for r in rows}, key=mix_rank)
    xs = sorted({r["bytes"] for r in rows})
    if not rows:
        return
    W, H, pad_l, pad_r, pad_t, pad_b, gap = 1000, 470, 70, 20, 40, 120, 80
    pw = (W - pad_l - pad_r - gap) / 2
    ph = H - pad_t - pad_b
    x_lo, x_hi = min(r["bytes"] for r in rows) / 1.3, max(r["bytes"] for r in rows) * 1.3
    sizes = sorted({(r["size_bytes"], r["size"]) for r in rows})
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="sans-serif" font-size="12">', f'<rect width="{W}" height="{H}" fill="white"/>']

    def panel(ix, title, key, unit, ref=None):
        x0 = pad_l + ix * (pw + gap)
        vals = [r["tools"][f"analyze_{f}"][key] for r in rows for f in ("archive", "dir")
                if f"analyze_{f}" in r["tools"]]
        if ref:
            vals.append(ref[0])
        y_lo = 10 ** math.floor(math.log10(max(min(vals), 1e-3)))
        y_hi = 10 ** math.ceil(math.log10(max(vals)))

        def X(v):
            return x0 + (math.log(v) - math.log(x_lo)) / (math.log(x_hi) - math.log(x_lo)) * pw

        def Y(v):
            return pad_t + ph - (math.log(max(v, y_lo)) - math.log(y_lo)) / (math.log(y_hi) - math.log(y_lo)) * ph
        out.append(f'<text x="{x0 + pw / 2:.1f}" y="{pad_t - 15}" text-anchor="middle" font-size="14" '
                   f'font-weight="bold">{title}</text>')
        out.append(f'<rect x="{x0:.1f}" y="{pad_t}" width="{pw:.1f}" height="{ph}" fill="none" stroke="#444"/>')
        for v in log_ticks(y_lo, y_hi):
            y = Y(v)
            out.append(f'<line x1="{x0:.1f}" x2="{x0 + pw:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
            label = f"{v:g}"
            out.append(f'<text x="{x0 - 5:.1f}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        for sb, sname in sizes:
            mean = statistics.mean(r["bytes"] for r in rows if r["size"] == sname)
            x = X(mean)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{pad_t}" y2="{pad_t + ph}" stroke="#ddd"/>')
            out.append(f'<text x="{x:.1f}" y="{pad_t + ph + 16}" text-anchor="middle">{sname}</text>')
        out.append(f'<text x="{x0 + pw / 2:.1f}" y="{pad_t + ph + 34}" text-anchor="middle">input size '
                   '(uncompressed bytes, log scale)</text>')
        out.append(f'<text x="{x0 - 50:.1f}" y="{pad_t + ph / 2:.1f}" text-anchor="middle" '
                   f'transform="rotate(-90 {x0 - 50:.1f} {pad_t + ph / 2:.1f})">{unit} (log scale)</text>')
        if ref:
            y = Y(ref[0])
            out.append(f'<line x1="{x0:.1f}" x2="{x0 + pw:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d62728" '
                       'stroke-dasharray="2,3"/>')
            out.append(f'<text x="{x0 + 4:.1f}" y="{y - 4:.1f}" fill="#d62728">{ref[1]}</text>')
        for i, mix in enumerate(mixes):
            color = COLORS[i % len(COLORS)]
            for form, dash in (("archive", ""), ("dir", ' stroke-dasharray="6,4"')):
                pts = sorted((r["bytes"], r["tools"][f"analyze_{form}"][key]) for r in rows
                             if r["mix"] == mix and f"analyze_{form}" in r["tools"]
                             and r["tools"][f"analyze_{form}"]["exit"] <= 1)
                for a, b in sorted((r["bytes"], r["tools"][f"analyze_{form}"][key]) for r in rows
                                   if r["mix"] == mix and f"analyze_{form}" in r["tools"]
                                   and r["tools"][f"analyze_{form}"]["exit"] > 1):
                    x, y = X(a), Y(b)      # a run that did not finish: a cross at its figure when it stopped
                    out.append(f'<path d="M{x - 5:.1f},{y - 5:.1f}L{x + 5:.1f},{y + 5:.1f}M{x - 5:.1f},{y + 5:.1f}'
                               f'L{x + 5:.1f},{y - 5:.1f}" stroke="{color}" stroke-width="2"/>')
                if not pts:
                    continue
                p = " ".join(f"{X(a):.1f},{Y(b):.1f}" for a, b in pts)
                out.append(f'<polyline points="{p}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
                for a, b in pts:
                    out.append(f'<circle cx="{X(a):.1f}" cy="{Y(b):.1f}" r="3" fill="{color}"/>')

    panel(0, "analyze: peak RSS", "peak_rss_mib", "peak RSS, MiB", (RSS_CAP_MIB, "200 MiB (required at 4 GiB)"))
    panel(1, "analyze: wall time", "wall_s", "seconds")
    ly = H - 52
    for i, mix in enumerate(mixes):
        x = pad_l + (i % 5) * 180
        y = ly + (i // 5) * 18
        out.append(f'<line x1="{x}" x2="{x + 24}" y1="{y - 4}" y2="{y - 4}" stroke="{COLORS[i % len(COLORS)]}" '
                   'stroke-width="3"/>')
        out.append(f'<text x="{x + 30}" y="{y}">{mix}</text>')
    out.append(f'<text x="{pad_l}" y="{H - 6}" fill="#444">solid: the .tar.zst; dashed: the directory. '
               'A cross: a run that did not finish (timeout, memory cap), at its figure when it stopped.</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--collect", action="store_true")
    ap.add_argument("--triage", default="")
    ap.add_argument("--alt", default="")
    ap.add_argument("--md")
    ap.add_argument("--svg", default=os.path.join(ROOT, "docs", "performance-matrix.svg"))
    args = ap.parse_args()
    if args.collect:
        if len(args.files) != 3:
            ap.error("--collect META.tsv RUNS.tsv OUT.json")
        return collect(*args.files, args.triage, args.alt)
    doc = json.load(open(args.files[0]))
    tab, ev = table(doc)
    fails = failures(ev)
    text = ("Conditions:\n\n" + "\n".join(f"- {c}" for c in conditions(doc)) + "\n\n" + tab + "\n\n"
            + "Inputs and baselines (median wall seconds):\n\n" + inputs(doc) + "\n\n"
            + "Rows that fail a required limit:\n\n" + ("\n".join(fails) if fails else "- none") + "\n")
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    svg_plot(doc, args.svg)
    print(f"matrix_report: plot written to {args.svg}", file=sys.stderr)


if __name__ == "__main__":
    main()
