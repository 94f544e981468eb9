#pragma once
// Splits text of no single kind (a paste holding shell prompts, job output, a dmesg section
// and an npu-smi table) into segments. A segment starts at a shell prompt line, or where the
// shape of the lines changes kind for a run of lines; its kind then decides its parser.
// Nothing is allocated per line: one table sized by the line count, one entry per segment.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/source_kind.h"

namespace triage {

// The command of a pasted shell prompt line: `root@host:~$ dmesg`, `[root@node ~]# npu-smi
// info`, `(base) user@host:/x$ ...`, `# dmesg`, `$ npu-smi info -t health`; also a bare
// command of a tool whose output has a kind (`/usr/local/bin/npu-smi info -t health`).
std::optional<std::string_view> prompt_command(std::string_view line);

struct SegmentSpan {
  uint64_t first_line = 0, last_line = 0;     // 1-based, inclusive
  uint64_t first_offset = 0, end_offset = 0;  // bytes [first, end) of the text
  bool prompt = false;                        // the first line is a prompt line
  std::string_view command;                   // the prompt's command (a view into the text)
  SourceKind shapes = SourceKind::unknown;    // the kind its line shapes suggest
  uint32_t shaped = 0;                        // lines with a shape
  // The lines a parser reads: all of them but the prompt line.
  uint64_t body_line() const { return first_line + (prompt ? 1 : 0); }
};

// Segments of `text`; whole lines (a last line without newline counts). `whole` = false:
// the last, cut line of a sniffed head is ignored.
std::vector<SegmentSpan> split_segments(std::string_view text, bool whole = true);

struct SegmentKind {
  SourceKind kind = SourceKind::unknown;
  std::string reason;
};
// A segment's kind: its prompt's command's, else the sniffer's over its body, else the kind
// its line shapes suggest. `body` is the segment without its prompt line.
SegmentKind segment_kind(const SegmentSpan& span, std::string_view body);

// Whether a sniffed head is a mixed paste (given what the sniffer made of the whole head),
// and why; nullopt when the sniffer's kind stands.
std::optional<std::string> mixed_text_reason(std::string_view head, bool whole, SourceKind sniffed);

}  // namespace triage
