// The black box's driver record (hisi_logs/device-<n>/<time>-<n>/bbox/driver.txt):
//   driver info:
//   devid: 2, module: 1 2021-10-05 15:07:08 651408 devid: 2 device manager current status: working.
//   excep_id: 0xa8028802 .
//   device_id = 2, fail info: device_id-2 appeared multi ecc err, the physical address is 0x...
// The exception id is kept as a device event (like history.log's `exception code [0x...]`);
// a fail info that reports an ECC error is a memory error of that device, as an APEI block of
// kbox.txt is (the driver's own words: `multi ecc err` is an uncorrectable multi-bit error).
// Its device is the one the text states: the directory is named by the export, which numbers
// devices its own way (a logical id, the device whose logs were pulled), while the record is the
// driver's own statement about the device that failed; the path's id is only the fallback.
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "bundle/line_reader.h"
#include "parsers/common/log_text.h"
#include "parsers/plog/device_export_parser.h"

namespace triage {

namespace {

using sv = std::string_view;

// The number right after `key` at the front of text, ended by `,` or a blank; nullopt when none.
std::optional<int64_t> number_after(sv text, sv key) {
  if (!text.starts_with(key)) return std::nullopt;
  size_t k = key.size(), b = k;
  while (k < text.size() && k - b < 6 && text[k] >= '0' && text[k] <= '9') ++k;
  if (k == b || (k < text.size() && text[k] != ',' && text[k] != ' ')) return std::nullopt;
  int64_t v = 0;
  for (size_t i = b; i < k; ++i) v = v * 10 + (text[i] - '0');
  return v;
}

// `excep_id: 0xa8028802 .`: the id lower-cased into out; false when the line is not that.
bool exception_id(sv text, std::string& out) {
  constexpr sv kKey = "excep_id: ";
  if (!text.starts_with(kKey)) return false;
  size_t i = kKey.size();
  if (i + 2 > text.size() || text[i] != '0' || (text[i + 1] != 'x' && text[i + 1] != 'X')) return false;
  size_t e = i + 2;
  while (e < text.size() && std::isxdigit(static_cast<unsigned char>(text[e]))) ++e;
  if (e - i - 2 < 4 || e - i - 2 > 8) return false;
  out.assign("0x");
  for (size_t k = i + 2; k < e; ++k) out += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  return true;
}

}  // namespace

BboxDriverLine parse_bbox_driver_line(std::string_view text) {
  BboxDriverLine l;
  if (text == "driver info:") {
    l.shape = BboxDriverLine::Shape::header;
  } else if (auto d = number_after(text, "devid: "); d && text.find(", module: ") != sv::npos) {
    l.shape = BboxDriverLine::Shape::status;
    l.device = d;
  } else if (auto f = number_after(text, "device_id = "); f && text.find(", fail info: ") != sv::npos) {
    l.shape = BboxDriverLine::Shape::fail_info;
    l.device = f;
    if (text.find("multi ecc err") != sv::npos) l.ecc = "multi-bit ECC";
    else if (text.find(" ecc err") != sv::npos) l.ecc = "ECC";
    constexpr sv kAddress = "physical address is ";
    if (size_t a = text.find(kAddress); !l.ecc.empty() && a != sv::npos) {
      sv rest = text.substr(a + kAddress.size());
      size_t e = rest.starts_with("0x") ? 2 : 0;
      while (e < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[e]))) ++e;
      if (e > 2) l.physical_address = rest.substr(0, e);
    }
  } else if (std::string id; exception_id(text, id)) {
    l.shape = BboxDriverLine::Shape::exception_id;
  }
  return l;
}

void parse_bbox_driver(ParseContext& ctx, ByteSource& src) {
  ctx.stats.variant = "bbox-driver";
  sv entry = ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display);
  std::vector<DeviceRasEvent>& events = ctx.facts.devices.ras_events;
  const size_t first = events.size();
  std::vector<DeviceMemoryError>& memory = ctx.facts.devices.memory_errors;
  const size_t first_memory = memory.size();
  std::optional<int64_t> text_device;
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line line;
  std::string id;
  while (reader.next(line)) {
    ++ctx.stats.lines;
    if (line.overlong || std::memchr(line.text.data(), '\0', line.text.size())) {
      ctx.stats.note_malformed(entry, line.number, line.offset, line.text.substr(0, 200));
      continue;
    }
    sv text = line.text;
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    BboxDriverLine l = parse_bbox_driver_line(text);
    if (l.shape == BboxDriverLine::Shape::none) {
      ++ctx.stats.unrecognised;
      ++(text.empty() ? ctx.stats.lines_recognised : ctx.stats.lines_unrecognised);
      continue;
    }
    ++ctx.stats.parsed;
    ++ctx.stats.lines_recognised;
    if (l.device && !text_device) text_device = l.device;
    if (l.shape == BboxDriverLine::Shape::exception_id && exception_id(text, id)) {
      DeviceRasEvent ev;
      ev.event_id = id;
      ev.file_kind = "bbox-driver";
      ev.evidence = make_evidence(entry, line.number, line.offset, line.text);
      events.push_back(std::move(ev));
    }
    if (!l.ecc.empty()) {
      DeviceMemoryError m;
      m.error_type = fmt::format("{} (black-box driver record)", l.ecc);
      m.physical_address = std::string(l.physical_address);
      m.file_kind = "bbox-driver";
      m.evidence = make_evidence(entry, line.number, line.offset, line.text);
      memory.push_back(std::move(m));
    }
  }
  // The device the record states, wherever in the file it stands; else the path's.
  std::optional<int64_t> device = text_device ? text_device : device_id_from_path(ctx.entry.path);
  for (size_t i = first; i < events.size(); ++i) events[i].device = device;
  for (size_t i = first_memory; i < memory.size(); ++i) memory[i].device = device;
  ctx.stats.bytes = reader.bytes_read();
}

}  // namespace triage
