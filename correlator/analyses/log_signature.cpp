#include "correlator/analyses/log_signature.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"

namespace triage {
namespace {

constexpr size_t kMaxCited = 5;  // evidence lines cited per finding; the rest are explained

Severity severity_of(std::string_view s) {
  if (s == "critical") return Severity::critical;
  if (s == "error") return Severity::error;
  if (s == "warning") return Severity::warning;
  return Severity::info;
}

struct Group {
  const Signature* sig = nullptr;
  std::vector<const SignatureHit*> hits;
  uint64_t lines = 0;  // hits plus the lines folded into them (FoldedRepeats)
  std::set<int64_t> pids;
  std::set<std::string> sources;
};

// The captures worth showing: first value of each name over the group, in name order.
std::string capture_text(const Group& g) {
  std::map<std::string, std::string> first;
  for (const auto* h : g.hits)
    for (const auto& [k, v] : h->captures) first.emplace(k, v);
  std::string s;
  for (const auto& [k, v] : first) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
  return s;
}

}  // namespace

void analyze_log_signature(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  for (const auto& b : evidence.bundles) {
    std::map<std::string, Group> groups;  // by signature id: stable order
    for (const auto& h : b.logs.signature_hits) {
      const Signature* sig = kb.find_signature(h.id);
      if (!sig || sig->outcome != "own") continue;
      Group& g = groups[h.id];
      g.sig = sig;
      g.hits.push_back(&h);
      g.lines += 1 + h.repeats.lines;
      // A device-side plog module writes -1 or -2 where a host process writes its pid: no process.
      if (h.pid && *h.pid >= 0) g.pids.insert(*h.pid);
      g.sources.insert(h.source.empty() ? "plog" : h.source);
    }
    for (const auto& [id, g] : groups) {
      const Signature& s = *g.sig;
      Finding f;
      f.id = "log-signature";
      f.host = b.host;
      f.severity = severity_of(s.severity);
      f.confidence = Confidence::medium;
      std::string caps = capture_text(g);
      f.observed = fmt::format("{} line(s) matched signature {} in {}{}.", g.lines, s.id,
                               fmt::join(g.sources, ", "), caps.empty() ? "" : ": " + caps);
      // The signature's own words (knowledge/signatures) fill the finding's: "#pids" names the pids.
      render_finding_words(f, ctx.finding_texts,
                           {{"signature_title", s.title},
                            {"explanation", s.explanation},
                            {"pids", fmt::format("{}", fmt::join(g.pids, ", "))}},
                           g.pids.empty() ? "" : "pids");
      f.next_checks = s.next_steps;
      for (const auto* h : g.hits) {
        if (f.evidence.size() < kMaxCited) f.evidence.push_back(h->evidence);
        else f.explains.push_back(EvidenceRef{h->evidence.entry, h->evidence.line, 0, {}});
      }
      f.value("signature", s.id).value("category", s.category).value("lines", std::to_string(g.lines));
      if (!g.pids.empty()) f.value("pids", fmt::format("{}", fmt::join(g.pids, ",")));
      for (const auto& kv : g.hits.front()->captures) f.value("capture." + kv.first, kv.second);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
