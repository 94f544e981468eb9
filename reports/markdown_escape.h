#pragma once
// Escaping bundle text for CommonMark / GitHub Flavored Markdown. A bundle line may hold
// backticks, `|`, a leading `#`, `<script>` or anything else: none of it may change the
// document's structure (no heading, list, table column, raw HTML, link or entity appears).
// All three functions first make the text printable (display_width.h: printable_utf8).
#include <string>
#include <string_view>

namespace triage::md {

// Inline prose: backslash-escapes every ASCII punctuation character that has inline meaning
// anywhere (\ ` * _ [ ] < > | ~ & !) and, at the start of the text, what would open a block
// (# - + = > and "1." / "1)"). What renderers would autolink is broken visibly: a URL's
// "://" as "[:]//", a leading "www." as "www[.]", an e-mail's "@" as "[@]".
std::string text(std::string_view s);

// Prose that marks code with backticks, as findings do ("`modprobe --show-depends` chains"):
// each backtick span (runs of equal length, as CommonMark pairs them) becomes a code() span,
// the text between goes through text(), an unpaired backtick run is escaped.
std::string prose(std::string_view s, bool in_table = false);

// A code span whose fence is longer than any run of backticks inside; padded when the content
// starts or ends with a backtick or a space. `in_table`: `|` becomes `\|` (GFM reads table
// cells before code spans).
std::string code(std::string_view s, bool in_table = false);

// A fenced code block holding the lines of `s` (one line for an excerpt), each line prefixed
// with `prefix` ("> " inside a block quote); the fence is longer than any backtick run inside.
std::string fenced(std::string_view s, std::string_view prefix = {}, std::string_view info = "text");

}  // namespace triage::md
