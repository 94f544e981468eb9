#include <fmt/format.h>

#include "correlator/bundle_summary.h"
#include "reports/render.h"

namespace triage {
namespace {

constexpr size_t kMaxListed = 50;  // per list; JSON has them all

// Bundle text as printable: control bytes as \xNN (a file name may hold anything).
std::string printable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

std::string join_args(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    bool quote = a.empty() || a.find_first_of(" \t'\"") != std::string::npos;
    if (quote) s += '\'';
    s += printable(a);
    if (quote) s += '\'';
  }
  return s;
}

std::string outcome_detail(const ItemOutcome& o) {
  std::vector<std::string> parts;
  if (!o.reason.empty()) parts.push_back(printable(o.reason));
  if (!o.error.empty()) parts.push_back("error " + printable(o.error));
  if (o.rc) parts.push_back(fmt::format("rc {}", *o.rc));
  if (o.duration_ms) parts.push_back(fmt::format("after {} ms", *o.duration_ms));
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s.empty() ? "(no reason given)" : s;
}

void render_summary(const BundleSummary& s, const BundleFacts& b, std::ostream& out) {
  uint64_t unknown = 0;
  for (const auto& e : b.inventory.entries) unknown += e.kind == SourceKind::unknown;
  out << fmt::format("Bundle {}\n", printable(s.input));
  out << fmt::format("  Host:       {}\n", s.host.empty() ? "unknown (no manifest host, no uname)"
                                                         : fmt::format("{} ({})", printable(s.host), s.host_origin));
  if (!s.os.empty() || !s.kernel_release.empty())
    out << fmt::format("  System:     {}{}{}\n", printable(s.os), s.os.empty() || s.kernel_release.empty() ? "" : ", ",
                       s.kernel_release.empty() ? "" : "kernel " + printable(s.kernel_release));
  if (s.collected_at_us) {
    std::string local = s.local_offset ? format_with_offset(*s.collected_at_us, *s.local_offset) + " host local"
                                       : "host local unknown";
    out << fmt::format("  Collected:  {} UTC = {} ({})\n", format_utc(*s.collected_at_us), local,
                       s.collected_at_origin);
  } else {
    out << "  Collected:  unknown (no manifest collected_at_utc, no system/time.txt epoch)\n";
  }
  if (!s.zone.empty())
    out << fmt::format("  Zone:       {}, from {}\n", printable(s.zone), printable(s.zone_origin));
  else
    out << "  Zone:       unknown (no system/time.txt or localtime.tzif): local times stay unknown "
           "unless --utc-offset is given\n";
  if (!s.boot_id.empty() || s.btime)
    out << fmt::format("  Boot:       {}{}\n", s.boot_id.empty() ? "id unknown" : s.boot_id,
                       s.btime ? ", booted " + format_utc(*s.btime * 1000000) : "");
  out << fmt::format("  Entries:    {} read, {} not recognised\n", b.inventory.entries.size(), unknown);
  if (!s.has_manifest) {
    out << "  Manifest:   none: what was not collected, and why, is unknown\n";
  } else {
    std::string who = s.uid ? fmt::format(", uid {}", *s.uid) : "";
    if (!s.sudo_user.empty()) who += " via sudo from " + printable(s.sudo_user);
    if (s.in_container) who += *s.in_container ? ", in a container" : ", on the host";
    out << fmt::format("  Collector:  version {}{}\n",
                       s.collector_version.empty() ? "unknown" : printable(s.collector_version), who);
    out << fmt::format("  Arguments:  {}\n", s.collector_args.empty() ? "(none)" : join_args(s.collector_args));
    out << fmt::format("  Manifest:   {} items{}{}{}\n", s.items,
                       s.items_origin.empty() ? "" : " (" + s.items_origin + ")",
                       s.items ? ": " + status_counts_text(s) : "",
                       s.truncated_count ? fmt::format("; {} truncated", s.truncated_count) : "");
  }
  if (!s.not_collected.empty()) {
    out << "  Not collected:\n";
    for (size_t i = 0; i < s.not_collected.size() && i < kMaxListed; ++i) {
      const ItemOutcome& o = s.not_collected[i];
      std::string status = o.status == ItemStatus::other ? printable(o.status_text) : std::string(to_string(o.status));
      out << fmt::format("    {:<10} {}: {}\n", status, printable(o.path), outcome_detail(o));
    }
    if (s.not_collected.size() > kMaxListed)
      out << fmt::format("    ... and {} more (--format json lists all)\n", s.not_collected.size() - kMaxListed);
  }
  if (!s.truncated.empty()) {
    out << "  Truncated (only part of the source kept):\n";
    for (size_t i = 0; i < s.truncated.size() && i < kMaxListed; ++i) {
      std::string ranges;
      for (const auto& [a, z] : s.truncated[i].kept_ranges) ranges += fmt::format("{}{}-{}", ranges.empty() ? "" : ", ", a, z);
      out << fmt::format("    {}: {}\n", printable(s.truncated[i].path),
                         ranges.empty() ? "kept ranges not recorded" : "kept bytes " + ranges);
    }
  }
  if (!s.tool_errors.empty()) {
    out << "  Tool error text instead of data:\n";
    for (size_t i = 0; i < s.tool_errors.size() && i < kMaxListed; ++i)
      out << fmt::format("    {}: {}\n", printable(s.tool_errors[i].path), printable(s.tool_errors[i].reason));
  }
  if (!s.notes.empty()) {
    out << "  Notes:\n";
    for (const auto& n : s.notes) out << "    - " << printable(n) << '\n';
  }
}

}  // namespace

void render_text(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out) {
  for (const auto& b : evidence.bundles) {
    render_summary(summarize_bundle(b), b, out);
    out << '\n';
  }
  out << fmt::format("{} finding(s)\n", report.findings.size());
  for (const auto& f : report.findings) {
    out << fmt::format("\n[{}] {} ({} confidence)\n  {}\n", to_string(f.severity), f.id,
                       to_string(f.confidence), printable(f.title));
    if (!f.observed.empty()) out << "  Observed: " << printable(f.observed) << '\n';
    if (!f.supports.empty()) out << "  Supports: " << printable(f.supports) << '\n';
    if (!f.does_not_prove.empty()) out << "  Does not prove: " << printable(f.does_not_prove) << '\n';
    for (const auto& c : f.next_checks) out << "  Next: " << printable(c) << '\n';
    for (const auto& e : f.evidence)
      out << fmt::format("    {}:{}: {}\n", printable(e.entry), e.line, e.excerpt);
  }
}

}  // namespace triage
