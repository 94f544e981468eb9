// `ascend-triage diff` output: the changes CURRENT's findings cite first, then the rest, each
// part grouped by layer in chain order (kernel, modules, driver/firmware/CANN, wheels,
// processes). One change per line in text, a table row in markdown.
#include <fmt/format.h>

#include "reports/chain_render.h"
#include "reports/display_width.h"
#include "reports/json_writer.h"
#include "reports/markdown_escape.h"

namespace triage {
namespace {

std::string side(const std::string& v) { return v.empty() ? "(absent)" : v; }

std::string status(const ChainChange& c) {
  std::string s = c.breaking ? "breaking" : "consistent";
  if (!c.why.empty()) s += ": " + c.why;
  if (!c.cited_by.empty()) {
    std::string ids;
    for (const auto& id : c.cited_by) ids += (ids.empty() ? "" : ", ") + id;
    if (c.why.find("cited by") == std::string::npos || c.cited_by.size() > 1) s += "; cited by finding " + ids;
  }
  return s;
}

size_t count_breaking(const ChainDiff& d) {
  size_t n = 0;
  for (const auto& c : d.changes) n += c.breaking;
  return n;
}

size_t count_cited(const ChainDiff& d) {
  size_t n = 0;
  for (const auto& c : d.changes) n += !c.cited_by.empty();
  return n;
}

// Calls part(title, first, last) for the cited part and the rest, when not empty.
template <class F>
void parts(const ChainDiff& d, F&& part) {
  size_t cited = count_cited(d);  // cited changes come first (compare/chain_diff.h)
  if (cited) part("Cited by CURRENT's findings", 0, cited);
  if (cited < d.changes.size()) part(cited ? "Other changes" : "Changes", cited, d.changes.size());
}

// Said before anything else: a diff of two machines lists their differences, which an
// engineer would otherwise read as what changed on one host.
std::string hosts_sentence(const ChainDiff& d, std::string (*shown)(std::string_view)) {
  return fmt::format("Different hosts: BASELINE is {}, CURRENT is {}. The changes below may be differences "
                     "between two machines rather than a change on one; to see what changed on {}, compare it "
                     "with its own earlier bundle or baseline.",
                     shown(d.baseline_host), shown(d.current_host), shown(d.current_host));
}

std::string text_name(std::string_view s) { return printable_utf8(s); }
std::string md_name(std::string_view s) { return md::code(s); }

void text(const ChainDiff& d, std::ostream& out) {
  if (d.different_hosts()) out << hosts_sentence(d, text_name) << "\n\n";
  out << fmt::format("{} change(s) from {} ({}) to {} ({}): {} breaking, {} cited by CURRENT's findings\n",
                     d.changes.size(), printable_utf8(d.baseline), d.baseline_kind, printable_utf8(d.current),
                     d.current_kind, count_breaking(d), count_cited(d));
  parts(d, [&](std::string_view title, size_t from, size_t to) {
    out << '\n' << title << '\n';
    for (size_t i = from; i < to; ++i) {
      const ChainChange& c = d.changes[i];
      out << fmt::format("{}: {}: {} -> {} [{}]\n", to_string(c.layer), printable_utf8(c.item),
                         printable_utf8(side(c.before)), printable_utf8(side(c.after)), status(c));
    }
  });
  out << "\nProcesses: " << d.process_matching << ".\n";
  for (const auto& n : d.notes) out << "Note: " << n << '\n';
}

void markdown(const ChainDiff& d, std::ostream& out) {
  out << "# Chain diff\n\n";
  if (d.different_hosts()) out << hosts_sentence(d, md_name) << "\n\n";
  out << fmt::format("{} change(s) from {} ({}) to {} ({}): {} breaking, {} cited by CURRENT's findings.\n",
                     d.changes.size(), md::code(d.baseline), d.baseline_kind, md::code(d.current), d.current_kind,
                     count_breaking(d), count_cited(d));
  parts(d, [&](std::string_view title, size_t from, size_t to) {
    out << "\n## " << title << "\n\n| layer | item | before | after | status |\n|---|---|---|---|---|\n";
    for (size_t i = from; i < to; ++i) {
      const ChainChange& c = d.changes[i];
      out << "| " << md::text(to_string(c.layer)) << " | " << md::code(c.item, true) << " | "
          << md::code(side(c.before), true) << " | " << md::code(side(c.after), true) << " | "
          << md::text(status(c)) << " |\n";
    }
  });
  out << "\nProcesses: " << md::text(d.process_matching) << ".\n";
  for (const auto& n : d.notes) out << "\nNote: " << md::text(n) << '\n';
}

void json(const ChainDiff& d, std::ostream& out) {
  JsonWriter w(out);
  w.begin_object()
      .field("schema", "ascend-triage-diff/1")
      .key("baseline").begin_object().field("input", d.baseline).field("kind", d.baseline_kind).field("host", d.baseline_host).end_object()
      .key("current").begin_object().field("input", d.current).field("kind", d.current_kind).field("host", d.current_host).end_object()
      .field("different_hosts", d.different_hosts())
      .field("process_matching", d.process_matching)
      .field("breaking", static_cast<uint64_t>(count_breaking(d)))
      .key("changes").begin_array();
  for (const auto& c : d.changes) {
    w.begin_object().field("layer", to_string(c.layer)).field("item", c.item).key("before");
    c.before.empty() ? w.null() : w.value(c.before);
    w.key("after");
    c.after.empty() ? w.null() : w.value(c.after);
    w.field("status", c.breaking ? "breaking" : "consistent").field("why", c.why).key("cited_by").begin_array();
    for (const auto& id : c.cited_by) w.value(id);
    w.end_array().end_object();
  }
  w.end_array().key("notes").begin_array();
  for (const auto& n : d.notes) w.value(n);
  w.end_array().end_object();
  out << '\n';
}

}  // namespace

bool render_chain_diff(const ChainDiff& d, std::string_view format, std::ostream& out) {
  if (format == "json") return json(d, out), true;
  if (format != "text" && format != "md") return false;
  if (d.changes.empty()) return true;  // nothing differs: no lines
  if (format == "text") text(d, out);
  else markdown(d, out);
  return true;
}

}  // namespace triage
