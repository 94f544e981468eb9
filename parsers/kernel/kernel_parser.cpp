#include "parsers/kernel/kernel_parser.h"

#include <algorithm>
#include <cstring>

#include "model/kernel_words.h"
#include "parsers/common/log_text.h"
#include "parsers/kernel/printk_join.h"
#include "parsers/kernel/service_lines.h"

namespace triage {

KernelEventSink::KernelEventSink(ParseContext& ctx, KernelLogForm form,
                                 const KnowledgeBase& knowledge)
    : ctx_(ctx), form_(form), knowledge_(knowledge) {
  entry_name_ = ctx.entry.display.empty() ? std::string_view(ctx.entry.path)
                                          : std::string_view(ctx.entry.display);
  summary_.entry = std::string(entry_name_);
  summary_.form = form;
  scratch_.reserve(64);
  hits_.reserve(64);
}

// Journal PRIORITY 0..3, or a syslog `facility.level` of err, crit, alert or emerg.
static bool is_error_priority(std::string_view p) {
  if (p.size() == 1) return p[0] >= '0' && p[0] <= '3';
  size_t dot = p.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view level = p.substr(dot + 1);
  return level == "err" || level == "error" || level == "crit" || level == "alert" || level == "emerg";
}

// An Ascend printk no analysis shows or counts (model/kernel_words.h): only finalize reads it,
// to pair it with a copy in another source.
static bool is_info_printk(const AscendPrintkView& a, std::string_view priority) {
  return is_plain_info_printk(a.error_tag, priority, a.message);
}

void KernelEventSink::keep_compact(std::string_view msg, const Time& time, std::string_view boot_id,
                                   const Line& line) {
  KernelInfoLines& info = ctx_.facts.logs.kernel_info;
  if (entry_name_id_ == UINT32_MAX) entry_name_id_ = info.name_id(entry_name_);
  if (boot_name_id_ == UINT32_MAX || boot_id != boot_raw_) {
    boot_raw_.assign(boot_id);
    boot_name_id_ = info.name_id(boot_id.size() == 32 ? dashed_boot_id(boot_id) : std::string(boot_id));
  }
  KernelInfoLine& l = info.lines.emplace_back();
  l.dedupe_hash = kernel_message_hash(msg);
  l.line = line.number;
  l.offset = line.offset;
  l.utc_us = *time.utc_us;
  l.has_uptime = time.uptime_s.has_value();
  l.uptime_s = time.uptime_s.value_or(0);
  l.seq = ctx_.facts.logs.kernel_seq++;
  l.entry = entry_name_id_;
  l.boot_id = boot_name_id_;
  l.excerpt = info.excerpts.add(make_excerpt(line.text));
  l.form = form_;
  l.approximate = time.approximate;
}

void KernelEventSink::note_boot(std::string_view boot_id) {
  if (boot_id.empty()) return;
  if (!summary_.boot_ids.empty() && summary_.boot_ids.back() == boot_id) return;
  if (std::find(summary_.boot_ids.begin(), summary_.boot_ids.end(), boot_id) !=
      summary_.boot_ids.end())
    return;
  summary_.boot_ids.emplace_back(boot_id);
}

namespace {

// `<key><digits>` at the front of s: the digits, "" when not there.
std::string_view digits_after(std::string_view s, std::string_view key) {
  if (!s.starts_with(key)) return {};
  size_t k = key.size();
  while (k < s.size() && k - key.size() < 10 && s[k] >= '0' && s[k] <= '9') ++k;
  return s.substr(key.size(), k - key.size());
}

bool has_capture(const SignatureHit& h, std::string_view name) {
  for (const auto& c : h.captures)
    if (c.first == name) return true;
  return false;
}

}  // namespace

void KernelEventSink::attach_task(std::string_view msg, const Line& line) {
  // An oops prints a few lines (`Oops: ...`, `Modules linked in: ...`) before it.
  constexpr uint64_t kWindow = 8;
  LogFacts& logs = ctx_.facts.logs;
  if (last_report_ >= logs.kernel_events.size() || line.number <= last_report_line_ ||
      line.number - last_report_line_ > kWindow)
    return;
  std::string_view cpu = digits_after(msg, "CPU: ");
  if (cpu.empty()) return;
  std::string_view rest = msg.substr(5 + cpu.size());
  std::string_view pid = digits_after(rest, " PID: ");
  if (pid.empty() || !rest.substr(6 + pid.size()).starts_with(" Comm: ")) return;
  std::string_view comm = rest.substr(6 + pid.size() + 7);
  comm = comm.substr(0, comm.find(' '));
  for (SignatureHit& h : logs.kernel_events[last_report_].hits) {
    if (has_capture(h, "pid")) continue;  // the report named its task itself (hung task)
    h.captures.emplace_back("pid", std::string(pid));
    if (!comm.empty() && !has_capture(h, "comm")) h.captures.emplace_back("comm", std::string(comm));
  }
  last_report_ = SIZE_MAX;  // one task line per report
}

bool KernelEventSink::offer(std::string_view msg, const Time& time, std::string_view boot_id,
                            std::string_view priority, const Line& line) {
  if (msg.starts_with("CPU: ")) attach_task(msg, line);
  AscendPrintkView ascend;
  bool is_ascend = msg.size() > 9 && msg[0] == '[' && parse_ascend_printk(msg, ascend);
  bool fault = !is_ascend && is_fault_manager(msg);
  bool module = !is_ascend && may_be_module_failure(msg);
  // One DFA pass without allocating; which signatures matched is asked for kept lines only.
  bool any_signature = knowledge_.kernel_matcher.any(msg);
  // An err..emerg line is an error line of its own: kept so it is explained or reported.
  bool error_priority = is_error_priority(priority);
  if (!is_ascend && !fault && !module && !any_signature && !error_priority) return false;
  // A storm of one template costs a hash per line once it has its kept lines. Module load
  // failures are never folded: each names its own module and symbol.
  const uint64_t message_key = message_template_key(msg);
  const uint64_t template_key = mix64(message_key, fnv1a(priority));
  if (!module) {
    auto slot = templates_.find(template_key);
    if (slot != templates_.end() && slot->second.kept >= kPlogKeptPerTemplate) {
      fold(slot->second, time);
      return true;
    }
  }
  hits_.clear();
  if (any_signature) knowledge_.kernel_matcher.match(msg, {}, scratch_, hits_);
  LogFacts& logs = ctx_.facts.logs;
  if (is_ascend && hits_.empty() && time.utc_us && is_info_printk(ascend, priority) &&
      logs.kernel_info_seen++ >= ctx_.options.full_info_kernel_lines) {
    keep_compact(msg, time, boot_id, line);
    ++summary_.kept;
    return true;
  }

  KernelEvent ev;
  ModuleLoadFailure failure;
  if (module && parse_module_failure(msg, failure)) ev.module_failure = std::move(failure);
  else if (!is_ascend && !fault && hits_.empty() && !error_priority) return false;
  ev.form = form_;
  ev.boot_id = boot_id.size() == 32 ? dashed_boot_id(boot_id) : std::string(boot_id);
  if (time.utc_us) {
    ev.time.utc_us = *time.utc_us;
    ev.time.basis = TimeBasis::utc_in_source;
  }
  ev.time.original = std::string(time.original);
  ev.approximate = time.approximate;
  ev.uptime_s = time.uptime_s;
  ev.local = time.local;
  ev.local_valid = time.local_valid;
  ev.year_missing = time.year_missing;
  ev.priority = std::string(priority);
  ev.message = std::string(msg);
  if (is_ascend) ev.ascend = to_fact(ascend);
  ev.fault_manager = fault;
  ev.evidence = make_evidence(entry_name_, line.number, line.offset, line.text);
  for (int idx : hits_) {
    const Signature& sig = knowledge_.signatures[static_cast<size_t>(idx)];
    SignatureHit h;
    h.id = sig.id;
    h.severity = sig.severity;
    h.category = sig.category;
    h.source = std::string(to_string(form_));
    h.evidence = ev.evidence;
    if (sig.re && sig.re->NumberOfCapturingGroups() > 0) {
      int n = sig.re->NumberOfCapturingGroups();
      std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
      if (sig.re->Match(re2::StringPiece(msg.data(), msg.size()), 0, msg.size(), RE2::UNANCHORED,
                        groups.data(), n + 1)) {
        for (const auto& [name, index] : sig.re->NamedCapturingGroups()) {
          const auto& g = groups[static_cast<size_t>(index)];
          if (g.data() != nullptr) h.captures.emplace_back(name, std::string(g.data(), g.size()));
        }
      }
    }
    ev.hits.push_back(std::move(h));
  }
  ev.seq = logs.kernel_seq++;
  ev.template_key = message_key;  // the same in every source (dmesg prints no priority)
  if (!ev.hits.empty()) {
    last_report_ = logs.kernel_events.size();
    last_report_line_ = line.number;
  }
  if (!ev.module_failure) {
    TemplateSlot& slot = templates_[template_key];
    ++slot.kept;
    slot.event = logs.kernel_events.size();
  }
  logs.kernel_events.push_back(std::move(ev));
  ++summary_.kept;
  return true;
}

// Counts the line on its template's last kept event, with the time fields finalize converts.
void KernelEventSink::fold(TemplateSlot& slot, const Time& time) {
  KernelEvent::Repeats& r = ctx_.facts.logs.kernel_events[slot.event].repeats;
  if (slot.kept++ == kPlogKeptPerTemplate) ++summary_.folded_templates;
  ++summary_.folded_lines;
  ++r.lines;
  if (time.utc_us) {
    r.last.utc_us = *time.utc_us;
    r.last.basis = TimeBasis::utc_in_source;
  }
  r.last_uptime_s = time.uptime_s;
  r.last_local = time.local;
  r.last_local_valid = time.local_valid;
}

void KernelEventSink::finish(uint64_t lines) {
  summary_.lines = lines;
  ctx_.facts.logs.kernel_entries.push_back(std::move(summary_));
}

namespace {

std::string_view variant_name(KernelLogForm form, KernelLineShape shape) {
  switch (shape) {
    case KernelLineShape::dmesg_raw:
      if (form == KernelLogForm::device_kernel) return "device-kernel";
      return form == KernelLogForm::dmesg_raw ? "dmesg" : "dmesg-in-text";
    case KernelLineShape::dmesg_human: return "dmesg-T";
    case KernelLineShape::bracket_local: return "bracket-local";
    case KernelLineShape::syslog_short: return form == KernelLogForm::journal_text ? "journal-short" : "syslog";
    case KernelLineShape::syslog_precise: return "journal-short-precise";
    case KernelLineShape::syslog_iso: return form == KernelLogForm::journal_text ? "journal-short-iso" : "syslog-rfc3339";
    case KernelLineShape::syslog_no_time: return "syslog-no-time";
    case KernelLineShape::no_time: return "no-time";
    default: return "kernel";
  }
}

}  // namespace

void parse_kernel_text(ParseContext& ctx, ByteSource& src, KernelLogForm form) {
  const KnowledgeBase& kb = knowledge_for(ctx.options.knowledge_dir);
  KernelEventSink sink(ctx, form, kb);
  ParseStats& stats = ctx.stats;
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line line;
  KernelLine k;
  std::string_view boot_id;
  std::string boot_store;
  KernelLineShape first_shape = KernelLineShape::none;
  std::string_view tool_error;
  PrintkJoin join;  // a driver message whose header and body stand on separate lines
  KernelEventSink::Time join_time;
  std::string_view join_priority;
  auto flush_join = [&] {
    if (!join.pending()) return;
    join_time.original = join.time_text();
    sink.offer(join.message(), join_time, boot_id, join_priority, join.line());
    join.clear();
  };
  while (reader.next(line)) {
    ++stats.lines;
    if (line.overlong || std::memchr(line.text.data(), '\0', line.text.size())) {
      stats.note_malformed(sink.entry_name(), line.number, line.offset, line.text.substr(0, 200));
      continue;
    }
    KernelResult r = parse_kernel_line(line.text, k);
    if (r == KernelResult::not_kernel && join.take(line.text)) {
      ++stats.parsed;
      continue;
    }
    flush_join();
    if (r == KernelResult::not_kernel) {
      ++stats.unrecognised;
      ++(line.text.find_first_not_of(" \t") == std::string_view::npos ? stats.lines_recognised
                                                                     : stats.lines_unrecognised);
      if (stats.lines <= 3 && tool_error.empty()) tool_error = tool_error_reason(line.text);
      continue;
    }
    if (r == KernelResult::malformed) {
      stats.note_malformed(sink.entry_name(), line.number, line.offset, line.text);
      continue;
    }
    ++stats.parsed;
    ++stats.lines_recognised;
    if (k.shape == KernelLineShape::journal_marker) {
      if (!k.boot_id.empty()) {
        boot_store = std::string(k.boot_id);
        boot_id = boot_store;
        sink.note_boot(boot_id);
      }
      continue;
    }
    if (first_shape == KernelLineShape::none) first_shape = k.shape;
    // syslog files hold every daemon: only the kernel's lines are kernel facts; a daemon's
    // error line is kept as a fact of its own
    if (!k.ident.empty() && k.ident != "kernel") {
      keep_service_error(ctx.facts.logs, sink.entry_name(), k, line.number, line.offset, line.text);
      continue;
    }
    KernelEventSink::Time t;
    t.original = k.time_text;
    if (k.has_uptime) t.uptime_s = k.uptime_s;
    if (k.shape == KernelLineShape::syslog_iso && k.has_offset) {
      t.utc_us = civil_to_epoch_us(k.civil) - int64_t{k.offset_seconds} * 1000000;
    } else if (k.civil_valid) {
      t.local = k.civil;
      t.local_valid = true;
      t.year_missing = k.year_missing;
    }
    t.approximate = k.shape == KernelLineShape::dmesg_raw || k.shape == KernelLineShape::dmesg_human;
    if (PrintkJoin::incomplete(k.message)) {
      join.start(k.message, k.time_text, line);
      join_time = t;
      join_priority = {};  // views into the line end with it; no form with a priority wraps
      continue;
    }
    sink.offer(k.message, t, boot_id, k.priority, line);
  }
  flush_join();
  stats.bytes = reader.bytes_read();
  if (stats.parsed == 0 && !tool_error.empty()) stats.not_collected = std::string(tool_error);
  stats.variant = std::string(variant_name(form, first_shape));
  sink.finish(stats.lines);
}

void parse_journal_text(ParseContext& ctx, ByteSource& src) {
  parse_kernel_text(ctx, src, KernelLogForm::journal_text);
}
void parse_dmesg(ParseContext& ctx, ByteSource& src) {
  parse_kernel_text(ctx, src, KernelLogForm::dmesg_raw);
}
void parse_dmesg_human(ParseContext& ctx, ByteSource& src) {
  parse_kernel_text(ctx, src, KernelLogForm::dmesg_human);
}
void parse_syslog(ParseContext& ctx, ByteSource& src) {
  parse_kernel_text(ctx, src, KernelLogForm::syslog);
}

}  // namespace triage
