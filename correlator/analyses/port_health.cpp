#include "correlator/analyses/port_health.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>

#include "knowledge/month_names.h"
#include "model/strings.h"
#include "model/time.h"

namespace triage {
namespace {
using sv = std::string_view;

std::optional<double> number_of(sv s) {  // "0.0054 mW" -> 0.0054
  s = trim(s);
  size_t e = 0;
  while (e < s.size() && (std::isdigit(static_cast<unsigned char>(s[e])) || s[e] == '.' || s[e] == '-')) ++e;
  if (e == 0) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + e, v);
  if (ec != std::errc() || p != s.data() + e) return std::nullopt;
  return v;
}

bool is_ipv4(sv s) {
  int parts = 0;
  while (true) {
    size_t dot = s.find('.');
    sv part = s.substr(0, dot);
    int v = -1;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || part.size() > 3 || ec != std::errc() || p != part.data() + part.size() || v > 255) return false;
    ++parts;
    if (dot == sv::npos) break;
    s.remove_prefix(dot + 1);
  }
  return parts == 4;
}

bool is_ipv6(sv s) { return s.find(':') != sv::npos && s.find_first_not_of("0123456789abcdefABCDEF:.") == sv::npos; }

// One port that breaks a rule: its device, the figure as printed, the lines that show it.
struct Hit {
  int64_t device;
  std::string figure;
  std::vector<EvidenceRef> evidence;
};

const HccnReading* reading(const HccnPort& p, sv name) {
  for (const auto& r : p.optical)
    if (r.name == name) return &r;
  return nullptr;
}

void link_flap(const HccnPort& p, const PortHealthRule& rule, std::vector<Hit>& hits) {
  int64_t limit = std::stoll(rule.threshold);
  // Records are printed newest first; before/after snapshots repeat them: order by time, once.
  std::vector<std::pair<int64_t, const HccnLinkChange*>> recs;
  std::set<std::pair<int64_t, bool>> seen;
  for (const auto& c : p.link_changes) {
    int64_t t = link_stat_seconds(c.when);
    if (t >= 0 && seen.insert({t, c.up}).second) recs.push_back({t, &c});
  }
  std::stable_sort(recs.begin(), recs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].second->up) continue;
    // the first UP at or after the DOWN (one printed in the same second counts as after it)
    const std::pair<int64_t, const HccnLinkChange*>* up = nullptr;
    for (size_t j = 0; j < recs.size() && !up; ++j)
      if (j != i && recs[j].second->up && recs[j].first >= recs[i].first) up = &recs[j];
    if (up && up->first - recs[i].first <= limit) continue;
    Hit h{p.device, up ? fmt::format("LINK DOWN at {}, LINK UP {} s later", recs[i].second->when, up->first - recs[i].first)
                       : fmt::format("LINK DOWN at {}, no LINK UP after it", recs[i].second->when),
          {recs[i].second->evidence}};
    if (up) h.evidence.push_back(up->second->evidence);
    hits.push_back(std::move(h));
    return;  // the port's first such down is enough
  }
}

void optical_power(const HccnPort& p, std::vector<Hit>& hits) {
  Hit h{p.device, {}, {}};
  for (sv dir : {sv("Tx"), sv("Rx")}) {
    const HccnReading* hi = reading(p, fmt::format("{}Power High Thres", dir));
    const HccnReading* lo = reading(p, fmt::format("{}Power Low Thres", dir));
    if (!hi || !lo) continue;
    auto high = number_of(hi->value), low = number_of(lo->value);
    if (!high || !low) continue;
    const HccnReading* bound = nullptr;  // the threshold the first lane out of range broke
    for (const auto& r : p.optical) {
      if (!r.name.starts_with(fmt::format("{} Power", dir))) continue;
      auto v = number_of(r.value);
      if (!v || (*v >= *low && *v <= *high)) continue;
      const HccnReading* broke = *v < *low ? lo : hi;
      h.figure += fmt::format("{}{} {} {} {} {}", h.figure.empty() ? "" : ", ", r.name, r.value,
                              *v < *low ? "below" : "above", broke->name, broke->value);
      if (h.evidence.size() < 4) h.evidence.push_back(r.evidence);
      if (!bound) bound = broke;
    }
    if (bound) h.evidence.push_back(bound->evidence);
  }
  if (!h.figure.empty()) hits.push_back(std::move(h));
}

void optical_flags(const HccnPort& p, const PortHealthRule& rule, sv kind, std::vector<Hit>& hits) {
  Hit h{p.device, {}, {}};
  for (sv dir : {sv("Tx"), sv("Rx")}) {
    const HccnReading* r = reading(p, fmt::format("{} {} Flag", dir, kind));
    if (!r || std::find(rule.values.begin(), rule.values.end(), r->value) != rule.values.end()) continue;
    h.figure += fmt::format("{}{} {}", h.figure.empty() ? "" : ", ", r->name, r->value);
    h.evidence.push_back(r->evidence);
  }
  if (!h.figure.empty()) hits.push_back(std::move(h));
}

void ip_missing(const std::map<int64_t, HccnPort>& ports, std::vector<Hit>& hits) {
  bool any_v4 = false, any_v6 = false, any_ip = false;
  for (const auto& [id, p] : ports) {
    if (p.ip_evidence.entry.empty() && p.ipv6_evidence.entry.empty()) continue;  // -ip not read for it
    any_ip = true;
    any_v4 = any_v4 || is_ipv4(p.ip);
    any_v6 = any_v6 || is_ipv6(p.ipv6);
  }
  if (!any_ip) return;
  for (const auto& [id, p] : ports) {
    if (p.ip_evidence.entry.empty() && p.ipv6_evidence.entry.empty()) continue;
    if (is_ipv4(p.ip) && !p.netmask.empty() && !is_ipv4(p.netmask)) {
      hits.push_back({id, fmt::format("ipaddr {} with netmask '{}', not an address", p.ip, p.netmask), {p.ip_evidence}});
    } else if (any_v4 && !is_ipv4(p.ip)) {
      hits.push_back({id, fmt::format("ipaddr '{}': no IPv4 address, other ports have one", p.ip),
                      {p.ip_evidence.entry.empty() ? p.ipv6_evidence : p.ip_evidence}});
    } else if (!any_v4 && any_v6 && !is_ipv6(p.ipv6)) {
      hits.push_back({id, "no IPv6 address, other ports have one",
                      {p.ipv6_evidence.entry.empty() ? p.ip_evidence : p.ipv6_evidence}});
    } else if (!any_v4 && !any_v6) {
      hits.push_back({id, fmt::format("ipaddr '{}': no address on any port", p.ip),
                      {p.ip_evidence.entry.empty() ? p.ipv6_evidence : p.ip_evidence}});
    }
  }
}

}  // namespace

int64_t link_stat_seconds(std::string_view when) {
  std::vector<std::string_view> f;
  split_into(when, ' ', f);
  f.erase(std::remove(f.begin(), f.end(), std::string_view{}), f.end());
  if (f.size() != 5) return -1;
  int month = builtin_month_names().c_name(f[1]);
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  auto num = [](std::string_view s, int& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
  };
  if (!month || !num(f[2], day) || !num(f[4], year) || f[3].size() != 8 || !num(f[3].substr(0, 2), hh) ||
      !num(f[3].substr(3, 2), mm) || !num(f[3].substr(6, 2), ss) || day < 1 || day > 31)
    return -1;
  return days_from_civil(year, month, day) * 86400 + hh * 3600 + mm * 60 + ss;
}

void port_health(const BundleFacts& b, const PortHealthRules& rules, const FindingTexts& texts,
                 bool collective_failed, std::vector<Finding>& out) {
  if (b.network.hccn.empty()) return;
  for (const auto& rule : rules.rules) {
    std::vector<Hit> hits;
    if (rule.rule == "ip-missing") {
      ip_missing(b.network.hccn, hits);
    } else {
      for (const auto& [id, p] : b.network.hccn) {
        if (rule.rule == "link-flap") {
          link_flap(p, rule, hits);
        } else if (rule.rule == "fec-mode") {
          // `no FEC mode`: the mode's first word
          sv mode = p.fec_mode;
          if (!mode.empty() && !rule.values.empty() && mode.substr(0, mode.find(' ')) == rule.values.front())
            hits.push_back({id, "fec mode: " + p.fec_mode, {p.fec_evidence}});
        } else if (rule.rule == "net-health") {
          if (std::find(rule.values.begin(), rule.values.end(), p.net_health) != rule.values.end())
            hits.push_back({id, "net health status: " + p.net_health, {p.net_health_evidence}});
        } else if (rule.rule == "optical-absent") {
          const HccnReading* r = reading(p, "present");
          if (r && !rule.values.empty() && r->value == rule.values.front())
            hits.push_back({id, "present: " + r->value, {r->evidence}});
        } else if (rule.rule == "optical-power") {
          optical_power(p, hits);
        } else if (rule.rule == "optical-los") {
          optical_flags(p, rule, "Los", hits);
        } else if (rule.rule == "optical-lol") {
          optical_flags(p, rule, "LoL", hits);
        }
      }
    }
    if (hits.empty()) continue;
    Finding f;
    f.id = "collective/port-health";
    f.host = b.host;
    f.severity = collective_failed ? Severity::error : Severity::warning;
    f.confidence = Confidence::high;
    std::string devices, figures;
    for (const auto& h : hits) {
      devices += fmt::format("{}{}", devices.empty() ? "" : ",", h.device);
      figures += fmt::format("{}device {}: {}", figures.empty() ? "" : "; ", h.device, h.figure);
      for (const auto& e : h.evidence)
        if (f.evidence.size() < 16 && !e.entry.empty()) f.evidence.push_back(e);
    }
    f.observed = fmt::format("hccn_tool {}: {}. {} ({}).", rule.query, figures, rule.meaning, rule.ascend_fd);
    f.value("rule", rule.rule).value("ascend_fd", rule.ascend_fd).value("devices", devices).value("figure", figures);
    if (rule.threshold != "-") f.value("threshold", rule.threshold);
    render_finding_words(f, texts, {{"devices", devices}}, rule.rule);
    out.push_back(std::move(f));
  }
}

}  // namespace triage
