// journalctl -o json: one object per line, every value a string; MESSAGE may be an array of
// bytes (non-UTF-8 text) or null (too long); _BOOT_ID has no dashes. The collector joins a
// capped journal's head and tail with {"__ascend_collect_cut__": {"dropped_bytes": N}}.
#include <simdjson.h>

#include <cstring>

#include "parsers/kernel/kernel_parser.h"
#include "parsers/common/log_text.h"

namespace triage {

namespace {

using namespace simdjson;

bool digits_value(std::string_view s, int64_t& v) {
  if (s.empty() || s.size() > 19) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  return true;
}

enum class JournalLine { entry, cut, bad };

struct JournalFields {
  std::string_view message;
  bool message_null = false;
  std::string_view boot_id, priority, transport, realtime, monotonic, source_monotonic;
  uint64_t dropped = 0;
};

// The byte-array form of MESSAGE, decoded into `bytes` (reused between lines).
bool read_byte_array(ondemand::value v, std::string& bytes) {
  ondemand::array arr;
  if (v.get_array().get(arr)) return false;
  bytes.clear();
  for (auto item : arr) {
    uint64_t b;
    if (item.get_uint64().get(b) || b > 255) return false;
    bytes.push_back(static_cast<char>(b));
  }
  return true;
}

JournalLine read_line(ondemand::parser& parser, padded_string_view json, JournalFields& f,
                      std::string& bytes) {
  ondemand::document doc;
  if (parser.iterate(json).get(doc)) return JournalLine::bad;
  ondemand::object obj;
  if (doc.get_object().get(obj)) return JournalLine::bad;
  for (auto field : obj) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return JournalLine::bad;
    ondemand::value v;
    if (field.value().get(v)) return JournalLine::bad;
    if (key == "__ascend_collect_cut__") {
      ondemand::object cut;
      if (v.get_object().get(cut)) return JournalLine::bad;
      uint64_t n = 0;
      if (cut["dropped_bytes"].get_uint64().get(n)) return JournalLine::bad;
      f.dropped = n;
      return JournalLine::cut;
    }
    if (key == "MESSAGE") {
      ondemand::json_type t;
      if (v.type().get(t)) return JournalLine::bad;
      if (t == ondemand::json_type::string) {
        if (v.get_string().get(f.message)) return JournalLine::bad;
      } else if (t == ondemand::json_type::array) {
        if (!read_byte_array(v, bytes)) return JournalLine::bad;
        f.message = bytes;
      } else if (t == ondemand::json_type::null) {
        f.message_null = true;
      } else {
        return JournalLine::bad;
      }
      continue;
    }
    std::string_view* dst = nullptr;
    if (key == "_BOOT_ID") dst = &f.boot_id;
    else if (key == "PRIORITY") dst = &f.priority;
    else if (key == "_TRANSPORT") dst = &f.transport;
    else if (key == "__REALTIME_TIMESTAMP") dst = &f.realtime;
    else if (key == "__MONOTONIC_TIMESTAMP") dst = &f.monotonic;
    else if (key == "_SOURCE_MONOTONIC_TIMESTAMP") dst = &f.source_monotonic;
    if (dst) {
      // Values are strings; a number or an array here is tolerated as "unknown".
      std::string_view s;
      if (!v.get_string().get(s)) *dst = s;
    }
  }
  return JournalLine::entry;
}

}  // namespace

void parse_journal_json(ParseContext& ctx, ByteSource& src) {
  const KnowledgeBase& kb = knowledge_for(ctx.options.knowledge_dir);
  KernelEventSink sink(ctx, KernelLogForm::journal_json, kb);
  ParseStats& stats = ctx.stats;
  stats.variant = "journal-json";
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  ondemand::parser parser;
  std::string pad, bytes, boot;
  pad.reserve(4096 + SIMDJSON_PADDING);
  bytes.reserve(4096);
  Line line;
  std::string_view tool_error;
  while (reader.next(line)) {
    ++stats.lines;
    std::string_view text = line.text;
    if (line.overlong) {
      stats.note_malformed(sink.entry_name(), line.number, line.offset, text.substr(0, 200));
      continue;
    }
    if (line.unterminated) {
      // A killed collector leaves a partial last line: the contract says drop it; it is
      // counted here so nothing disappears silently.
      stats.note_malformed(sink.entry_name(), line.number, line.offset, text);
      continue;
    }
    if (text.empty() || text[0] != '{') {
      ++stats.unrecognised;
      if (stats.lines <= 3 && tool_error.empty()) tool_error = tool_error_reason(text);
      continue;
    }
    if (pad.capacity() < text.size() + SIMDJSON_PADDING) pad.reserve(text.size() + SIMDJSON_PADDING);
    pad.assign(text.data(), text.size());
    size_t cap = pad.capacity();
    pad.resize(cap);  // within capacity: no allocation; gives simdjson its padding
    std::memset(pad.data() + text.size(), 0, cap - text.size());
    JournalFields f;
    JournalLine kind = read_line(parser, padded_string_view(pad.data(), text.size(), cap), f, bytes);
    if (kind == JournalLine::bad) {
      stats.note_malformed(sink.entry_name(), line.number, line.offset, text);
      continue;
    }
    ++stats.parsed;
    if (kind == JournalLine::cut) {
      ctx.facts.logs.journal_cuts.push_back(
          {f.dropped, make_evidence(sink.entry_name(), line.number, line.offset, text)});
      continue;
    }
    if (!f.boot_id.empty() && f.boot_id != boot) {
      boot.assign(f.boot_id);
      sink.note_boot(boot);
    }
    if (f.message_null) continue;  // counted; nothing to read
    KernelEventSink::Time t;
    int64_t v;
    if (digits_value(f.realtime, v)) t.utc_us = v;
    if (digits_value(f.source_monotonic, v) || digits_value(f.monotonic, v))
      t.uptime_s = static_cast<double>(v) / 1e6;
    t.original = f.realtime;
    // journalctl -k output can still carry a printk uptime in the text: strip it
    std::string_view msg = f.message;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.remove_suffix(1);
    sink.offer(msg, t, f.boot_id, f.priority, line);
  }
  stats.bytes = reader.bytes_read();
  if (stats.parsed == 0 && !tool_error.empty()) stats.not_collected = std::string(tool_error);
  sink.finish(stats.lines);
}

}  // namespace triage
