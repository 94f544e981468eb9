#include "parsers/plog/device_export_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "model/strings.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/common/event_id_text.h"
#include "parsers/common/log_text.h"
#include "parsers/plog/plog_line.h"
#include "parsers/plog/plog_parser.h"

namespace triage {
namespace {

using sv = std::string_view;

sv base_name(sv path) { return path.substr(path.rfind('/') + 1); }

// Passes the bytes through to the real parser and cuts the same bytes into lines for the
// scanner (numbered and offset exactly as LineReader does). One carry buffer, reused.
class LineTap final : public ByteSource {
 public:
  LineTap(ByteSource& inner, DeviceExportScanner& scanner, size_t max_line)
      : inner_(inner), scanner_(scanner), max_line_(max_line) {
    carry_.reserve(std::min<size_t>(max_line, 4096));
  }
  size_t read(char* buf, size_t n) override {
    size_t got = inner_.read(buf, n);
    if (got == 0) {
      error_ = inner_.error();
      if (!carry_.empty() || carry_len_ > 0) emit();
      return 0;
    }
    scan(sv(buf, got));
    return got;
  }
  void note_overlong_line(uint64_t line, uint64_t offset, uint64_t length) override {
    inner_.note_overlong_line(line, offset, length);
  }

 private:
  void scan(sv chunk) {
    while (!chunk.empty()) {
      size_t nl = chunk.find('\n');
      sv part = chunk.substr(0, nl);
      if (nl == sv::npos) {
        append(part);
        return;
      }
      if (carry_len_ == 0) {
        finish_line(part, part.size() + 1);
      } else {
        append(part);
        carry_len_ += 1;
        emit();
      }
      chunk.remove_prefix(nl + 1);
    }
  }
  void append(sv part) {
    if (carry_.size() < max_line_) carry_.append(part.substr(0, max_line_ - carry_.size()));
    carry_len_ += part.size();
  }
  void emit() {
    finish_line(carry_, carry_len_);
    carry_.clear();
    carry_len_ = 0;
  }
  void finish_line(sv text, uint64_t consumed) {
    if (text.size() > max_line_) text = text.substr(0, max_line_);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    scanner_.feed(text, ++line_no_, offset_);
    offset_ += consumed;
  }

  ByteSource& inner_;
  DeviceExportScanner& scanner_;
  size_t max_line_;
  std::string carry_;
  uint64_t carry_len_ = 0;  // the pending line's length in the source (carry_ may be cut)
  uint64_t line_no_ = 0, offset_ = 0;
};

// "0x80E01809" after `event_id`, `event_id=`, `event_id: [` or `Event id=` (the form of
// ascend-fd's device-event rules); lower-cased into out. Both keys are 8 bytes long.
bool event_id_after(sv text, size_t at, std::string& out) {
  size_t i = at + std::strlen("event_id");
  while (i < text.size() && (text[i] == ':' || text[i] == '=' || text[i] == ' ' || text[i] == '[')) ++i;
  return read_event_id(text, i, out) != sv::npos;
}

sv line_time(sv text) {
  PlogLine p;
  if (parse_plog_line(text, p) == PlogResult::parsed) return p.time_text;
  KernelLine k;
  if (parse_kernel_line(text, k) == KernelResult::parsed) return k.time_text;
  return {};
}

}  // namespace

std::string_view device_export_file_kind(std::string_view path) {
  sv name = base_name(path);
  if (path.find("/stackcore/") != sv::npos || path.starts_with("stackcore/")) return "core-dump";
  if (name.starts_with("event_")) return "event-log";
  if (name.starts_with("device-os")) return "device-os-log";
  if (name == "history.log") return "bbox-history";
  if (name == "kbox.txt") return "bbox-kbox";
  if (name == "driver.txt" && path.find("/bbox/") != sv::npos) return "bbox-driver";
  if (name == "kernel.log" || path.find("/bbox/") != sv::npos) return "bbox-kernel";
  if (path.find("/message/") != sv::npos || name.starts_with("messages")) return "device-syslog";
  return "device-log";
}

DeviceExportScanner::DeviceExportScanner(ParseContext& ctx, std::string_view file_kind)
    : ctx_(ctx), file_kind_(file_kind), sensors_(device_event_sensors_for(ctx.options.knowledge_dir)) {
  entry_name_ = ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display);
  device_ = device_id_from_path(ctx.entry.path);
}

namespace {

// `Key=` at `at`, its value up to `;` (or `)` when `last`): hex `0x..`, or decimal.
std::optional<uint32_t> field_value(sv text, size_t at, sv key, bool last, size_t& end) {
  size_t i = at + key.size();
  size_t e = i;
  while (e < text.size() && text[e] != ';' && text[e] != ')' && e - i <= 12) ++e;
  if (e >= text.size() || (text[e] == ')' && !last) || e == i) return std::nullopt;
  sv v = text.substr(i, e - i);
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    v.remove_prefix(2);
    base = 16;
  }
  uint32_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out, base);
  if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
  end = e;
  return out;
}

}  // namespace

std::optional<SensorTriple> sensor_triple_in(std::string_view text) {
  static constexpr sv kNode = "Node Type=", kSensor = "Sensor Type=", kState = "event_state=";
  size_t n = text.find(kNode);
  if (n == sv::npos) return std::nullopt;
  size_t end = 0;
  SensorTriple t;
  auto node = field_value(text, n, kNode, false, end);
  if (!node) return std::nullopt;
  size_t s = text.find(kSensor, end);
  if (s == sv::npos) return std::nullopt;
  auto sensor = field_value(text, s, kSensor, false, end);
  if (!sensor) return std::nullopt;
  size_t st = text.find(kState, end);
  if (st == sv::npos) return std::nullopt;
  auto state = field_value(text, st, kState, true, end);
  if (!state) return std::nullopt;
  t.node_type = *node;
  t.sensor_type = *sensor;
  t.event_state = *state;
  return t;
}

namespace {

// Black-box history.log: `[time] system exception code [0x68020002]: ModuleName [DRIVER], ...`.
bool exception_code_after(sv text, size_t at, std::string& out) {
  size_t end = read_event_id(text, at + std::strlen("exception code ["), out);
  return end != sv::npos && end < text.size() && text[end] == ']';
}

// `[2020-02-27-19:18:46.142527] ...`: the bracketed time that opens a history.log line.
sv bracket_time(sv text) {
  if (text.size() < 3 || text[0] != '[') return {};
  size_t close = text.find(']');
  return close == sv::npos || close > 40 ? sv{} : text.substr(1, close - 1);
}

}  // namespace

void DeviceExportScanner::feed(std::string_view text, uint64_t number, uint64_t offset) {
  if (size_t at = text.find("exception code ["); at != sv::npos) {
    DeviceRasEvent ev;
    if (exception_code_after(text, at, ev.event_id)) {
      ev.device = device_;
      ev.file_kind = std::string(file_kind_);
      ev.time_text = std::string(bracket_time(text));
      ev.evidence = make_evidence(entry_name_, number, offset, text);
      ctx_.facts.devices.ras_events.push_back(std::move(ev));
      return;
    }
  }
  size_t at_event = text.find("event_id");
  if (at_event == sv::npos) at_event = text.find("Event id");
  if (at_event == sv::npos) at_event = text.find("event id");
  bool have_id = false;
  if (size_t at = at_event; at != sv::npos) {
    DeviceRasEvent ev;
    if (event_id_after(text, at, ev.event_id)) {
      have_id = true;
      ev.device = device_;
      ev.file_kind = std::string(file_kind_);
      ev.time_text = std::string(line_time(text));
      ev.evidence = make_evidence(entry_name_, number, offset, text);
      ctx_.facts.devices.ras_events.push_back(std::move(ev));
    }
  }
  // The older driver's line of the same event names no id, only its sensor triple; a newer
  // line names both (`Event id=0x..; Node Type=..`) and is one event, read above.
  if (!have_id) {
    if (auto t = sensor_triple_in(text)) {
      if (auto id = sensors_.event_id(t->node_type, t->sensor_type, t->event_state)) {
        DeviceRasEvent ev;
        ev.event_id = fmt::format("{:#010x}", *id);
        ev.device = device_;
        ev.file_kind = std::string(file_kind_);
        ev.time_text = std::string(line_time(text));
        ev.evidence = make_evidence(entry_name_, number, offset, text);
        ctx_.facts.devices.ras_events.push_back(std::move(ev));
      }
    }
  }
  size_t hw = text.find("[Hardware Error]");
  if (hw == sv::npos) return;
  sv rest = trim_left(text.substr(hw + std::strlen("[Hardware Error]")));
  if (rest.starts_with("Hardware error from")) {
    address_.clear();
    location_.clear();
  } else if (rest.starts_with("physical_address:")) {
    address_ = std::string(trim_left(rest.substr(std::strlen("physical_address:"))));
  } else if (rest.starts_with("node:")) {
    location_ = std::string(rest);
  } else if (rest.starts_with("error_type:")) {
    DeviceMemoryError m;
    m.device = device_;
    m.error_type = std::string(trim_left(rest.substr(std::strlen("error_type:"))));
    m.physical_address = address_;
    m.location = location_;
    m.time_text = std::string(line_time(text));
    m.evidence = make_evidence(entry_name_, number, offset, text);
    ctx_.facts.devices.memory_errors.push_back(std::move(m));
    address_.clear();
    location_.clear();
  }
}

void parse_device_export(ParseContext& ctx, ByteSource& src) {
  sv kind = device_export_file_kind(ctx.entry.path);
  DeviceExportFile file{std::string(ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display)),
                        std::string(kind), device_id_from_path(ctx.entry.path)};
  ctx.facts.devices.export_files.push_back(std::move(file));
  if (kind == "core-dump") {
    // Device process core dumps are binary: inventoried, not read as text.
    ctx.stats.variant = "core-dump (not parsed)";
    return;
  }
  if (kind == "bbox-driver") {
    parse_bbox_driver(ctx, src);
    return;
  }
  DeviceExportScanner scanner(ctx, kind);
  LineTap tap(src, scanner, ctx.options.limits.max_line_bytes);
  if (kind == "bbox-history" || kind == "bbox-kbox" || kind == "bbox-kernel" || kind == "device-syslog")
    parse_kernel_text(ctx, tap, KernelLogForm::device_kernel);
  else
    parse_plog(ctx, tap);
}

}  // namespace triage
