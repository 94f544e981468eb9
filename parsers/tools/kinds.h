#pragma once
// The source kinds the tools family reads: one row each (parsers/common/kind_row.h).
// ingest/registry.cpp joins every family's rows; a new kind of this family is one row here.
#include "parsers/common/kind_row.h"
#include "parsers/tools/hccn_parsers.h"
#include "parsers/tools/module_parsers.h"
#include "parsers/tools/npu_smi_parsers.h"
#include "parsers/tools/npu_smi_topo_parser.h"
#include "parsers/tools/pip_freeze_parser.h"
#include "parsers/tools/pip_list_text_parser.h"

namespace triage {

inline constexpr KindRow kToolsKinds[] = {
    {SourceKind::kernels_tsv, parse_kernels_tsv, "installed kernels (system/kernels.tsv)", {}},
    {SourceKind::pci_devices_tsv, parse_pci_devices_tsv, "PCI functions from sysfs", {}},
    {SourceKind::lspci, parse_lspci, "lspci -D -nn -k", {}},
    {SourceKind::lsmod, parse_lsmod, "lsmod", {}},
    {SourceKind::proc_modules, parse_proc_modules, "/proc/modules", {}},
    {SourceKind::module_sysfs_tsv, parse_module_sysfs_tsv, "loaded Ascend modules from /sys/module", {}},
    {SourceKind::module_tree_tsv, parse_module_tree_tsv, "Ascend module files and links under /lib/modules", {}},
    {SourceKind::modinfo, parse_modinfo, "modinfo output", {}},
    {SourceKind::modprobe_show_depends, parse_modprobe_show_depends, "modprobe --show-depends", {}},
    {SourceKind::modprobe_dry_run, parse_modprobe_dry_run, "modprobe -n -v", {}},
    {SourceKind::modules_dep, parse_modules_dep, "modules.dep lines naming Ascend modules", {}},
    {SourceKind::modprobe_config, parse_modprobe_config, "modprobe.d / depmod.d / modules-load.d file", {}},
    {SourceKind::initramfs_list, parse_initramfs_list, "Ascend entries of an initramfs listing", {}},
    {SourceKind::dkms_status, parse_dkms_status, "dkms status", {}},
    {SourceKind::dkms_tree, parse_dkms_tree, "listing of the DKMS tree", {}},
    {SourceKind::npu_smi_info, parse_npu_smi_info, "npu-smi info", {}},
    {SourceKind::npu_smi_map, parse_npu_smi_map, "npu-smi info -m", {}},
    {SourceKind::npu_smi_health, parse_npu_smi_health, "npu-smi info -t health", {}},
    {SourceKind::npu_smi_usages, parse_npu_smi_usages, "npu-smi info -t usages sample", {}},
    {SourceKind::npu_smi_readings, parse_npu_smi_readings,
     "npu-smi info -t common/temp/power sample: AI Core frequency (rated, current), temperature, power", {}},
    {SourceKind::hccn_conf, nullptr, "/etc/hccn.conf",
     "no analysis reads the NPU network configuration yet"},
    {SourceKind::hccn_link, parse_hccn_link, "hccn_tool -link -g", {}},
    {SourceKind::hccn_net_health, parse_hccn_net_health, "hccn_tool -net_health -g", {}},
    {SourceKind::hccn_ip, parse_hccn_ip, "hccn_tool -ip -g", {}},
    {SourceKind::hccn_optical, parse_hccn_optical, "hccn_tool -optical -g", {}},
    {SourceKind::hccn_link_stat, parse_hccn_link_stat, "hccn_tool -link_stat -g", {}},
    {SourceKind::hccn_stat, parse_hccn_stat, "hccn_tool -stat -g", {}},
    {SourceKind::npu_smi_topo, parse_npu_smi_topo, "npu-smi info -t topo: links between NPUs (HCCS, PIX, SYS) and CPU affinity", {}},
    {SourceKind::pip_list_text, parse_pip_list_text, "pip list (columns, as printed or filtered with grep): package versions", {}},
    {SourceKind::pip_freeze, parse_pip_freeze, "pip freeze / requirements lines (name==version): package versions", {}},
};

inline constexpr ParserFamily kToolsFamily{"tools", kToolsKinds, nullptr};

}  // namespace triage
