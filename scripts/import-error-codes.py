#!/usr/bin/env python3
"""Rebuild knowledge/error-codes.tsv from the public sources it covers.

Not part of the build: run it when a source moves, review the diff, commit both.
Upstream files are read from DIR (default /tmp/up), extracted from fetched snapshots with
`git show <commit>:<path> > DIR/<file>` for every entry of SOURCES below. Rows of the
current file are kept: their meaning stays (the report of the change lists where a source
disagrees), a per-code next check stays, and kinds no source lists (retcode, InnerCodes)
stay as they are. New codes get the source's own text; where a header gives only a name or
a comment, the meaning says so.

usage: scripts/import-error-codes.py [--upstream DIR] [--check]
"""
import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TSV = REPO / "knowledge" / "error-codes.tsv"

# file in DIR -> (repository, commit, path)
SOURCES = {
    "rt_error_codes.h": ("Ascend/pytorch", "c4840e3c095952083edcaa4a92f2ae7139bd7c51",
                         "third_party/acl/inc/acl/error_codes/rt_error_codes.h"),
    "rt_error_codes_runtime.h": ("hicann/runtime", "681ef7610df13c8128982901142a2c869ddbb53e",
                                 "include/external/acl/error_codes/rt_error_codes.h"),
    "acl_base_rt.h": ("hicann/runtime", "681ef7610df13c8128982901142a2c869ddbb53e",
                      "include/external/acl/acl_base_rt.h"),
    "NPUErrorCodes.h": ("Ascend/pytorch", "9e73e708ab9350d203475609f36f8a43f6a0c2ab",
                        "torch_npu/csrc/core/npu/NPUErrorCodes.h"),
    "hccl_types.h": ("Ascend/pytorch", "9e73e708ab9350d203475609f36f8a43f6a0c2ab",
                     "third_party/hccl/inc/hccl/hccl_types.h"),
    "ascend_hal_error.h": ("hicann/driver", "ef377e950a32b1641c108c59481e39e9643b7d63",
                           "pkg_inc/ascend_hal_error.h"),
    "dcmi_interface_api.h": ("hicann/driver", "ef377e950a32b1641c108c59481e39e9643b7d63",
                             "src/custom/include/dcmi_interface_api.h"),
    "dcmi_return_codes.md": ("hicann/driver", "ef377e950a32b1641c108c59481e39e9643b7d63",
                             "docs/en/Ascend_910B_DCMI_API/Ascend_910B_DCMI_API/return-codes.md"),
    "error_code.json": ("hicann/runtime", "681ef7610df13c8128982901142a2c869ddbb53e",
                        "src/dfx/error_manager/error_code.json"),
    "drv_error_code.h": ("hicann/driver", "ef377e950a32b1641c108c59481e39e9643b7d63",
                         "pkg_inc/hal_error_code/drv_error_code.h"),
    "ge_error_registry.cc": ("hicann/ge", "ffdcbc9f7496c17a98c1d12762c61ed608ef3503",
                             "base/common/error_registry/error_registry.cc"),
    "hcomm_error_msg.cc": ("hicann/hcomm", "", "HCCL error catalogue hcomm_g_msg (search-index file 67219921974; EI0018-EI0020 taken from it)"),
}

INNER_PAGE = ("https://www.hiascend.com/document/detail/zh/canncommercial/800/developmentguide/"
              "maintenref/troubleshooting/atlaserrorcode_15_0314.html")
INNER_TEXT = ("E*9*** Inner Error: an internal error code of the module; troubleshoot by the error "
              "message (the page lists the module's code and gives no template)")
PAGE_CODES = [
    ("EI0009", "Communication_Error_Initialize_Transport", "HCCL Errors",
     "Device %s transport init error. Reason: %s.",
     "Use the following hccn_tool commands to check whether the port link is down. (The scope of i "
     "represents the number of NPUs of each node. 8 is used as an example.) 1. for i in {0..7}; do "
     "hccn_tool -i $i -optical -g; done | grep present: Check whether the optical module is in "
     "position. 2. for i in {0..7}; do hccn_tool -i $i -ip -g; done. Check whether the IP address is "
     "configured. 3. for i in {0..7}; do hccn_tool -i $i -lldp -g: Check whether the switch is connected.",
     "https://www.hiascend.com/document/detail/zh/canncommercial/900/maintenref/troubleshooting/"
     "atlaserrorcode_15_0381.html"),
] + [(c, "Inner_Error", MODULE + " Errors", INNER_TEXT, "", INNER_PAGE) for c, MODULE in [
    ("E19999", "GE"), ("E29999", "FE"), ("E39999", "AI CPU"), ("E49999", "TE Fusion"), ("E59999", "CANN"),
    ("E69999", "CANN"), ("E79999", "Vector operator plugins"), ("E89999", "Vector operators"),
    ("E99999", "CANN"), ("EA9999", "CANN"), ("EC9999", "Auto Tune"), ("ED9999", "RL Tune"),
    ("EE9999", "RTS"), ("EF9999", "LxFusion & AutoDeploy"), ("EG9999", "AOE"), ("EH9999", "ACL"),
    ("EI9999", "HCCL"), ("EJ9999", "HCCP"), ("EK9999", "Profiling"), ("EL9999", "Driver"),
    ("EN9999", "DVPP"), ("EO9999", "AMCT"), ("EZ9999", "operators / aclnn")]]

COLUMNS = ["code", "kind", "name", "meaning", "component", "class", "next_check", "source"]
CLASSES = ["host-driver-installation", "cann-wheel-mismatch", "environment-paths",
           "mount-shadowing", "stale-process-mappings", "device-hardware",
           "collective-communication", "application-code", "device-memory", "device-access",
           "unknown"]

NEXT_BY_CLASS = {
    "device-hardware": "Read the device's health and ECC counters (npu-smi info -t health / -t ecc) and "
                       "the device logs around that time; rerun the probes on another device. An "
                       "operator can raise task exceptions too: the plog names the kernel.",
    "device-memory": "Check device memory at that time (npu-smi info -t usages, other processes on the "
                     "device) and the size requested in the plog lines before it.",
    "device-access": "Check that the process can use the device: /dev/davinci* in the container, "
                     "ASCEND_RT_VISIBLE_DEVICES, npu-smi info, permissions, other processes holding it.",
    "collective-communication": "Compare every rank's plog for the first failure (HCCL lines), then "
                                "check the links (hccn_tool -i <dev> -link -g) and the HCCL timeouts.",
    "cann-wheel-mismatch": "Compare the torch / torch_npu / CANN / ops package versions the process maps "
                           "with the version matrix.",
    "host-driver-installation": "Compare the driver and firmware versions with the CANN version "
                                "(npu-smi info, driver version.info) and check the loaded kernel modules.",
    "environment-paths": "Check the process environment (ASCEND_*, LD_LIBRARY_PATH, set_env.sh) and the "
                         "path or variable the message names.",
    "application-code": "Parameter or call-sequence error in the calling code: check the arguments and "
                        "the order of API calls at the place the traceback names.",
    "unknown": "Internal or unclassified: read the plog lines before it for the first failure and "
               "collect the plog.",
}

# Generic advice of the earlier file: rows carrying one of these get the class-based or the
# source's next check instead; any other text was written for that code and stays.
GENERIC_ADVICE_PREFIXES = (
    "User-side error class:", "Parameter or call-sequence error", "Internal error:",
    "Resource error:", "Driver HAL result:", "HCCL result:", "Internal error class:",
    "npu-smi/DCMI failure:", "Runtime-internal code:",
)

# (class, pattern over NAME + title) in order; the first match wins.
NUMERIC_RULES = [
    ("device-hardware", r"ECC|HBM|MEM_ERROR|LINK_ERROR|LOST_HEARTBEAT|BUS_DOWN|BIST|HW_ERR|"
                        r"SUSPECT_REMOTE|TS_ERROR|SYS_DMA|HOT_RESET|DEVICE_NOT_READY|DEV_PROCESS_HANG|"
                        r"TRANS_LINK|NET_UNREACH|SOCKET_CLOSE|RESET_FAIL|POWER_OP|CLEAR_DEVICE_STATE|"
                        r"STRESS|AICORE_(TIMEOUT|EXCEPTION|TRAP)|VECTOR_CORE|AICPU_(TIMEOUT|EXCEPTION)|"
                        r"FFTS_PLUS_(TIMEOUT|EXCEPTION|TRAP)|DEVICE_TASK_ABORT|TASK_ABORT_STOP"),
    ("device-memory", r"OOM|OUT_OF_MEMORY|MEMORY_ALLOCATION|MEMORY_FREE|MALLOC_FAIL|MEM_OPERATE|"
                      r"HCCL_E_MEMORY|BAD_ALLOC"),
    ("device-access", r"NO_PERMISSION|NOT_PERMITTED|DRV_ERROR_PERMISSION|UNAUTHORIZED|NO_DEVICE|"
                      r"INVALID_DEVICE|DEVICE_NOT_EXIST|IN_CONTAINER|RESOURCE_OCCUPIED"),
    ("collective-communication", r"^HCCL_E_|COMM_OP_RETRY|SUSPECT_REMOTE|CCU_|L3_PORT"),
    ("environment-paths", r"COMPILING_STUB_MODE"),
    ("cann-wheel-mismatch", r"SOC_VERSION|KERNEL_LOOKUP|RUNTIME_ON_OTHER_PLAT|OP_NOT_FOUND|"
                            r"KERNEL_NOT_FOUND|OP_(TYPE|ATTR|INPUT|OUTPUT)_NOT_MATCH|UNSUPPORTED_DATA_TYPE|OP_LOAD_FAILED"),
    ("application-code", r"PARAM|PARA_ERROR|INVALID_VALUE|NULL|_PTR|CONTEXT|CAPTURE|INITIALIZE|"
                         r"REPEATED_INIT|UNINIT|INVALID_HANDLE|MALLOC_TYPE|MEMORY_TYPE|UNALIGNED|"
                         r"STREAM_MODEL|NO_CB_REG|SUBSCRIBE|GROUP_NOT|API_NOT_SUPPORT|INVALID_FILE|"
                         r"INVALID_DUMP|INVALID_OPP|INVALID_AIPP|INVALID_MODEL|STREAM_UNJOINED|"
                         r"WRONG|OVER_FLOW|TIMESTAMP|MODEL_|_MODEL|PARSE_|FILE_MISSING|FILE_ATTR|QUEUE_ID|REPEAT_FINALIZE|"
                         r"ALREADY_RUN|NOT_RUN|BIN_SELECTOR|ALREADY_REGISTERED|FORMAT_NOT_MATCH|RESOURCE_NOT_MATCH|"
                         r"RESOURCE_HANDLE|RELATIVE_RESOURCE|OPQUEUE|STATIC_AIPP|SYMBOL|INPUT_ARRAY|TASK_GROUP|"
                         r"KERNEL_DUPLICATE|UNSUPPORTED_DYNAMIC|PROF_API_CONFLICT|PROFILING_CONFIG"),
]
# HCCL results that say more than "communication".
HCCL_OVERRIDES = {"HCCL_E_PARA": "application-code", "HCCL_E_PTR": "application-code",
                  "HCCL_E_MEMORY": "device-memory", "HCCL_E_OOM": "device-memory",
                  "HCCL_SUCCESS": "unknown", "HCCL_E_INTERNAL": "unknown"}

MESSAGE_RULES = [
    ("unknown", r"Inner_Error|System_Terminated|^[EW].9999"),
    ("device-memory", r"Insufficient_Device_Memory|Memory_Allocation_Failure|Out_Of_Memory|"
                      r"out of memory|NPU memory|device memory"),
    ("device-access", r"Device_Absent|Invalid_Device_Access|No_Permission|Invalid_Device_ID|"
                      r"Device_Connection_Failure|Device_Status_Abnormal"),
    ("environment-paths", r"Environment_Variable|environment variable|Invalid_Path|"
                          r"File_Operation_Error_Invalid_Path"),
    ("host-driver-installation", r"Incorrect_Driver_Version|driver version"),
    ("cann-wheel-mismatch", r"Package_Error|Unsupported_Operator|is not registered|"
                            r"Incorrect_HCCL_Version|Verify_OPP|versions are inconsistent"),
    ("collective-communication", r"HCCL|HCCP|Ranktable|ranktable|Communication_Error|"
                                 r"Collective_Communication|CQE|Notify"),
    ("device-hardware", r"Execution_Error_AICPU_Operator_Timeout|Execution_Error_SDMA|"
                        r"ECC|HBM|Fault %s occurs"),
    ("application-code", r"Not_Supported_(Shape|Data_Type|Format|Operator)|Invalid_Attr|AclNN_Parameter|"
                         r"Invalid_Argument|Null_Pointer|API_Call_Sequence|Compilation_Error|"
                         r"Invalid_Dynamic_Shape|Invalid_Input|Config_Error|Invalid_Model|"
                         r"Invalid_Config|Unsupported_Parameter|Not_Supported_Specification"),
]

# Second character of an EXnnnn code (ascend-facts.md §8.1, hiascend troubleshooting_0224):
# the component when the catalogue entry has no errClass.
MODULE_BY_CHAR = {"1": "GE", "2": "FE", "3": "AI CPU", "4": "TE Fusion", "7": "Vector operator plugins",
                  "8": "Vector operators", "B": "TBE Pass compiler", "C": "Auto Tune", "D": "RL Tune",
                  "E": "RTS", "F": "LxFusion & AutoDeploy", "G": "AOE", "H": "ACL", "I": "HCCL",
                  "J": "HCCP", "K": "Profiling", "L": "Driver", "M": "queue scheduling", "N": "DVPP",
                  "O": "AMCT", "P": "DUMP", "Z": "operators / aclnn"}

COMPONENT_BY_KIND = {"acl": "ACL (AscendCL)", "runtime": "runtime", "hccl": "HCCL",
                     "drv": "driver (HAL)", "dcmi": "DCMI (npu-smi)", "retcode": "runtime / task scheduler"}


def cite(key):
    repo, commit, path = SOURCES[key]
    if repo.startswith("https://"):
        return repo
    return f"{repo}@{commit[:12]} {path}" if commit else f"{repo} {path}"


def classify(rules, text, default="unknown"):
    for cls, pat in rules:
        if re.search(pat, text):
            return cls
    return default


def c_defines(text):
    """(name, value, comment) from `#define NAME VALUE // c`, `static const int NAME = V; // c`
    and `NAME = V, /**< c */` enum lines."""
    out = []
    pats = [r"^\s*#define\s+(\w+)\s+\(?(-?\w+)\)?\s*(?://\s*(.*))?$",
            r"^\s*static\s+const\s+\w+\s+(\w+)\s*=\s*(-?\w+)\s*;\s*(?://\s*(.*))?$",
            r"^\s*(\w+)\s*=\s*(-?\w+)\s*,?\s*(?:/\*\*?<?\s*(.*?)\s*\*/|//\s*(.*))?\s*$"]
    for line in text.splitlines():
        for p in pats:
            m = re.match(p, line)
            if m:
                comment = next((g for g in m.groups()[2:] if g), "") or ""
                out.append((m.group(1), m.group(2), comment.strip()))
                break
    return out


def npu_error_texts(text):
    """torch_npu NPUErrorCodes.h: code -> (meaning, suggestion)."""
    out = {}
    for code, body in re.findall(r'\{\s*(\d+),\s*"((?:[^"\\]|\\.)*)"\s*\}', text, re.S):
        body = body.replace("\\n\\\n", "\n").replace("\\\n", "").replace("\\n", "\n").replace('\\"', '"')
        lines = [l.strip() for l in body.split("\n") if l.strip()]
        out[code] = (lines[0] if lines else "", " ".join(lines[1:]))
    return out


def json_catalogue(text):
    """error_info_list entries of a JSON catalogue, plain or embedded in C++ source."""
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)["error_info_list"]
    m = re.search(r'R"\((.*?)\)"', text, re.S)
    if m:
        return json.loads(m.group(1))["error_info_list"]
    # C string literal concatenation (drv_error_code.h)
    body = text.split("[] =", 1)[1]
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    return json.loads("".join(parts).encode().decode("unicode_escape"))["error_info_list"]


def dcmi_docs(text):
    """return-codes.md table: code -> (description, solution)."""
    cells = [re.sub(r"<[^>]+>", "", c).strip()
             for c in re.findall(r"<td[^>]*>(.*?)</td>", text, re.S)]
    out, solution = {}, ""
    for i, c in enumerate(cells):
        if re.fullmatch(r"-?\d+", c) and i >= 1 and cells[i - 1].startswith("DCMI_"):
            desc = cells[i + 1] if i + 1 < len(cells) else ""
            nxt = cells[i + 2] if i + 2 < len(cells) else ""
            if nxt and not nxt.startswith("DCMI_") and not re.fullmatch(r"-?\d+", nxt):
                solution = nxt  # rowspan cells carry over to the next rows
            out[c] = (desc, solution)
    return out


def clean(s):
    s = re.sub(r"\s+", " ", s.replace("\\r\\n", " ").replace("\r\n", " ")).strip()
    return s.replace("\t", " ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream", default="/tmp/up")
    ap.add_argument("--check", action="store_true", help="print the changes, write nothing")
    args = ap.parse_args()
    up = Path(args.upstream)
    read = lambda f: (up / f).read_text(encoding="utf-8", errors="replace")

    # existing rows
    header, rows, comments = None, {}, []
    for line in TSV.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            comments.append(line)
            continue
        f = line.split("\t")
        if header is None:
            header = f
            continue
        r = dict(zip(header, f))
        if "advice" in r:
            r["next_check"] = r.pop("advice")
        rows[(r["code"], r["kind"])] = r
    order = list(rows)
    report = {"contradictions": [], "added": {}, "covered": {}}

    def upsert(code, kind, name, meaning, component, cls, next_check, key, source_next=""):
        src = cite(key)
        report["covered"].setdefault(key, 0)
        report["covered"][key] += 1
        r = rows.get((code, kind))
        if r is None:
            rows[(code, kind)] = dict(code=code, kind=kind, name=name, meaning=meaning,
                                      component=component, **{"class": cls},
                                      next_check=source_next or next_check, source=src)
            order.append((code, kind))
            report["added"].setdefault(key, 0)
            report["added"][key] += 1
            return
        if name and r["name"] not in (name, "DCMI", "task result") and kind != "message" and code != "0":
            report["contradictions"].append(f"{kind} {code}: name {r['name']} -> {name} ({src})")
            r["name"] = name
        # A row an earlier run wrote as "source text. Field note: ..." stays as it is.
        if r["meaning"] != meaning and not (r["meaning"].startswith(meaning) and "Field note:" in r["meaning"]):
            # The source's own text replaces a paraphrase or a truncation of it; a row that
            # says more than the source (a field note, an older comment) keeps its text.
            old_m = r["meaning"]
            replace = (kind in ("hccl", "drv") or (kind == "dcmi" and "(e.g." not in old_m)
                       or old_m.endswith("...") or meaning.startswith(old_m + " (header comment")
                       or meaning == old_m + " (the header gives only the name)")
            if kind == "dcmi" and "(e.g." in old_m:
                r["meaning"] = meaning + " Field note: " + old_m.split("(e.g.", 1)[1].rstrip(")").strip()
                replace = False
            if replace:
                r["meaning"] = meaning
            report.setdefault("meaning_replaced" if replace else "meaning_kept", []).append(
                f"{kind} {code}: [{old_m}] -> [{meaning}]" if replace else f"{kind} {code}: kept [{old_m}], source [{meaning}]")
        if r["name"] == "DCMI" and name:
            r["name"] = name
        r.setdefault("component", component)
        r.setdefault("class", cls)
        if not r.get("next_check") or r["next_check"].startswith(GENERIC_ADVICE_PREFIXES):
            r["next_check"] = source_next or next_check
        if src not in r["source"]:
            r["source"] = src + "; " + r["source"] if r["source"] else src

    def numeric_class(kind, name):
        if name in ("ACL_RT_SUCCESS", "ACL_SUCCESS", "ACL_ERROR_NONE", "DRV_ERROR_NONE", "DCMI_OK"):
            return "unknown"
        if kind == "hccl":
            return HCCL_OVERRIDES.get(name, "collective-communication")
        return classify(NUMERIC_RULES, name)

    npu = npu_error_texts(read("NPUErrorCodes.h"))

    # runtime / ACL headers (the adapter's copy first, then the newer runtime copy)
    for key in ("rt_error_codes.h", "rt_error_codes_runtime.h", "acl_base_rt.h"):
        for name, value, comment in c_defines(read(key)):
            if not re.fullmatch(r"\d+", value) or not re.match(r"ACL_ERROR_|ACLNN_|ACL_RT_SUCCESS$", name):
                continue
            kind = "runtime" if re.fullmatch(r"[1-5]07\d{3}", value) or name == "ACL_RT_SUCCESS" else "acl"
            if key == "acl_base_rt.h" and kind == "runtime":
                continue
            text, suggestion = npu.get(value, ("", ""))
            if text:
                meaning = f"{text} ({comment})" if comment else text
            elif comment:
                meaning = f"{comment} (header comment; the header gives no other text)"
            else:
                meaning = f"{name} (the header gives only the name)"
            cls = numeric_class(kind, name)
            upsert(value, kind, name, meaning, COMPONENT_BY_KIND[kind], cls, NEXT_BY_CLASS[
                "unknown" if cls == "unknown" and value == "0" else cls] if value != "0" else "Success.",
                key, suggestion)

    # HcclResult
    for name, value, comment in c_defines(read("hccl_types.h")):
        if not name.startswith("HCCL_") or not re.fullmatch(r"\d+", value):
            continue
        if not (name == "HCCL_SUCCESS" or name.startswith("HCCL_E_")):
            continue
        meaning = f"HcclResult {value}: {comment} (header comment)" if comment else f"HcclResult {value}: {name} (the header gives only the name)"
        cls = numeric_class("hccl", name)
        upsert(value, "hccl", name, meaning, "HCCL", cls,
               "Success." if value == "0" else NEXT_BY_CLASS[cls], "hccl_types.h")

    # drvError_t
    for name, value, comment in c_defines(read("ascend_hal_error.h")):
        if not re.match(r"D(RV|EV)_ERROR_", name):
            continue
        v = str(int(value, 0))
        meaning = (f"driver HAL drvError_t {v}: {comment} (header comment)" if comment
                   else f"driver HAL drvError_t {v}: {name} (the header gives only the name)")
        cls = numeric_class("drv", name)
        upsert(v, "drv", name, meaning, "driver (HAL)", cls,
               "Success." if v == "0" else NEXT_BY_CLASS[cls], "ascend_hal_error.h")

    # DCMI: the header's values, the 910B API guide's descriptions and solutions
    docs = dcmi_docs(read("dcmi_return_codes.md"))
    hdr = read("dcmi_interface_api.h")
    base = int(re.search(r"#define DCMI_ERROR_CODE_BASE \((-?\d+)\)", hdr).group(1))
    for name, off in re.findall(r"#define (DCMI_ERR_CODE_\w+)\s+\(DCMI_ERROR_CODE_BASE - (\d+)\)", hdr) + [("DCMI_OK", None)]:
        v = "0" if off is None else str(base - int(off))
        desc, sol = docs.get(v, ("", ""))
        key = "dcmi_return_codes.md" if desc else "dcmi_interface_api.h"
        meaning = (f"DCMI result {v}: {desc}" if desc
                   else f"DCMI result {v}: {name} (the header gives only the name)")
        cls = numeric_class("dcmi", name)
        nxt = "Success." if v == "0" else NEXT_BY_CLASS[cls]
        if sol and sol != "N/A":
            nxt = sol + (" " + NEXT_BY_CLASS[cls] if cls != "unknown" else "")
        upsert(v, "dcmi", name, meaning, "DCMI (npu-smi)", cls, nxt, key)
        if desc:
            report["covered"].setdefault("dcmi_interface_api.h", 0)
            report["covered"]["dcmi_interface_api.h"] += 1
            src = cite("dcmi_interface_api.h")
            r = rows[(v, "dcmi")]
            if src not in r["source"]:
                r["source"] = r["source"].replace(cite(key), cite(key) + "; " + src, 1)

    # EXnnnn catalogues
    for key in ("error_code.json", "drv_error_code.h", "ge_error_registry.cc", "hcomm_error_msg.cc"):
        if not (up / key).exists():
            print(f"skipped {key}: not in {up}", file=sys.stderr)
            continue
        for e in json_catalogue(read(key)):
            code = e["ErrCode"].strip()
            klass = e.get("errClass", "").strip()
            title = e.get("errTitle", "").strip()
            meaning = clean(f"{klass}: {e.get('ErrMessage', '')}" if klass else e.get("ErrMessage", ""))
            sug = e.get("suggestion", {}) or {}
            cause, sol = clean(sug.get("Possible Cause", "")), clean(sug.get("Solution", ""))
            cls = classify(MESSAGE_RULES, f"{code} {title} {klass} {e.get('ErrMessage', '')}")
            nxt = sol if sol and sol != "N/A" else NEXT_BY_CLASS[cls]
            if cause and cause != "N/A" and nxt == NEXT_BY_CLASS[cls]:
                nxt = f"Possible cause (source): {cause} {nxt}"
            component = (klass[:-7] if klass.endswith(" Errors") else klass) or MODULE_BY_CHAR.get(code[1], "CANN")
            upsert(code, "message", title, meaning, component, cls, nxt, key)

    # CANN error-code reference pages (hiascend maintenref/troubleshooting), for codes no
    # catalogue file above holds; text copied from the page.
    for code, title, klass, msg, sol, url in PAGE_CODES:
        cls = classify(MESSAGE_RULES, f"{code} {title} {klass} {msg}")
        SOURCES[url] = (url, "", "")
        upsert(code, "message", title, clean(f"{klass}: {msg}"), klass.removesuffix(" Errors"), cls,
               NEXT_BY_CLASS[cls], url, sol)

    # Rows no source above lists (retcode, InnerCodes, inner errors without a template)
    for k in order:
        r = rows[k]
        if "class" not in r:
            kind = r["kind"]
            text = r["name"] + " " + r["meaning"]
            if kind == "message":
                cls = classify(MESSAGE_RULES, r["code"] + " " + text)
            elif kind == "retcode":
                cls = classify(NUMERIC_RULES, r["meaning"].upper().replace(" ", "_"))
            else:
                cls = numeric_class(kind, r["name"])
            r["class"] = cls
            r["component"] = COMPONENT_BY_KIND.get(kind) or (
                r["meaning"].split(" Errors:")[0] if " Errors:" in r["meaning"] else "CANN")
            if not r.get("next_check") or r["next_check"].startswith(GENERIC_ADVICE_PREFIXES):
                if not r["next_check"].startswith(("Runtime-internal code:", "Internal error class:")):
                    r["next_check"] = NEXT_BY_CLASS[cls]

    for r in rows.values():
        assert r["class"] in CLASSES, r
        for c in COLUMNS:
            r[c] = clean(r.get(c, ""))

    kind_rank = {k: i for i, k in enumerate(["acl", "runtime", "retcode", "hccl", "drv", "dcmi", "message"])}

    def sort_key(k):
        code, kind = k
        num = re.fullmatch(r"-?\d+", code)
        return (kind_rank.get(kind, 9), 0 if num else 1,
                abs(int(code)) if num else 0, int(code, 16) if code.startswith("0x") else 0, code)

    out = [
        "# Error codes: ACL/runtime results, CANN error-message codes (EXnnnn), task retCodes and",
        "# runtime-internal InnerCodes, HCCL/driver/DCMI results. Columns and sources: docs/knowledge.md.",
        "# Generated from the public sources by scripts/import-error-codes.py, then reviewed; rows",
        "# that no source lists (retcode, InnerCodes) are kept as written.",
        "\t".join(COLUMNS),
    ]
    for k in sorted(rows, key=sort_key):
        out.append("\t".join(rows[k][c] for c in COLUMNS))
    if not args.check:
        TSV.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(json.dumps({"rows": len(rows), **report}, indent=1))


if __name__ == "__main__":
    main()
