#include "reports/text_layout.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "reports/display_width.h"

namespace triage::text {
namespace {

// Commands the findings and the verdict name in their next checks: a next check starting with
// one of them is printed whole on its own line so that it can be copied. Presentation only.
constexpr std::string_view kCommandWords[] = {
    "ascend-collect.sh", "ascend-triage", "awk", "bash", "cat", "crictl", "cut", "depmod",
    "diff", "dkms", "dmesg", "docker", "dpkg", "egrep", "env", "file", "find", "findmnt",
    "gdb", "grep", "hccn_tool", "head", "insmod", "journalctl", "ldd", "ls", "lsmod",
    "lsof", "lspci", "md5sum", "modinfo", "modprobe", "mount", "npu-smi", "nsenter", "pip",
    "pip3", "ps", "py-spy", "python", "python3", "readlink", "realpath", "rpm", "sed",
    "sha256sum", "stat", "strace", "sudo", "systemctl", "tail", "tr"};

bool is_assignment(std::string_view word) {  // NAME=value before a command
  size_t eq = word.find('=');
  if (eq == 0 || eq == std::string_view::npos) return false;
  return std::all_of(word.begin(), word.begin() + static_cast<ptrdiff_t>(eq), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_wide_at(std::string_view s, size_t i, Utf8Step& step) {
  step = decode_utf8(s, i);
  return step.valid && codepoint_width(step.cp) == 2;
}

// CJK punctuation that must not start a line (it closes or ends something)...
bool is_closing_cjk(char32_t cp) {
  static constexpr char32_t kClosing[] = {0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B,
                                          0xFF1F, 0xFF01, 0xFF09, 0x300D, 0x300F, 0x3011,
                                          0x300B, 0x3009, 0x3015, 0xFF3D, 0xFF5D, 0x30FC};
  return std::find(std::begin(kClosing), std::end(kClosing), cp) != std::end(kClosing);
}
// ... and punctuation that must not end one.
bool is_opening_cjk(char32_t cp) {
  static constexpr char32_t kOpening[] = {0xFF08, 0x300C, 0x300E, 0x3010, 0x300A,
                                          0x3008, 0x3014, 0xFF3B, 0xFF5B};
  return std::find(std::begin(kOpening), std::end(kOpening), cp) != std::end(kOpening);
}

bool is_closing_ascii(char c) {
  return c == ',' || c == '.' || c == ';' || c == ':' || c == '!' || c == '?' || c == ')';
}

struct Token {
  std::string_view text;
  size_t spaces_before = 0;  // as written (kept inside a line, dropped at a break)
};

// A chunk (between spaces) that must not be split even when it holds wide characters.
bool is_atomic(std::string_view chunk) {
  return chunk.front() == '`' || chunk.front() == '-' ||
         chunk.find_first_of("/\\=") != std::string_view::npos;
}

// Splits a chunk with wide characters into break opportunities: each wide character, each
// run of narrow ones; closing punctuation glued to what precedes, opening to what follows.
void split_chunk(std::string_view chunk, size_t space_before, std::vector<Token>& out) {
  size_t start = out.size();
  bool glue_next = false;
  for (size_t i = 0; i < chunk.size();) {
    Utf8Step step;
    bool wide = is_wide_at(chunk, i, step);
    size_t end = i + step.len;
    if (!wide) {
      Utf8Step next;
      while (end < chunk.size() && !is_wide_at(chunk, end, next)) end += next.len;
    }
    std::string_view piece = chunk.substr(i, end - i);
    bool glue_prev = out.size() > start &&
                     ((wide && is_closing_cjk(step.cp)) || (!wide && is_closing_ascii(piece.front())));
    if ((glue_prev || glue_next) && out.size() > start) {
      Token& prev = out.back();  // pieces are contiguous: extend the previous view
      prev.text = std::string_view(prev.text.data(), prev.text.size() + piece.size());
    } else {
      out.push_back({piece, out.size() == start ? space_before : 0});
    }
    glue_next = wide && is_opening_cjk(step.cp);
    i = end;
  }
}

bool has_wide_char(std::string_view chunk) {
  for (size_t k = 0; k < chunk.size();) {
    Utf8Step step;
    if (is_wide_at(chunk, k, step)) return true;
    k += step.len;
  }
  return false;
}

void add_chunk(std::string_view chunk, size_t space_before, std::vector<Token>& out) {
  if (has_wide_char(chunk) && !is_atomic(chunk)) split_chunk(chunk, space_before, out);
  else out.push_back({chunk, space_before});
}

// A log line may also break after a comma or an escaped tab; the pieces join without a space.
void add_log_chunk(std::string_view chunk, size_t space_before, std::vector<Token>& out) {
  size_t start = 0;
  for (size_t i = 0; i < chunk.size(); ++i) {
    size_t cut = chunk[i] == ',' ? i + 1 : chunk.substr(i, 4) == "\\x09" ? i + 4 : 0;
    if (cut && cut < chunk.size()) {
      add_chunk(chunk.substr(start, cut - start), start == 0 ? space_before : 0, out);
      start = cut;
      i = cut - 1;
    }
  }
  add_chunk(chunk.substr(start), start == 0 ? space_before : 0, out);
}

std::vector<Token> tokenize(std::string_view text, WrapMode mode, size_t room) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    size_t space_before = 0;
    while (i < text.size() && text[i] == ' ') ++i, ++space_before;
    if (i >= text.size()) break;
    size_t end = text.find(' ', i);
    if (end == std::string_view::npos) end = text.size();
    if (text[i] == '`') {  // a code span runs to its closing backtick, spaces included...
      size_t close = text.find('`', i + 1);
      if (close != std::string_view::npos) {
        size_t span_end = text.find(' ', close);
        if (span_end == std::string_view::npos) span_end = text.size();
        std::string_view span = text.substr(i, span_end - i);
        // ... unless it is a quoted log line too wide for any line: then it wraps as prose.
        if (display_width(span) <= room || looks_like_command(text.substr(i + 1, close - i - 1)))
          end = span_end;
      }
    }
    std::string_view chunk = text.substr(i, end - i);
    if (mode == WrapMode::log_line) add_log_chunk(chunk, space_before, tokens);
    else add_chunk(chunk, space_before, tokens);
    i = end;
  }
  if (!tokens.empty()) tokens.front().spaces_before = 0;
  return tokens;
}

std::string_view drop_trailing_spaces(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string Style::wrap_sgr(std::string_view code, std::string_view s) const {
  if (!color_ || s.empty()) return std::string(s);
  std::string out = "\x1b[";
  out += code;
  out += 'm';
  out += s;
  out += "\x1b[0m";
  return out;
}

std::string Style::severity(Severity sev, std::string_view s) const {
  switch (sev) {
    case Severity::critical: return wrap_sgr("1;31", s);
    case Severity::error: return wrap_sgr("31", s);
    case Severity::warning: return wrap_sgr("33", s);
    case Severity::info: return wrap_sgr("36", s);
  }
  return std::string(s);
}

size_t visible_width(std::string_view s) {
  size_t width = 0, plain = 0;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      width += display_width(s.substr(plain, i - plain));
      size_t m = s.find('m', i + 2);
      i = plain = m == std::string_view::npos ? s.size() : m + 1;
    } else {
      ++i;
    }
  }
  return width + display_width(s.substr(plain));
}

void append_wrapped(std::string& out, std::string_view text, std::string_view first,
                    std::string_view indent, size_t width, WrapMode mode) {
  std::string safe = printable_utf8(text);
  size_t indent_width = visible_width(indent);
  std::vector<Token> tokens = tokenize(safe, mode, width > indent_width ? width - indent_width : 1);
  if (tokens.empty()) {
    out += drop_trailing_spaces(first);
    out += '\n';
    return;
  }
  std::string line(first);
  size_t col = visible_width(first);
  bool has_content = false;
  for (const Token& t : tokens) {
    size_t w = display_width(t.text);
    size_t sep = has_content ? t.spaces_before : 0;
    if (has_content && col + sep + w > width) {
      out += drop_trailing_spaces(line);
      out += '\n';
      line.assign(indent);
      col = visible_width(indent);
      sep = 0;
    }
    line.append(sep, ' ');
    line += t.text;
    col += sep + w;
    has_content = true;
  }
  out += line;
  out += '\n';
}

void append_command(std::string& out, std::string_view command, std::string_view prefix,
                    const Style& style, size_t width) {
  std::string_view comment;
  size_t hash = command.find(" # ");
  if (hash != std::string_view::npos) {
    comment = command.substr(hash + 1);
    command = drop_trailing_spaces(command.substr(0, hash));
  }
  out += prefix;
  out += style.command(printable_utf8(command));
  out += '\n';
  if (!comment.empty()) {
    std::string under(visible_width(prefix), ' ');
    append_wrapped(out, comment, under, under + "  ", width);
  }
}

bool looks_like_command(std::string_view text) {
  if (text.substr(0, 4) == "for " && text.find("; do ") != std::string_view::npos) return true;  // a shell loop
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t end = text.find(' ', i);
    std::string_view word = text.substr(i, end == std::string_view::npos ? text.size() - i : end - i);
    if (word.empty()) return false;
    if (is_assignment(word) && end != std::string_view::npos) {
      i = end;
      continue;
    }
    return std::find(std::begin(kCommandWords), std::end(kCommandWords), word) != std::end(kCommandWords);
  }
  return false;
}

ProseAndCommand split_command(std::string_view text) {
  if (looks_like_command(text)) return {{}, text};
  // "Check X: grep -n ..." holds a command after the colon unless that part reads as a
  // sentence going on ("grep -n x in the script, and ...").
  size_t colon = text.find(": ");
  if (colon != std::string_view::npos && looks_like_command(text.substr(colon + 2)) &&
      text.find(", ", colon + 2) == std::string_view::npos)
    return {text.substr(0, colon + 1), text.substr(colon + 2)};
  return {text, {}};
}

std::string pad_to(std::string_view s, size_t columns) {
  size_t w = visible_width(s);
  return std::string(w < columns ? columns - w : 1, ' ');
}

}  // namespace triage::text
