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

}  // namespace triage
