// reports/safe_output.h: the guard every printed byte goes through (issue 33). Bundle text
// that would drive a terminal (OSC 52 clipboard writes, title changes, screen clears, C1
// controls, bidi overrides, line separators) comes out as visible text; the report's own
// colours pass; ordinary text and UTF-8 pass byte for byte, however the writes are split.
#include <catch2/catch.hpp>
#include <ostream>
#include <sstream>

#include "bundle/member_name.h"
#include "reports/json_writer.h"
#include "reports/safe_output.h"

using namespace triage;

namespace {

// The text written through the guard in pieces of `piece` bytes (0: one write).
std::string guarded(std::string_view in, size_t piece = 0) {
  std::ostringstream sink;
  {
    SafeOutputBuf guard(sink.rdbuf());
    std::ostream out(&guard);
    if (!piece) {
      out << in;
    } else {
      for (size_t i = 0; i < in.size(); i += piece) out << in.substr(i, piece);
    }
    out.flush();
  }
  return sink.str();
}

}  // namespace

TEST_CASE("safe output: terminal control from bundle text is shown, not obeyed", "[security]") {
  CHECK(guarded("a\x1b]52;c;ZXZpbA==\x07z") == "a\\x1b]52;c;ZXZpbA==\\x07z");
  CHECK(guarded("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(guarded("x\x1b[2Jy") == "x\\x1b[2Jy");
  CHECK(guarded("over\rwrite\x7f\b") == "over\\x0dwrite\\x7f\\x08");
  CHECK(guarded("c1 \xc2\x9b" "31m") == "c1 \\u{009B}31m");
  CHECK(guarded("raw \x9b" "31m") == "raw \\x9b31m");
  CHECK(guarded("rtl \xe2\x80\xae" "exe.txt") == "rtl \\u{202E}exe.txt");
  CHECK(guarded("iso \xe2\x81\xa6x\xe2\x81\xa9") == "iso \\u{2066}x\\u{2069}");
  CHECK(guarded("a\xe2\x80\xa8" "b\xe2\x80\xa9") == "a\\u{2028}b\\u{2029}");
}

TEST_CASE("safe output: text, UTF-8 and the report's colours pass unchanged", "[security]") {
  const std::string text = "finding: 中文 device 4\ttab\n\x1b[1;31mred\x1b[0m \x1b[m end\n";
  for (size_t piece : {0, 1, 2, 3, 7}) {
    CAPTURE(piece);
    CHECK(guarded(text, piece) == text);
    CHECK(guarded("a\x1b]52;c;QQ==\x07\xe2\x80\xae", piece) == "a\\x1b]52;c;QQ==\\x07\\u{202E}");
  }
  // A sequence cut at the end is shown as the bytes it has.
  CHECK(guarded("end \xe4\xb8") == "end \\xe4\\xb8");
  CHECK(guarded("esc \x1b[3") == "esc \\x1b[3");
}

TEST_CASE("safe output: JSON writes the dangerous code points escaped, so the guard never changes it",
          "[security]") {
  std::ostringstream out;
  JsonWriter::write_string(out, "a\xe2\x80\xae" "b\xe2\x80\xa8" "c\xc2\x9b" "d中");
  CHECK(out.str() == "\"a\\u202eb\\u2028c\\u009bd中\"");
  CHECK(guarded(out.str()) == out.str());
}

TEST_CASE("member names: a newline or escape in a name is written as \\xNN", "[security]") {
  CHECK(normalise_member_name("logs/plog-9_\nFINDING: all good.log").path == "logs/plog-9_\\x0aFINDING: all good.log");
  CHECK(normalise_member_name("a/\x1b]0;t\x07.log").path == "a/\\x1b]0;t\\x07.log");
  CHECK(normalise_member_name("logs/plog-1_2.log").path == "logs/plog-1_2.log");
}
