#include "parsers/job/pip_console.h"
#include "model/package_rows.h"
#include "model/strings.h"

namespace triage::pipconsole {

namespace {

using sv = std::string_view;
constexpr size_t npos = sv::npos;

bool name_char(char c) { return is_distribution_name_char(c); }
bool version_char(char c) { return name_char(c) || c == '+' || c == '!'; }


// `name==version` at the front of s (what follows is a blank, `;`, `(` or the end).
bool pinned(sv s, sv& name, sv& version) {
  size_t i = 0;
  while (i < s.size() && name_char(s[i])) ++i;
  if (i == 0 || s.substr(i, 2) != "==") return false;
  size_t b = i + 2, e = b;
  while (e < s.size() && version_char(s[e])) ++e;
  if (e == b || !is_digit(s[b]) || (e < s.size() && s[e] != ' ' && s[e] != ';' && s[e] != '(')) return false;
  name = s.substr(0, i);
  version = s.substr(b, e - b);
  return true;
}

// A requirement as pip echoes it: a name, then the end, a version specifier, extras, a marker
// or `(from ...)`; `Collecting environment information...` (vLLM's collect_env) is not one.
bool requirement(sv s) {
  size_t i = 0;
  while (i < s.size() && name_char(s[i])) ++i;
  if (i == 0) return false;
  sv rest = s.substr(i);
  if (rest.empty()) return true;
  for (sv next : {"==", ">=", "<=", "~=", "!=", ">", "<", "[", ";", " (from ", " ;"})
    if (rest.starts_with(next)) return true;
  return false;
}

// `━━━━ 671.1/671.1 kB 4.6 MB/s  0:00:00` (rich's bar) or `|████| 671 kB 4.6 MB/s` (older pip).
bool progress(sv t) {
  if (!(t.starts_with("\xe2\x94\x81") || t.starts_with("|\xe2\x96\x88") || t.starts_with("\xe2\x95\xb8")))
    return false;
  return t.find("B/s") != npos || t.find(" kB") != npos || t.find(" MB") != npos;
}

}  // namespace

std::optional<PipLine> parse_pip_line(sv body) {
  sv t = trim(body);
  PipLine p;
  if (t.starts_with("Looking in indexes: ") || t.starts_with("Looking in links: ")) {
    p.shape = PipLine::Shape::index;
    return p;
  }
  if (t.starts_with("Collecting ") && requirement(t.substr(11))) {
    p.shape = PipLine::Shape::collecting;
    sv name, version;
    if (pinned(t.substr(11), name, version)) {
      p.name = name;
      p.version = version;
    }
    return p;
  }
  if ((t.starts_with("Downloading ") || t.starts_with("Using cached ")) &&
      (t.find(".whl") != npos || t.find(".tar.gz") != npos)) {
    p.shape = PipLine::Shape::downloading;
    return p;
  }
  if (progress(t)) {
    p.shape = PipLine::Shape::progress;
    return p;
  }
  if (t.starts_with("Requirement already satisfied: ")) {
    p.shape = PipLine::Shape::satisfied;
    // `... in /path (2.8.0)`: the installed version is the one in parentheses
    if (t.back() == ')') {
      size_t open = t.rfind(" (");
      if (open != npos && open + 2 < t.size() - 1 && is_digit(t[open + 2])) {
        sv rest = t.substr(31);
        size_t i = 0;
        while (i < rest.size() && name_char(rest[i])) ++i;
        p.name = rest.substr(0, i);
        p.version = t.substr(open + 2, t.size() - open - 3);
        if (p.name.empty() || p.version.find(' ') != npos) p.name = p.version = {};
      }
    }
    return p;
  }
  if (t.starts_with("Successfully installed ")) {
    p.shape = PipLine::Shape::installed;
    p.installed = trim(t.substr(23));
    return p;
  }
  return std::nullopt;
}

bool split_installed_item(sv item, sv& name, sv& version) {
  for (size_t dash = item.rfind('-'); dash != npos && dash > 0; dash = item.rfind('-', dash - 1)) {
    if (dash + 1 < item.size() && is_digit(item[dash + 1])) {
      name = item.substr(0, dash);
      version = item.substr(dash + 1);
      return true;
    }
    if (dash == 0) break;
  }
  return false;
}

}  // namespace triage::pipconsole
