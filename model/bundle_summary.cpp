#include "model/bundle_summary.h"

#include "model/facts_logs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace triage {

std::string versions_text(const std::vector<VersionSeen>& versions) {
  std::string out;
  for (const auto& v : versions) out += (out.empty() ? "" : ", ") + v.component + " " + v.version;
  return out;
}

std::string mentions_text(const std::vector<EntryMentions>& mentions) {
  constexpr size_t kShown = 8;
  std::string out;
  auto part = [&](const char* what, EntryMentions::Values EntryMentions::*field) {
    std::vector<std::string_view> all;       // distinct, first seen first (entries by path)
    std::unordered_set<std::string_view> seen;  // a bundle of many plog files names many pids
    bool more = false;                       // an entry names more than it lists
    for (const auto& m : mentions) {
      const EntryMentions::Values& v = m.*field;
      more = more || v.total > v.shown.size();
      for (const auto& x : v.shown)
        if (seen.insert(x).second) all.push_back(x);
    }
    if (all.empty()) return;
    out += fmt::format("{}{} {}", out.empty() ? "" : "; ", what,
                       fmt::join(all.begin(), all.begin() + std::min(all.size(), kShown), ", "));
    if (all.size() > kShown) out += fmt::format(" (+{}{} more)", all.size() - kShown, more ? " or" : "");
    else if (more) out += " and more";
  };
  part("pid", &EntryMentions::pids);
  part("device", &EntryMentions::devices);
  part("rank", &EntryMentions::ranks);
  part("component", &EntryMentions::components);
  return out;
}

std::string counted_only_text(const BundleSummary& s) {
  const auto& c = s.counted_only;
  std::string out;
  auto plural = [](uint64_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  if (c.folded_lines)
    out = fmt::format("{} of {} repeated past {} kept lines each, in {}: counted on the last kept line, "
                      "their values not read",
                      plural(c.folded_lines, "line", "lines"), plural(c.folded_templates, "template", "templates"),
                      kPlogKeptPerTemplate, plural(c.folded_entries, "log entry", "log entries"));
  if (c.level_lines_over_cap)
    out += fmt::format("{}{} past the {} distinct warning/error rows an entry keeps, in {}: counted only",
                       out.empty() ? "" : "; ", plural(c.level_lines_over_cap, "line", "lines"),
                       kPlogMaxLevelRows, plural(c.level_entries_over_cap, "plog entry", "plog entries"));
  return out;
}

std::string status_counts_text(const BundleSummary& s) {
  std::string out;
  for (auto st : {ItemStatus::ok, ItemStatus::absent, ItemStatus::denied, ItemStatus::skipped,
                  ItemStatus::failed, ItemStatus::timed_out, ItemStatus::abandoned, ItemStatus::other}) {
    if (s.count(st) == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", s.count(st), to_string(st));
  }
  return out;
}

std::string step_files_text(const ItemOutcome& o) {
  if (o.files.size() < 2) return o.path;
  // "dir/stem." shared by every file, each with something after it.
  auto stem_of = [](const std::string& p) -> std::string_view {
    size_t slash = p.rfind('/');
    size_t dot = p.find('.', slash == std::string::npos ? 0 : slash + 1);
    return dot == std::string::npos ? std::string_view() : std::string_view(p).substr(0, dot + 1);
  };
  std::string_view stem = stem_of(o.files.front());
  bool shared = !stem.empty() && stem.size() > 1;
  for (const auto& f : o.files) shared = shared && stem_of(f) == stem && f.size() > stem.size();
  std::string out;
  if (shared) {
    out.assign(stem);
    out += '{';
    for (size_t i = 0; i < o.files.size(); ++i)
      out += (i ? "," : "") + o.files[i].substr(stem.size());
    return out + '}';
  }
  for (const auto& f : o.files) out += (out.empty() ? "" : ", ") + f;
  return out;
}

}  // namespace triage
