#pragma once
// The plog / device-log parser: reads an entry line by line (no per-line allocation),
// counts every line, and keeps the facts later analyses need (model/facts_logs.h).
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bundle/line_reader.h"
#include "knowledge/knowledge.h"
#include "parsers/plog/device_export_parser.h"  // parse_device_export, formerly here
#include "parsers/common/entry_fact_scan.h"
#include "parsers/common/level_line.h"
#include "parsers/common/parser.h"
#include "parsers/plog/plog_line.h"

namespace triage {

// ParseFn for SourceKind::plog and device_log.
void parse_plog(ParseContext& ctx, ByteSource& src);
// SourceKind::device_log_export (msnpureport) is read by parsers/plog/device_export_parser.h,
// which hands each file to this parser or the kernel text parser.

// The same work one line at a time, for tests and the benchmark.
class PlogFileParser {
 public:
  PlogFileParser(ParseContext& ctx, const KnowledgeBase& knowledge);
  void feed(const Line& line);
  void finish();  // adds the entry summary and fills device ids learned from the file

  const PlogEntrySummary& summary() const { return summary_; }

 // Distinct warning/error rows kept per entry; the rest are counted (level_lines_over_cap).
  static constexpr size_t kMaxLevelRows = kPlogMaxLevelRows;
  // Lines of one template (pid, level, message without digits and 0x values) whose facts are
  // kept per entry; later ones are counted on the last kept line's facts (FoldedRepeats).
  // Stall reports and sync timeouts are always kept: they are few and their values matter.
  static constexpr uint32_t kKeptPerTemplate = kPlogKeptPerTemplate;
  // Error-code facts kept per (code, form, module, pid, device) in an entry, whatever the
  // message around the code: past this, a line's code is counted on the group's last kept
  // fact (FoldedRepeats), so a million distinct messages naming one code keep 256 facts.
  static constexpr uint32_t kKeptPerCode = 256;

 private:
  struct ModuleCount {
    char name[24];
    uint8_t len = 0;
    uint64_t count = 0;
  };
  void count_module(std::string_view module);
  void note_pid(int64_t pid);
  static int64_t event_pid(std::string_view message);
  struct Markers;
  void keep_facts(const PlogLine& p, const Line& line);
  bool first_sighting(const PlogLine& p, const Line& line);
  void keep_stall(const PlogLine& p, const Line& line, std::optional<int64_t> device,
                  DeviceIdSource device_source);
  void keep_sync_timeout(const PlogLine& p, const Line& line);
  void keep_error_codes(const PlogLine& p, const Line& line, const Markers& k,
                        std::optional<int64_t> device);
  void keep_signature_hits(const PlogLine& p, const Line& line);
  void note_level_line(const PlogLine& p, const Line& line);
  // A line that failed the plog grammar (or is no plog line) but starts with an error level
  // (knowledge/error-levels.tsv): a level row of its own (issue 36: never silent). True when
  // the line has such a level.
  bool note_unknown_shape_level(const Line& line);
  void learn_device(const PlogLine& p);
  // The last kept line of a template: where its facts sit in facts.logs.
  struct TemplateSlot {
    uint32_t kept = 0;
    uint32_t hits_at = 0, hits_n = 0;    // in logs.signature_hits
    uint32_t codes_at = 0, codes_n = 0;  // in logs.error_codes
  };
  bool fold_repeat(TemplateSlot& slot, const PlogLine& p);
  struct CodeGroup {
    uint32_t kept = 0;
    size_t last = 0;  // in logs.error_codes
  };
  LocalTime local_time(const PlogLine& p) const;
  PlogOrigin origin(const PlogLine& p) const;
  EvidenceRef evidence(const Line& line) const;

  ParseContext& ctx_;
  const KnowledgeBase& knowledge_;
  std::string_view entry_name_;
  PlogDialect dialect_;
  PlogLine parsed_;
  PlogEntrySummary summary_;
  std::array<ModuleCount, 32> modules_{};
  size_t module_slots_ = 0;
  uint64_t other_modules_ = 0;
  std::vector<int> set_scratch_, hits_;
  LevelReader levels_;
  // (pid, stream id) -> device id, from lines naming both in this file.
  std::map<std::pair<int64_t, int64_t>, int64_t> stream_devices_;
  std::unordered_map<uint64_t, TemplateSlot> templates_;  // by template key, this entry
  std::unordered_map<uint64_t, CodeGroup> code_groups_;   // by code group key, this entry
  size_t first_stall_ = 0;  // index of this file's first stall in facts.logs.stalls
  uint32_t entry_id_ = 0;    // this entry, in LogFacts::plog_seen_keys
  uint64_t copy_key_ = 0;    // the key of the line being kept (first_sighting)
  bool saw_tool_error_ = false;
  std::string_view tool_error_;
  // Issue 36, facts anywhere: the codes, ids and names of error lines, whatever the plog
  // readers make of them (a `retcode:507011` of a notify line, an `ERR00100`), read on the
  // first kFactReads error lines of new templates (their values are the first failure's).
  static constexpr size_t kFactReads = 128;
  EntryFactScan fact_scan_;
};

}  // namespace triage
