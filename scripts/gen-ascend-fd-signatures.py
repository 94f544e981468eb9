#!/usr/bin/env python3
"""Generate signatures for MindCluster ascend-fd's training-relevant log rules (issue 37).

ascend-fd (kg-config.json) matches a rule when all of its fragments are in one line; our
hand-written signatures need the whole line shape. This script turns every rule of the
HCCL, HCCP, Runtime (incl. Runtime_Drv) and driver PCIe/TS/HDC/SVM groups that has a log
pattern into a signature that matches its fragments inside any line of the log kind, with
the rule id kept in `ascend_fd`. Output (generated, do not edit by hand):
  knowledge/signatures/ascend-fd-plog.json    plog / device log (CANN_Plog, CANN_Device)
  knowledge/signatures/ascend-fd-kernel.json  host / device kernel logs (NPU_Host, NPU_OS, OS)
  knowledge/signatures/ascend-fd-job.json     job output (TrainLog)
Samples: a line of ascend-fd's own test data holding all fragments, verbatim, when one
exists (--fd-tests: a checkout of component/ascend-faultdiag/test); else the fragments in a
realistic line of the log kind. Near miss: the same line with the last fragment cut short.

Not part of the build: run it when kg-config.json moves, then `ascend-triage knowledge check`
and scripts/map-ascend-fd.py.

usage: scripts/gen-ascend-fd-signatures.py [--kg /tmp/kg.json] [--fd-tests DIR]
"""
import argparse
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIGS = REPO / "knowledge" / "signatures"
KG_SOURCE = "Ascend/mind-cluster@22bb3d987bc0"
GROUPS = re.compile(r"^AISW_CANN_(HCCL|HCCP|Runtime|Runtime_Drv|DRV_PCIE|DRV_TS|DRV_HDC|DRV_SVM)_\d+$")

# Which file and sources a rule's source_file maps to.
KIND = {"CANN_Plog": ("plog", ["plog"]), "CANN_Device": ("plog", ["plog"]),
        "CANN_Plog | OS": ("plog", ["plog", "kernel"]), "TrainLog": ("job", ["job"]),
        "NPU_Host": ("kernel", ["kernel"]), "NPU_OS": ("kernel", ["kernel"]), "OS": ("kernel", ["kernel"])}
MODULE = {"HCCL": "HCCL", "HCCP": "HCCP", "Runtime": "RUNTIME", "Runtime_Drv": "RUNTIME",
          "DRV_PCIE": "DRV", "DRV_TS": "DRV", "DRV_HDC": "HDC", "DRV_SVM": "DRV"}
CATEGORY = {"HCCL": "communication", "HCCP": "communication", "Runtime": "runtime",
            "Runtime_Drv": "runtime", "DRV_PCIE": "driver", "DRV_TS": "driver", "DRV_HDC": "driver",
            "DRV_SVM": "driver"}
# Rules whose cause is a device or link that stopped answering: critical, not error.
CRITICAL = {"AISW_CANN_Runtime_055", "AISW_CANN_Runtime_046", "AISW_CANN_Runtime_047",
            "AISW_CANN_DRV_PCIE_030", "AISW_CANN_DRV_PCIE_031", "AISW_CANN_DRV_PCIE_048"}
# Plog module names ascend-fd lists as a fragment: the module filter, not message text.
MODULE_FRAGMENTS = {"HCCP", "HCCL", "RUNTIME"}


def rx_escape(s):
    """Escape RE2 metacharacters only (re.escape also escapes spaces and other literals)."""
    return re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", s)


def clean(s):
    return re.sub(r"\s+", " ", s or "").strip()


def alternatives(rule):
    rx = rule.get("regex", {})
    if "in" in rx:
        alts = rx["in"]
        if alts and all(isinstance(a, str) for a in alts):
            return [alts]
        return [a if isinstance(a, list) else [a] for a in alts]
    return []


def covered_by(ours, line, sources):
    return any(rx.search(line) for rx, srcs in ours if srcs & set(sources))


def plog_line(module, frags, level="ERROR"):
    return (f"[{level}] {module}(28461,python3):2026-03-01-12:03:00.100.200 "
            f"[fd_sample.cc:100]28461 Func:" + " ".join(frags))


def kernel_line(frags):
    return "[ 8123.456789] [ascend] [ERROR] [devdrv] " + " ".join(frags)


def job_line(frags):
    return "[rank0]: RuntimeError: " + " ".join(frags)


def sample_line(kind, module, frags):
    return {"plog": lambda: plog_line(module, frags), "kernel": lambda: kernel_line(frags),
            "job": lambda: job_line(frags)}[kind]()


def cut(frag):
    """The fragment cut short so that it no longer matches."""
    words = frag.split(" ")
    if len(words) > 1 and words[-1].strip():
        return " ".join(words[:-1]).rstrip() + " ok"
    return frag[: max(1, len(frag) // 2)] + "_ok"


def load_test_lines(root):
    out = []
    if not root:
        return out
    for p in sorted(Path(root).rglob("*")):
        if not p.is_file() or p.suffix in (".py", ".json", ".pyc", ".gz", ".tar", ".zip"):
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        rel = str(p.relative_to(root))
        for line in text.splitlines():
            if len(line) < 600:
                out.append((rel, line.rstrip("\r")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kg", default="/tmp/kg.json")
    ap.add_argument("--fd-tests", default="")
    args = ap.parse_args()
    kg = json.loads(Path(args.kg).read_text(encoding="utf-8"))["knowledge-repository"]
    mapping = {}
    for line in (REPO / "knowledge" / "mappings" / "ascend-fd.tsv").read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if len(f) >= 4 and not line.startswith("#"):
            mapping[f[0]] = f
    tests = load_test_lines(args.fd_tests)
    ours = []
    for f in sorted(SIGS.glob("*.json")):
        if f.name.startswith("ascend-fd-"):
            continue
        for s in json.loads(f.read_text(encoding="utf-8"))["signatures"]:
            try:
                ours.append((re.compile(s["pattern"]), set(s["sources"])))
            except re.error:
                pass

    files = {"plog": [], "kernel": [], "job": []}
    skipped = []
    for rid in sorted(kg):
        m = GROUPS.match(rid)
        if not m:
            continue
        row = mapping.get(rid)
        if row and row[3] == "covered" and row[2].startswith(("code:", "device-event:")):
            continue  # the error code it names is catalogued
        rule = kg[rid]
        src = rule.get("source_file", "")
        if src not in KIND:
            skipped.append((rid, f"source {src!r}"))
            continue
        kind, sources = KIND[src]
        group = m.group(1)
        module = MODULE[group]
        rx = rule.get("regex", {})
        modules = None
        if "regex" in rx:
            alts_rx = [rx["regex"]]
            alts = []
        else:
            alts = alternatives(rule)
            if not alts:
                skipped.append((rid, "no log pattern"))
                continue
            # a bare module name among the fragments is the plog header's module
            mods = {f for a in alts for f in a if f in MODULE_FRAGMENTS}
            if mods and kind == "plog":
                modules = sorted(mods)
                module = modules[0]
                alts = [[f for f in a if f not in MODULE_FRAGMENTS] for a in alts]
            # alternatives a hand-written signature already finds from the bare fragments stay its own
            alts = [a for a in alts if not covered_by(ours, " ".join(a), sources)]
            if not alts:
                continue
            alts_rx = [".*".join(rx_escape(f) for f in a) for a in alts]
        pattern = alts_rx[0] if len(alts_rx) == 1 else "(?:" + "|".join(alts_rx) + ")"
        crx = re.compile(pattern)

        a = rule["attribute"]
        cause, desc = clean(a.get("cause_en")), clean(a.get("description_en"))
        sugg = a.get("suggestion_en") or []
        steps = [clean(x) for x in (sugg if isinstance(sugg, list) else [sugg]) if clean(x)]
        matches, origins = [], []
        for alt in alts:
            hit = next(((p, l) for p, l in tests if all(f in l for f in alt) and crx.search(l)), None)
            if hit and hit[1] not in matches:
                matches.append(hit[1])
                origins.append(f"{KG_SOURCE} component/ascend-faultdiag/test/{hit[0]}")
        if not matches:
            frags = alts[0] if alts else ["enqueFailCnt=0, dequeFailCnt=3"]
            matches.append(sample_line(kind, module, frags))
        if alts:
            near_frags = alts[0][:-1] + [cut(alts[0][-1])]
        else:
            near_frags = ["enqueFailCnt=0, dequeFailCnt=0"]
        near = sample_line(kind, module, near_frags)
        if crx.search(near):
            near = sample_line(kind, module, ["operation finished"])
        origin = (f" Match sample verbatim from ascend-fd's test data ({'; '.join(origins)})."
                  if origins else " Match sample: the rule's fragments in a line of the log kind (no ascend-fd test line holds them).")
        sig = {
            "id": "fd/" + rid[len("AISW_CANN_"):].lower().replace("_", "-"),
            "ascend_fd": rid,
            "sources": sources,
        }
        if modules:
            sig["modules"] = modules
        sig.update({
            "severity": "critical" if rid in CRITICAL else "error",
            "category": CATEGORY[group],
            "outcome": "own",
            "title": f"ascend-fd {rid}: {cause.rstrip('.')}",
            "pattern": pattern,
            "explanation": (f"{desc or cause} (ascend-fd rule {rid}, {KG_SOURCE} kg-config.json.) "
                            "What it does not prove: the line is one component's report; it does not "
                            "show that this process or device is the root of a multi-rank failure, "
                            "nor that the condition persisted. ascend-fd matches the fragments "
                            "anywhere in the line and at any level; so does this signature." + origin),
            "next_steps": steps[:4] if steps else ["See the ascend-fd rule's suggestion in MindCluster's fault knowledge"],
            "samples": {"match": matches, "near_miss": [near]},
        })
        files[kind].append(sig)

    comment = ("Generated by scripts/gen-ascend-fd-signatures.py from MindCluster ascend-fd's kg-config.json "
               f"({KG_SOURCE}); do not edit by hand. One signature per training-relevant rule "
               "(HCCL, HCCP, Runtime, driver PCIe/TS/HDC/SVM) that matches its fragments inside any line; "
               "`ascend_fd` keeps the rule id.")
    for kind, sigs in files.items():
        doc = {"format": "ascend-triage-signatures", "version": 1, "comment": comment, "signatures": sigs}
        (SIGS / f"ascend-fd-{kind}.json").write_text(
            json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: len(v) for k, v in files.items()} | {"skipped": skipped}))


if __name__ == "__main__":
    main()
