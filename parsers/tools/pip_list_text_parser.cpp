#include "parsers/tools/pip_list_text_parser.h"

#include "parsers/tools/package_lines.h"

namespace triage {
namespace {

using sv = std::string_view;

// "torch-npu          2.1.0.post8.dev20241009": a name, blanks, a version starting with a digit.
bool split_row(sv t, sv& name, sv& version) {
  size_t i = 0;
  while (i < t.size() && is_distribution_name_char(t[i])) ++i;
  if (i == 0 || i >= t.size() || (t[i] != ' ' && t[i] != '\t')) return false;
  name = t.substr(0, i);
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  if (i >= t.size() || t[i] < '0' || t[i] > '9') return false;
  size_t v = i;
  while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
  version = t.substr(v, i - v);
  return true;
}

bool is_header_or_rule(sv t) {
  if (t.starts_with("Package ") && t.find("Version") != sv::npos) return true;
  return !t.empty() && t.find_first_not_of("- ") == sv::npos;
}

// One trimmed line of `pip list`'s table.
PackageLine read_list_line(sv t) {
  sv name, version;
  if (t.empty() || is_header_or_rule(t)) return {};
  return split_row(t, name, version) ? PackageLine::row(name, version) : PackageLine::unrecognised();
}

}  // namespace

void parse_pip_list_text(ParseContext& ctx, ByteSource& src) {
  read_package_lines(ctx, src, "pip-list", read_list_line);
}

}  // namespace triage
