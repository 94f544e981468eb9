#include "reports/svg_labels.h"

#include <algorithm>

namespace triage::html {
namespace {

// Advance widths in em, each at or above DejaVu Sans Book's (the widest of the usual
// sans-serif faces): narrow letters and punctuation, wide ones, capitals, the rest.
double char_em(unsigned char c) {
  switch (c) {
    case ' ': case 'i': case 'j': case 'l': case '.': case ',': case ':': case ';': case '\'':
    case '|': case '!': case 'I': case 'f': case 't': case 'r': case '(': case ')': case '[':
    case ']': case '-':
      return 0.45;
    case 'm': case 'w': case 'M': case 'W': case '@': case '%':
      return 1.05;
    default:
      break;
  }
  if (c >= 'A' && c <= 'Z') return 0.82;
  return 0.68;
}

}  // namespace

double text_width(std::string_view utf8, const TextStyle& style) {
  double em = 0;
  for (size_t i = 0; i < utf8.size(); ++i) {
    auto c = static_cast<unsigned char>(utf8[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte: counted with its lead byte
    if (c >= 0x80) em += 1.1;           // any other character: wider than an em
    else em += style.mono ? 0.62 : char_em(c);
  }
  return em * style.font_px * (style.bold ? 1.12 : 1.0);
}

Box text_box(std::string_view utf8, const TextStyle& style, double x, double baseline, Anchor anchor) {
  double w = text_width(utf8, style);
  double x0 = anchor == Anchor::start ? x : anchor == Anchor::middle ? x - w / 2 : x - w;
  // Ascent and descent of the usual faces are below 1.07 and 0.3 em.
  return Box{x0, baseline - 1.1 * style.font_px, x0 + w, baseline + 0.32 * style.font_px};
}

std::optional<double> LabelPlacer::place(std::string_view utf8, const TextStyle& style, double x, double y,
                                         Anchor anchor, double step, int rows) {
  for (int row = 0; row < rows; ++row) {
    double baseline = y + step * row;
    Box b = text_box(utf8, style, x, baseline, anchor);
    bool free = true;
    for (const Box& p : placed_)
      if (p.overlaps(b)) {
        free = false;
        break;
      }
    if (free) {
      placed_.push_back(b);
      return baseline;
    }
  }
  return std::nullopt;
}

double LabelPlacer::lowest() const {
  double y = 0;
  for (const Box& b : placed_) y = std::max(y, b.y1);
  return y;
}

}  // namespace triage::html
