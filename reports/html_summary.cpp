// The bundle summary of the HTML report: the same facts as the text report's header
// (correlator/bundle_summary.h), as a definition list, with what was not collected.
#include <fmt/format.h>

#include "model/bundle_summary.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"

namespace triage::html {
namespace {

constexpr size_t kMaxListed = 50;  // per list; the JSON report has them all

void row(std::string& out, std::string_view label, const std::string& escaped_value) {
  out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", label, escaped_value);
}

std::string outcome_detail(const ItemOutcome& o) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (!o.reason.empty()) add(escape(o.reason));
  if (!o.error.empty()) add("error " + escape(o.error));
  if (o.rc) add(fmt::format("rc {}", *o.rc));
  if (o.duration_ms) add(fmt::format("after {} ms", *o.duration_ms));
  return s.empty() ? "(no reason given)" : s;
}

std::string args_text(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    bool quote = a.empty() || a.find_first_of(" \t'\"") != std::string::npos;
    s += quote ? "'" + a + "'" : a;
  }
  return s;
}

}  // namespace

void bundle_summary(const BundleSummary& s, const BundleFacts& b, std::string& out) {
  out += fmt::format("<section class=\"card\">\n<h3>Input <span class=\"mono\">{}</span></h3>\n<dl class=\"kv\">\n",
                     escape(s.input));
  row(out, "Host", s.host.empty() ? "unknown (no manifest host, no uname)"
                                  : fmt::format("{} <span class=\"muted\">({})</span>", escape(s.host), escape(s.host_origin)));
  if (!s.os.empty() || !s.kernel_release.empty())
    row(out, "System", escape(s.os) + (s.os.empty() || s.kernel_release.empty() ? "" : ", ") +
                           (s.kernel_release.empty() ? "" : "kernel " + escape(s.kernel_release)));
  if (s.collected_at_us) {
    std::string local = s.local_offset ? format_with_offset(*s.collected_at_us, *s.local_offset) + " host local"
                                       : "host local unknown";
    row(out, "Collected", fmt::format("{} UTC = {} <span class=\"muted\">({})</span>", format_utc(*s.collected_at_us),
                                      local, escape(s.collected_at_origin)));
  } else {
    row(out, "Collected", "unknown (no manifest collected_at_utc, no system/time.txt epoch)");
  }
  row(out, "Zone", s.zone.empty() ? "unknown: local times stay unknown unless --utc-offset is given"
                                  : fmt::format("{}, from {}", escape(s.zone), escape(s.zone_origin)));
  if (!s.boot_id.empty() || s.btime)
    row(out, "Boot", (s.boot_id.empty() ? "id unknown" : escape(s.boot_id)) +
                         (s.btime ? ", booted " + format_utc(*s.btime * 1000000) : ""));
  row(out, "Entries", escape(entries_text(b.inventory)));
  if (std::string counted = counted_only_text(s); !counted.empty()) row(out, "Repeats", escape(counted));
  if (!s.versions.empty()) row(out, "Versions", escape(versions_text(s.versions)));
  if (std::string named = mentions_text(s.mentions); !named.empty()) row(out, "Names", escape(named));
  if (!s.has_manifest) {
    row(out, "Manifest", "none: what was not collected, and why, is unknown");
  } else {
    std::string who = s.uid ? fmt::format(", uid {}", *s.uid) : "";
    if (!s.sudo_user.empty()) who += " via sudo from " + escape(s.sudo_user);
    if (s.in_container) who += *s.in_container ? ", in a container" : ", on the host";
    row(out, "Collector", (s.collector_version.empty() ? "version unknown" : "version " + escape(s.collector_version)) + who);
    row(out, "Arguments", s.collector_args.empty() ? "(none)"
                                                   : "<span class=\"mono\">" + escape(args_text(s.collector_args)) + "</span>");
    row(out, "Manifest", fmt::format("{} items{}{}{}", s.items, s.items_origin.empty() ? "" : " (" + escape(s.items_origin) + ")",
                                     s.items ? ": " + escape(status_counts_text(s)) : "",
                                     s.truncated_count ? fmt::format("; {} truncated", s.truncated_count) : ""));
  }
  out += "</dl>\n";
  if (!s.not_collected.empty()) {
    out += fmt::format("<details><summary>Not collected ({})</summary>\n<table>\n<tr><th>status</th><th>item</th><th>why</th></tr>\n",
                       s.not_collected.size());
    for (size_t i = 0; i < s.not_collected.size() && i < kMaxListed; ++i) {
      const ItemOutcome& o = s.not_collected[i];
      std::string_view status = o.status == ItemStatus::other ? std::string_view(o.status_text) : to_string(o.status);
      out += fmt::format("<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td></tr>\n", escape(status), escape(step_files_text(o)),
                         outcome_detail(o));
    }
    out += "</table>\n";
    if (s.not_collected.size() > kMaxListed)
      out += fmt::format("<p class=\"muted\">... and {} more (--format json lists all)</p>\n", s.not_collected.size() - kMaxListed);
    out += "</details>\n";
  }
  if (!s.truncated.empty()) {
    out += fmt::format("<details><summary>Truncated ({}): only part of the source kept</summary>\n<ul>\n", s.truncated.size());
    for (size_t i = 0; i < s.truncated.size() && i < kMaxListed; ++i) {
      std::string ranges;
      for (const auto& [a, z] : s.truncated[i].kept_ranges) ranges += fmt::format("{}{}-{}", ranges.empty() ? "" : ", ", a, z);
      out += fmt::format("<li><span class=\"mono\">{}</span>: {}</li>\n", escape(s.truncated[i].path),
                         ranges.empty() ? "kept ranges not recorded" : "kept bytes " + ranges);
    }
    out += "</ul>\n</details>\n";
  }
  if (!s.tool_errors.empty()) {
    out += fmt::format("<details><summary>Tool error text instead of data ({})</summary>\n<ul>\n", s.tool_errors.size());
    for (size_t i = 0; i < s.tool_errors.size() && i < kMaxListed; ++i)
      out += fmt::format("<li><span class=\"mono\">{}</span>: {}</li>\n", escape(s.tool_errors[i].path),
                         escape(s.tool_errors[i].reason));
    out += "</ul>\n</details>\n";
  }
  if (!s.notes.empty()) {
    out += "<details><summary>Notes</summary>\n<ul>\n";
    for (const auto& n : s.notes) out += fmt::format("<li>{}</li>\n", escape(n));
    out += "</ul>\n</details>\n";
  }
  out += "</section>\n";
}

}  // namespace triage::html
