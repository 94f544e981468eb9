#include "ingest/input_findings.h"

#include <fmt/format.h>

#include "knowledge/finding_texts.h"

namespace triage {
namespace {

constexpr size_t kMaxEvidence = NamedEntries::kMaxNamed;

Finding base(std::string id, Severity s) {
  Finding f;
  f.id = std::move(id);
  f.severity = s;
  f.confidence = Confidence::high;  // what was read is not a matter of interpretation
  return f;
}

// The words of knowledge/findings/input.tsv. Written while reading, before any analysis, so
// the built-in file (no --knowledge value), like the sniffer's shapes.
void words(Finding& f, const FindingWords& w, std::string_view variant = {}) {
  render_finding_words(f, finding_texts_for(""), w, variant);
}

void add_named(Finding& f, const std::vector<NamedEntry>& entries, size_t total) {
  for (size_t i = 0; i < entries.size() && i < kMaxEvidence; ++i)
    f.evidence.push_back(make_evidence(entries[i].display, 0, 0, entries[i].detail));
  f.value("count", std::to_string(total));
}

std::string more(size_t shown, size_t total) {
  return total > shown ? fmt::format(" (first {} of {} listed)", shown, total) : "";
}

// A limit that stopped reading: its words take the limit and the higher one to run with; the
// entry where reading stopped is its evidence.
Finding stop_finding(std::string id, uint64_t limit, uint64_t higher, std::string observed, EvidenceRef where) {
  Finding f = base(std::move(id), Severity::warning);
  words(f, {{"limit", std::to_string(limit)}, {"higher", std::to_string(higher)}});
  f.observed = std::move(observed);
  f.evidence.push_back(std::move(where));
  f.value("limit", std::to_string(limit));
  return f;
}

// A finding about archive members: its words take the count and the input; the members
// it names are its evidence.
Finding members_finding(std::string id, Severity severity, const std::string& input,
                        const std::vector<NamedEntry>& names, size_t total, std::string observed) {
  Finding f = base(std::move(id), severity);
  words(f, {{"count", std::to_string(total)}, {"input", input}});
  f.observed = std::move(observed);
  add_named(f, names, total);
  return f;
}

}  // namespace

Finding input_damaged_finding(const DamageAt& at) {
  bool between = at.entry.empty() || at.input_level;
  Finding f = base("input-damaged", Severity::warning);
  words(f, {{"input", at.input}, {"path", at.path}}, at.entry.empty() ? "whole" : "");
  if (at.entry.empty())
    f.observed = fmt::format("{}: {} (at byte {} of the archive). Nothing after that point was read.",
                             at.input, at.message, at.stored_offset);
  else if (at.input_level)
    f.observed = fmt::format("{}: {} after entry {} (archive byte {}). Entries after it were not read.",
                             at.input, at.message, at.path, at.stored_offset);
  else
    f.observed = fmt::format("{}: {} after {} bytes of the entry (decompressed; {} stored bytes read).{}",
                             at.path, at.message, at.offset, at.stored_offset,
                             at.stops_input ? " Reading of the archive stopped here: later entries were not read." : "");
  f.evidence.push_back(make_evidence(at.entry.empty() ? at.input : at.entry, 0,
                                     between ? at.stored_offset : at.offset, at.message));
  if (!at.path.empty()) f.value("entry", at.path);
  f.value("offset", std::to_string(at.offset));
  f.value("stored_offset", std::to_string(at.stored_offset));
  return f;
}

Finding unsafe_names_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total) {
  return members_finding("input-damaged/unsafe-name", Severity::warning, input, names, total,
                         fmt::format("Members stored under absolute names or names with '..' were read under "
                                     "normalised names inside the bundle{}.",
                                     more(std::min(names.size(), kMaxEvidence), total)));
}

Finding duplicate_members_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total) {
  return members_finding("input-damaged/duplicate-member", Severity::warning, input, names, total,
                         fmt::format("Members stored under a name an earlier member already had{}. Every copy "
                                     "was read as its own entry (tar would keep only the last when unpacking, "
                                     "so an unpacked copy of this archive shows less).",
                                     more(std::min(names.size(), kMaxEvidence), total)));
}

Finding unreadable_finding(const std::string& input, const std::vector<NamedEntry>& entries, size_t total) {
  return members_finding("input-damaged/unreadable", Severity::warning, input, entries, total,
                         fmt::format("Members that could not be opened or decoded{}.",
                                     more(std::min(entries.size(), kMaxEvidence), total)));
}

Finding archive_warning_finding(const std::string& input, const std::vector<NamedEntry>& entries,
                                size_t total) {
  return members_finding("input-damaged/archive-warning", Severity::info, input, entries, total,
                         "libarchive reported a non-fatal problem (e.g. a name that could not be "
                         "converted); the members were read.");
}

Finding parser_error_finding(const std::string& entry, std::string_view kind, std::string_view what) {
  Finding f = base("parser-error", Severity::warning);
  words(f, {{"kind", std::string(kind)}, {"entry", entry}});
  f.observed = fmt::format("The parser stopped with an error: {}. Facts it added before are kept.", what);
  f.evidence.push_back(make_evidence(entry, 0, 0, what));
  return f;
}

Finding total_bytes_limit_finding(const std::string& entry, uint64_t limit, size_t inputs_not_read) {
  return stop_finding("input-limit/total-bytes", limit, limit * 2,
                      fmt::format("The decompressed bytes of all inputs reached --max-total-bytes in {}; that "
                                  "entry was cut, later entries{} were not read.",
                                  entry, inputs_not_read ? fmt::format(" and {} later input(s)", inputs_not_read) : ""),
                      make_evidence(entry, 0, 0, "cut at --max-total-bytes"));
}

Finding entry_bytes_limit_finding(const std::string& input, const std::vector<NamedEntry>& entries,
                                  size_t total, uint64_t limit) {
  Finding f = base("input-limit/entry-bytes", Severity::warning);
  words(f, {{"count", std::to_string(total)},
            {"entries", total == 1 ? "entry" : "entries"},
            {"limit", std::to_string(limit)},
            {"higher", std::to_string(limit * 4)}});
  f.observed = fmt::format("Only the first {} decompressed bytes of these entries of {} were read{}.",
                           limit, input, more(std::min(entries.size(), kMaxEvidence), total));
  add_named(f, entries, total);
  f.value("limit", std::to_string(limit));
  return f;
}

Finding entries_limit_finding(const std::string& input, uint64_t limit, const std::string& last_entry) {
  return stop_finding("input-limit/entries", limit, limit * 4,
                      fmt::format("{} entries were read in all; reading of {} stopped after {}; later "
                                  "entries and inputs were not read.", limit, input, last_entry),
                      make_evidence(last_entry.empty() ? input : last_entry, 0, 0, "last entry read"));
}

Finding overlong_lines_finding(const std::string& input, const std::vector<OverlongSample>& samples,
                               uint64_t total, uint64_t limit) {
  Finding f = base("input-limit/line-bytes", Severity::info);
  words(f, {{"count", std::to_string(total)},
            {"input", input},
            {"limit", std::to_string(limit)},
            {"higher", std::to_string(limit * 4)}});
  f.observed = "Each such line was kept up to the limit and counted malformed; the lines after it "
               "were read normally.";
  for (const auto& s : samples)
    f.evidence.push_back(make_evidence(s.entry, s.line, s.offset,
                                       fmt::format("line of {} bytes", s.length)));
  f.value("count", std::to_string(total));
  f.value("limit", std::to_string(limit));
  return f;
}

}  // namespace triage
