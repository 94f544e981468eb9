#pragma once
// knowledge/month-names.tsv: abbreviated month names as journalctl prints them per locale
// (strftime %b). The kernel-text reader and the content sniffer take a syslog-style time
// (`Mar  1 12:00:00`, `8月 17 16:52:02`) with any of them; a localized name tells journalctl
// output from a syslog file, which always uses the C names.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kMonthNamesFile = "month-names.tsv";

struct MonthName {
  std::string text;     // as printed, unpadded: "Aug", "8月"
  int month = 0;        // 1..12
  bool localized = false;  // not a C-locale name
};

struct MonthNames {
  std::vector<MonthName> names;  // the C names first
  // The month named at the start of `s`: 1..12 and in `len` the bytes it takes (one blank
  // before a localized name included: glibc pads ` 8月`), or 0 when none is.
  int at(std::string_view s, size_t& len) const;
  // A C-locale name exactly (`Mar`): 1..12, or 0.
  int c_name(std::string_view s) const;
  // An RE2 alternation of the names (quoted), the localized ones or the C ones.
  std::string pattern(bool localized) const;
};

// Columns locales, jan..dec; problems as "file:line: message".
MonthNames parse_month_names(std::string_view content, const std::string& name,
                             std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/month-names.tsv replaces it).
const MonthNames& month_names_for(const std::string& dir);
// The built-in table, which the line readers use (they have no --knowledge value).
inline const MonthNames& builtin_month_names() {
  static const MonthNames& names = month_names_for("");
  return names;
}

}  // namespace triage
