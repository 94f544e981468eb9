// The bundle summary of the text report: host, collection time and zone, collector, and what
// was not collected, truncated or replaced by a tool's error text.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iterator>

#include "reports/display_width.h"
#include "reports/text_sections.h"

namespace triage::text {
namespace {

constexpr size_t kMaxListed = 50;  // per list; JSON has them all

std::string join_args(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    bool quote = a.empty() || a.find_first_of(" \t'\"") != std::string::npos;
    if (quote) s += '\'';
    s += printable_utf8(a);
    if (quote) s += '\'';
  }
  return s;
}

std::string outcome_detail(const ItemOutcome& o) {
  std::vector<std::string> parts;
  if (!o.reason.empty()) parts.push_back(printable_utf8(o.reason));
  if (!o.error.empty()) parts.push_back("error " + printable_utf8(o.error));
  if (o.rc) parts.push_back(fmt::format("rc {}", *o.rc));
  // Seconds from 10 s on: a probe step's line then fits in 100 columns.
  if (o.duration_ms && *o.duration_ms >= 10000)
    parts.push_back(fmt::format("after {:.1f} s", static_cast<double>(*o.duration_ms) / 1000.0));
  else if (o.duration_ms)
    parts.push_back(fmt::format("after {} ms", *o.duration_ms));
  return parts.empty() ? "(no reason given)" : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

void append_bundle_summary(std::string& out, const BundleSummary& s, const BundleFacts& b,
                           const Layout& layout) {
  auto put = std::back_inserter(out);
  const Style& st = layout.style;
  auto field = [&](std::string_view label, std::string_view value) {
    std::string first = fmt::format("  {:<12}", label);
    append_wrapped(out, value, first, std::string(first.size(), ' '), layout.width);
  };
  out += st.bold(fmt::format("Bundle {}", printable_utf8(s.input)));
  out += '\n';
  field("Host:", s.host.empty() ? "unknown (no manifest host, no uname)"
                                : fmt::format("{} ({})", s.host, s.host_origin));
  if (!s.os.empty() || !s.kernel_release.empty())
    field("System:", fmt::format("{}{}{}", s.os, s.os.empty() || s.kernel_release.empty() ? "" : ", ",
                                 s.kernel_release.empty() ? "" : "kernel " + s.kernel_release));
  if (s.collected_at_us) {
    std::string local = s.local_offset
                            ? format_with_offset(*s.collected_at_us, *s.local_offset) + " host local"
                            : "host local unknown";
    field("Collected:", fmt::format("{} UTC = {} ({})", format_utc(*s.collected_at_us), local,
                                    s.collected_at_origin));
  } else {
    field("Collected:", "unknown (no manifest collected_at_utc, no system/time.txt epoch)");
  }
  if (!s.zone.empty())
    field("Zone:", fmt::format("{}, from {}", s.zone, s.zone_origin));
  else
    field("Zone:", "unknown (no system/time.txt or localtime.tzif): local times stay unknown "
                   "unless --utc-offset is given");
  if (!s.boot_id.empty() || s.btime)
    field("Boot:", fmt::format("{}{}", s.boot_id.empty() ? "id unknown" : s.boot_id,
                               s.btime ? ", booted " + format_utc(*s.btime * 1000000) : ""));
  field("Entries:", entries_text(b.inventory));
  if (std::string counted = counted_only_text(s); !counted.empty()) field("Repeats:", counted);
  if (!s.versions.empty()) field("Versions:", versions_text(s.versions));
  if (std::string named = mentions_text(s.mentions); !named.empty()) field("Names:", named);
  if (!s.has_manifest) {
    field("Manifest:", "none: what was not collected, and why, is unknown");
  } else {
    std::string who = s.uid ? fmt::format(", uid {}", *s.uid) : "";
    if (!s.sudo_user.empty()) who += " via sudo from " + s.sudo_user;
    if (s.in_container) who += *s.in_container ? ", in a container" : ", on the host";
    field("Collector:", fmt::format("version {}{}",
                                    s.collector_version.empty() ? "unknown" : s.collector_version, who));
    // The collector's arguments are a command line: one line, never wrapped.
    fmt::format_to(put, "  {:<12}{}\n", "Arguments:",
                   s.collector_args.empty() ? "(none)" : join_args(s.collector_args));
    field("Manifest:", fmt::format("{} items{}{}{}", s.items,
                                   s.items_origin.empty() ? "" : " (" + s.items_origin + ")",
                                   s.items ? ": " + status_counts_text(s) : "",
                                   s.truncated_count ? fmt::format("; {} truncated", s.truncated_count) : ""));
  }
  if (!s.not_collected.empty()) {
    out += "  Not collected:\n";
    for (size_t i = 0; i < s.not_collected.size() && i < kMaxListed; ++i) {
      const ItemOutcome& o = s.not_collected[i];
      std::string status = o.status == ItemStatus::other ? printable_utf8(o.status_text)
                                                         : std::string(to_string(o.status));
      append_wrapped(out, fmt::format("{}: {}", step_files_text(o), outcome_detail(o)),
                     fmt::format("    {:<10} ", status), std::string(17, ' '), layout.width);
    }
    if (s.not_collected.size() > kMaxListed)
      fmt::format_to(put, "    ... and {} more (--format json lists all)\n",
                     s.not_collected.size() - kMaxListed);
  }
  if (!s.truncated.empty()) {
    out += "  Truncated (only part of the source kept):\n";
    for (size_t i = 0; i < s.truncated.size() && i < kMaxListed; ++i) {
      std::string ranges;
      for (const auto& [a, z] : s.truncated[i].kept_ranges)
        ranges += fmt::format("{}{}-{}", ranges.empty() ? "" : ", ", a, z);
      append_wrapped(out, fmt::format("{}: {}", s.truncated[i].path,
                                      ranges.empty() ? "kept ranges not recorded" : "kept bytes " + ranges),
                     "    ", "      ", layout.width);
    }
  }
  if (!s.tool_errors.empty()) {
    out += "  Tool error text instead of data:\n";
    for (size_t i = 0; i < s.tool_errors.size() && i < kMaxListed; ++i)
      append_wrapped(out, fmt::format("{}: {}", s.tool_errors[i].path, s.tool_errors[i].reason),
                     "    ", "      ", layout.width);
  }
  if (!s.notes.empty()) {
    out += "  Notes:\n";
    for (const auto& n : s.notes) append_wrapped(out, n, "    - ", "      ", layout.width);
  }
}

}  // namespace triage::text
