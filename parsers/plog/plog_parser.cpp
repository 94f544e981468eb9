#include "parsers/plog/plog_parser.h"
#include "parsers/plog/plog_process_fold.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "parsers/common/log_text.h"

namespace triage {

namespace {
using sv = std::string_view;
}

PlogFileParser::PlogFileParser(ParseContext& ctx, const KnowledgeBase& knowledge)
    : ctx_(ctx),
      knowledge_(knowledge),
      levels_(ctx.options.knowledge_dir),
      fact_scan_(ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display), kFactReads) {
  entry_name_ = ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display);
  summary_.entry = std::string(entry_name_);
  summary_.device_id = device_id_from_path(ctx.entry.path);
  summary_.pid_from_name = pid_from_log_name(ctx.entry.path);
  first_stall_ = ctx.facts.logs.stalls.size();
  // The entry by its name, not by reader: a pasted file's plog segments and the plog lines
  // of a job log each get a reader of their own, yet a line twice in one file is one line.
  entry_id_ = static_cast<uint32_t>(fnv1a(entry_name_) >> 32);
  set_scratch_.reserve(64);
  hits_.reserve(64);
}

// A pid the line names: kept once per entry (a device's -1 / -2 and 0 are no process).
void PlogFileParser::note_pid(int64_t pid) {
  if (pid <= 0) return;
  auto& pids = summary_.pids;
  if (std::find(pids.begin(), pids.end(), pid) != pids.end() || pids.size() >= PlogEntrySummary::kMaxPids)
    return;
  pids.push_back(pid);
}

// `pid=N` in a device EVENT message (TSCH `delete_ringbuffer: pid=1234, vf_id=0`):
// the host process the event is about; 0 when the message names none.
int64_t PlogFileParser::event_pid(sv message) {
  size_t at = message.find("pid=");
  while (at != sv::npos) {
    bool word = at == 0 || !(std::isalnum(static_cast<unsigned char>(message[at - 1])) || message[at - 1] == '_');
    size_t i = at + 4;
    int64_t v = 0;
    size_t d = i;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9' && i - d < 10) v = v * 10 + (message[i++] - '0');
    if (word && i > d) return v;
    at = message.find("pid=", at + 4);
  }
  return 0;
}

void PlogFileParser::count_module(sv module) {
  for (size_t i = 0; i < module_slots_; ++i) {
    ModuleCount& m = modules_[i];
    if (m.len == module.size() && std::memcmp(m.name, module.data(), m.len) == 0) {
      ++m.count;
      return;
    }
  }
  if (module_slots_ < modules_.size() && module.size() <= sizeof(ModuleCount::name)) {
    ModuleCount& m = modules_[module_slots_++];
    std::memcpy(m.name, module.data(), module.size());
    m.len = static_cast<uint8_t>(module.size());
    m.count = 1;
    return;
  }
  ++other_modules_;
}

LocalTime PlogFileParser::local_time(const PlogLine& p) const {
  LocalTime t;
  t.civil = p.time;
  t.valid = p.has_time;
  t.time.original = std::string(p.time_text);
  return t;
}

PlogOrigin PlogFileParser::origin(const PlogLine& p) const {
  PlogOrigin o;
  o.pid = p.pid_value;
  o.process_name = std::string(p.process_name);
  if (p.tid_value >= 0) o.tid = p.tid_value;
  o.copy_key = copy_key_;
  return o;
}

EvidenceRef PlogFileParser::evidence(const Line& line) const {
  return make_evidence(entry_name_, line.number, line.offset, line.text);
}

void PlogFileParser::feed(const Line& line) {
  ParseStats& stats = ctx_.stats;
  ++stats.lines;
  sv text = line.text;
  if (line.overlong) {
    stats.note_malformed(entry_name_, line.number, line.offset, text.substr(0, 200));
    return;
  }
  if (std::memchr(text.data(), '\0', text.size()) != nullptr) {
    stats.note_malformed(entry_name_, line.number, line.offset, text);
    return;
  }
  PlogResult r = dialect_.parse(text, parsed_);
  if (r == PlogResult::not_plog) {
    ++stats.unrecognised;
    // A blank line is a shape of its own (it carries nothing), so is a line of the task
    // scheduler's register dump (`<exception_print>HWS_REG_SQ_BASE_ADDR=0x...`, device-N logs)
    // and a line of another logger at an error level (kept as a level row); any other line
    // is not one.
    bool error_level = false;
    ++(text.find_first_not_of(" \t") == sv::npos || text.starts_with("<exception_print>") ||
               (error_level = note_unknown_shape_level(line))
           ? stats.lines_recognised
           : stats.lines_unrecognised);
    if (error_level) fact_scan_.line(text, line.number, line.offset);
    if (!saw_tool_error_ && stats.lines <= 3) {
      sv why = tool_error_reason(text);
      if (!why.empty()) {
        saw_tool_error_ = true;
        tool_error_ = why;
      }
    }
    return;
  }
  if (r == PlogResult::malformed) {
    stats.note_malformed(entry_name_, line.number, line.offset, text);
    // a broken header at an error level is still an error
    if (note_unknown_shape_level(line)) fact_scan_.line(text, line.number, line.offset);
    return;
  }
  ++stats.parsed;
  ++stats.lines_recognised;
  const PlogLine& p = parsed_;
  ++summary_.by_level[static_cast<size_t>(p.level_id)];
  count_module(p.module);
  if (p.has_time) {
    if (!summary_.first.valid) {
      summary_.first.civil = p.time;
      summary_.first.valid = true;
      summary_.first.time.original.assign(p.time_text);
    }
    summary_.last.civil = p.time;
    summary_.last.valid = true;
    // Same-length times: the buffer of the first assignment is reused, nothing allocates.
    summary_.last.time.original.assign(p.time_text);
  }
  note_pid(p.pid_value);
  if (p.level_id == PlogLevel::event) note_pid(event_pid(p.message));
  const uint64_t folded_before = summary_.folded_lines;
  keep_facts(p, line);
  // Error lines only, and not a storm's folded repeat (counted, never parsed): a flood of one
  // template would pay a set pass a line (+16.7 % on the warning flood, +18 % on the error storm).
  if (p.level_id == PlogLevel::error && summary_.folded_lines == folded_before)
    fact_scan_.line(text, line.number, line.offset);
}

void PlogFileParser::finish() {
  ParseStats& stats = ctx_.stats;
  if (saw_tool_error_ && stats.parsed == 0) stats.not_collected = std::string(tool_error_);
  std::string variant = "plog";
  if (dialect_.locked() && dialect_.prefix() != PlogPrefix::none) {
    variant += "+";
    variant += to_string(dialect_.prefix());
  }
  if (dialect_.locked() && dialect_.time_separator() == ' ') variant += "+space-time";
  if (stats.parsed == 0) variant = "plog(none found)";
  stats.variant = variant;
  summary_.variant = variant;
  summary_.kind = SourceKind::plog;
  // Exact sizes: 100,000 small entries each keeping spare capacity cost hundreds of MiB (issue 35).
  summary_.by_module.reserve(module_slots_ + (other_modules_ ? 1 : 0));
  summary_.level_lines.shrink_to_fit();
  for (size_t i = 0; i < module_slots_; ++i)
    summary_.by_module.emplace_back(std::string(modules_[i].name, modules_[i].len),
                                    modules_[i].count);
  if (other_modules_) summary_.by_module.emplace_back("(other)", other_modules_);
  std::sort(summary_.by_module.begin(), summary_.by_module.end());
  // Stalls without a device id: an earlier or later line of this file naming the same pid
  // and stream with a device id tells it.
  auto& stalls = ctx_.facts.logs.stalls;
  for (size_t i = first_stall_; i < stalls.size(); ++i) {
    StallReport& s = stalls[i];
    if (s.device_id) continue;
    auto it = stream_devices_.find({s.origin.pid, s.stream_id});
    if (it != stream_devices_.end()) {
      s.device_id = it->second;
      s.device_id_source = DeviceIdSource::same_stream;
    }
  }
  ctx_.facts.logs.plog_entries.push_back(std::move(summary_));
  // Not inside a pasted segment: the reader of the paste around it may hold places in the facts.
  if (ctx_.line_base == 0 && ctx_.offset_base == 0) fold_plog_facts_per_directory(ctx_.facts.logs);
}

void parse_plog(ParseContext& ctx, ByteSource& src) {
  const KnowledgeBase& kb = knowledge_for(ctx.options.knowledge_dir);
  PlogFileParser parser(ctx, kb);
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line line;
  while (reader.next(line)) parser.feed(line);
  ctx.stats.bytes = reader.bytes_read();
  parser.finish();
  // device-<pid>_<time>.log, device-os_<time>.log, event_<time>.log: written on the device
  const std::string& path = ctx.entry.path;
  std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
  if (name.starts_with("device-") || name.starts_with("device-os") || name.starts_with("event_") ||
      path.find("/dev-os-") != std::string::npos || path.starts_with("dev-os-"))
    ctx.facts.logs.plog_entries.back().kind = SourceKind::device_log;
}

}  // namespace triage
