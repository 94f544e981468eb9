// The `key : value` outputs of npu-smi (`-t health`, `-t current-fault-event`, `-t usages`) and
// the `-m` id map.
#include <fmt/format.h>


#include <vector>

#include "parsers/tools/npu_smi_parsers.h"
#include "parsers/common/event_id_text.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {
using sv = std::string_view;

// "Health Status                  : OK" -> ("Health Status", "OK").
std::optional<std::pair<sv, sv>> split_colon(sv line) {
  size_t colon = line.find(" : ");
  if (colon == sv::npos) {
    colon = line.find(':');
    if (colon == sv::npos) return std::nullopt;
    return std::make_pair(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  return std::make_pair(trim(line.substr(0, colon)), trim(line.substr(colon + 3)));
}

sv base_name(sv path) {
  size_t slash = path.rfind('/');
  return slash == sv::npos ? path : path.substr(slash + 1);
}

// Reads the digits at `pos`, advancing it.
std::optional<int64_t> digits_at(sv s, size_t& pos) {
  size_t start = pos;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
  return pos > start ? parse_int(s.substr(start, pos - start)) : std::nullopt;
}

// A failed npu-smi call leaves its failure text where the data should be.
bool refuse_npu_smi_failure(ParseContext& ctx, sv text, NpuSmiInfo* keep) {
  bool failed = false;
  for_each_line(text, [&](const TextLine& line) {
    if (auto code = npu_smi_failure_code(line.text)) {
      failed = true;
      if (keep) {
        keep->failure = std::string(trim(line.text));
        keep->failure_code = code;
        keep->evidence = evidence_at(ctx, line);
      }
    }
  });
  if (!failed) return false;
  for_each_line(text, [&](const TextLine&) { ++ctx.stats.parsed; });
  ctx.stats.not_collected = "tool_failed: npu-smi could not initialise DCMI";
  ctx.stats.variant = "npu-smi-failure";
  return true;
}

// "event id=0x81AF8000, severity=2, ..." -> "0x81af8000" (lower case, as the device logs' reader
// keeps ids); nullopt when the value does not start with an id of 4 to 8 hex digits.
std::optional<std::string> fault_event_id(sv v) {
  constexpr sv kKey = "event id=";
  if (v.substr(0, kKey.size()) != kKey) return std::nullopt;
  std::string id;
  size_t end = read_event_id(v, kKey.size(), id);
  if (end == sv::npos || (end < v.size() && v[end] != ',')) return std::nullopt;
  return id;
}

}  // namespace

NpuSmiNameIds npu_smi_name_ids(sv path, sv prefix) {
  NpuSmiNameIds ids;
  sv name = base_name(path);
  if (name.substr(0, prefix.size()) != prefix) return ids;
  size_t pos = prefix.size();
  ids.npu = digits_at(name, pos);
  if (pos < name.size() && name[pos] == '-') ids.chip = digits_at(name, ++pos);
  if (pos < name.size() && name[pos] == '.' && pos + 1 < name.size() && name[pos + 1] >= '0' &&
      name[pos + 1] <= '9')
    ids.sample = digits_at(name, ++pos);
  return ids;
}

void parse_npu_smi_health(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text) || refuse_npu_smi_failure(ctx, text, nullptr)) return;
  NpuHealth h;
  auto ids = npu_smi_name_ids(ctx.entry.path, "npu-smi-health-");
  h.npu = ids.npu, h.chip = ids.chip;
  h.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  bool any = false;
  std::vector<DeviceRasEvent> events;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    auto kv = split_colon(t);
    if (!kv) return void(++ctx.stats.unrecognised);  // e.g. the command line echoed
    auto [k, v] = *kv;
    if (k == "Health Status" || k == "Health") {  // "Health" in the Ascend 950 driver's npu-smi
      h.status = std::string(v);
      h.evidence = evidence_at(ctx, line);
      any = true;
    } else if (k == "Error Code") {
      h.error_code = std::string(v);
    } else if (k == "Error Information") {
      h.error_information = std::string(v);
    } else if (k == "NPU ID" || k == "Chip ID") {  // the 950 form names them inside
      if (auto n = parse_int(v)) (k == "NPU ID" ? h.npu : h.chip) = n;
    } else if (k == "Fault Event Count") {  // `-t current-fault-event`, its sibling query
    } else if (k == "Fault Event Information") {
      // "event id=0x81AF8000, severity=2, node type ex=215, ...": the fault manager's event,
      // the same id the device logs print (knowledge/device-events.tsv).
      if (auto id = fault_event_id(v)) {
        DeviceRasEvent ev;
        ev.event_id = *id;
        ev.device = h.npu ? h.npu : ids.npu;
        ev.file_kind = "npu-smi";
        ev.evidence = evidence_at(ctx, line);
        events.push_back(std::move(ev));
      } else {
        return note_malformed(ctx, line);
      }
    } else {
      return void(++ctx.stats.unrecognised);
    }
    ++ctx.stats.parsed;
  });
  if (any) ctx.facts.devices.health.push_back(std::move(h));
  for (auto& ev : events) ctx.facts.devices.ras_events.push_back(std::move(ev));
}

void parse_npu_smi_usages(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text) || refuse_npu_smi_failure(ctx, text, nullptr)) return;
  NpuUsageSample s;
  auto ids = npu_smi_name_ids(ctx.entry.path, "npu-smi-usages-");
  s.npu = ids.npu, s.chip = ids.chip, s.sample = ids.sample;
  s.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  bool any = false;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    if (t.rfind("sampled_utc=", 0) == 0) {
      s.sampled_utc_us = parse_iso8601_utc_us(t.substr(12));
      if (!s.sampled_utc_us) return note_malformed(ctx, line);
      return void(++ctx.stats.parsed);
    }
    auto kv = split_colon(t);
    if (!kv) return note_malformed(ctx, line);
    auto [k, v] = *kv;
    auto n = parse_int(v);
    if (k == "NPU ID" && n) s.npu = n;
    else if (k == "Chip ID" && n) s.chip = n;
    else if (k == "Aicore Usage Rate(%)") {
      s.aicore_pct = n;
      s.evidence = evidence_at(ctx, line);
      any = true;
    } else if (k == "Aivector Usage Rate(%)") s.aivector_pct = n;
    else if (k == "Aicpu Usage Rate(%)") s.aicpu_pct = n;
    else if (k == "HBM Usage Rate(%)") s.hbm_pct = n;
    ++ctx.stats.parsed;  // the other fields (DDR, bandwidth, frequency) are read, not kept
  });
  if (any) ctx.facts.devices.usages.push_back(std::move(s));
}

void parse_npu_smi_map(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  NpuSmiInfo failure;
  if (refuse_npu_smi_failure(ctx, text, &failure)) {
    ctx.facts.devices.map_failure = std::move(failure);
    return;
  }
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty() || t.rfind("NPU ID", 0) == 0) return void(++ctx.stats.parsed);
    std::vector<sv> tok;
    size_t i = 0;
    while (i < t.size() && tok.size() < 3) {
      while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
      size_t start = i;
      while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
      if (i > start) tok.push_back(t.substr(start, i - start));
    }
    auto npu = tok.size() == 3 ? parse_int(tok[0]) : std::nullopt;
    auto chip = tok.size() == 3 ? parse_int(tok[1]) : std::nullopt;
    if (!npu || !chip) return note_malformed(ctx, line);
    NpuMapRow r;
    r.npu = *npu, r.chip = *chip;
    r.logic_id = parse_int(tok[2]);
    r.chip_name = std::string(trim(t.substr(i)));
    ctx.facts.devices.map.push_back(std::move(r));
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
