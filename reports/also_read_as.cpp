#include "reports/also_read_as.h"

#include <fmt/format.h>

namespace triage {

AlsoReadAsValue parse_also_read_as(const std::string& v) {
  AlsoReadAsValue out;
  size_t a = v.find('\t');
  out.id = v.substr(0, a);
  if (a == std::string::npos) return out;
  size_t b = v.find('\t', a + 1);
  out.title = v.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  if (b != std::string::npos) out.observed = v.substr(b + 1);
  return out;
}

std::vector<AlsoReadAs> also_read_as_by_id(const Finding& f) {
  std::vector<AlsoReadAs> out;
  for (const auto& [key, v] : f.values) {
    if (key != kAlsoReadAsValue) continue;
    AlsoReadAsValue p = parse_also_read_as(v);
    std::string id = std::move(p.id), title = std::move(p.title);
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
