// The HTML timeline's label placement (reports/svg_labels.h): generous boxes, greedy rows.
#include <catch2/catch.hpp>

#include "reports/svg_labels.h"

using namespace triage::html;

TEST_CASE("svg labels: width estimates are at least DejaVu Sans' advances", "[html][labels]") {
  TextStyle sans{10, false, false}, mono{12, true, false}, bold{11, false, true};
  // DejaVu Sans Book at 10 px (advances /2048 em): "reboot" 32.8 px, "collected" 45.3 px;
  // DejaVu Sans Mono at 12 px: 7.22 px a character.
  CHECK(text_width("reboot", sans) >= 32.8);
  CHECK(text_width("collected", sans) >= 45.3);
  CHECK(text_width("install-log (45)", mono) >= 16 * 7.22);
  CHECK(text_width("WWW", sans) > text_width("iii", sans));
  CHECK(text_width("stall", bold) > text_width("stall", TextStyle{11, false, false}));
  // A multi-byte character counts once, wider than an em.
  CHECK(text_width("\u25c0", sans) >= 10);
  CHECK(text_width("\u25c0", sans) < 20);
}

TEST_CASE("svg labels: an overlapping label moves to the next free row, or is left out", "[html][labels]") {
  TextStyle s{11, false, false};
  LabelPlacer p;
  REQUIRE(p.place("reboot", s, 100, 200, Anchor::end) == 200.0);
  // A second label ending 4 px later would overlap: it goes one row down.
  CHECK(p.place("reboot", s, 104, 200, Anchor::end, 16, 3) == 216.0);
  CHECK(p.place("boot", s, 98, 200, Anchor::end, 16, 3) == 232.0);
  CHECK_FALSE(p.place("boot", s, 99, 200, Anchor::end, 16, 3).has_value());  // three rows taken
  // Far enough to the right: the first row.
  CHECK(p.place("collected", s, 103, 200, Anchor::start, 16, 3) == 200.0);
  CHECK(p.lowest() > 232.0);
  // Boxes of the rows do not overlap one another.
  Box a = text_box("reboot", s, 100, 200, Anchor::end), b = text_box("reboot", s, 100, 216, Anchor::end);
  CHECK_FALSE(a.overlaps(b));
  CHECK(a.overlaps(text_box("x", s, 95, 205, Anchor::start)));
}
