#pragma once
// Escaping for the HTML report. Every string that comes from a bundle (excerpts, titles,
// entry paths, host names, messages) goes through one of these before it reaches the page.
// The page is HTML5 with inline SVG, which the HTML parser reads too, so one escaping
// serves text, double-quoted attributes and SVG <text>/<title>.
#include <string>
#include <string_view>

namespace triage::html {

// Text and attribute values (always written inside double quotes): & < > " ' become
// entities; control bytes (except tab and, when keep_newlines, newline) and bytes that are
// not valid UTF-8 become a visible "\xNN" so that nothing invisible or malformed reaches
// the browser.
std::string escape(std::string_view s, bool keep_newlines = false);

// Appends escape(s) to out.
void append_escaped(std::string& out, std::string_view s, bool keep_newlines = false);

// Text written for Markdown too (finding titles and fields, the verdict, "In short"): escaped
// as escape() does, then each pair of backticks becomes <code>...</code> and each pair of
// `**` <b>...</b>, so that no Markdown shows literally. An unpaired mark stays as text. The
// only tags it writes are those two; the text between them is escaped like the rest.
std::string inline_markup(std::string_view s);

// A fragment identifier built by the renderer from a prefix and a number ("f-3"): never from
// bundle text, so links in the page only ever point inside it.
std::string anchor(std::string_view prefix, size_t index);

}  // namespace triage::html
