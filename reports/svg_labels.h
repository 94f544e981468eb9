#pragma once
// Text labels of the HTML timeline's SVG, placed so that no two overlap (docs/html-report.md).
// The page runs no script, so the renderer cannot measure text: it estimates each label's box
// on the generous side (wider and taller than DejaVu Sans, Liberation or Noto draw it) and
// places labels greedily in priority order: a label whose box would overlap one already
// placed moves to the next row of its candidates, and is left out (its mark keeps its hover
// text) when none is free. ctest `browser: timeline labels do not overlap` measures the
// result in Chromium (getBBox).
#include <optional>
#include <string_view>
#include <vector>

namespace triage::html {

enum class Anchor { start, middle, end };

struct TextStyle {
  double font_px = 11;
  bool mono = false;
  bool bold = false;
};

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// An upper bound of the text's advance width in px.
double text_width(std::string_view utf8, const TextStyle& style);

// The box of text drawn at x with its baseline at y.
Box text_box(std::string_view utf8, const TextStyle& style, double x, double baseline, Anchor anchor);

class LabelPlacer {
 public:
  // Boxes that labels must not cover (marks that must stay readable are not among them).
  void reserve(const Box& b) { placed_.push_back(b); }
  // The first baseline of y, y + step, ... (at most `rows` of them) where the label's box
  // overlaps nothing placed; records it. nullopt: no row is free, the label is left out.
  std::optional<double> place(std::string_view utf8, const TextStyle& style, double x, double y, Anchor anchor,
                              double step = 0, int rows = 1);
  // The lowest edge of the labels placed so far (0 without any).
  double lowest() const;

 private:
  std::vector<Box> placed_;
};

}  // namespace triage::html
