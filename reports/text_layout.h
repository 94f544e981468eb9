#pragma once
// Layout for the text report: word wrapping by display width with hanging indents, commands
// kept whole, and ANSI styling that the width measurement ignores.
#include <string>
#include <string_view>

#include "model/severity.h"

namespace triage::text {

// ANSI SGR styling; every call returns the text unchanged when colour is off.
class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  bool color() const { return color_; }
  std::string bold(std::string_view s) const { return wrap_sgr("1", s); }
  std::string dim(std::string_view s) const { return wrap_sgr("2", s); }
  std::string severity(Severity sev, std::string_view s) const;
  std::string command(std::string_view s) const { return wrap_sgr("36", s); }

 private:
  std::string wrap_sgr(std::string_view code, std::string_view s) const;
  bool color_;
};

// Display columns of text that may hold ANSI SGR sequences (ESC [ ... m count 0).
size_t visible_width(std::string_view s);

enum class WrapMode {
  prose,    // break at spaces and between CJK characters
  log_line  // also after a comma and after an escaped tab (\x09): TSV and JSON lines
};

// Appends `text` wrapped at `width` columns: the first line starts with `first` (which may be
// styled), the following ones with `indent` (hanging indent). Breaks at spaces and between
// wide (CJK) characters, never before closing CJK punctuation. A path, URL, option or
// `backticked` span is one unbreakable token (a backticked span that is no command and does
// not fit on a line of its own is wrapped like prose): a token that does not fit starts a new
// line and overflows rather than being cut. Every line ends with '\n'; an empty text writes
// `first`. Bundle text is made printable first (printable_utf8).
void append_wrapped(std::string& out, std::string_view text, std::string_view first,
                    std::string_view indent, size_t width, WrapMode mode = WrapMode::prose);

// Appends `prefix` + command on one line, never wrapped (a command must stay copyable). A
// trailing shell comment ("cmd   # why") goes on the lines below, wrapped, as "# why".
void append_command(std::string& out, std::string_view command, std::string_view prefix,
                    const Style& style, size_t width);

// True when the text reads as a shell command: its first word (after NAME=value assignments)
// is a command that support engineers run on an Ascend host (lsmod, modinfo, grep, npu-smi...).
bool looks_like_command(std::string_view text);

// "Check X: grep -n ..." -> {"Check X:", "grep -n ..."} when the part after the first ": " is
// a command; {text, ""} otherwise, and {"", text} for a command alone.
struct ProseAndCommand {
  std::string_view prose, command;
};
ProseAndCommand split_command(std::string_view text);

// Spaces to pad `s` to `columns` display columns (at least one when it is already wider).
std::string pad_to(std::string_view s, size_t columns);

}  // namespace triage::text
