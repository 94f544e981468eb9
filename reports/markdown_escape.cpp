#include "reports/markdown_escape.h"

#include <algorithm>
#include <cctype>

#include "reports/display_width.h"

namespace triage::md {
namespace {

size_t longest_backtick_run(std::string_view s) {
  size_t best = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

bool is_inline_special(char c) {
  switch (c) {
    case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>':
    case '|': case '~': case '&': case '!':
      return true;
    default:
      return false;
  }
}

std::string escape_text(std::string_view raw, bool at_start) {
  std::string s = printable_utf8(raw);
  std::string out;
  out.reserve(s.size() + 8);
  size_t i = 0;
  // Block openers at the start: a heading, a list item, a setext underline, a quote.
  while (at_start && i < s.size() && s[i] == ' ') out += s[i++];
  size_t digits = i;
  while (at_start && digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (at_start && i < s.size() && (s[i] == '#' || s[i] == '-' || s[i] == '+' || s[i] == '=')) {
    out += '\\';
  } else if (digits > i && digits < s.size() && (s[digits] == '.' || s[digits] == ')')) {
    out.append(s, i, digits - i);
    out += '\\';
    i = digits;
  }
  for (; i < s.size(); ++i) {
    // Bundle text must not become a link: GitHub, GitLab and Jira turn a bare URL, a
    // www. name and an e-mail address into one. Each is broken visibly ("https[:]//",
    // "www[.]", "user[@]host"), as security advisories write them.
    auto alnum = [&](size_t k) { return k < s.size() && std::isalnum(static_cast<unsigned char>(s[k])); };
    if (s.compare(i, 3, "://") == 0 && i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1]))) {
      out += "\\[:\\]//";
      i += 2;
      continue;
    }
    if ((i == 0 || !alnum(i - 1)) && (s.compare(i, 4, "www.") == 0 || s.compare(i, 4, "WWW.") == 0)) {
      out.append(s, i, 3);
      out += "\\[.\\]";
      i += 3;
      continue;
    }
    if (s[i] == '@' && i > 0 && alnum(i - 1) && alnum(i + 1)) {
      out += "\\[@\\]";
      continue;
    }
    if (is_inline_special(s[i])) out += '\\';
    out += s[i];
  }
  return out;
}

}  // namespace

std::string text(std::string_view raw) { return escape_text(raw, true); }

std::string prose(std::string_view raw, bool in_table) {
  std::string out;
  size_t done = 0;  // raw[0, done) is written
  auto run_at = [&](size_t i) {
    size_t n = 0;
    while (i + n < raw.size() && raw[i + n] == '`') ++n;
    return n;
  };
  size_t i = raw.find('`');
  while (i != std::string_view::npos) {
    size_t n = run_at(i);
    size_t close = raw.find('`', i + n);
    while (close != std::string_view::npos && run_at(close) != n) close = raw.find('`', close + run_at(close));
    if (close == std::string_view::npos) {  // unpaired: literal, escaped by text()
      i = raw.find('`', i + n);
      continue;
    }
    out += escape_text(raw.substr(done, i - done), done == 0);
    out += code(raw.substr(i + n, close - i - n), in_table);
    done = close + n;
    i = raw.find('`', done);
  }
  out += escape_text(raw.substr(done), done == 0);
  return out;
}

std::string code(std::string_view raw, bool in_table) {
  std::string s = printable_utf8(raw);
  if (in_table) {
    std::string piped;
    for (char c : s) {
      if (c == '|') piped += '\\';
      piped += c;
    }
    s = std::move(piped);
  }
  if (s.empty()) return "` `";  // an empty span would read as two backticks
  std::string fence(longest_backtick_run(s) + 1, '`');
  bool pad = s.front() == '`' || s.back() == '`' || s.front() == ' ' || s.back() == ' ';
  std::string out = fence;
  if (pad) out += ' ';
  out += s;
  if (pad) out += ' ';
  out += fence;
  return out;
}

std::string fenced(std::string_view raw, std::string_view prefix, std::string_view info) {
  std::string out;
  std::string fence(std::max<size_t>(3, longest_backtick_run(raw) + 1), '`');
  out.append(prefix).append(fence).append(info) += '\n';
  size_t start = 0;
  while (start <= raw.size()) {
    size_t nl = raw.find('\n', start);
    std::string_view line = raw.substr(start, nl == std::string_view::npos ? raw.size() - start : nl - start);
    out.append(prefix).append(printable_utf8(line)) += '\n';
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  out.append(prefix).append(fence) += '\n';
  return out;
}

}  // namespace triage::md
