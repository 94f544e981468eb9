// The segment splitter of mixed pastes (ingest/segment.cpp) on its own, fast: split, the
// kind of every segment, and the sniffer's and the mixed-paste decision on the text taken as a sniffed head
// (the first byte's low bit says whether the last line is whole).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/segment.h"
#include "ingest/classify.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace triage;
  if (size == 0) return 0;
  bool whole = data[0] & 1;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  for (const SegmentSpan& s : split_segments(text, whole)) {
    if (s.first_offset > s.end_offset || s.end_offset > text.size() || s.first_line > s.last_line)
      __builtin_trap();  // a span outside the text: the parsers would read past it
    std::string_view seg = text.substr(s.first_offset, s.end_offset - s.first_offset);
    std::string_view body = seg;
    if (s.prompt) {
      size_t nl = seg.find('\n');
      body = nl == std::string_view::npos ? std::string_view{} : seg.substr(nl + 1);
    }
    (void)segment_kind(s, body);
    (void)prompt_command(seg.substr(0, seg.find('\n')));
  }
  (void)mixed_text_reason(text, whole, sniff_content(text, whole).kind);
  return 0;
}
