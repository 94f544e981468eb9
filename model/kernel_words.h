#pragma once
// Words that make an Ascend printk an error report even without the `[ERROR]` tag (drv_err is
// printed at KERN_NOTICE on hosts; `Device is abnormal` carries no tag). One list for the
// kernel-driver-error analysis and for the kernel reader, which must not keep such a line in
// the compact info form.
#include <array>
#include <string_view>

namespace triage {

inline constexpr std::array<std::string_view, 9> kAscendErrorWords = {
    "fail", "abnormal", "error", "timeout", "time out", "disconnect", "connect down",
    "unsuccessful", "lost"};

// ASCII case-insensitive search for a lowercase word.
inline bool contains_lower_ascii(std::string_view text, std::string_view word) {
  for (size_t i = 0; i + word.size() <= text.size(); ++i) {
    size_t k = 0;
    for (; k < word.size(); ++k) {
      char c = text[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != word[k]) break;
    }
    if (k == word.size()) return true;
  }
  return false;
}

inline bool has_ascend_error_word(std::string_view text) {
  for (auto w : kAscendErrorWords)
    if (contains_lower_ascii(text, w)) return true;
  return false;
}

// A priority that makes no line a warning or worse (journal 5..7, syslog notice/info/debug;
// none given counts as info).
inline bool is_info_priority(std::string_view p) {
  if (p.empty()) return true;
  if (p.size() == 1) return p[0] >= '5' && p[0] <= '7';
  size_t dot = p.rfind('.');
  std::string_view level = dot == std::string_view::npos ? p : p.substr(dot + 1);
  return level == "notice" || level == "info" || level == "debug";
}

// An Ascend printk with no `[ERROR]` tag, no error word and an info priority. Past a bundle's
// first AnalyzeOptions::full_info_kernel_lines the reader keeps such a line only in compact
// form and finalize drops it unless another source has a copy: whatever reads kernel events
// must not let its output depend on such a line (the report is the same kept whole or compact).
inline bool is_plain_info_printk(bool error_tag, std::string_view priority, std::string_view message) {
  return !error_tag && is_info_priority(priority) && !has_ascend_error_word(message);
}

}  // namespace triage
