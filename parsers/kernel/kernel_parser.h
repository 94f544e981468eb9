#pragma once
// Kernel log parsers: journal JSON, journalctl text, raw dmesg, dmesg -T and syslog files.
// Every line is counted; only lines that matter become KernelEvents (model/facts_logs.h).
// Times that need the whole bundle (btime, zone, collection year) are finished in
// finalize_kernel_facts() (parsers/kernel/kernel_finalize.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bundle/line_reader.h"
#include "knowledge/knowledge.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/common/parser.h"

namespace triage {

void parse_journal_json(ParseContext& ctx, ByteSource& src);
void parse_journal_text(ParseContext& ctx, ByteSource& src);
void parse_dmesg(ParseContext& ctx, ByteSource& src);
void parse_dmesg_human(ParseContext& ctx, ByteSource& src);
void parse_syslog(ParseContext& ctx, ByteSource& src);

// Shared by the text and JSON readers: decides whether a kernel message is kept, and
// keeps it with its time and evidence.
class KernelEventSink {
 public:
  KernelEventSink(ParseContext& ctx, KernelLogForm form, const KnowledgeBase& knowledge);
  struct Time {
    std::optional<int64_t> utc_us;  // journal JSON, ISO forms
    CivilTime local;                // local forms
    bool local_valid = false, year_missing = false, approximate = false;
    std::optional<double> uptime_s;
    std::string_view original;
  };
  // Returns true when the message was kept.
  bool offer(std::string_view message, const Time& time, std::string_view boot_id,
             std::string_view priority, const Line& line);
  void note_boot(std::string_view boot_id);
  void finish(uint64_t lines);
  std::string_view entry_name() const { return entry_name_; }

 private:
  ParseContext& ctx_;
  KernelLogForm form_;
  const KnowledgeBase& knowledge_;
  std::string_view entry_name_;
  KernelEntrySummary summary_;
  std::vector<int> scratch_, hits_;
  // `CPU: 3 PID: 4321 Comm: python3 ...` right after a kept report (hard lockup, oops): the
  // task that ran on that CPU, added as pid / comm captures to the report's signature hits.
  void attach_task(std::string_view msg, const Line& line);
  size_t last_report_ = SIZE_MAX;  // index into LogFacts::kernel_events of the last hit
  uint64_t last_report_line_ = 0;
  // The compact form of info lines (KernelInfoLine): names looked up once per entry and boot.
  void keep_compact(std::string_view msg, const Time& time, std::string_view boot_id, const Line& line);
  uint32_t entry_name_id_ = UINT32_MAX, boot_name_id_ = UINT32_MAX;
  std::string boot_raw_;
  // Storm folding: kept lines per template in this entry and the index of the last one.
  struct TemplateSlot {
    uint32_t kept = 0;
    size_t event = 0;  // into LogFacts::kernel_events
  };
  std::unordered_map<uint64_t, TemplateSlot> templates_;
  void fold(TemplateSlot& slot, const Time& time);
};

// Text forms: one reader for dmesg, dmesg -T, journalctl text and syslog.
void parse_kernel_text(ParseContext& ctx, ByteSource& src, KernelLogForm form);

}  // namespace triage
