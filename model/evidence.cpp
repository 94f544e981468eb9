#include "model/evidence.h"

namespace triage {

std::string make_excerpt(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 8);
  static constexpr char kHex[] = "0123456789abcdef";
  size_t i = 0;
  for (; i < text.size() && out.size() < max_bytes; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') break;
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);  // UTF-8 kept as is; renderers escape for their context
    }
  }
  if (i < text.size() && text[i] != '\n' && text[i] != '\r') out += "...";
  return out;
}

EvidenceRef make_evidence(std::string_view entry, uint64_t line, uint64_t offset,
                          std::string_view text) {
  return EvidenceRef{std::string(entry), line, offset, make_excerpt(text)};
}

}  // namespace triage
