#include "reports/also_read_as.h"

#include <fmt/format.h>

namespace triage {

std::vector<AlsoReadAs> also_read_as_by_id(const Finding& f) {
  std::vector<AlsoReadAs> out;
  for (const auto& [key, v] : f.values) {
    if (key != kAlsoReadAsValue) continue;
    size_t tab = v.find('\t');
    std::string id = v.substr(0, tab);
    std::string title = tab == std::string::npos ? std::string() : v.substr(tab + 1);
    AlsoReadAs* same = nullptr;
    for (auto& a : out)
      if (a.id == id) same = &a;
    if (same)
      ++same->count;
    else
      out.push_back({std::move(id), std::move(title), 1});
  }
  return out;
}

std::string also_read_as_text(const AlsoReadAs& a) {
  if (a.count == 1) return a.title.empty() ? a.id : fmt::format("{}: {}", a.id, a.title);
  return fmt::format("{} ({} findings, e.g. {})", a.id, a.count, a.title);
}

}  // namespace triage
