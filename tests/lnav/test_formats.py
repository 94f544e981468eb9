#!/usr/bin/env python3
"""The lnav formats of packaging/lnav/ (docs/lnav.md) in lnav itself (issue 38).

1. `lnav -i` installs each file into a scratch HOME; the installed name is the format's.
2. `lnav -W -C` loads every format and checks every `sample` of every format: it matches a
   pattern, whole, of one pattern only, at the level the sample states, with a timestamp lnav
   parses; every pattern has a sample. Any message (error or warning) fails the test.
3. Real excerpts of tests/data/real/ opened headless (`lnav -n`), one or more per format: the
   rows of the format's table must be exactly the lines a plain regex over the file finds
   (line numbers and levels), with the fields that regex captures (pid, module, code, ...);
   lines before the first record are rows of level `unknown` (lnav's own rule), every other
   line is a continuation of the record above it.

Exit 77 (skipped) when lnav is missing, except with CI=true (then 1).
usage: test_formats.py SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

# The plain regexes ("what a grep finds"). They are kept simpler than the formats: they
# look for the header, not for the body shapes, so a broken shape pattern in a format shows
# up as a line the format no longer reads.
PLOG = (r"\[(?P<level>DEBUG|INFO|WARNING|WARN|ERROR|EVENT)\] (?P<module>[A-Z0-9_]+)"
        r"\((?P<pid>-?\d+),[^)]*\):\s?(?P<ts>\d{4}-\d\d-\d\d[- ]\d\d:\d\d:\d\d[.:]\d{3})")
PLOG_LEVELS = {"ERROR": "error", "WARNING": "warning", "WARN": "warning", "INFO": "info",
               "DEBUG": "debug", "EVENT": "notice"}
VLLM = (r"^(?:\[[A-Za-z]+-\d+\] )?(?:\((?P<proc>[^()]*?) pid=(?P<pid>\d+)\) )?"
        r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d")
RAY = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?P<level>INFO|WARNING|ERROR) \S+:\d+ -- "
ERR_LINE = r"^\[(?P<level>ERROR)\] \d{4}-\d\d-\d\d-\d\d:\d\d:\d\d \(PID:(?P<pid>\d+), Device:(?P<device>-?\d+), RankID:-?\d+\) (?P<code>ERR\d{5}) "
REPORT = r"^(?P<code>E[A-Z0-9]\d{4})(?:\[PID: ?(?P<pid>\d+)\]|:) ?(?:\[PID: ?\d+\] )?\d{4}-\d\d-\d\d-"
APP = r"^\d{8}-\d\d:\d\d:\d\d\.\d{3} \w+ (?P<level>ERROR): "
MINDSPORE = r"^\[(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL|EXCEPTION)\] (?P<module>[A-Z_]+)\((?P<pid>\d+),[0-9a-f]+,"
PYLOG = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\S* - \S+ - (?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) - "
JOB_LEVELS = {"DEBUG": "debug", "INFO": "info", "WARNING": "warning", "ERROR": "error",
              "CRITICAL": "critical", "EXCEPTION": "critical", None: "error"}  # None: a report
HWLOG = r"^\[(?P<level>[A-Z]+)\] +\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d+ +(?P<goroutine>\d+) +(?P<src_file>\S+?):\d+ "
HWLOG_LEVELS = {"DEBUG": "debug", "INFO": "info", "WARN": "warning", "ERROR": "error"}
HISTORY = r"^\[\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{6}\] system exception code \[(?P<code>0x[0-9A-Fa-f]+)\]: ModuleName \[(?P<exception_module>\w+)\]"

# A format's search table: the error codes inside plog messages, in the analyzer's forms.
SEARCH = {"ascend_plog_log": ("ascend_plog_code", r"(?<![A-Za-z])(?:ErrCode=|runtime result = |retCode=|"
                              r"error code is |errorCode ?= ?|module_name=)(0x[0-9A-Fa-f]+|-?\d+|E[A-Z0-9]\d{4})\b")}

DEVTREE = "mind-cluster-faultdiag-testdata-device-log-tree/device_log/"
# format, excerpt file (under tests/data/real), plain regexes (first match wins), level map
CASES = [
    ("ascend_plog_log", "gpustack-3352-vm-npu-ids-visible-device-107001/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "vllm-ascend-9447-hccp-ra-socket-batch-close/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "vllm-ascend-10911-hccl-heartbeat-recv-debug/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "vllm-ascend-10591-hccl-connect-timeout-transport-init/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "vllm-ascend-2618-ranktable-devid-mismatch/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "cann-docs-troubleshooting-aicore-args-host-address/plog.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "paddle-68865-plog-grep-507033/grep.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "vllm-ascend-4430-plog-grep-broadcast/plog-grep.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "lmdeploy-2585-docker-check-env-no-device/console-part1.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "lmdeploy-2585-docker-check-env-no-device/console-part2.txt", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", DEVTREE + "slog/dev-os-3/device-0/device-0_20230607152210099.log", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", DEVTREE + "slog/dev-os-3/debug/device-os/device-os_20230607152207758.log", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", DEVTREE + "slog/dev-os-3/run/device-os/device-os_20230607152210766.log", [PLOG], PLOG_LEVELS),
    ("ascend_plog_log", "mind-cluster-faultdiag-testdata-hisi-logs-device-1-lockup/device-1/device-1_20241204162140159.log", [PLOG], PLOG_LEVELS),
    ("ascend_job_log", "vllm-ascend-3373-zeroslike-561103/output.txt", [VLLM], JOB_LEVELS),
    ("ascend_job_log", "vllm-ascend-92-ray-offline-healthy/console.txt", [VLLM, RAY], JOB_LEVELS),
    ("ascend_job_log", "vllm-omni-2898-stage-prefixed-rtgetdevmsg-null-context/output.txt", [VLLM], JOB_LEVELS),
    ("ascend_job_log", "vllm-ascend-4430-worker-indexput/output.txt", [VLLM], JOB_LEVELS),
    ("ascend_job_log", "llamafactory-5322-el0004-oom/output.txt", [ERR_LINE, REPORT], JOB_LEVELS),
    ("ascend_job_log", "ascend-pytorch-166-hccl-group-sdma-507049-shared-npu/output.txt", [APP, ERR_LINE, REPORT], JOB_LEVELS),
    ("ascend_job_log", "mindspore-docs-cann-errors-ee9999-halmemalloc-207001/output.txt", [MINDSPORE], JOB_LEVELS),
    ("ascend_job_log", "mindspore-246-run-check-310p-op-info-json/run_check.txt", [MINDSPORE], JOB_LEVELS),
    ("ascend_job_log", "gpustack-3284-dcmi-library-not-found/output.txt", [PYLOG], JOB_LEVELS),
    ("ascend_mindcluster_log", "mind-cluster-faq-npu-exporter-check-uid/npu-exporter.log", [HWLOG], HWLOG_LEVELS),
    ("ascend_mindcluster_log", "mind-cluster-faq-npu-exporter-dcmi-8005/npu-exporter.log", [HWLOG], HWLOG_LEVELS),
    ("ascend_bbox_history_log", DEVTREE + "hisi_logs/device-0/history.log", [HISTORY], {None: "error"}),
    ("ascend_bbox_history_log", "huawei-docs-hisi-logs-history-heartbeat-lost/hisi_logs/device-id/history.log", [HISTORY], {None: "error"}),
]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def lnav(env, *args, check_quiet=True):
    r = subprocess.run(["lnav", *args], env=env, capture_output=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode != 0 or (check_quiet and err.strip()):
        text = out + err
        fail(f"lnav {' '.join(args)}: exit {r.returncode}\n{text[:6000]}"
             + ("\n[...]" if len(text) > 6000 else ""))
    return out, err


def json_docs(text):
    dec, docs, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)
    return docs


def plog_time(ts):
    # `2025-11-18-09:33:13.673` or `...13:012` (HCCL) -> lnav's `2025-11-18 09:33:13.673`
    # (lnav keeps milliseconds)
    return ts[:10] + " " + ts[11:19] + "." + ts[20:23]


def expected_rows(path, regexes, levels):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows = []
    for i, text in enumerate(lines):
        for rx in regexes:
            m = re.search(rx, text)
            if not m:
                continue
            g = {k: v for k, v in m.groupdict().items() if v is not None}
            row = {"line": i + 1, "text": text, "log_level": levels[g.pop("level", None)]}
            if "ts" in g:  # the time as parsed (log_time holds a time that goes back)
                row["log_actual_time"] = plog_time(g.pop("ts"))
            row.update(g)
            rows.append(row)
            break
    if rows:  # lines before the first record: one row each, level unknown
        rows = [{"line": i + 1, "text": lines[i], "log_level": "unknown"}
                for i in range(rows[0]["line"] - 1)] + rows
    return rows


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if shutil.which("lnav") is None:
        if os.environ.get("CI") == "true":
            fail("lnav not found and CI=true (scripts/bootstrap.sh test installs it)")
        print("SKIP: lnav not found (apt-get install lnav; scripts/bootstrap.sh test installs it)")
        return SKIP
    fmt_dir = os.path.join(src, "packaging", "lnav")
    real = os.path.join(src, "tests", "data", "real")
    files = sorted(f for f in os.listdir(fmt_dir) if f.endswith(".json"))
    if not files:
        fail(f"no format files in {fmt_dir}")

    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        env.update(HOME=home, TMPDIR=tmp, TZ="UTC", LC_ALL="C.UTF-8", TERM="dumb")
        print(lnav(env, "-V")[0].strip())

        # 1. Install: lnav names the installed copy after the (one) format in the file.
        names = []
        for f in files:
            doc = json.load(open(os.path.join(fmt_dir, f), encoding="utf-8"))
            fmts = [k for k in doc if k != "$schema"]
            if len(fmts) != 1 or f != fmts[0] + ".json":
                fail(f"{f}: one format per file, named as the file (found {fmts})")
            _, err = lnav(env, "-i", os.path.join(fmt_dir, f), check_quiet=False)
            want = os.path.join(home, ".lnav", "formats", "installed", f)
            if "installed" not in err or not os.path.isfile(want):
                fail(f"lnav -i {f}: not installed as {want}: {err}")
            names.append(fmts[0])
        print(f"installed: {' '.join(names)}")

        # 2. Load and check every sample (errors and, with -W, warnings are printed).
        out, _ = lnav(env, "-W", "-C")
        if out.strip():
            fail(f"lnav -W -C printed:\n{out[:6000]}")
        samples = sum(len(json.load(open(os.path.join(fmt_dir, f)))[n].get("sample", []))
                      for f, n in zip(files, names))
        print(f"lnav -W -C: {len(names)} formats and their {samples} samples load without a message")

        # 3. Real excerpts: all files of a format in one lnav run.
        for fmt in names:
            cases = [(rel, rx, lv) for f, rel, rx, lv in CASES if f == fmt]
            if not cases:
                fail(f"no real excerpt tests {fmt}")
            want, fields = {}, set()
            for rel, regexes, levels in cases:
                path = os.path.realpath(os.path.join(real, rel))  # log_path is the real path
                want[path] = expected_rows(path, regexes, levels)
                if not any(r["log_level"] != "unknown" for r in want[path]):
                    fail(f"{rel}: the plain regex finds no record: a bad case")
                fields |= {k for r in want[path] for k in r} - {"line", "text", "log_level"}
            cols = ", ".join(["log_path", "log_line", "log_raw_text", "log_level", "log_format"] +
                             sorted(fields))
            out, _ = lnav(env, "-n", "-q",
                          "-c", ";SELECT log_path, count(*) AS n FROM all_logs GROUP BY log_path",
                          "-c", ":write-json-to -",
                          "-c", f";SELECT {cols} FROM {fmt} ORDER BY log_path, log_line",
                          "-c", ":write-json-to -",
                          *search_query(fmt),
                          *want)
            docs = json_docs(out)
            if len(docs) != 2 + (fmt in SEARCH):
                fail(f"{fmt}: expected {2 + (fmt in SEARCH)} JSON results from lnav, got:\n{out}")
            totals = {r["log_path"]: r["n"] for r in docs[0]}
            got = {}
            for r in sorted(docs[1], key=lambda r: r["log_line"]):
                got.setdefault(r["log_path"], []).append(r)
            for (rel, _, _), path in zip(cases, want):
                check_file(fmt, rel, want[path], got.get(path, []), totals.get(path, 0))
            if fmt in SEARCH:
                check_search(fmt, [(rel, p) for (rel, _, _), p in zip(cases, want)], docs[2])
    print("PASS")
    return 0


def search_query(fmt):
    if fmt not in SEARCH:
        return []
    table = SEARCH[fmt][0]
    return ["-c", f";SELECT log_path, log_line, match_index, code FROM {table} "
                  "ORDER BY log_path, log_line, match_index", "-c", ":write-json-to -"]


def check_search(fmt, files, rows):
    table, rx = SEARCH[fmt]
    found = 0
    for rel, path in files:
        want = [m for line in open(path, encoding="utf-8", errors="replace")
                for m in re.findall(rx, line)]
        got = [r["code"] for r in sorted((r for r in rows if r["log_path"] == path),
                                         key=lambda r: (r["log_line"], r["match_index"]))]
        if got != want or any(not isinstance(c, str) for c in got):
            fail(f"{rel}: {table} has {got}, the plain regex finds {want} (codes are text)")
        found += len(want)
    print(f"ok  {table}: the {found} error codes of the {fmt} excerpts, as text")


def check_file(fmt, rel, want, got, total):
    def norm(v):
        return None if v is None else str(v)
    if total != len(got) or any(r.get("log_format") != fmt for r in got):
        fail(f"{rel}: {total} rows in all_logs, {len(got)} read as {fmt}")
    # Rows of one file come in its line order; log_line numbers the merged view, so a row is
    # tied to its line by the line's text.
    for k, w in enumerate(want):
        if k >= len(got):
            fail(f"{rel} as {fmt}: line {w['line']} is no row of lnav's ({len(got)} rows, "
                 f"{len(want)} expected): {w['text'][:120]}")
        g = dict(got[k], text=(got[k].get("log_raw_text") or "").split("\n")[0])
        g = {k2: norm(g.get(k2)) for k2 in w if k2 != "line"}
        ww = {k2: norm(v) for k2, v in w.items() if k2 != "line"}
        if g != ww:
            fail(f"{rel} as {fmt}, line {w['line']}: lnav {g}, plain regex {ww}")
    if len(got) > len(want):
        fail(f"{rel} as {fmt}: lnav has {len(got) - len(want)} rows more than the plain regex's "
             f"records: {[r.get('log_raw_text', '')[:80] for r in got[len(want):]]}")
    records = [r for r in want if r["log_level"] != "unknown"]
    by_level = {}
    for r in records:
        by_level[r["log_level"]] = by_level.get(r["log_level"], 0) + 1
    fields = sorted({k for r in records for k in r} - {"line", "text", "log_level"})
    print(f"ok  {fmt:24} {rel}: {len(records)} records "
          f"({', '.join(f'{n} {lv}' for lv, n in sorted(by_level.items()))}), fields {', '.join(fields)}")


if __name__ == "__main__":
    sys.exit(main())
