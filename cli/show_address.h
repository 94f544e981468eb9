#pragma once
// The address `show` reads: what the evidence lines of the reports print, pasted back.
//   BUNDLE/PATH:LINE    an entry of a bundle directory (or any file on disk)
//   BUNDLE!PATH:LINE    an entry of an archive (or of a directory)
//   FILE:LINE           a loose log file
// A trailing " (copy N)" (a member stored again, as the report names it) picks the Nth copy.
#include <cstdint>
#include <string>
#include <string_view>

namespace triage::cli {

struct ShowAddress {
  std::string file;    // what to open on disk: a file, or the archive/directory `member` is in
  std::string member;  // the entry inside `file`; "" when `file` is the entry itself
  uint64_t line = 0;   // 1-based
  uint64_t copy = 1;   // which stored copy of `member`
};

// Splits and resolves `text` against the file system; "" or why it names nothing (for exit 2).
std::string parse_show_address(std::string_view text, ShowAddress& out);

}  // namespace triage::cli
