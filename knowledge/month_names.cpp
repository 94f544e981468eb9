#include "knowledge/month_names.h"

#include <re2/re2.h>

#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

MonthNames parse_month_names(std::string_view content, const std::string& name,
                             std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"locales", "jan", "feb", "mar", "apr", "may", "jun",
                                                        "jul", "aug", "sep", "oct", "nov", "dec"};
  MonthNames out;
  std::set<std::string, std::less<>> seen;
  bool have_c = false;
  auto row = [&](const std::string& where, const std::vector<std::string_view>& f) {
    bool c = f[0] == "C";
    if (c && !out.names.empty()) return errors.push_back(where + ": the C row comes first");
    have_c = have_c || c;
    for (size_t m = 1; m < f.size(); ++m) {
      std::string_view n = f[m];
      if (n.empty() || n.front() == ' ' || n.back() == ' ' || n.find(' ') != std::string_view::npos)
        return errors.push_back(where + ": month " + std::to_string(m) + " is empty or holds a blank");
      if (c && (n.size() != 3 || n.front() < 'A' || n.front() > 'Z'))
        return errors.push_back(where + ": a C name is three letters, capitalised: '" + std::string(n) + "'");
      // A name that is a prefix of another row's would read the wrong month.
      for (const auto& other : out.names)
        if (other.month != static_cast<int>(m) && (n.starts_with(other.text) || std::string_view(other.text).starts_with(n)))
          return errors.push_back(where + ": '" + std::string(n) + "' overlaps '" + other.text + "'");
      if (!seen.insert(std::string(n)).second) continue;  // the same name in another locale
      out.names.push_back({std::string(n), static_cast<int>(m), !c});
    }
  };
  if (for_each_table_row(content, name, kHeader, errors, row, "locales, jan, feb, ..., dec") && !have_c)
    errors.push_back(name + ": no C row (the syslog month names)");
  return out;
}

int MonthNames::at(std::string_view s, size_t& len) const {
  size_t pad = !s.empty() && s[0] == ' ' ? 1 : 0;
  for (const auto& n : names) {
    if (pad && !n.localized) continue;
    if (s.substr(pad).starts_with(n.text)) {
      len = pad + n.text.size();
      return n.month;
    }
  }
  return 0;
}

int MonthNames::c_name(std::string_view s) const {
  for (const auto& n : names)
    if (!n.localized && s == n.text) return n.month;
  return 0;
}

std::string MonthNames::pattern(bool localized) const {
  std::string out;
  for (const auto& n : names) {
    if (n.localized != localized) continue;
    if (!out.empty()) out += '|';
    out += RE2::QuoteMeta(n.text);
  }
  return out.empty() ? std::string("(?:\\b\\B)")  /* matches nothing */ : "(?:" + out + ")";
}

const MonthNames& month_names_for(const std::string& dir) {
  return cached_table<MonthNames>(
      kMonthNamesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_month_names(c, n, e);
      });
}

}  // namespace triage
