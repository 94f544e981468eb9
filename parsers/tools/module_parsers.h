#pragma once
// Kernel module and PCI sources (contract: modules/, system/kernels.tsv,
// system/pci-devices.tsv, system/lspci.txt). Facts go to BundleFacts::modules. The kernel
// state (devices.txt, tainted, secure boot) is parsers/kernel/kernel_state_parsers.h.
#include <string>
#include <string_view>
#include <vector>

#include "parsers/common/parser.h"

namespace triage {

// TSV sources (parsers/tools/module_tsv_parsers.cpp).
void parse_module_sysfs_tsv(ParseContext& ctx, ByteSource& src);
void parse_module_tree_tsv(ParseContext& ctx, ByteSource& src);
void parse_kernels_tsv(ParseContext& ctx, ByteSource& src);
void parse_pci_devices_tsv(ParseContext& ctx, ByteSource& src);

// Tool outputs (parsers/tools/module_tool_parsers.cpp).
void parse_lsmod(ParseContext& ctx, ByteSource& src);
void parse_proc_modules(ParseContext& ctx, ByteSource& src);
void parse_modinfo(ParseContext& ctx, ByteSource& src);
void parse_modprobe_show_depends(ParseContext& ctx, ByteSource& src);
void parse_modprobe_dry_run(ParseContext& ctx, ByteSource& src);
void parse_modules_dep(ParseContext& ctx, ByteSource& src);
void parse_modprobe_config(ParseContext& ctx, ByteSource& src);
void parse_initramfs_list(ParseContext& ctx, ByteSource& src);

// parsers/tools/dkms_parsers.cpp
void parse_dkms_status(ParseContext& ctx, ByteSource& src);
void parse_dkms_tree(ParseContext& ctx, ByteSource& src);

// parsers/tools/pci_lspci_parser.cpp
void parse_lspci(ParseContext& ctx, ByteSource& src);

// The module name of "modules/modinfo/<kver>/<name>.txt" style paths: {kver, name};
// kver is "" for "modules/modprobe-dry-run/<name>.txt".
struct ModulePathParts {
  std::string kver, name;
};
ModulePathParts module_path_parts(std::string_view path);
// "/lib/modules/k/updates/dkms/drv_x.ko.xz" -> "drv_x" (dashes become underscores).
std::string module_name_of_path(std::string_view path);
// Splits on any of the given separator characters, dropping empty pieces.
std::vector<std::string> split_list(std::string_view s, std::string_view seps);

}  // namespace triage
