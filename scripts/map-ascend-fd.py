#!/usr/bin/env python3
"""Map MindCluster ascend-fd's fault rules (kg-config.json) onto ascend-triage's knowledge.

Not part of the build: run it when kg-config.json or our knowledge moves, review the diff,
commit. Writes knowledge/mappings/ascend-fd.tsv and knowledge/device-event-sensors.tsv (the
(node type, sensor type, event state) triple of every device-event rule that names one, and its
event id), and, with --add-events, appends the device fault-manager event ids the rules name and
knowledge/device-events.tsv lacks.

A rule is `covered` when one of our signatures matches its log fragments (joined as one
line, or a signature sample holds all of them) or when the error code it names is in
error-codes.tsv; `partial` when only a generic wrapper covers it (E?9999, the generic
fault-manager event signature); `not-applicable` when its log is one ascend-triage does not
read (the note says which); `missing` otherwise: the note says what would cover it.

usage: scripts/map-ascend-fd.py [--kg /tmp/kg.json] [--add-events]
"""
import argparse
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KN = REPO / "knowledge"
KG_SOURCE = ("Ascend/mind-cluster@22bb3d987bc0 "
             "component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json")

# (id prefix or source_file, note): logs or stacks ascend-triage does not read.
NOT_APPLICABLE = [
    (r"^AISW_MindSpore_", "MindSpore framework log: ascend-triage reads torch_npu jobs"),
    (r"^AISW_MindIE_|^MindIE$", "MindIE serving log: not a source ascend-triage reads"),
    (r"^AISW_VLLM_|^PyMotor_vLLM_Log$", "vLLM-Ascend / PyMotor serving log: no reader for it"),
    (r"^AISW_MindX_|^DL_", "MindX DL cluster component log (device plugin, Volcano, exporter): not collected"),
    (r"^MindIO$", "MindIO log: not collected"),
    (r"^Comp_Switch_|^Net_Param_Dev_|^LCNE_LOG$|LCNELog", "switch / LCNE log: not collected"),
    (r"BMCLogDumpLog|NodeDLog", "BMC / NodeD event log: not collected (host-side BMC events, not NPU logs)"),
    (r"^AISW_CANN_AMCT|^CANN_Amct$", "AMCT model-compression tool log: not a training or inference run"),
    (r"^AISW_CANN_DVPP_", "DVPP media processing: torch_npu training and inference do not use it"),
    (r"^AISW_UB_", "UB (unified bus) fault: not on Atlas A2 / 910B hosts"),
]

# Rules ascend-fd computes in code rather than from a log line. The port checks of
# knowledge/port-health.tsv (its ascend_fd column) and signatures that name the rule (ascend_fd)
# cover theirs; the others keep this note.
COMPUTED = [
    (r"^Comp_Network_Custom_06$", "partial", "finding:device-access/dcmi-failure",
     "ascend-fd calls any error or empty answer of npu-smi info in npu_info_*.txt a driver fault; ours "
     "raises device-access/dcmi-failure when npu-smi fails with a DCMI result, and records other refused "
     "npu-smi output as not collected, without a finding"),
    (r"^Comp_Network_Custom_", "missing", "-",
     "computed by ascend-fd in code from hccn_tool output (environment_check/npu_info_*.txt), and no row of "
     "knowledge/port-health.tsv implements it"),
]

# Device event kinds (device-exception kinds of correlator/analyses/device_exception.cpp) for the
# event ids added from kg-config; anything else is a plain device-event.
def event_kind(module, cause):
    c = cause.lower()
    if module.upper().startswith("HBM") and ("multi-bit" in c or "uce" in c):
        return "hbm-ecc"
    if module in ("TS", "TSCPU") and "heartbeat" in c:
        return "heartbeat-lost"
    return "device-event"


def load_tsv(path):
    rows, header = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if header is None:
            header = f
            continue
        rows.append(dict(zip(header, f)))
    return rows


def fragments(rule):
    """The rule's alternatives, each a list of strings that must all be in one line."""
    rx = rule.get("regex", {})
    if "in" in rx:
        alts = rx["in"]
        if alts and all(isinstance(a, str) for a in alts):
            return [alts]
        return [a if isinstance(a, list) else [a] for a in alts]
    return []


def pattern_text(rule):
    rx = rule.get("regex", {})
    if "regex" in rx:
        return "regex: " + rx["regex"]
    if "in" in rx:
        return " | ".join(" & ".join(a) for a in fragments(rule))
    if "rule" in rule:
        # kg-config's "rule" edges relate a fault to others in its graph: not how it is detected
        return "no log pattern; kg-config relates it to: " + ", ".join(r.get("dst_code", "") for r in rule["rule"])
    return json.dumps(rx, ensure_ascii=False) if rx else "(no pattern)"


def clean(s, limit=300):
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= limit else s[: limit - 3] + "..."


# Which of our signature sources can see the log a rule reads (knowledge/signatures: plog
# covers plog and device-log messages; kernel covers journal, dmesg, syslog, black-box logs).
# Job output (TrainLog) carries the same CANN messages as the plog.
SIG_SOURCES = {"CANN_Plog": {"plog"}, "CANN_Device": {"plog"}, "NPU_Device": {"plog"},
               "TrainLog": {"plog", "job"}, "OS": {"kernel"}, "OS-dmesg": {"kernel"},
               "OS-vmcore-dmesg": {"kernel"}, "OS-sysmon": {"kernel"}, "NPU_Host": {"kernel"},
               "NPU_History": {"kernel"}, "NPU_OS": {"kernel"}, "CANN_Plog | OS": {"plog", "kernel"}}

CODE_RE = re.compile(r"\b([EW][0-9A-Z]\d{4})\b|\b([1-5][0-9]{2}\d{3})\b")


TRIPLE_RE = re.compile(r"Node Type=(0x[0-9A-Fa-f]+|\d+); Sensor Type=(0x[0-9A-Fa-f]+|\d+); event_state=(\d+)\)")


def write_sensor_triples(kg):
    """knowledge/device-event-sensors.tsv: a device-event rule's `Node Type=..; & Sensor Type=..; &
    event_state=..)` alternative is the older driver's line of the same event, without its id."""
    rows = []
    for rid in sorted(kg):
        if not re.fullmatch(r"0x[0-9A-Fa-f]{8}", rid):
            continue
        for alt in fragments(kg[rid]):
            m = TRIPLE_RE.fullmatch(" ".join(alt))
            if m:
                node, sensor, state = (int(x, 0) for x in m.groups())
                rows.append((node, sensor, state, "0x" + rid[2:].upper(),
                             f"{KG_SOURCE} (rule {rid}: {' & '.join(alt)})"))
    rows.sort()
    head = [
        "# The NPU fault manager's (node type, sensor type, event state) triples and the event id each is.",
        "# Older drivers log a sensor event as `Event Process Success. (Node Type=0x63; Sensor num=..;",
        "# name=\"..\"; Sensor Type=0xc0; Sensor Object=..; assertion=..; severity=..; event_state=8)`",
        "# without the id; ascend-fd's device-event rules match that line by these three fields.",
        "# Each id is the driver's dms_gen_event_id of its triple (knowledge/device_event_sensors.h).",
        "# Generated by scripts/map-ascend-fd.py from kg-config.json. Format: docs/knowledge.md.",
        "node_type\tsensor_type\tevent_state\tevent_id\tsource",
    ]
    body = [f"0x{n:02x}\t0x{s:02x}\t{e}\t{i}\t{src}" for n, s, e, i, src in rows]
    (KN / "device-event-sensors.tsv").write_text("\n".join(head + body) + "\n", encoding="utf-8")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kg", default="/tmp/kg.json")
    ap.add_argument("--add-events", action="store_true")
    args = ap.parse_args()
    kg = json.loads(Path(args.kg).read_text(encoding="utf-8"))["knowledge-repository"]

    codes = {}
    for r in load_tsv(KN / "error-codes.tsv"):
        codes.setdefault(r["code"], r)
    events = {r["event_id"].lower(): r for r in load_tsv(KN / "device-events.tsv")}
    port_rules = {r["ascend_fd"]: r for r in load_tsv(KN / "port-health.tsv")}
    sigs = []
    for f in sorted((KN / "signatures").glob("*.json")):
        for s in json.loads(f.read_text(encoding="utf-8"))["signatures"]:
            try:
                rx = re.compile(s["pattern"])
            except re.error:
                continue
            sigs.append((s["id"], rx, s.get("samples", {}).get("match", []), set(s.get("sources", ["plog"])),
                         s.get("ascend_fd", "")))

    out_rows, new_events, counts = [], [], {}
    for rid in sorted(kg):
        rule = kg[rid]
        a = rule["attribute"]
        src = rule.get("source_file", "")
        cause = a.get("cause_en", "")
        pat = clean(pattern_text(rule))
        ours, status, note = "-", "missing", ""
        alts = fragments(rule)

        na = next((n for p, n in NOT_APPLICABLE if re.search(p, rid) or re.search(p, src)), None)
        computed = next(((st, o, n) for p, st, o, n in COMPUTED if re.search(p, rid)), None)
        port_rule = port_rules.get(rid)
        if re.fullmatch(r"0x[0-9A-Fa-f]{8}", rid) and src in ("NPU_OS", "OS"):
            ev = events.get(rid.lower())
            if ev is None and args.add_events:
                kind = event_kind(a.get("module", ""), cause)
                desc = a.get("description_en", "")
                meaning = clean(desc if desc.startswith(cause.rstrip(".")) else f"{cause.rstrip('.')}. {desc}", 400)
                ev = {"event_id": rid, "exception_kind": kind, "name": clean(cause, 120),
                      "meaning": meaning, "source": f"{KG_SOURCE} (rule {rid}, module {a.get('module', '')})"}
                events[rid.lower()] = ev
                new_events.append(ev)
            if ev is not None:
                ours, status = f"device-event:{rid}", "covered"
                note = f"device-events.tsv ({ev['exception_kind']}): {ev['name']}"
                if not ev["source"].startswith(KG_SOURCE) and ev["name"].lower() not in cause.lower():
                    note += f"; kg-config calls it '{cause}'"
            else:
                ours, status = "kernel/fault-manager-event", "partial"
                note = "event id not in device-events.tsv: reported as a generic device-event"
        elif na:
            status, note = "not-applicable", na
        elif port_rule:
            ours, status = f"finding:collective/port-health#{port_rule['rule']}", "covered"
            th = port_rule["threshold"]
            note = (f"port-health.tsv rule {port_rule['rule']} over hccn_tool {port_rule['query']} output"
                    + (f" (threshold {th})" if th != "-" else "") + f": {port_rule['meaning']}")
        elif computed and not any(fd == rid for *_, fd in sigs):
            # a signature that names the rule (Comp_Network_Custom_11: port/pcs-link-fault) covers it
            status, ours, note = computed
        else:
            # error codes the fragments name
            found = []
            for alt in alts:
                for frag in alt:
                    for m in CODE_RE.finditer(frag):
                        found.append(m.group(1) or m.group(2))
            known = [c for c in found if c in codes]
            lacking = [c for c in found if c not in codes and c[0] in "EW"]
            # a generated signature names its rule (scripts/gen-ascend-fd-signatures.py)
            hit = next((sid for sid, _, _, _, fd in sigs if fd == rid), None)
            sample_hit = None  # a sample of ours holds the fragments, the pattern needs the whole line
            for alt in ([] if hit else alts):
                line = " ".join(alt)
                for sid, rx, samples, sources, fd in sigs:
                    if not sources & SIG_SOURCES.get(src, {"plog", "kernel"}):
                        continue
                    if rx.search(line):
                        hit = sid
                        break
                    if not sample_hit and not fd and any(all(f in s for f in alt) for s in samples):
                        sample_hit = sid
                if hit:
                    break
            if hit:
                ours, status = hit, "covered"
                note = "signature matches the rule's fragments"
                if hit.startswith("fd/"):
                    note = "generated signature (ascend_fd) matches the rule's fragments anywhere in the line"
                if known:
                    note += f"; code {known[0]} in error-codes.tsv"
            elif sample_hit and not known:
                ours, status = sample_hit, "partial"
                note = "a sample of this signature holds the fragments, but it needs the whole line shape: the bare fragments are not matched"
            elif known:
                c = known[0]
                generic = c.endswith("9999")
                ours = f"code:{c}"
                status = "partial" if generic else "covered"
                note = (f"{c} is an inner-error wrapper: the rule's text names the failure; needs a signature"
                        if generic else f"error code {c} ({codes[c]['kind']}): {clean(codes[c]['meaning'], 100)}")
            elif lacking:
                note = f"code {lacking[0]} is in no catalogue we hold; needs a signature"
            elif "regex" in rule.get("regex", {}) or alts:
                where = {"CANN_Plog": "plog", "CANN_Device": "device log", "NPU_Host": "kernel log (host driver)",
                         "TrainLog": "job output", "OS": "kernel / system log", "OS-dmesg": "kernel log",
                         "OS-vmcore-dmesg": "vmcore dmesg", "OS-sysmon": "sysmonitor log",
                         "NPU_OS": "device OS log", "NPU_History": "device black-box history",
                         "NPU_Device": "device log", "CANN_Plog | OS": "plog or kernel log"}.get(src, src or "?")
                note = f"needs a {where} signature: {clean(cause, 80)}"
            else:
                note = f"no log pattern in the rule: {clean(cause, 80)}"
        counts[status] = counts.get(status, 0) + 1
        out_rows.append([rid, pat, ours, status, clean(note, 300)])

    (KN / "mappings").mkdir(exist_ok=True)
    head = [
        "# MindCluster ascend-fd fault rules (kg-config.json) and what of ours covers each.",
        f"# Rules from {KG_SOURCE}.",
        "# Columns: rule_id, pattern (the rule's log fragments: '&' = all in one line, '|' = alternatives),",
        "# ours (signature id, code:<code>, device-event:<id> or finding:<finding id>; '-' when none), status",
        "# (covered | partial | not-applicable | missing), note. Generated by scripts/map-ascend-fd.py.",
        "rule_id\tpattern\tours\tstatus\tnote",
    ]
    body = ["\t".join(c.replace("\t", " ") for c in r) for r in out_rows]
    (KN / "mappings" / "ascend-fd.tsv").write_text("\n".join(head + body) + "\n", encoding="utf-8")
    write_sensor_triples(kg)
    if new_events:
        p = KN / "device-events.tsv"
        text = p.read_text(encoding="utf-8").rstrip("\n")
        lines = [f"{e['event_id']}\t{e['exception_kind']}\t{e['name']}\t{e['meaning']}\t{e['source']}" for e in new_events]
        p.write_text(text + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps({"rules": len(out_rows), "status": counts, "events_added": len(new_events)}))


if __name__ == "__main__":
    main()
