#pragma once
// The source kinds the kernel family reads: one row each (parsers/common/kind_row.h).
// ingest/registry.cpp joins every family's rows; a new kind of this family is one row here.
#include "parsers/common/kind_row.h"
#include "parsers/kernel/boots_parser.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/kernel/kernel_state_parsers.h"

namespace triage {

inline constexpr KindRow kKernelKinds[] = {
    {SourceKind::devices_txt, parse_devices_txt, "ls -l of Ascend device nodes", {}},
    {SourceKind::journal_json, parse_journal_json, "journalctl -o json kernel messages", {}},
    {SourceKind::journal_text, parse_journal_text, "journalctl text output", {}},
    {SourceKind::boots_txt, parse_boots_txt, "journalctl --list-boots", {}},
    {SourceKind::boots_json, nullptr, "journalctl --list-boots -o json",
     "the same boots as boots.txt, which is parsed"},
    {SourceKind::dmesg, parse_dmesg, "raw dmesg (seconds since boot)", {}},
    {SourceKind::dmesg_human, parse_dmesg_human, "dmesg -T (local wall-clock times)", {}},
    {SourceKind::syslog, parse_syslog, "syslog file (messages, kern.log, syslog)", {}},
    {SourceKind::tainted, parse_tainted, "/proc/sys/kernel/tainted", {}},
    {SourceKind::secure_boot, parse_secure_boot, "mokutil --sb-state", {}},
};

// Finishes the family's facts once the bundle is read:
// kernel times, copies across sources, order; its signature hits join the plog's.
void finalize_kernel_facts(BundleFacts& facts, const AnalyzeOptions& options);

inline constexpr ParserFamily kKernelFamily{"kernel", kKernelKinds, finalize_kernel_facts};

}  // namespace triage
