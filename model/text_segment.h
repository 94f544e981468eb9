#pragma once
// One segment of a mixed paste: a run of lines of one kind (a prompt and the output of its
// command, a dmesg section, a table, job output), parsed on its own as that kind.
#include <cstdint>
#include <string>

#include "model/source_kind.h"

namespace triage {

struct TextSegment {
  uint64_t first_line = 0;  // 1-based, as in the file (the prompt line when there is one)
  uint64_t last_line = 0;
  SourceKind kind = SourceKind::unknown;
  std::string reason;       // why this kind: the command, or what the sniffer saw
  std::string command;      // the command of the prompt line that starts it ("" = none)
  uint64_t parsed = 0;      // lines recognised by shape (the prompt line counts)
  uint64_t unrecognised = 0;
  uint64_t malformed = 0;
  uint64_t lines_recognised = 0;  // by shape (ParseStats::lines_recognised), the prompt included
};

}  // namespace triage
