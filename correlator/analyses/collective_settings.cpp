// collective/settings-differ. Some settings must be the same on both ends of every link: a
// device with TLS on cannot verify a peer with TLS off, and HCCL's VNIC links cannot join
// ranks of two physical SuperPoDs configured as one logical SuperPoD. Each rank states its
// own value in an INFO or ERROR line that is not a fault alone; two values are the fault.
#include "correlator/analyses/collective_settings.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace triage {
namespace {

// hccn_tool -tls -g states what HCCP's `TLS SWITCH (N)` line does, per device.
constexpr std::string_view kTlsSignature = "hccp/tls-switch";

struct Holders {
  EvidenceRef first;
  std::set<std::string> who;  // "pid 4242", "device 1"
};

// (signature, scope) -> value -> who states it.
using Settings = std::map<std::pair<std::string, std::string>, std::map<std::string, Holders>>;

void hold(Settings& s, const std::string& setting, const std::string& scope, const std::string& value,
          const EvidenceRef& e, std::string who) {
  Holders& h = s[{setting, scope}][value];
  if (h.who.empty()) h.first = e;
  if (h.who.size() < 8) h.who.insert(std::move(who));
}

std::string joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

void settings_differ(const EvidenceSet& evidence, const CollectiveClasses& classes, const FindingTexts& texts,
                     bool collective_failed, std::vector<Finding>& out) {
  // Over every bundle of the input: the two ends of a link are often two hosts, or two files
  // given side by side (each a bundle of its own).
  Settings settings;
  std::set<std::string> hosts;
  for (const auto& b : evidence.bundles) {
    for (const auto& h : b.logs.signature_hits) {
      if (classes.of_signature(h.id) != kSettingsDifferClass) continue;
      std::string value = capture_of(h, "setting_value");
      if (value.empty()) continue;
      hold(settings, h.id, capture_of(h, "setting_scope"), value, h.evidence,
           h.pid ? fmt::format("pid {}", *h.pid) : h.evidence.entry);
      hosts.insert(b.host);
    }
    for (const auto& [id, p] : b.network.hccn)
      if (!p.tls_switch.empty()) {
        hold(settings, std::string(kTlsSignature), "", p.tls_switch, p.tls_evidence,
             b.host.empty() ? fmt::format("device {}", id) : fmt::format("{} device {}", b.host, id));
        hosts.insert(b.host);
      }
  }
  Finding f;
  for (const auto& [key, values] : settings) {
    if (values.size() < 2) continue;
    const auto& [setting, scope] = key;
    std::string stated;
    for (const auto& [value, holders] : values) {
      stated += fmt::format("{}{} ({})", stated.empty() ? "" : "; ", value, joined(holders.who));
      if (f.evidence.size() < 8) f.evidence.push_back(holders.first);
    }
    std::string where = scope.empty() ? setting : fmt::format("{} within {}", setting, scope);
    f.observed += fmt::format("{}{}: {}.", f.observed.empty() ? "" : " ", where, stated);
    f.value("setting", where);
    f.value("values", stated);
  }
  if (f.evidence.empty()) return;
  f.id = "collective/settings-differ";  // kSettingsDifferClass, spelled out: the catalogue test reads it
  f.host = hosts.size() == 1 ? *hosts.begin() : "";  // "": the input as a whole
  f.severity = Severity::error;
  f.confidence = Confidence::high;
  f.value("collective_failure_seen", collective_failed ? "yes" : "no");
  render_finding_words(f, texts);
  out.push_back(std::move(f));
}

}  // namespace triage
