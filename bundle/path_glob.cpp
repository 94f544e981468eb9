#include "bundle/path_glob.h"

#include <array>

namespace triage {
namespace {

constexpr size_t kMaxParts = 64;
using Parts = std::array<std::string_view, kMaxParts>;

// Splits on '/'; false when there are too many components.
bool split(std::string_view s, Parts& out, size_t& n) {
  n = 0;
  while (true) {
    if (n == kMaxParts) return false;
    size_t slash = s.find('/');
    out[n++] = s.substr(0, slash);
    if (slash == std::string_view::npos) return true;
    s = s.substr(slash + 1);
  }
}

// One component: '*' any run of characters, '?' one character.
bool component_match(std::string_view p, std::string_view s) {
  size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
      ++pi;
      ++si;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

bool match(const Parts& p, size_t pi, size_t pn, const Parts& s, size_t si, size_t sn) {
  if (pi == pn) return si == sn;
  if (p[pi] == "**") {
    for (size_t k = si; k <= sn; ++k)
      if (match(p, pi + 1, pn, s, k, sn)) return true;
    return false;
  }
  return si < sn && component_match(p[pi], s[si]) && match(p, pi + 1, pn, s, si + 1, sn);
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  Parts p, s;
  size_t pn, sn;
  if (!split(pattern, p, pn) || !split(path, s, sn)) return false;
  return match(p, 0, pn, s, 0, sn);
}

}  // namespace triage
