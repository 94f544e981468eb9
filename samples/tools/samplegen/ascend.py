"""Ascend installation files and device-tool output.

Field names and shapes follow ascend-facts.md §2-3 and real-log-excerpts.md §4. The exact
contents for driver 26.0.rc1, firmware 9.0.0.0.205 and CANN 9.1.0 are invented where the
facts are silent (listed in samples/README.md).
"""
from . import timeutil
from .bundle import tsv

DRIVER_26_0_RC1 = """Version=26.0.rc1
ascendhal_version=7.35.23
aicpu_version=1.0
tdt_version=1.0
log_version=1.0
prof_version=2.0
dvppkernels_version=1.1
tsfw_version=1.0
Innerversion=V100R001C10SPC001B257
compatible_version=[V100R001C21],[V100R001C22],[V100R001C23],[V100R001C25],[V100R001C10],[V100R001C11]
compatible_version_fw=[7.0.0,9.9.99]
package_version=26.0.rc1
"""

FIRMWARE_9_0_0_0_205 = """Version=9.0.0.0.205
firmware_version=1.0
package_version=26.0.rc1
compatible_version_drv=[24.1,24.1.],[25.0,25.0.],[25.2,25.2.],[25.3,25.3.],[25.5,25.5.],[26.0,26.0.]
"""

ASCEND_INSTALL_INFO = """UserName=HwHiAiUser
UserGroup=HwHiAiUser
Driver_Install_Type=full
Driver_Install_Path_Param=/usr/local/Ascend
Driver_Install_For_All=yes
Driver_Install_Mode=normal
Firmware_Install_Type=full
Firmware_Install_Path_Param=/usr/local/Ascend
Driver_Install_Status=complete
"""

CANN = {
    "9.1.0": {"inner": "V100R001C11SPC001B243", "build": "9.1.0.0.243", "timestamp": "20260718_201455931",
              "compatible": "[V100R001C21],[V100R001C23],[V100R001C25],[V100R001C10],[V100R001C11]"},
    "8.5.0": {"inner": "V100R001C25SPC001B232", "build": "8.5.0.2.220", "timestamp": "20251219_163012417",
              "compatible": "[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C23]"},
}


def cann_files(version, root):
    """Files of one cann-<ver> install (toolkit and 910B ops share the directory), relative to
    the install dir -> content, and the files of the ops package."""
    c = CANN[version]
    toolkit = {
        "aarch64-linux/ascend_toolkit_install.info":
            "package_name=Ascend-cann-toolkit\nversion=%s\ninnerversion=%s\ncompatible_version=%s\n"
            "arch=aarch64\nos=linux\npath=%s/aarch64-linux\n" % (version, c["inner"], c["compatible"], root),
        "share/info/runtime/version.info":
            "Version=%s\nversion_dir=%s\ntimestamp=%s\nrequired_package_driver_version=\">=25.2\"\n"
            % (c["build"], version, c["timestamp"]),
        "share/info/toolkit/version.info":
            "Version=%s\nversion_dir=%s\ntimestamp=%s\n" % (c["build"], version, c["timestamp"]),
    }
    ops = {
        "aarch64-linux/ascend_ops_install.info":
            "package_name=Ascend-cann-910b-ops\nversion=%s\ninnerversion=%s\narch=aarch64\nos=linux\n"
            "path=%s/aarch64-linux\n" % (version, c["inner"], root),
        "share/info/ops/version.info":
            "Version=%s\nversion_dir=%s\ntimestamp=%s\nrequired_package_toolkit_version=\"%s\"\n"
            % (c["build"], version, c["timestamp"], version[:3]),
    }
    return toolkit, ops


def cann_index(rows):
    return tsv(["id", "install_dir", "kind", "version", "resolved_dir", "seen_from"], rows)


def paths_tsv(rows):
    return tsv(["path", "exists", "type", "resolved_path", "seen_from"], rows)


# ---- npu-smi -----------------------------------------------------------------------------
SEP_EQ = "+===========================+===============+====================================================+"
SEP_DASH = "+---------------------------+---------------+----------------------------------------------------+"
TOP = "+------------------------------------------------------------------------------------------------+"


def npu_smi_info(version, npus, processes):
    """npu-smi info (25.x/26.0 narrow layout, 910B: one chip per NPU, no Phy-ID column).
    npus: list of dicts id, name, health, power, temp, bus, aicore, hbm_used, hbm_total.
    processes: npu id -> list of (pid, name, mem_mb)."""
    out = [TOP,
           "| npu-smi %-25sVersion: %-53s|" % (version, version),
           SEP_DASH,
           "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|",
           "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |",
           SEP_EQ]
    for n in npus:
        out.append("| %-5d %-19s | %-13s | %-11s %-17s %-21s|" % (
            n["id"], n["name"], n["health"], "%.1f" % n["power"], n["temp"], "0    / 0"))
        hbm = "%-5s/ %s" % (n["hbm_used"], n["hbm_total"])
        out.append("| %-25s | %-13s | %-11s %-17s %-21s|" % (
            "0", n["bus"], n["aicore"], "0    / 0", hbm))
        out.append(SEP_EQ)
    out.append(SEP_DASH)
    out.append("| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |")
    out.append(SEP_EQ)
    for n in npus:
        procs = processes.get(n["id"], [])
        if not procs:
            out.append("| %-94s |" % ("No running processes found in NPU %d" % n["id"]))
        for pid, name, mem in procs:
            out.append("| %-7d %-17s | %-13d | %-24s | %-23d |" % (n["id"], "0", pid, name, mem))
        out.append(SEP_EQ)
    return "\n".join(out) + "\n"


def npu_smi_map(npus, chip_name):
    pad = lambda s: "%-31s" % s
    lines = ["\t" + pad("NPU ID") + pad("Chip ID") + pad("Chip Logic ID") + pad("Chip Name")]
    for n in npus:
        lines.append("\t" + pad(str(n["id"])) + pad("0") + pad(str(n["id"])) + chip_name)
        lines.append("\t" + pad(str(n["id"])) + pad("1") + pad("-") + pad("Mcu"))
    return "\n".join(lines) + "\n"


def npu_smi_health(status="OK"):
    return ("        Health Status                  : %s\n"
            "        Error Code                     : NA\n"
            "        Error Information              : NA\n" % status)


def npu_smi_usages(sampled_utc, npu_id, mem_rate, hbm_rate, aicore_rate, temp, power):
    return ("sampled_utc=%s\n"
            "        NPU ID                         : %d\n"
            "        Chip Count                     : 1\n"
            "\n"
            "        DDR Capacity(MB)               : 15171\n"
            "        DDR Usage Rate(%%)              : %d\n"
            "        DDR Hugepages Total(page)      : 0\n"
            "        DDR Hugepages Usage Rate(%%)    : 0\n"
            "        HBM Capacity(MB)               : 65536\n"
            "        HBM Usage Rate(%%)              : %d\n"
            "        Aicore Usage Rate(%%)           : %d\n"
            "        Aivector Usage Rate(%%)         : 0\n"
            "        Aicpu Usage Rate(%%)            : 0\n"
            "        Ctrlcpu Usage Rate(%%)          : %d\n"
            "        DDR Bandwidth Usage Rate(%%)    : 0\n"
            "        HBM Bandwidth Usage Rate(%%)    : %d\n"
            "        Chip ID                        : 0\n"
            % (sampled_utc, npu_id, mem_rate, hbm_rate, aicore_rate, 3 + npu_id % 4,
               0 if aicore_rate == 0 else aicore_rate // 2))


def hccn_conf(npus):
    lines = []
    for n in npus:
        lines.append("address_%d=29.%d.%d.%d" % (n, 10 + n // 4, 100 + n % 4, 17))
        lines.append("netmask_%d=255.255.0.0" % n)
    lines.append("netdetect_0=29.10.0.1")
    return "\n".join(lines) + "\n"


def hccn_link(dev, now_epoch, up_epoch):
    return ("[device %d]current time        : %s\n"
            "[device %d]link up count       : 1\n"
            "[device %d]link change records :\n"
            "[device %d]    %s    LINK UP\n"
            % (dev, timeutil.ctime(now_epoch), dev, dev, dev, timeutil.ctime(up_epoch)))
