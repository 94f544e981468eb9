// Values the ranks of one job must share, compared between them. Some settings must be the
// same on both ends of every link: a device with TLS on cannot verify a peer with TLS off, and
// HCCL's VNIC links cannot join ranks of two physical SuperPoDs configured as one logical
// SuperPoD (collective/settings-differ). And the ranks of one communicator must run the same
// collectives: two ranks timing out in different operators of one group called different ones
// (collective/mismatch). Each rank states its own value in a line that is no fault alone; two
// values are the fault.
#include "correlator/analyses/collective_settings.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace triage {
namespace {

// hccn_tool -tls -g states what HCCP's `TLS SWITCH (N)` line does, per device.
constexpr std::string_view kTlsSignature = "hccp/tls-switch";

struct Statement {
  std::string value;
  EvidenceRef evidence;
};

// (finding class, signature, scope) -> who ("pid 4242", "device 1") -> what each states.
using Statements = std::map<std::tuple<std::string, std::string, std::string>,
                            std::map<std::string, std::vector<Statement>>>;

void state(Statements& s, std::string_view cls, const std::string& setting, const std::string& scope,
           const std::string& value, const EvidenceRef& e, std::string who) {
  auto& said = s[{std::string(cls), setting, scope}][std::move(who)];
  for (const auto& x : said)
    if (x.value == value) return;
  if (said.size() < 8) said.push_back({value, e});
}

// The values of one setting with who states each; a holder that states two values (one rank
// timing out in two collectives, one after the other) says nothing about the others and is
// left out.
std::map<std::string, std::pair<EvidenceRef, std::set<std::string>>> voted(
    const std::map<std::string, std::vector<Statement>>& by_holder) {
  std::map<std::string, std::pair<EvidenceRef, std::set<std::string>>> out;
  for (const auto& [who, said] : by_holder) {
    if (said.size() != 1) continue;
    auto& v = out[said.front().value];
    if (v.second.empty()) v.first = said.front().evidence;
    v.second.insert(who);
  }
  return out;
}

std::string joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

void compared_values(const EvidenceSet& evidence, const CollectiveClasses& classes, const FindingTexts& texts,
                     bool collective_failed, std::vector<Finding>& out) {
  // Over every bundle of the input: the two ends of a link are often two hosts, or two files
  // given side by side (each a bundle of its own).
  Statements statements;
  std::set<std::string> hosts;
  for (const auto& b : evidence.bundles) {
    for (const auto& h : b.logs.signature_hits) {
      std::string value = capture_of(h, kStatedValueCapture);
      auto cls = classes.of_signature(h.id);
      if (value.empty() || cls.empty()) continue;
      state(statements, cls, h.id, capture_of(h, "setting_scope"), value, h.evidence,
            h.pid ? fmt::format("pid {}", *h.pid) : h.evidence.entry);
      hosts.insert(b.host);
    }
    for (const auto& [id, p] : b.network.hccn)
      if (!p.tls_switch.empty()) {
        state(statements, kSettingsDifferClass, std::string(kTlsSignature), "", p.tls_switch, p.tls_evidence,
              b.host.empty() ? fmt::format("device {}", id) : fmt::format("{} device {}", b.host, id));
        hosts.insert(b.host);
      }
  }
  std::map<std::string, Finding> by_class;
  for (const auto& [key, by_holder] : statements) {
    const auto& [cls, setting, scope] = key;
    auto values = voted(by_holder);
    if (values.size() < 2) continue;
    Finding& f = by_class[cls];
    std::string stated;
    for (const auto& [value, holders] : values) {
      stated += fmt::format("{}{} ({})", stated.empty() ? "" : "; ", value, joined(holders.second));
      if (f.evidence.size() < 8) f.evidence.push_back(holders.first);
    }
    std::string where = scope.empty() ? setting : fmt::format("{} within {}", setting, scope);
    f.observed += fmt::format("{}{}: {}.", f.observed.empty() ? "" : " ", where, stated);
    f.value("setting", where);
    f.value("values", stated);
  }
  for (auto& [cls, f] : by_class) {
    // One `id = "..."` per class: the catalogue test reads the ids from these lines.
    if (cls == kSettingsDifferClass) f.id = "collective/settings-differ";
    else if (cls == "collective/mismatch") f.id = "collective/mismatch";
    else continue;  // knowledge check: a compared signature feeds one of these two
    f.host = hosts.size() == 1 ? *hosts.begin() : "";  // "": the input as a whole
    f.severity = Severity::error;
    f.confidence = Confidence::high;
    f.value("seen_as", "values compared between ranks");
    f.value("collective_failure_seen", collective_failed ? "yes" : "no");
    render_finding_words(f, texts);
    out.push_back(std::move(f));
  }
}

}  // namespace triage
