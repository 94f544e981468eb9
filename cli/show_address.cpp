#include "cli/show_address.h"

#include <charconv>
#include <filesystem>
#include <system_error>

namespace triage::cli {

namespace {

namespace fs = std::filesystem;

bool exists(const std::string& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

bool is_dir(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool parse_number(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// " (copy N)" at the end, as the reports name a member stored again.
void take_copy_suffix(std::string& loc, uint64_t& copy) {
  constexpr std::string_view kOpen = " (copy ";
  size_t at = loc.rfind(kOpen);
  if (at == std::string::npos || loc.back() != ')') return;
  std::string_view n(loc.data() + at + kOpen.size(), loc.size() - at - kOpen.size() - 1);
  uint64_t value = 0;
  if (!parse_number(n, value) || value == 0) return;
  copy = value;
  loc.resize(at);
}

}  // namespace

std::string parse_show_address(std::string_view text, ShowAddress& out) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || !parse_number(text.substr(colon + 1), out.line))
    return "the address must end in :LINE, the line number the report prints "
           "(BUNDLE!PATH:LINE, BUNDLE/PATH:LINE or FILE:LINE)";
  if (out.line == 0) return "line numbers start at 1";
  std::string loc(text.substr(0, colon));
  take_copy_suffix(loc, out.copy);
  if (loc.empty()) return "the address names no file before :LINE";
  // A file on disk as written: a loose file, or an entry of a directory as the report joins it.
  // A '!' in that path is then part of a name, not a separator.
  if (exists(loc) && !is_dir(loc)) {
    out.file = loc;
    return "";
  }
  // BUNDLE!PATH: the first '!' whose left side exists; PATH may hold further '!'.
  for (size_t bang = loc.find('!'); bang != std::string::npos; bang = loc.find('!', bang + 1)) {
    std::string bundle = loc.substr(0, bang);
    if (bundle.empty() || !exists(bundle)) continue;
    out.file = bundle;
    out.member = loc.substr(bang + 1);
    if (out.member.empty()) return "'" + bundle + "!' names no entry after the '!'";
    return "";
  }
  if (is_dir(loc)) return "'" + loc + "' is a directory: name an entry in it, DIR/PATH:LINE";
  return "no such file or bundle: '" + loc + "'";
}

}  // namespace triage::cli
