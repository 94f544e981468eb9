// `pip list --format=json` (processes/<pid>/pip-list.json, python/pip-list.json): one JSON array
// of {"name", "version"} objects (newer pip adds "editable_project_location"), usually on one
// line. Rows go to the process's pip rows or the collector's python3 pip rows (kind "pip-list").
// Broken JSON is counted malformed with the line and byte offset of the damage; a cut file (a
// killed pip) still gives the rows written before the cut.
#include <fmt/format.h>
#include <simdjson.h>

#include "model/pep440.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {
namespace {

namespace od = simdjson::ondemand;

// 1-based line of byte `offset` in text.
uint64_t line_of(std::string_view text, size_t offset) {
  uint64_t n = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) n += text[i] == '\n';
  return n;
}

struct Row {
  std::string name, version, location;
  size_t offset = 0;  // of the object in the JSON text
};

// Reads the array; on an error returns it with the byte offset where reading stopped (the
// rows before it are in `rows`).
simdjson::error_code read_rows(std::string_view json, std::vector<Row>& rows, size_t& error_at) {
  simdjson::padded_string padded(json);
  od::parser parser;
  od::document doc;
  error_at = 0;
  if (auto e = parser.iterate(padded).get(doc); e) return e;
  auto where = [&] {
    const char* at = nullptr;
    if (!doc.current_location().get(at) && at >= padded.data() && at <= padded.data() + json.size())
      return static_cast<size_t>(at - padded.data());
    return json.size();
  };
  auto fail = [&](simdjson::error_code e) {
    error_at = where();
    return e;
  };
  od::array arr;
  if (auto e = doc.get_array().get(arr); e) return fail(e);
  for (auto item : arr) {
    Row row;
    row.offset = where();
    od::object obj;
    if (auto e = item.get_object().get(obj); e) return fail(e);
    for (auto field : obj) {
      std::string_view key, value;
      if (auto e = field.unescaped_key().get(key); e) return fail(e);
      if (key != "name" && key != "version" && key != "editable_project_location") continue;
      if (auto e = field.value().get_string().get(value); e) return fail(e);
      (key == "name" ? row.name : key == "version" ? row.version : row.location) = std::string(value);
    }
    rows.push_back(std::move(row));
  }
  const char* rest = nullptr;  // current_location() fails (out of bounds) at the document's end
  if (!doc.current_location().get(rest)) return fail(simdjson::TRAILING_CONTENT);
  return simdjson::SUCCESS;
}

}  // namespace

void parse_pip_list_json(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto pid = pid_from_entry_path(ctx.entry.path);
  LibraryFacts& lf = ctx.facts.libraries;
  ctx.stats.variant = "pip-list-json";
  const uint64_t lines = count_lines(text);
  // Text before the array (a pip notice on stdout) is not JSON: counted, reading starts at '['.
  const size_t start = text.find('[');
  if (start == std::string::npos) {
    if (lines) add_malformed(ctx, lines, 1, 0, "pip list JSON: no '[' found");
    return;
  }
  const uint64_t skipped = line_of(text, start) - 1;
  ctx.stats.unrecognised += skipped;
  std::string_view json = std::string_view(text).substr(start);
  std::vector<Row> rows;
  size_t error_at = 0;
  simdjson::error_code e = read_rows(json, rows, error_at);
  if (e && rows.empty()) {
    // Damage the whole-document pass refuses (a cut string): read up to the last complete
    // object, so the rows a killed pip wrote are still known.
    size_t last = json.rfind('}');
    std::vector<Row> retry;
    size_t ignored = 0;
    if (last != std::string_view::npos &&
        !read_rows(std::string(json.substr(0, last + 1)) + "]", retry, ignored))
      rows = std::move(retry), error_at = last + 1;
  }
  std::vector<PackageRow>& out = pid ? lf.process(*pid).pip : lf.default_pip;
  for (const Row& r : rows) {
    if (r.name.empty() || r.version.empty()) continue;  // its line is counted with the rest
    PackageRow p;
    p.name = r.name;
    p.normalized = pep503_normalize(r.name);
    p.version = r.version;
    p.location = r.location;
    p.kind = "pip-list";
    size_t off = start + r.offset;
    p.evidence = make_evidence(entry_name(ctx), line_of(text, off), off,
                               fmt::format("{{\"name\": \"{}\", \"version\": \"{}\"}}", r.name, r.version));
    out.push_back(std::move(p));
  }
  if (!out.empty() || !e) (pid ? lf.process(*pid).has_pip : lf.has_default_pip) = true;
  if (!e) {
    ctx.stats.parsed += lines - skipped;
    return;
  }
  // Lines before the damage were understood; the damaged line and the rest were not.
  size_t off = start + std::min(error_at, json.size());
  uint64_t line = std::min<uint64_t>(std::max<uint64_t>(line_of(text, off), skipped + 1), std::max<uint64_t>(lines, 1));
  ctx.stats.parsed += line - 1 - skipped;
  add_malformed(ctx, lines - (line - 1), line, off,
                fmt::format("pip list JSON: {} at byte {} (line {}); {} package(s) read before it",
                            simdjson::error_message(e), off, line, rows.size()));
}

}  // namespace triage
