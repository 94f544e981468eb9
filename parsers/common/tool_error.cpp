#include "parsers/common/tool_error.h"
#include "model/strings.h"

#include <re2/re2.h>

#include <array>

#include "model/evidence.h"

namespace triage {
namespace {

constexpr size_t kMaxBytes = 4096;
constexpr int kMaxLines = 8;

struct Pattern {
  std::string_view needle;  // lower case, matched anywhere in the lower-cased line
  std::string_view reason;
};

constexpr std::array kErrorPatterns = {
    Pattern{"command not found", "tool_missing"},
    Pattern{"no module named", "tool_missing"},
    Pattern{"permission denied", "permission"},
    Pattern{"operation not permitted", "permission"},
    Pattern{"access denied", "permission"},
    Pattern{"must be root", "permission"},
    Pattern{"must be run as root", "permission"},
    Pattern{"must be superuser", "permission"},
    Pattern{"requires root", "permission"},
    Pattern{"only root can", "permission"},
    Pattern{"no such file or directory", "source_missing"},
    Pattern{"no journal files were found", "source_missing"},
    Pattern{"cannot execute binary file", "tool_failed"},
    Pattern{"exec format error", "tool_failed"},
    Pattern{"invalid option", "tool_failed"},
    Pattern{"unrecognized option", "tool_failed"},
    Pattern{"unknown option", "tool_failed"},
};

// Lines that accompany an error and carry no data of their own.
constexpr std::array<std::string_view, 3> kHintPatterns = {
    "for more information", "usage:", "try '",
};


bool contains_lower(std::string_view line, std::string_view needle) {
  if (needle.size() > line.size()) return false;
  for (size_t i = 0; i + needle.size() <= line.size(); ++i) {
    size_t k = 0;
    for (; k < needle.size(); ++k) {
      char c = line[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != needle[k]) break;
    }
    if (k == needle.size()) return true;
  }
  return false;
}

// "not found" as a shell prints it for a missing tool: "sh: 1: npu-smi: not found",
// "npu-smi: not found", or just "not found". Other "... not found" lines name a missing
// thing the tool was asked about ("Module drv_x not found").
std::string_view not_found_reason(std::string_view line) {
  static const RE2 shell(R"(^(?:[^ :]+: )*(?:\d+: )?[^ :]+: not found\.?$|^not found\.?$)");
  static const RE2 thing(R"((?i)\bnot found\.?$)");
  if (RE2::FullMatch(line, shell)) return "tool_missing";
  if (RE2::PartialMatch(line, thing)) return "source_missing";
  return {};
}

std::string_view error_reason(std::string_view line) {
  for (const auto& p : kErrorPatterns)
    if (contains_lower(line, p.needle)) return p.reason;
  return not_found_reason(line);
}

bool is_hint(std::string_view line) {
  for (auto h : kHintPatterns)
    if (contains_lower(line, h)) return true;
  return false;
}

}  // namespace

std::optional<ToolError> detect_tool_error(std::string_view text) {
  if (text.size() > kMaxBytes) return std::nullopt;
  std::optional<ToolError> found;
  int lines = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = trim(text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos));
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.empty()) continue;
    if (++lines > kMaxLines) return std::nullopt;
    if (line.find('\0') != std::string_view::npos) return std::nullopt;
    std::string_view reason = error_reason(line);
    if (!reason.empty()) {
      if (!found) found = ToolError{reason, make_excerpt(line, 160)};
    } else if (!is_hint(line)) {
      return std::nullopt;
    }
  }
  return found;
}

bool note_tool_error(std::string_view text, ParseStats& stats) {
  auto e = detect_tool_error(text);
  if (!e) return false;
  stats.not_collected = e->describe();
  return true;
}

}  // namespace triage
