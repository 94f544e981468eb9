#include "parsers/tools/npu_smi_topo_parser.h"

#include <array>

#include "parsers/common/text_file.h"

namespace triage {
namespace {

using sv = std::string_view;

// Splits on blanks and tabs into at most out.size() words; returns the count (more = cut).
size_t words(sv s, std::array<sv, 72>& out) {
  size_t n = 0, i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (n == out.size()) return n + 1;
    out[n++] = s.substr(start, i - start);
  }
  return n;
}

bool npu_name(sv w) {
  if (w.size() < 4 || w.substr(0, 3) != "NPU") return false;
  for (char c : w.substr(3))
    if (c < '0' || c > '9') return false;
  return true;
}

// A link type: X, HCCS, SYS, PIX, PXB, PHB, NA, UB, HCCS_SW, ...
bool link_word(sv w) {
  for (char c : w)
    if (!((c >= 'A' && c <= 'Z') || c == '_')) return false;
  return !w.empty() && w.size() <= 12;
}

// Legend lines: "Legend:" and "  HCCS = Connection traversing HCCS."
bool legend_line(sv t) {
  if (t == "Legend:") return true;
  size_t eq = t.find(" = ");
  if (eq == sv::npos || eq == 0 || eq > 10) return false;
  for (char c : t.substr(0, eq))
    if (!((c >= 'A' && c <= 'Z') || c == '_' || c == ' ')) return false;
  return true;
}

}  // namespace

void parse_npu_smi_topo(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& topologies = ctx.facts.devices.topologies;
  NpuTopology* topo = nullptr;
  std::array<sv, 72> w;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty() || legend_line(t)) {
      ++ctx.stats.parsed;
      return;
    }
    size_t n = words(t, w);
    if (n > w.size() || n < 2) {
      ++ctx.stats.unrecognised;
      return;
    }
    // Header: NPU0 NPU1 ... CPU Affinity
    if (npu_name(w[0]) && n >= 3 && w[n - 2] == "CPU" && w[n - 1] == "Affinity") {
      topo = &topologies.emplace_back();
      for (size_t i = 0; i + 2 < n; ++i) topo->npus.emplace_back(w[i]);
      topo->evidence = evidence_at(ctx, line);
      ++ctx.stats.parsed;
      return;
    }
    // Row: NPUk, one link per column, then the CPU affinity (missing on some rows).
    bool links = topo && npu_name(w[0]) && (n - 1 == topo->npus.size() || n - 2 == topo->npus.size());
    for (size_t i = 1; links && i <= topo->npus.size(); ++i) links = link_word(w[i]);
    if (links) {
      auto& row = topo->links.emplace_back();
      for (size_t i = 1; i <= topo->npus.size(); ++i) row.emplace_back(w[i]);
      topo->cpu_affinity.emplace_back(n - 2 == topo->npus.size() ? w[n - 1] : sv{});
      ++ctx.stats.parsed;
      return;
    }
    ++ctx.stats.unrecognised;
  });
  // Every line here was judged by its shape.
  ctx.stats.lines_recognised = ctx.stats.parsed;
  ctx.stats.lines_unrecognised = ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
