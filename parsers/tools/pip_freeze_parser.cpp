#include "parsers/tools/pip_freeze_parser.h"

#include "parsers/tools/package_lines.h"

namespace triage {
namespace {

using sv = std::string_view;

// The distribution name at the start of t (PEP 508: letters, digits, - _ .), then any
// `[extras]`; returns where the name ends and sets `rest` past the extras.
sv take_name(sv t, sv& rest) {
  size_t i = 0;
  while (i < t.size() && is_distribution_name_char(t[i])) ++i;
  sv name = t.substr(0, i);
  if (i < t.size() && t[i] == '[') {
    size_t close = t.find(']', i);
    if (close == sv::npos) return {};
    i = close + 1;
  }
  rest = t.substr(i);
  return name;
}

sv skip_blanks(sv t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  return t;
}

// A version ends at a blank, `;` (an environment marker) or `#` (a comment).
sv take_version(sv t) {
  size_t i = 0;
  while (i < t.size() && t[i] != ' ' && t[i] != '\t' && t[i] != ';' && t[i] != '#') ++i;
  return t.substr(0, i);
}

// "torch_npu-2.1.0.post3-cp39-cp39-linux_aarch64.whl" at the end of a URL: the version of
// a wheel of `name` (its file name spells the name with `_`), or empty.
sv wheel_version(sv url, sv name) {
  if (!url.ends_with(".whl")) return {};
  sv file = url.substr(url.rfind('/') == sv::npos ? 0 : url.rfind('/') + 1);
  size_t dash = file.find('-');
  if (dash == sv::npos || pep503_normalize(file.substr(0, dash)) != pep503_normalize(name)) return {};
  sv after = file.substr(dash + 1);
  sv version = after.substr(0, after.find('-'));
  return !version.empty() && version.front() >= '0' && version.front() <= '9' ? version : sv{};
}

// One trimmed line of `pip freeze` or a requirements file.
PackageLine read_freeze_line(sv t) {
  // Comments, pip options (-i, --index-url, -r) and editable installs (-e <vcs or path>)
  // name no installed version: read, nothing to keep.
  if (t.empty() || t.front() == '#' || t.front() == '-') return {};
  sv rest;
  sv name = take_name(t, rest);
  rest = skip_blanks(rest);
  if (!name.empty() && rest.starts_with("==")) {
    rest.remove_prefix(rest.starts_with("===") ? 3 : 2);
    sv version = take_version(skip_blanks(rest));
    return version.empty() ? PackageLine::malformed() : PackageLine::row(name, version);
  }
  if (!name.empty() && rest.starts_with("@")) {
    sv url = take_version(skip_blanks(rest.substr(1)));
    if (url.empty()) return PackageLine::malformed();
    sv version = wheel_version(url, name);
    // A VCS or directory reference: installed, version not written.
    return version.empty() ? PackageLine{} : PackageLine::row(name, version);
  }
  return PackageLine::unrecognised();
}

}  // namespace

void parse_pip_freeze(ParseContext& ctx, ByteSource& src) {
  read_package_lines(ctx, src, "pip-freeze", read_freeze_line);
}

}  // namespace triage
