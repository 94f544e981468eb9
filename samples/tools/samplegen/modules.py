"""Ascend kernel module sets: files under /lib/modules, the depmod index, what is resident.

The module names follow the legacy HDK generation (drv_*_host, ascend_*, dbl_*), as in
the incident's own commands. Sizes, symbol names, descriptions, build ids and srcversions
are invented (see samples/README.md).
"""
from . import timeutil
from .bundle import hexid, tsv

# name -> (size of the 26.0.rc1 build, size of the 25.5.1 DKMS build, dependencies as built)
MODULES = {
    "drv_seclib_host": (229376, 221184, []),
    "dbl_runenv_config": (45056, 45056, []),
    "dbl_algorithm": (36864, 36864, []),
    "dbl_dev_identity": (53248, 49152, ["dbl_algorithm"]),
    "ascend_soc_platform": (188416, 176128, ["drv_seclib_host", "dbl_runenv_config"]),
    "drv_davinci_intf_host": (114688, 110592, ["drv_seclib_host"]),
    "drv_pcie_host": (1241088, 1200128, ["ascend_soc_platform", "drv_davinci_intf_host", "drv_seclib_host", "dbl_dev_identity"]),
    "drv_devmng_host": (1859584, 1806336, ["drv_pcie_host", "ascend_soc_platform", "drv_davinci_intf_host", "drv_seclib_host"]),
    "drv_pcie_hdc_host": (405504, 397312, ["drv_devmng_host", "drv_pcie_host", "drv_seclib_host"]),
    "ascend_event_sched_host": (602112, 589824, ["drv_devmng_host", "drv_seclib_host"]),
    "ascend_xsmem": (143360, 139264, ["drv_davinci_intf_host", "drv_seclib_host"]),
    "ascend_queue": (266240, 262144, ["ascend_event_sched_host", "ascend_xsmem", "drv_devmng_host", "drv_seclib_host"]),
    "drv_devmm_host": (2129920, 2068480, ["drv_davinci_intf_host", "ascend_soc_platform", "drv_seclib_host"]),
    "drv_devmm_host_agent": (221184, 217088, ["drv_devmm_host", "drv_devmng_host", "drv_seclib_host"]),
    "ts_agent": (733184, 720896, ["drv_devmng_host", "drv_pcie_host", "drv_seclib_host"]),
    "drv_dvpp_cmdlist": (356352, 348160, ["drv_devmm_host", "drv_devmng_host", "drv_seclib_host"]),
    "drv_soft_fault": (81920, 81920, ["drv_devmng_host", "drv_seclib_host"]),
    "drv_vascend": (167936, 163840, ["drv_devmng_host", "drv_seclib_host"]),
}
LOAD_ORDER = list(MODULES)  # dependencies come first

# In the index rewritten on 2026-09-03, these names resolved to the fresh files in updates/;
# every other name resolved to the stale link in updates/dkms/ (two candidates under one
# `search updates` entry: the later one in directory traversal wins).
INDEX_PICKS_NEW = {"drv_seclib_host", "dbl_runenv_config", "dbl_algorithm", "dbl_dev_identity",
                   "ascend_soc_platform", "drv_davinci_intf_host"}
# Symbols each 25.5.1 module takes from a provider whose 26.0.rc1 build renamed them: such a
# module cannot load against the 26.0.rc1 provider ("Unknown symbol ... (err -2)").
NEEDS_RENAMED = {
    "drv_pcie_host": {"ascend_soc_platform": ["soc_platform_get_chip_info"],
                      "drv_davinci_intf_host": ["drv_davinci_register_sub_module",
                                                "drv_davinci_unregister_sub_module"]},
    "drv_devmng_host": {"ascend_soc_platform": ["soc_platform_get_chip_info"],
                        "drv_davinci_intf_host": ["drv_davinci_register_sub_module"]},
    "drv_devmm_host": {"drv_davinci_intf_host": ["drv_davinci_register_sub_module",
                                                 "drv_davinci_unregister_sub_module"],
                       "ascend_soc_platform": ["soc_platform_get_chip_info"]},
}
# An export kept under its name but with a new CRC: "disagrees about version of symbol".
CRC_CHANGED = {"ascend_xsmem": ("drv_davinci_intf_host", "drv_ascend_intf_get_owner")}

NAME_PATTERNS = ["drv_*", "ascend_*", "asdrv_*", "dbl_*", "ts_agent", "ts_agent_vm", "ts_debug",
                 "debug_switch", "npu_peermem", "tc_pcidev", "drv_vpcie", "davinci_*"]

OTHER_MODULES = [  # (name, size, used_by) of a typical arm64 server, loaded before Ascend
    ("nls_iso8859_1", 16384, []), ("ipmi_ssif", 40960, []), ("ipmi_devintf", 20480, []),
    ("ipmi_msghandler", 122880, ["ipmi_devintf", "ipmi_ssif", "ipmi_si"]), ("ipmi_si", 86016, []),
    ("sch_fq_codel", 20480, []), ("dm_multipath", 40960, []), ("efi_pstore", 16384, []),
    ("ip_tables", 36864, []), ("x_tables", 53248, ["ip_tables"]), ("autofs4", 53248, []),
    ("btrfs", 1568768, []), ("raid10", 69632, []), ("raid456", 188416, []),
    ("xor", 20480, ["btrfs", "raid456"]), ("raid6_pq", 122880, ["btrfs", "raid456"]),
    ("libcrc32c", 16384, ["btrfs", "raid456"]), ("raid1", 53248, []), ("raid0", 28672, []),
    ("hibmc_drm", 28672, []), ("drm_vram_helper", 24576, ["hibmc_drm"]),
    ("drm_kms_helper", 311296, ["hibmc_drm", "drm_vram_helper"]),
    ("drm", 630784, ["hibmc_drm", "drm_vram_helper", "drm_kms_helper"]),
    ("hclge", 409600, []), ("hns3", 176128, ["hclge"]), ("hnae3", 40960, ["hclge", "hns3"]),
    ("nvme", 53248, []), ("nvme_core", 139264, ["nvme"]), ("hisi_sas_v3_hw", 65536, []),
    ("hisi_sas_main", 57344, ["hisi_sas_v3_hw"]), ("libsas", 114688, ["hisi_sas_v3_hw", "hisi_sas_main"]),
    ("scsi_transport_sas", 53248, ["hisi_sas_v3_hw", "hisi_sas_main", "libsas"]),
    ("crct10dif_ce", 20480, []), ("ghash_ce", 24576, []), ("sha2_ce", 20480, []),
    ("sha256_arm64", 28672, ["sha2_ce"]), ("sha1_ce", 20480, []), ("aes_neon_bs", 24576, []),
    ("aes_neon_blk", 28672, ["aes_neon_bs"]), ("aes_ce_blk", 36864, []), ("overlay", 151552, []),
    ("bridge", 307200, []), ("stp", 16384, ["bridge"]), ("llc", 20480, ["bridge", "stp"]),
]


class ModuleFile:
    def __init__(self, kver, name, build, path, link_target, size, link_mtime, target_mtime):
        self.kver, self.name, self.build = kver, name, build
        self.path, self.link_target, self.size = path, link_target, size
        self.link_mtime, self.target_mtime = link_mtime, target_mtime

    @property
    def build_id(self):
        return hexid("build-id/%s/%s" % (self.build, self.name), 40)

    @property
    def srcversion(self):
        return hexid("srcversion/%s/%s" % (self.build, self.name), 24).upper()

    @property
    def sha256(self):
        return hexid("ko-bytes/%s/%s" % (self.build, self.name), 64)

    @property
    def vermagic(self):
        return "%s SMP mod_unload modversions aarch64" % self.kver

    @property
    def rel(self):
        return self.path.split("/lib/modules/%s/" % self.kver, 1)[1]


class ModuleWorld:
    """Module files of one kernel and the index depmod built over them."""

    def __init__(self, kver, sets, picks):
        self.kver = kver
        self.files = []  # every candidate
        for s in sets:
            for name in LOAD_ORDER:
                self.files.append(s(name))
        self.picks = picks  # name -> ModuleFile the index resolves to

    def winner(self, name):
        return self.picks[name]

    def index_deps(self, name):
        """Direct dependencies in modules.dep: built dependencies whose symbols still resolve."""
        me = self.winner(name)
        deps = []
        for d in MODULES[name][2]:
            provider = self.winner(d)
            if me.build != provider.build and d in NEEDS_RENAMED.get(name, {}):
                continue  # depmod: "needs unknown symbol"; no dependency recorded
            deps.append(d)
        return deps

    def closure(self, name):
        """Transitive dependencies, nearest users first (the order modules.dep lists them)."""
        order = []

        def visit(n):
            for d in self.index_deps(n):
                visit(d)
                if d not in order:
                    order.append(d)
        visit(name)
        return list(reversed(order))

    def unknown_symbols(self, name):
        """Symbols the index's file for `name` needs and cannot find in the index's providers."""
        me = self.winner(name)
        out = []
        for d, syms in NEEDS_RENAMED.get(name, {}).items():
            if self.winner(d).build != me.build:
                out.extend(syms)
        return out

    def crc_mismatch(self, name):
        if name in CRC_CHANGED:
            prov, sym = CRC_CHANGED[name]
            if self.winner(prov).build != self.winner(name).build:
                return sym
        return None

    def depmod_warnings(self):
        out = []
        for name in LOAD_ORDER:
            for sym in self.unknown_symbols(name):
                out.append("depmod: WARNING: /lib/modules/%s/%s needs unknown symbol %s"
                           % (self.kver, self.winner(name).rel, sym))
        return out

    # ---- renders -------------------------------------------------------------------
    def tree_tsv(self):
        header = ["kver", "module", "path", "type", "link_target", "resolved_path", "target_exists",
                  "compression", "size", "link_mtime", "target_mtime", "target_ctime", "sha256",
                  "srcversion", "build_id", "vermagic"]
        rows = []
        for f in sorted(self.files, key=lambda f: f.path):
            is_link = f.link_target is not None
            rows.append([f.kver, f.name, f.path, "l" if is_link else "f", f.link_target or "",
                         f.link_target or f.path, "1", "none", f.size,
                         int(f.link_mtime) if is_link else "", int(f.target_mtime),
                         int(f.target_mtime) + (0 if not is_link else 2), f.sha256, f.srcversion,
                         f.build_id, f.vermagic])
        return tsv(header, rows)

    def modules_dep_txt(self):
        lines = []
        for name in LOAD_ORDER:
            w = self.winner(name)
            deps = [self.winner(d).rel for d in self.closure(name)]
            lines.append("%s:%s:%s" % (self.kver, w.rel, (" " + " ".join(deps)) if deps else ""))
        return "\n".join(lines) + "\n"

    def modinfo(self, name):
        f = self.winner(name)
        built_deps = MODULES[name][2]
        lines = [("filename", f.path), ("license", "GPL"),
                 ("description", "HUAWEI Ascend %s" % name),
                 ("author", "Huawei Tech. Co., Ltd."), ("srcversion", f.srcversion)]
        if name == "drv_pcie_host":
            lines.append(("alias", "pci:v000019E5d0000D802sv*sd*bc*sc*i*"))
            lines.append(("alias", "pci:v000019E5d0000D801sv*sd*bc*sc*i*"))
        lines.append(("depends", ",".join(built_deps)))
        lines.append(("name", name))
        lines.append(("vermagic", f.vermagic))
        return "".join("%-16s%s\n" % (k + ":", v) for k, v in lines)

    def show_depends(self, name):
        chain = list(reversed(self.closure(name))) + [name]
        return "".join("insmod %s \n" % self.winner(n).path for n in chain)

    def dry_run(self, name, loaded):
        chain = list(reversed(self.closure(name))) + [name]
        return "".join("insmod %s \n" % self.winner(n).path for n in chain if n not in loaded)


def incident_world(kver):
    """Two sets: 26.0.rc1 files in updates/ and 25.5.1 DKMS links in updates/dkms/."""
    new_mtime = timeutil.local_epoch(2026, 9, 3, 14, 8, 51)
    link_mtime = timeutil.local_epoch(2026, 6, 12, 10, 16, 37)
    build_mtime = timeutil.local_epoch(2026, 6, 12, 10, 15, 58)
    dkms_dir = "/var/lib/dkms/davinci_ascend/1.0/%s/aarch64/module" % kver

    def new(name):
        return ModuleFile(kver, name, "26.0.rc1", "/lib/modules/%s/updates/%s.ko" % (kver, name), None,
                          MODULES[name][0], None, new_mtime + LOAD_ORDER.index(name) * 0.03)

    def stale(name):
        return ModuleFile(kver, name, "25.5.1-dkms", "/lib/modules/%s/updates/dkms/%s.ko" % (kver, name),
                          "%s/%s.ko" % (dkms_dir, name), MODULES[name][1], link_mtime,
                          build_mtime + LOAD_ORDER.index(name) * 1.7)
    world = ModuleWorld(kver, [new, stale], {})
    by = {(f.build, f.name): f for f in world.files}
    for name in LOAD_ORDER:
        world.picks[name] = by[("26.0.rc1" if name in INDEX_PICKS_NEW else "25.5.1-dkms", name)]
    world.stale = {n: by[("25.5.1-dkms", n)] for n in LOAD_ORDER}
    world.new = {n: by[("26.0.rc1", n)] for n in LOAD_ORDER}
    return world


def healthy_world(kver, install_epoch):
    def new(name):
        return ModuleFile(kver, name, "26.0.rc1", "/lib/modules/%s/updates/%s.ko" % (kver, name), None,
                          MODULES[name][0], None, install_epoch + LOAD_ORDER.index(name) * 0.03)
    world = ModuleWorld(kver, [new], {})
    for f in world.files:
        world.picks[f.name] = f
    world.new = dict(world.picks)
    return world


def holders_of(name, loaded):
    return [m for m in LOAD_ORDER if m in loaded and name in MODULES[m][2]]


def lsmod(loaded_ascend, extra_used_by=None):
    """lsmod text: newest first. `loaded_ascend` maps name -> ModuleFile resident."""
    rows = []
    for name in reversed([n for n in LOAD_ORDER if n in loaded_ascend]):
        users = holders_of(name, loaded_ascend)
        size = loaded_ascend[name].size // 4096 * 4096 - 8192
        count = len(users) + (extra_used_by or {}).get(name, 0)
        rows.append((name, size, count, users))
    for name, size, users in reversed(OTHER_MODULES):
        rows.append((name, size, len(users), users))
    lines = ["Module                  Size  Used by"]
    for name, size, count, users in rows:
        lines.append("%-19s %8d  %d%s" % (name, size, count, (" " + ",".join(users)) if users else ""))
    return "\n".join(lines) + "\n"


def proc_modules(loaded_ascend, extra_used_by=None):
    lines = []
    for name in reversed([n for n in LOAD_ORDER if n in loaded_ascend]):
        users = holders_of(name, loaded_ascend)
        size = loaded_ascend[name].size // 4096 * 4096 - 8192
        count = len(users) + (extra_used_by or {}).get(name, 0)
        addr = 0xffff800009000000 + int(hexid("addr" + name, 5), 16) * 0x1000
        lines.append("%s %d %d %s Live 0x%016x (OE)" % (name, size, count,
                     (",".join(users) + ",") if users else "-", addr))
    for name, size, users in reversed(OTHER_MODULES):
        addr = 0xffff800001000000 + int(hexid("addr" + name, 5), 16) * 0x1000
        lines.append("%s %d %d %s Live 0x%016x" % (name, size, len(users),
                     (",".join(users) + ",") if users else "-", addr))
    return "\n".join(lines) + "\n"


def sysfs_tsv(loaded_ascend, extra_used_by=None):
    header = ["name", "version", "srcversion", "build_id", "initstate", "taint", "refcnt", "holders"]
    rows = []
    for name in sorted(loaded_ascend):
        f = loaded_ascend[name]
        users = holders_of(name, loaded_ascend)
        count = len(users) + (extra_used_by or {}).get(name, 0)
        rows.append([name, "", f.srcversion, f.build_id, "live", "OE", count, ",".join(users)])
    return tsv(header, rows)
