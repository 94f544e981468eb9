#include "parsers/common/log_text.h"

#include "model/strings.h"

namespace triage {

namespace {
inline bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline int hex_val(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

size_t find_word(std::string_view text, std::string_view key) {
  size_t pos = 0;
  while ((pos = text.find(key, pos)) != std::string_view::npos) {
    if (pos == 0 || !word_char(text[pos - 1]) || !word_char(key[0])) return pos;
    ++pos;
  }
  return std::string_view::npos;
}

std::optional<int64_t> find_int(std::string_view text, std::string_view key) {
  size_t pos = find_word(text, key);
  if (pos == std::string_view::npos) return std::nullopt;
  size_t i = pos + key.size();
  while (i < text.size() && text[i] == ' ') ++i;
  bool neg = i < text.size() && text[i] == '-';
  if (neg) ++i;
  int64_t v = 0;
  size_t start = i;
  if (i + 1 < text.size() && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
    i += 2;
    start = i;
    int h;
    while (i < text.size() && (h = hex_val(text[i])) >= 0 && i - start < 15) v = v * 16 + h, ++i;
  } else {
    while (i < text.size() && is_digit(text[i]) && i - start < 18) v = v * 10 + (text[i++] - '0');
  }
  if (i == start) return std::nullopt;
  return neg ? -v : v;
}

std::string_view find_token(std::string_view text, std::string_view key) {
  size_t pos = find_word(text, key);
  if (pos == std::string_view::npos) return {};
  size_t i = pos + key.size();
  size_t end = text.find_first_of(", ;)]", i);
  if (end == std::string_view::npos) end = text.size();
  std::string_view tok = text.substr(i, end - i);
  while (!tok.empty() && tok.back() == '.') tok.remove_suffix(1);
  return tok;
}

std::string_view find_bracketed(std::string_view text, std::string_view key) {
  size_t pos = find_word(text, key);
  if (pos == std::string_view::npos) return {};
  size_t i = pos + key.size();
  size_t end = text.find(']', i);
  if (end == std::string_view::npos) return {};
  return text.substr(i, end - i);
}

static std::optional<int64_t> digits_value(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<int64_t> device_id_from_path(std::string_view path) {
  // Walk the directory components (not the file name) from the last to the first.
  size_t end = path.rfind('/');
  if (end == std::string_view::npos) return std::nullopt;
  while (end != std::string_view::npos && end > 0) {
    size_t begin = path.rfind('/', end - 1);
    std::string_view comp =
        path.substr(begin == std::string_view::npos ? 0 : begin + 1,
                    end - (begin == std::string_view::npos ? 0 : begin + 1));
    for (std::string_view prefix : {"device-os-", "dev-os-", "device-"}) {
      if (comp.substr(0, prefix.size()) == prefix) {
        if (auto v = digits_value(comp.substr(prefix.size()))) return v;
      }
    }
    if (begin == std::string_view::npos) break;
    end = begin;
  }
  return std::nullopt;
}

std::optional<int64_t> pid_from_log_name(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view prefix : {"plog-", "device-"}) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = name.substr(prefix.size());
    size_t us = rest.find('_');
    if (us == std::string_view::npos) continue;
    if (auto v = digits_value(rest.substr(0, us))) return v;
  }
  return std::nullopt;
}

uint64_t fnv1a(std::string_view s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

uint64_t message_template_key(std::string_view msg) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < msg.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(msg[i]);
    if (c >= '0' && c <= '9') {
      if (c == '0' && i + 1 < msg.size() && (msg[i + 1] == 'x' || msg[i + 1] == 'X')) {
        i += 2;
        while (i < msg.size() && is_hex(msg[i])) ++i;
        --i;
      }
      continue;
    }
    h = (h ^ c) * 1099511628211ULL;
  }
  return h;
}

uint64_t kernel_message_hash(std::string_view msg) {
  uint64_t h = 1469598103934665603ULL;
  bool space = false;
  for (unsigned char c : msg) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space) {
      h ^= ' ';
      h *= 1099511628211ULL;
      space = false;
    }
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string_view tool_error_reason(std::string_view line) {
  static constexpr std::string_view kTexts[] = {
      "Permission denied", "Operation not permitted", "command not found",
      "No such file or directory", "read kernel buffer failed", "No journal files were found",
      "No journal files were opened", "Failed to open", "not found in PATH",
  };
  if (line.size() > 400) return {};
  for (auto t : kTexts)
    if (line.find(t) != std::string_view::npos) return t;
  return {};
}

}  // namespace triage
