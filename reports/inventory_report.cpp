// `inventory`: every entry with its size, kind, why, and line counts; then what nobody
// understood, what was skipped, where the manifest disagrees, and the input findings.
#include <fmt/format.h>

#include <algorithm>

#include "reports/json_folded.h"
#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {
namespace {

std::string counted(uint64_t n, bool parsed) { return parsed ? std::to_string(n) : "-"; }

std::string why(const InventoryEntry& e) {
  if (e.classified_by == ClassifiedBy::none) return e.reason;
  return fmt::format("{}: {}", to_string(e.classified_by), e.reason);
}

void text_bundle(const BundleFacts& b, std::ostream& out) {
  const auto& inv = b.inventory;
  out << fmt::format("# {} ({}; host {})\n", b.input, inv.input_form.empty() ? "?" : inv.input_form,
                     b.host.empty() ? "unknown" : b.host);
  if (!inv.manifest_entry.empty()) out << fmt::format("manifest: {}\n", inv.manifest_entry);
  size_t width = 24;
  for (const auto& e : inv.entries) width = std::max(width, std::min<size_t>(e.info.path.size(), 64));
  // SHAPE / NOSHAPE: lines whose shape a line reader recognised, and lines no reader understood
  // ("-" for readers that do not count shapes).
  out << fmt::format("{:<{}} {:>12} {:<22} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8}  {}\n", "ENTRY", width,
                     "BYTES", "KIND", "LINES", "PARSED", "UNREC", "MALF", "SHAPE", "NOSHAPE",
                     "CLASSIFIED BY");
  uint64_t shape = 0, noshape = 0;
  size_t unknown = 0;
  for (const auto& e : inv.entries) {
    unknown += e.kind == SourceKind::unknown;
    std::string path = e.info.path;
    if (e.info.type == EntryType::symlink) path += " -> " + e.info.link_target;
    bool shapes = e.stats.lines_recognised + e.stats.lines_unrecognised > 0;
    shape += e.stats.lines_recognised;
    noshape += e.stats.lines_unrecognised;
    out << fmt::format("{:<{}} {:>12} {:<22} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8}  {}\n", path, width,
                       e.info.size, to_string(e.kind), e.stats.lines,
                       counted(e.stats.parsed, e.has_parser),
                       counted(e.stats.unrecognised, e.has_parser), e.stats.malformed,
                       counted(e.stats.lines_recognised, shapes),
                       counted(e.stats.lines_unrecognised, shapes),
                       e.kind == SourceKind::unknown ? std::string("not recognised") : why(e));
    for (const auto& g : e.stats.segments)
      out << fmt::format("  lines {}-{} {:<22} {:>8} {:>8} {:>6} {:>6}  {}{}\n", g.first_line, g.last_line,
                         to_string(g.kind), g.last_line - g.first_line + 1, g.parsed, g.unrecognised,
                         g.malformed, g.command.empty() ? "" : fmt::format("$ {}: ", g.command), g.reason);
  }
  if (shape + noshape > 0)
    out << fmt::format("lines by shape: {} recognised, {} not understood ({:.1f} % recognised)\n",
                       shape, noshape, 100.0 * static_cast<double>(shape) / static_cast<double>(shape + noshape));
  out << fmt::format("{} entries: {} recognised, {} not recognised, {} skipped\n", inv.entries.size(),
                     inv.entries.size() - unknown, unknown, inv.skipped.size());
  if (!inv.folded.empty()) {
    out << fmt::format("\nCounted, not listed ({} entries past --max-listed-entries {}, each adding no fact):\n",
                       inv.folded_count(), inv.listed_cap);
    for (const auto& f : inv.folded) {
      std::string what = f.skipped.empty() ? std::string(to_string(f.kind)) : "skipped: " + f.skipped;
      out << fmt::format("  {:<22} {:>8} entries {:>12} bytes {:>10} lines {:>10} not understood  e.g. {}\n",
                         what, f.entries, f.size, f.stats.lines, f.stats.lines_unrecognised,
                         f.samples.empty() ? "" : f.samples.front());
    }
  }
  if (unknown > 0) {
    out << fmt::format("\nNot recognised ({}):\n", unknown);
    for (const auto& e : inv.entries)
      if (e.kind == SourceKind::unknown) out << fmt::format("  {}: {}\n", e.info.path, e.reason);
  }
  if (!inv.skipped.empty()) {
    out << fmt::format("\nSkipped ({}):\n", inv.skipped.size());
    for (const auto& s : inv.skipped) out << fmt::format("  {}: {}\n", s.info.path, s.reason);
  }
  size_t disagreements = inv.manifest_notes.size();
  for (const auto& e : inv.entries) disagreements += !e.manifest_note.empty();
  if (disagreements > 0) {
    out << fmt::format("\nManifest disagreements ({}):\n", disagreements);
    for (const auto& e : inv.entries)
      if (!e.manifest_note.empty()) out << fmt::format("  {}: {}\n", e.info.path, e.manifest_note);
    for (const auto& n : inv.manifest_notes) out << fmt::format("  {}: {}\n", n.path, n.note);
  }
  if (!b.input_findings.empty()) {
    out << fmt::format("\nInput findings ({}):\n", b.input_findings.size());
    for (const auto& f : b.input_findings) {
      out << fmt::format("  [{}] {}: {}\n", to_string(f.severity), f.id, f.title);
      for (const auto& ev : f.evidence)
        out << fmt::format("      {}{}: {}\n", ev.entry, ev.line ? fmt::format(":{}", ev.line) : "", ev.excerpt);
    }
  }
}

void json_stats(JsonWriter& w, const ParseStats& s) {
  w.key("stats").begin_object();
  w.field("lines", s.lines).field("parsed", s.parsed).field("unrecognised", s.unrecognised);
  w.field("malformed", s.malformed).field("bytes", s.bytes);
  w.field("lines_recognised", s.lines_recognised).field("lines_unrecognised", s.lines_unrecognised);
  if (!s.variant.empty()) w.field("variant", s.variant);
  if (!s.not_collected.empty()) w.field("not_collected", s.not_collected);
  w.end_object();
  if (s.segments.empty()) return;
  w.key("segments").begin_array();
  for (const auto& g : s.segments) {
    w.begin_object().field("first_line", g.first_line).field("last_line", g.last_line);
    w.field("kind", to_string(g.kind)).field("reason", g.reason);
    if (!g.command.empty()) w.field("command", g.command);
    w.field("parsed", g.parsed).field("unrecognised", g.unrecognised).field("malformed", g.malformed);
    w.field("lines_recognised", g.lines_recognised);
    w.end_object();
  }
  w.end_array();
}

void json_bundle(JsonWriter& w, const BundleFacts& b) {
  const auto& inv = b.inventory;
  w.begin_object().field("input", b.input).field("host", b.host).field("form", inv.input_form);
  w.key("manifest");
  if (inv.manifest_entry.empty()) w.null();
  else w.value(inv.manifest_entry);
  size_t unknown = 0;
  for (const auto& e : inv.entries) unknown += e.kind == SourceKind::unknown;
  w.key("summary").begin_object();
  w.field("entries", static_cast<uint64_t>(inv.entries.size()));
  w.field("recognised", static_cast<uint64_t>(inv.entries.size() - unknown));
  w.field("unknown", static_cast<uint64_t>(unknown));
  w.field("skipped", static_cast<uint64_t>(inv.skipped.size()));
  if (!inv.folded.empty()) w.field("folded", inv.folded_count()).field("listed_cap", inv.listed_cap);
  w.end_object();
  w.key("entries").begin_array();
  for (const auto& e : inv.entries) {
    w.begin_object();
    w.field("path", e.info.path).field("raw_path", e.info.raw_path).field("display", e.info.display);
    w.field("type", to_string(e.info.type)).field("size", e.info.size).field("sha256", e.sha256);
    w.field("kind", to_string(e.kind)).field("classified_by", to_string(e.classified_by));
    w.field("reason", e.reason);
    if (!e.info.link_target.empty()) w.field("link_target", e.info.link_target);
    if (!e.info.decompressed_from.empty()) w.field("decompressed_from", e.info.decompressed_from);
    if (e.info.unsafe_name) w.field("unsafe_name", true);
    if (!e.manifest_note.empty()) w.field("manifest_note", e.manifest_note);
    w.field("parser", e.has_parser);
    json_stats(w, e.stats);
    w.end_object();
  }
  w.end_array();
  w.key("skipped").begin_array();
  for (const auto& s : inv.skipped) {
    w.begin_object().field("path", s.info.path).field("raw_path", s.info.raw_path);
    w.field("display", s.info.display).field("type", to_string(s.info.type)).field("reason", s.reason);
    w.end_object();
  }
  w.end_array();
  if (!inv.folded.empty()) {
    w.key("folded");
    write_folded_entries(w, inv);
  }
  w.key("manifest_notes").begin_array();
  for (const auto& n : inv.manifest_notes) w.begin_object().field("path", n.path).field("note", n.note).end_object();
  w.end_array();
  w.key("findings").begin_array();
  for (const auto& f : b.input_findings) write_finding_json(w, f);
  w.end_array();
  w.end_object();
}

}  // namespace

void render_inventory_text(const EvidenceSet& evidence, std::ostream& out) {
  bool first = true;
  for (const auto& b : evidence.bundles) {
    if (!first) out << '\n';
    first = false;
    text_bundle(b, out);
  }
}

void render_inventory_json(const EvidenceSet& evidence, std::ostream& out) {
  JsonWriter w(out);
  w.begin_object().field("schema", "ascend-triage-inventory").field("schema_version", 1);
  w.key("bundles").begin_array();
  for (const auto& b : evidence.bundles) json_bundle(w, b);
  w.end_array().end_object();
  out << '\n';
}

}  // namespace triage
