#pragma once
// ascend/seclog/<name>: the Ascend installers' logs (ascend_install.log, operation.log).
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

// One kind (ascend_seclog) covers the whole directory; each line is read by its shape:
// `[Driver] [2026-06-12 10:05:11] [uid=0] [INFO]msg` (install log) or
// `Install MINOR root 2026-06-12 10:05:11 127.0.0.1 X.run success install_type=full; cmdlist=--full.`
// (operation log). Other lines (ascend_run_servers.log holds dmesg, lsmod, ps) are counted
// unrecognised.
void parse_ascend_seclog(ParseContext& ctx, ByteSource& src);

// Install-log times are local wall clock of the host: converted with the host zone.
void finalize_event_facts(BundleFacts& facts, const AnalyzeOptions& options);

// The version inside a run file name: "Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run"
// -> "25.5.1", "Ascend-hdk-910b-npu-firmware_7.8.0.6.201.run" -> "7.8.0.6.201"; "" if none.
std::string_view version_from_run_file(std::string_view name);

}  // namespace triage
