#!/usr/bin/env python3
"""Where analyze's CPU time goes, by stage (issue 35's goal: name the cost above decompression).

Runs `perf record` on one `ascend-triage analyze` and buckets the samples by the rules of
bench/stage-rules.tsv (first matching row wins). Prints one Markdown row per input, or a header
with --header. perf counts CPU time, so the shares hold on a loaded machine; the wall time does not.

  bench/stage_profile.py --bin build/ascend-triage --label "real 256M dir" DIR_OR_ARCHIVE
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_rules(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            stage, dso, sym, _what = line.rstrip("\n").split("\t")
            rules.append((stage, re.compile(dso), re.compile(sym)))
    return rules


def stages_of(report, rules):
    shares, order = {}, [r[0] for r in rules]
    row = re.compile(r"^\s+([0-9.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*?)\s*$")
    for line in report.splitlines():
        m = row.match(line)
        if not m:
            continue
        pct, dso, sym = float(m.group(1)), m.group(2), m.group(3)
        if dso == "[kernel.kallsyms]":
            dso = "kernel"
        for stage, dre, sre in rules:
            if dre.search(dso) and sre.search(sym):
                shares[stage] = shares.get(stage, 0.0) + pct
                break
    return [(s, shares[s]) for s in dict.fromkeys(order) if s in shares]


# Rows of `perf report --no-children --sort dso,symbol --stdio` as perf 6.1 printed them on the
# real 256M mix (trailing columns cut), and the stage each must land in.
SELF_TEST = [
    ("    11.81%  libnettle.so.8.6       [.] _nettle_sha256_compress_sha_ni", "hash"),
    ("     8.70%  libre2.so.9.0.0        [.] 0x000000000001c16b", "regex"),
    ("     7.80%  libc.so.6              [.] __memchr_evex", "split"),
    ("     4.32%  [kernel.kallsyms]      [k] pvm_irq_enable", "read"),
    ("     3.32%  triage-0b9b            [.] triage::parse_plog_at", "parse"),
    ("     2.78%  triage-0b9b            [.] triage::PlogFileParser::keep_facts", "aggregate"),
    ("     7.81%  triage-main            [.] triage::message_template_key", "hash"),
    ("     5.08%  libsimdjson.so.14.0.0  [.] simdjson::icelake::dom_parser_implementation::stage1", "parse"),
    ("     1.03%  libc.so.6              [.] _int_malloc", "allocate"),
    ("     0.50%  libzstd.so.1.5.4       [.] ZSTD_decompressBlock_internal", "decompress"),
]


def self_test(rules):
    bad = 0
    for line, want in SELF_TEST:
        got = stages_of(line, rules)
        if len(got) != 1 or got[0][0] != want:
            print(f"self-test: {line.split()[-1]} went to {got}, expected {want}", file=sys.stderr)
            bad += 1
    print(f"self-test: {len(SELF_TEST) - bad}/{len(SELF_TEST)} rows in their stage")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/ascend-triage")
    ap.add_argument("--rules", default=os.path.join(HERE, "stage-rules.tsv"))
    ap.add_argument("--label", default="")
    ap.add_argument("--threads", default="2")
    ap.add_argument("--freq", default="1999")
    ap.add_argument("--header", action="store_true", help="print the table's header and exit")
    ap.add_argument("--self-test", action="store_true", help="check the rules on perf rows of a real run")
    ap.add_argument("input", nargs="?")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    names = list(dict.fromkeys(r[0] for r in rules))
    if a.self_test:
        return self_test(rules)
    if a.header:
        print("| input | CPU s | " + " | ".join(names) + " |")
        print("|---|---:|" + "---:|" * len(names))
        return 0
    if not a.input:
        ap.error("an input is needed")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        t0 = time.time()
        r = subprocess.run(["perf", "record", "-q", "-F", a.freq, "-o", data, a.bin, "analyze", "--threads",
                            a.threads, "--format", "json", "-o", os.devnull, a.input],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        if r.returncode not in (0, 1):
            print(f"analyze exited {r.returncode}: {r.stderr.strip()[-300:]}", file=sys.stderr)
            return 2
        rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol", "--stdio",
                              "--percent-limit", "0"], capture_output=True, text=True).stdout
    # cpu-clock counts nanoseconds; a cycles event would not (then the column says so)
    m = re.search(r"# Samples: \S+ of event '([^']+)'\n# Event count \(approx.\): ([0-9]+)", rep)
    cpu = f"{int(m.group(2)) / 1e9:.2f}" if m and m.group(1).startswith("cpu-clock") else "?"
    got = dict(stages_of(rep, rules))
    cells = [f"{got.get(n, 0.0):.0f} %" for n in names]
    print(f"| {a.label or a.input} | {cpu} (wall {wall:.2f}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
