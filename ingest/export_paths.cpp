#include "ingest/export_paths.h"

#include <fmt/format.h>

#include <array>

#include "bundle/path_glob.h"

namespace triage {
namespace {

// Paths of an msnpureport export tree, wherever it sits (the bundle layout names the same
// trees under logs/, extra/ and ascend/device-logs/).
constexpr std::array<std::string_view, 8> kExportPaths = {
    "**/hisi_logs/**",                  // black box: device-N/<time>/{bbox,log,mntn}/..., history.log
    "**/device-*/*-*/bbox/**",          // a device-N/ tree sent without hisi_logs/
    "**/device-*/*-*/log/kernel.log",
    "**/device-*/*-*/log/ts.log",
    "**/device-*/history.log",
    "**/slog/dev-os-*/**",              // device-side slog: device-os, event, device-N logs
    "**/dev-os-*/*/device-os/**",
    "**/message/messages*",             // device syslog
};

}  // namespace

std::optional<Classification> classify_export_path(std::string_view path, std::string_view head) {
  for (std::string_view pattern : kExportPaths) {
    if (!glob_match(pattern, path)) continue;
    if (head.empty()) return std::nullopt;
    // Core dumps and other binaries of the tree are not logs: the sniffer says what they are.
    if (head.find('\0') != std::string_view::npos) return std::nullopt;
    return Classification{SourceKind::device_log_export, ClassifiedBy::content_sniff,
                          fmt::format("device-log export path ({}), text content", pattern)};
  }
  return std::nullopt;
}

}  // namespace triage
