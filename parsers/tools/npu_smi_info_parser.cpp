// `npu-smi info`: a box-drawn table. Each NPU chip is two rows (name/health/power/temp, then
// chip/bus id/AICore/memory/HBM); a process table follows. Columns are found by the `|`
// cells, not by widths, so the 26.x wide layout and the A3 Phy-ID column read the same.
#include <fmt/format.h>

#include <charconv>
#include <vector>

#include "parsers/tools/npu_smi_parsers.h"
#include "parsers/common/signature_hits.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {
using sv = std::string_view;

// Cells between `|` separators, trimmed; empty when the line is not a table row.
void split_cells(sv line, std::vector<sv>& cells) {
  cells.clear();
  line = trim(line);
  if (line.size() < 2 || line.front() != '|' || line.back() != '|') return;
  line = line.substr(1, line.size() - 2);
  size_t pos = 0;
  while (true) {
    size_t bar = line.find('|', pos);
    cells.push_back(trim(line.substr(pos, bar == sv::npos ? sv::npos : bar - pos)));
    if (bar == sv::npos) break;
    pos = bar + 1;
  }
}

// Whitespace- and '/'-separated tokens ("24871/ 65536" -> "24871", "65536").
void split_tokens(sv s, std::vector<sv>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '/')) ++i;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '/') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
}

std::optional<double> parse_double(sv s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool is_separator(sv line) {
  line = trim(line);
  return !line.empty() && line.front() == '+' && line.find_first_not_of("+-=") == sv::npos;
}

}  // namespace

std::optional<int64_t> npu_smi_failure_code(sv line) {
  if (line.find("dcmi") == sv::npos || line.find("failed") == sv::npos) return std::nullopt;
  size_t at = line.rfind("ret is ");
  if (at == sv::npos) return std::nullopt;
  sv rest = trim(line.substr(at + 7));
  while (!rest.empty() && (rest.back() == '.')) rest.remove_suffix(1);
  return parse_int(rest);
}

void parse_npu_smi_info(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  NpuSmiInfo info;
  info.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  std::vector<sv> cells, tokens, values4;
  bool in_processes = false;
  std::optional<NpuChipRow> pending;  // first row of a chip, waiting for its second row
  SignatureHitter signatures(knowledge_for(ctx.options.knowledge_dir), kSigNpuSmi);
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    signatures.offer(t, entry_name(ctx), line.number, line.offset, line.text, std::nullopt,
                     ctx.facts.logs);
    if (t.empty() || is_separator(t)) {
      ++ctx.stats.parsed;
      return;
    }
    if (auto code = npu_smi_failure_code(t)) {
      info.failure = std::string(t);
      info.failure_code = code;
      info.evidence = evidence_at(ctx, line);
      ++ctx.stats.parsed;
      return;
    }
    if (t.find("DrvMngGetConsoleLogLevel failed") != sv::npos) {
      ++ctx.stats.parsed;  // printed before every dcmi failure; carries nothing itself
      return;
    }
    split_cells(t, cells);
    if (cells.empty()) {
      ++ctx.stats.unrecognised;
      return;
    }
    sv c0 = cells[0];
    if (c0.rfind("npu-smi ", 0) == 0) {
      split_tokens(c0, tokens);
      if (tokens.size() >= 2) info.version = std::string(tokens[1]);
      for (size_t k = 2; k + 1 < tokens.size(); ++k)
        if (tokens[k] == "Version:") info.driver_version = std::string(tokens[k + 1]);
      ++ctx.stats.parsed;
      return;
    }
    if (c0.rfind("NPU ", 0) == 0 && cells.size() >= 2 && cells[1] == "Process id") {
      in_processes = true;
      ++ctx.stats.parsed;
      return;
    }
    // column headers (the Ascend950 layout's second header row starts with empty cells)
    if (c0.rfind("NPU ", 0) == 0 || c0.rfind("Chip", 0) == 0 ||
        (c0.empty() && cells.size() == 4 && cells[2] == "Bus-Id")) {
      ++ctx.stats.parsed;
      return;
    }
    if (c0.rfind("No running processes found in NPU ", 0) == 0) {
      if (auto n = parse_int(trim(c0.substr(34)))) info.npus_without_processes.push_back(*n);
      ++ctx.stats.parsed;
      return;
    }
    split_tokens(c0, tokens);
    if (in_processes && cells.size() >= 4 && tokens.size() >= 2) {
      NpuProcessRow r;
      auto npu = parse_int(tokens[0]), chip = parse_int(tokens[1]), pid = parse_int(cells[1]);
      if (!npu || !chip || !pid) return note_malformed(ctx, line);
      r.npu = *npu, r.chip = *chip, r.pid = *pid;
      r.name = std::string(cells[2]);
      r.memory_mb = parse_int(cells[3]);
      r.evidence = evidence_at(ctx, line);
      info.processes.push_back(std::move(r));
      ++ctx.stats.parsed;
      return;
    }
    // The Ascend950 layout gives the name a column of its own: `| 0 | Ascend950PR | OK | 201.2 55 0 / 0 |`
    // (the second row's cells are `| | | <Bus-Id> | ... |`).
    if (cells.size() == 4 && tokens.size() == 1) {
      if (pending && cells[2].find(':') != sv::npos) {
        pending->bus_id = std::string(cells[2]);
        info.chips.push_back(std::move(*pending));
        pending.reset();
        ++ctx.stats.parsed;
        return;
      }
      auto npu = parse_int(tokens[0]);
      if (!npu || cells[1].empty() || pending) return note_malformed(ctx, line);
      split_tokens(cells[3], values4);
      pending = NpuChipRow{};
      pending->npu = *npu;
      pending->name = std::string(cells[1]);
      pending->health = std::string(cells[2]);
      if (values4.size() >= 1) pending->power_w = parse_double(values4[0]);
      if (values4.size() >= 2) pending->temp_c = parse_int(values4[1]);
      pending->evidence = evidence_at(ctx, line);
      ++ctx.stats.parsed;
      return;
    }
    if (cells.size() != 3 || tokens.empty()) return note_malformed(ctx, line);
    bool second_row = cells[1].find(':') != sv::npos;  // the Bus-Id cell
    std::vector<sv> values;
    split_tokens(cells[2], values);
    if (!second_row) {
      auto npu = parse_int(tokens[0]);
      if (!npu || tokens.size() < 2) return note_malformed(ctx, line);
      pending = NpuChipRow{};
      pending->npu = *npu;
      std::string name;
      for (size_t i = 1; i < tokens.size(); ++i) {
        if (i > 1) name += ' ';
        name += tokens[i];
      }
      pending->name = name;
      pending->health = std::string(cells[1]);
      if (values.size() >= 1) pending->power_w = parse_double(values[0]);
      if (values.size() >= 2) pending->temp_c = parse_int(values[1]);
      pending->evidence = evidence_at(ctx, line);
      ++ctx.stats.parsed;
      return;
    }
    auto chip = parse_int(tokens[0]);
    if (!pending || !chip) return note_malformed(ctx, line);
    pending->chip = *chip;
    if (tokens.size() >= 2) pending->phy_id = parse_int(tokens[1]);
    pending->bus_id = std::string(cells[1]);
    if (values.size() >= 1) pending->aicore_pct = parse_int(values[0]);
    if (values.size() >= 5) {
      pending->hbm_used_mb = parse_int(values[3]);
      pending->hbm_total_mb = parse_int(values[4]);
    }
    info.chips.push_back(std::move(*pending));
    pending.reset();
    ++ctx.stats.parsed;
  });
  // A chip whose second row the paste cut off is still a chip the table listed.
  if (pending) info.chips.push_back(std::move(*pending));
  if (!info.failure.empty() && info.chips.empty())
    ctx.stats.not_collected = fmt::format("tool_failed: {}", make_excerpt(info.failure, 160));
  ctx.stats.variant = info.failure.empty() ? "npu-smi-table" : "npu-smi-failure";
  // Two `npu-smi info` outputs in one paste (two prompts): one that holds no failure, chip or
  // version (a lone `DrvMngGetConsoleLogLevel failed`) does not erase what the other read.
  auto& kept = ctx.facts.devices.info;
  if (kept && info.failure.empty() && info.chips.empty() && info.version.empty()) return;
  kept = std::move(info);
}

}  // namespace triage
