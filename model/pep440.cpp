// PEP 440 parsing and ordering, following the specification's normalisation rules:
// case-insensitive, optional leading "v", separators '.', '-', '_' around pre/post/dev,
// alpha/beta/c/pre/preview spellings, "rev"/"r" for post, implicit post ("1.0-1") and
// implicit zero numbers ("1.0rc" = "1.0rc0").
#include "model/pep440.h"

#include <algorithm>
#include <cctype>

namespace triage {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
bool digit(char c) { return c >= '0' && c <= '9'; }

struct Cursor {
  std::string s;
  size_t i = 0;
  bool done() const { return i >= s.size(); }
  bool eat(std::string_view w) {
    if (s.compare(i, w.size(), w) == 0) {
      i += w.size();
      return true;
    }
    return false;
  }
  bool sep() {
    if (!done() && (s[i] == '.' || s[i] == '-' || s[i] == '_')) {
      ++i;
      return true;
    }
    return false;
  }
  std::optional<int64_t> number() {
    if (done() || !digit(s[i])) return std::nullopt;
    int64_t v = 0;
    size_t start = i;
    while (!done() && digit(s[i])) {
      if (i - start >= 18) return std::nullopt;  // would overflow
      v = v * 10 + (s[i++] - '0');
    }
    return v;
  }
};

// Tries each spelling; on a match advances and returns the canonical kind.
std::optional<std::string> word(Cursor& c, std::initializer_list<std::pair<std::string_view,
                                                                              std::string_view>> w) {
  for (const auto& [spelling, canon] : w)
    if (c.eat(spelling)) return std::string(canon);
  return std::nullopt;
}

int cmp(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

}  // namespace

std::string pep503_normalize(std::string_view name) {
  std::string out;
  bool run = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      run = true;
      continue;
    }
    if (run && !out.empty()) out.push_back('-');
    run = false;
    out.push_back(lower(c));
  }
  return out;
}

std::optional<Pep440Version> parse_pep440(std::string_view text) {
  Cursor c;
  for (char ch : text) c.s.push_back(lower(ch));
  while (!c.s.empty() && std::isspace(static_cast<unsigned char>(c.s.back()))) c.s.pop_back();
  while (c.i < c.s.size() && std::isspace(static_cast<unsigned char>(c.s[c.i]))) ++c.i;
  Pep440Version v;
  c.eat("v");
  auto first = c.number();
  if (!first) return std::nullopt;
  if (c.eat("!")) {
    v.epoch = *first;
    first = c.number();
    if (!first) return std::nullopt;
  }
  v.release.push_back(*first);
  while (c.i + 1 < c.s.size() && c.s[c.i] == '.' && digit(c.s[c.i + 1])) {
    ++c.i;
    v.release.push_back(*c.number());
  }
  // pre-release
  size_t mark = c.i;
  c.sep();
  if (auto k = word(c, {{"alpha", "a"}, {"beta", "b"}, {"preview", "rc"}, {"pre", "rc"},
                        {"rc", "rc"}, {"a", "a"}, {"b", "b"}, {"c", "rc"}})) {
    v.pre_kind = *k;
    c.sep();
    v.pre = c.number().value_or(0);
  } else {
    c.i = mark;
  }
  // post-release: ".post1", "-r1", or the implicit "-1"
  mark = c.i;
  if (c.eat("-") && !c.done() && digit(c.s[c.i])) {
    v.post = c.number();
  } else {
    c.i = mark;
    c.sep();
    if (word(c, {{"post", "post"}, {"rev", "post"}, {"r", "post"}})) {
      c.sep();
      v.post = c.number().value_or(0);
    } else {
      c.i = mark;
    }
  }
  // dev-release
  mark = c.i;
  c.sep();
  if (c.eat("dev")) {
    c.sep();
    v.dev = c.number().value_or(0);
  } else {
    c.i = mark;
  }
  if (c.eat("+")) {
    std::string seg;
    for (; !c.done(); ++c.i) {
      char ch = c.s[c.i];
      if (ch == '.' || ch == '-' || ch == '_') {
        if (seg.empty()) return std::nullopt;
        v.local.push_back(seg);
        seg.clear();
      } else if (std::isalnum(static_cast<unsigned char>(ch))) {
        seg.push_back(ch);
      } else {
        return std::nullopt;
      }
    }
    if (seg.empty()) return std::nullopt;
    v.local.push_back(seg);
  }
  if (!c.done()) return std::nullopt;
  return v;
}

std::string Pep440Version::public_str() const {
  std::string out;
  if (epoch) out += std::to_string(epoch) + "!";
  for (size_t i = 0; i < release.size(); ++i) out += (i ? "." : "") + std::to_string(release[i]);
  if (!pre_kind.empty()) out += pre_kind + std::to_string(pre);
  if (post) out += ".post" + std::to_string(*post);
  if (dev) out += ".dev" + std::to_string(*dev);
  return out;
}

std::string Pep440Version::str() const {
  std::string out = public_str();
  for (size_t i = 0; i < local.size(); ++i) out += (i ? "." : "+") + local[i];
  return out;
}

int compare_pep440(const Pep440Version& a, const Pep440Version& b) {
  if (int r = cmp(a.epoch, b.epoch)) return r;
  size_t n = std::max(a.release.size(), b.release.size());
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < a.release.size() ? a.release[i] : 0;
    int64_t y = i < b.release.size() ? b.release[i] : 0;
    if (int r = cmp(x, y)) return r;
  }
  // Pre-release rank: a bare dev release sorts before every pre-release; no pre = final.
  auto pre_rank = [](const Pep440Version& v) -> std::pair<int, int64_t> {
    if (v.pre_kind.empty()) return {v.dev && !v.post ? -1 : 3, 0};
    return {v.pre_kind == "a" ? 0 : v.pre_kind == "b" ? 1 : 2, v.pre};
  };
  auto pa = pre_rank(a), pb = pre_rank(b);
  if (int r = cmp(pa.first, pb.first)) return r;
  if (int r = cmp(pa.second, pb.second)) return r;
  if (int r = cmp(a.post ? *a.post : -1, b.post ? *b.post : -1)) return r;
  int64_t big = INT64_MAX;
  if (int r = cmp(a.dev ? *a.dev : big, b.dev ? *b.dev : big)) return r;
  // Local: none sorts first; segments compare numeric > alphanumeric, numbers as numbers.
  for (size_t i = 0; i < std::max(a.local.size(), b.local.size()); ++i) {
    if (i >= a.local.size()) return -1;
    if (i >= b.local.size()) return 1;
    const std::string &x = a.local[i], &y = b.local[i];
    bool nx = std::all_of(x.begin(), x.end(), digit), ny = std::all_of(y.begin(), y.end(), digit);
    if (nx != ny) return nx ? 1 : -1;
    if (nx) {
      std::string_view sx = x, sy = y;
      while (sx.size() > 1 && sx.front() == '0') sx.remove_prefix(1);
      while (sy.size() > 1 && sy.front() == '0') sy.remove_prefix(1);
      if (sx.size() != sy.size()) return sx.size() < sy.size() ? -1 : 1;
      if (int r = sx.compare(sy)) return r < 0 ? -1 : 1;
    } else if (int r = x.compare(y)) {
      return r < 0 ? -1 : 1;
    }
  }
  return 0;
}

bool same_public_version(const Pep440Version& a, const Pep440Version& b) {
  Pep440Version x = a, y = b;
  x.local.clear();
  y.local.clear();
  return compare_pep440(x, y) == 0;
}

}  // namespace triage
