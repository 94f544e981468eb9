#pragma once
// The source kinds the plog family reads: one row each (parsers/common/kind_row.h).
// ingest/registry.cpp joins every family's rows; a new kind of this family is one row here.
#include "parsers/common/kind_row.h"
#include "parsers/plog/device_export_parser.h"
#include "parsers/plog/plog_parser.h"
#include "parsers/plog/seclog_parser.h"

namespace triage {

inline constexpr KindRow kPlogKinds[] = {
    {SourceKind::ascend_seclog, parse_ascend_seclog, "Ascend install / operation log", {}},
    {SourceKind::device_log_export, parse_device_export, "msnpureport device-side export file", {}},
    {SourceKind::plog, parse_plog, "CANN host application log (plog)", {}},
    {SourceKind::device_log, parse_plog, "CANN device-side log (device-<pid>_*.log, device-os)", {}},
};

// Finishes the family's facts once the bundle is read:
// plog copies, zones and order; install and operation events.
void finalize_plog_facts(BundleFacts& facts, const AnalyzeOptions& options);

inline constexpr ParserFamily kPlogFamily{"plog", kPlogKinds, finalize_plog_facts};

}  // namespace triage
