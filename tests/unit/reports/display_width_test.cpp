// Display width with the built-in East Asian Width table: CJK counts 2, marks 0, invalid
// UTF-8 counts 1 per byte and never crashes.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "reports/display_width.h"
#include "reports/display_width_table.h"
#include "cjk_strings.h"

using namespace triage;

TEST_CASE("display width: ASCII, CJK and fullwidth", "[display-width]") {
  CHECK(display_width("") == 0);
  CHECK(display_width("stream_id=47, task_id=1280") == 26);
  CHECK(display_width("宿主驱动安装残留") == 16);
  // U+FF0B FULLWIDTH PLUS SIGN between two ASCII runs, as the incident writes it.
  CHECK(display_width("2.8.0.post2＋CANN 8.5.0") == 11 + 2 + 10);
  CHECK(display_width("，。：") == 6);                      // CJK punctuation is wide
  CHECK(display_width("\xe3\x80\x80") == 2);                // U+3000 ideographic space
  CHECK(display_width("한국어") == 6);                       // Hangul syllables
  CHECK(display_width("カタカナ") == 8);                     // Katakana
  CHECK(display_width("ｶﾀｶﾅ") == 4);                        // halfwidth Katakana stays narrow
  CHECK(display_width("\xf0\x9f\x99\x82") == 2);            // U+1F642 emoji (W since Unicode 9)
  CHECK(display_width("\xf0\xa0\x80\x80") == 2);            // U+20000 CJK Extension B
  CHECK(display_width("\xf0\xaa\x9b\x9e") == 2);            // U+2A6DE: plane 2, defaults to W
  CHECK(display_width("±°×") == 3);                         // East Asian Ambiguous: narrow
}

TEST_CASE("display width: marks and zero-width characters count 0", "[display-width]") {
  CHECK(display_width("e\xcc\x81") == 1);                   // e + U+0301 combining acute
  CHECK(display_width("a\xe2\x80\x8b" "b") == 2);           // U+200B zero width space
  CHECK(display_width("\xe2\x80\x8d") == 0);                // U+200D zero width joiner
  CHECK(display_width("\xef\xbb\xbf" "x") == 1);            // U+FEFF byte order mark
  CHECK(display_width("\xe1\x84\x80\xe1\x85\xa1") == 2);    // Hangul L + medial V: one syllable
  CHECK(display_width("\xc2\xad") == 1);                    // U+00AD soft hyphen is shown
  CHECK(codepoint_width(0x0300) == 0);
  CHECK(codepoint_width(0x20E3) == 0);                      // enclosing keycap (Me)
  CHECK(codepoint_width(0x4E2D) == 2);
  CHECK(codepoint_width(0x00E9) == 1);
}

TEST_CASE("display width: the real incident's Chinese sentences", "[display-width]") {
  // Each CJK character (including the fullwidth comma) is 2 columns; ASCII runs are 1.
  CHECK(display_width(test::kZhCombination) == 21 + 2 + 10 + 2 + 14);
  size_t ascii = 0, cjk = 0;
  std::string_view s = test::kZhOpening;
  for (size_t i = 0; i < s.size();) {
    Utf8Step step = decode_utf8(s, i);
    REQUIRE(step.valid);
    (step.cp < 0x80 ? ascii : cjk) += 1;
    i += step.len;
  }
  CHECK(display_width(s) == ascii + 2 * cjk);
  CHECK(display_width(test::kZhMount) > 200);
}

TEST_CASE("display width: invalid UTF-8 counts one per byte", "[display-width]") {
  CHECK(display_width("\xff\xfe") == 2);
  CHECK(display_width("\xe4\xb8") == 2);                    // truncated 中
  CHECK(display_width("ab\xe4\xb8") == 4);
  CHECK(display_width("\xc0\xaf") == 2);                    // overlong '/'
  CHECK(display_width("\xed\xa0\x80") == 3);                // a UTF-16 surrogate
  CHECK(display_width("\xf4\x90\x80\x80") == 4);            // above U+10FFFF
  CHECK(display_width("\x80中") == 3);                       // stray continuation byte, then 中
  Utf8Step bad = decode_utf8("\xe4\xb8", 0);
  CHECK_FALSE(bad.valid);
  CHECK(bad.len == 1);
  Utf8Step good = decode_utf8("中", 0);
  CHECK(good.valid);
  CHECK(good.cp == 0x4E2D);
  CHECK(good.len == 3);
}

TEST_CASE("display width: random bytes never crash and stay within bounds", "[display-width]") {
  std::mt19937 rng(20260904);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 64, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    size_t w = display_width(bytes);
    CHECK(w <= 2 * bytes.size());
    size_t cut = prefix_fitting(bytes, 10);
    CHECK(cut <= bytes.size());
    CHECK(display_width(std::string_view(bytes).substr(0, cut)) <= 10);
    std::string shown = printable_utf8(bytes);
    for (size_t i = 0; i < shown.size();) {  // the printable form is valid UTF-8
      Utf8Step step = decode_utf8(shown, i);
      REQUIRE(step.valid);
      REQUIRE(step.cp >= 0x20);
      i += step.len;
    }
  }
}

TEST_CASE("display width: prefix_fitting never splits a character", "[display-width]") {
  CHECK(prefix_fitting("中文abc", 3) == 3);   // 中 fits, 文 would reach 4
  CHECK(prefix_fitting("中文abc", 4) == 6);
  CHECK(prefix_fitting("中文abc", 100) == 9);
  CHECK(prefix_fitting("e\xcc\x81x", 1) == 3);  // the mark travels with its base
}

TEST_CASE("display width: printable_utf8 escapes controls, bad bytes and bidi overrides",
          "[display-width]") {
  CHECK(printable_utf8("a\tb\x1b[31m") == "a\\x09b\\x1b[31m");
  CHECK(printable_utf8("\xff" "中") == "\\xff中");
  CHECK(printable_utf8("x\xe2\x80\xae" "cod") == "x\\u{202E}cod");  // RIGHT-TO-LEFT OVERRIDE
  CHECK(printable_utf8("\xc2\x85") == "\\u{0085}");                 // C1 NEXT LINE
  CHECK(printable_utf8("宿主驱动 ok") == "宿主驱动 ok");
}

TEST_CASE("display width: the generated table is sorted and names its Unicode version",
          "[display-width]") {
  CHECK(east_asian_width_unicode_version() == "15.0.0");
  using Table = std::pair<const width_table::CodepointRange*, size_t>;
  for (auto [table, count] : {Table{width_table::kWide, width_table::kWideCount},
                              Table{width_table::kZero, width_table::kZeroCount}}) {
    REQUIRE(count > 50);
    for (size_t i = 0; i < count; ++i) {
      CHECK(table[i].first <= table[i].last);
      if (i) CHECK(table[i - 1].last + 1 < table[i].first);  // merged: no touching ranges
    }
  }
}
