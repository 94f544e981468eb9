// npu-smi's chip readings (issue 37, slow not stuck): `-t common -i <npu>` (per chip: Aicore
// Usage Rate, the rated "Aicore Freq(MHZ)" and current "Aicore curFreq(MHZ)", Temperature(C),
// NPU Real-time Power(W); then an MCU section after "Chip Name : mcu"), `-t temp -i <npu> -c
// <chip>` ("NPU Temperature (C)" on servers, "Temperature (C)" elsewhere) and `-t power -i
// <npu> -c <chip>` ("NPU Real-time Power(W)"). The collector's samples start with a
// `sampled_utc=` line. Forms: npu-smi's own printf ("\t%-30s : %d"), docs/bundle-layout.md.
#include <charconv>

#include "parsers/common/number_text.h"
#include "parsers/common/text_file.h"
#include "parsers/tools/npu_smi_parsers.h"

namespace triage {
namespace {
using sv = std::string_view;

sv base_name(sv path) {
  size_t slash = path.rfind('/');
  return slash == sv::npos ? path : path.substr(slash + 1);
}

// "common", "temp" or "power" from npu-smi-<command>-...; the pasted command's -t value
// otherwise; "" when neither says.
std::string command_of(const ParseContext& ctx) {
  sv name = base_name(ctx.entry.path);
  for (sv c : {sv("common"), sv("temp"), sv("power")})
    if (name.starts_with("npu-smi-") && name.substr(8).starts_with(c) && name.size() > 8 + c.size() &&
        name[8 + c.size()] == '-')
      return std::string(c);
  sv cmd = ctx.command;
  size_t t = cmd.find("-t ");
  if (t != sv::npos) {
    sv v = cmd.substr(t + 3);
    for (sv c : {sv("common"), sv("temp"), sv("power")})
      if (v.starts_with(c)) return std::string(c);
  }
  return "";
}

// "Aicore Freq(MHZ)               : 1800" -> key, value (the key may hold blanks).
std::optional<std::pair<sv, sv>> key_value(sv t) {
  size_t colon = t.find(" : ");
  size_t skip = 3;
  if (colon == sv::npos) {
    colon = t.find(':');
    skip = 1;
  }
  if (colon == sv::npos || colon == 0) return std::nullopt;
  return std::make_pair(trim(t.substr(0, colon)), trim(t.substr(colon + skip)));
}

bool has_data(const NpuReading& r) {
  return r.aicore_pct || r.rated_freq_mhz || r.cur_freq_mhz || r.temp_c || r.power_w || r.rated_power_w;
}

}  // namespace

void parse_npu_smi_readings(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  std::string command = command_of(ctx);
  auto ids = npu_smi_name_ids(ctx.entry.path, command.empty() ? sv("npu-smi-") : sv("npu-smi-" + command + "-"));
  NpuReading cur;
  cur.command = command;
  cur.npu = ids.npu, cur.chip = ids.chip, cur.sample = ids.sample;
  cur.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  bool in_mcu = false;  // after "Chip Name : mcu": the board's MCU, not a chip
  std::optional<int64_t> sampled;
  std::vector<NpuReading> out;
  auto flush = [&]() {
    if (has_data(cur)) out.push_back(cur);
    cur.aicore_pct = cur.rated_freq_mhz = cur.cur_freq_mhz = cur.temp_c = std::nullopt;
    cur.power_w = cur.rated_power_w = std::nullopt;
  };
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    if (t.starts_with("sampled_utc=")) {
      sampled = parse_iso8601_utc_us(t.substr(12));
      if (!sampled) return note_malformed(ctx, line);
      return void(++ctx.stats.parsed);
    }
    if (auto code = npu_smi_failure_code(t); code || t.find("does not support") != sv::npos) {
      ctx.stats.not_collected = code ? "tool_failed: npu-smi could not initialise DCMI"
                                     : "tool_unsupported: " + std::string(t.substr(0, 120));
      ctx.stats.variant = "npu-smi-failure";
      return void(++ctx.stats.unrecognised);
    }
    auto kv = key_value(t);
    if (!kv) return void(++ctx.stats.unrecognised);  // e.g. the command line echoed
    auto [k, v] = *kv;
    ++ctx.stats.lines_recognised;
    auto n = parse_int(v);
    if (k == "NPU ID") {
      if (n) cur.npu = n;
    } else if (k == "Chip Count") {
    } else if (k == "Chip ID") {
      flush();
      in_mcu = false;
      if (n) cur.chip = n;
    } else if (k == "Chip Name") {
      flush();
      in_mcu = v == "mcu" || v == "MCU";
    } else if (in_mcu) {
      // the MCU's own temperature and power: read, not a chip's
    } else if (k == "Aicore Usage Rate(%)") {
      cur.aicore_pct = n;
    } else if (k == "Aicore Freq(MHZ)") {
      cur.rated_freq_mhz = n;
    } else if (k == "Aicore curFreq(MHZ)") {
      cur.cur_freq_mhz = n;
      cur.evidence = evidence_at(ctx, line);
    } else if (k == "Temperature(C)" || k == "Temperature (C)" || k == "NPU Temperature (C)") {
      cur.temp_c = n;  // "NA" in a vNPU container: no value
      if (n) cur.temp_evidence = evidence_at(ctx, line);
      if (n && command != "common") cur.evidence = cur.temp_evidence;
    } else if (k == "NPU Real-time Power(W)") {
      cur.power_w = to_double(v);
      if (cur.power_w) cur.power_evidence = evidence_at(ctx, line);
      if (cur.power_w && command == "power") cur.evidence = cur.power_evidence;
    } else if (k == "Rated Power Dissipation(W)") {
      cur.rated_power_w = to_double(v);
    } else {
      // Memory/HBM use, Aicore Count, the MCU's LM75 sensors, "Soc Max Temperature (C)" of
      // -t sensors, "Power Dissipation(W)" of the MCU: not a reading these findings use.
    }
    ++ctx.stats.parsed;
  });
  flush();
  if (out.empty()) return;
  ctx.stats.variant = command.empty() ? "npu-smi readings" : "npu-smi -t " + command;
  for (auto& r : out) {
    r.sampled_utc_us = sampled;
    ctx.facts.load.readings.push_back(std::move(r));
  }
}

}  // namespace triage
