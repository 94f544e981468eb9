#include "ingest/input_findings.h"

#include <fmt/format.h>

namespace triage {
namespace {

constexpr size_t kMaxEvidence = NamedEntries::kMaxNamed;

Finding base(std::string id, Severity s, std::string title) {
  Finding f;
  f.id = std::move(id);
  f.severity = s;
  f.confidence = Confidence::high;  // what was read is not a matter of interpretation
  f.title = std::move(title);
  return f;
}

void add_named(Finding& f, const std::vector<NamedEntry>& entries, size_t total) {
  for (size_t i = 0; i < entries.size() && i < kMaxEvidence; ++i)
    f.evidence.push_back(make_evidence(entries[i].display, 0, 0, entries[i].detail));
  f.value("count", std::to_string(total));
}

std::string more(size_t shown, size_t total) {
  return total > shown ? fmt::format(" (first {} of {} listed)", shown, total) : "";
}

}  // namespace

Finding input_damaged_finding(const DamageAt& at) {
  bool between = at.entry.empty() || at.input_level;
  Finding f = base("input-damaged", Severity::warning,
                   at.entry.empty() ? fmt::format("Input damaged: {} could not be read to its end", at.input)
                                    : fmt::format("Input damaged: reading stopped in {}", at.path));
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
  f.supports = "The file was cut or corrupted (during collection, copy or upload); everything read "
               "before the damage is analysed.";
  f.does_not_prove =
      "Anything about the host: damage in transfer says nothing about the NPU, driver or job. Data "
      "after the damage is missing, so a fact that is absent may only be unread.";
  f.next_checks = {
      fmt::format("Ask for the file again and compare checksums with the sender: sha256sum '{}'", at.input),
      fmt::format("Test the file: tar -tvf '{}' >/dev/null (or zstd -t / gzip -t for a compressed file)",
                  at.input)};
  f.evidence.push_back(make_evidence(at.entry.empty() ? at.input : at.entry, 0,
                                     between ? at.stored_offset : at.offset, at.message));
  if (!at.path.empty()) f.value("entry", at.path);
  f.value("offset", std::to_string(at.offset));
  f.value("stored_offset", std::to_string(at.stored_offset));
  return f;
}

Finding unsafe_names_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total) {
  Finding f = base("input-damaged/unsafe-name", Severity::warning,
                   fmt::format("{} member name(s) in {} are absolute or climb out with ../", total, input));
  f.observed = fmt::format(
      "Members stored under absolute names or names with '..' were read under normalised names "
      "inside the bundle{}.", more(std::min(names.size(), kMaxEvidence), total));
  f.supports = "The archive was not written by the collector as it is (hand-made, repacked or "
               "tampered with). Nothing is read or written outside the bundle.";
  f.does_not_prove = "That the content is wrong: the members were read and classified under their "
                     "normalised names.";
  f.next_checks = {fmt::format("List the stored names: tar -tvf '{}' | grep -E '(^|/)\\.\\./|^/'", input)};
  add_named(f, names, total);
  return f;
}

Finding duplicate_members_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total) {
  Finding f = base("input-damaged/duplicate-member", Severity::warning,
                   fmt::format("{} member name(s) occur more than once in {}", total, input));
  f.observed = fmt::format(
      "Members stored under a name an earlier member already had{}. Every copy was read as its own "
      "entry (tar would keep only the last when unpacking, so an unpacked copy of this archive "
      "shows less).", more(std::min(names.size(), kMaxEvidence), total));
  f.supports = "The archive was appended to or repacked after collection (tar -r, zip appending), "
               "or merged from two collections.";
  f.does_not_prove = "Which copy is the original, or that either copy is wrong: compare them "
                     "(their sha256 are in the inventory).";
  f.next_checks = {fmt::format("List the repeated names: tar -tvf '{}' | sort -k6 | uniq -f5 -D", input)};
  add_named(f, names, total);
  return f;
}

Finding unreadable_finding(const std::string& input, const std::vector<NamedEntry>& entries, size_t total) {
  Finding f = base("input-damaged/unreadable", Severity::warning,
                   fmt::format("{} member(s) of {} could not be read", total, input));
  f.observed = fmt::format("Members that could not be opened or decoded{}.",
                           more(std::min(entries.size(), kMaxEvidence), total));
  f.supports = "Part of the evidence is missing from the analysis.";
  f.does_not_prove = "That the missing members hold anything relevant, or that the host is at fault.";
  f.next_checks = {"Check permissions of the unpacked files (run as their owner), or ask for the bundle again"};
  add_named(f, entries, total);
  return f;
}

Finding archive_warning_finding(const std::string& input, const std::vector<NamedEntry>& entries,
                                size_t total) {
  Finding f = base("input-damaged/archive-warning", Severity::info,
                   fmt::format("The archive reader warned about {} member(s) of {}", total, input));
  f.observed = "libarchive reported a non-fatal problem (e.g. a name that could not be converted); "
               "the members were read.";
  f.supports = "Names or metadata of these members may be shown inexactly.";
  f.does_not_prove = "That their content is damaged.";
  add_named(f, entries, total);
  return f;
}

Finding parser_error_finding(const std::string& entry, std::string_view kind, std::string_view what) {
  Finding f = base("parser-error", Severity::warning,
                   fmt::format("The {} parser failed on {}", kind, entry));
  f.observed = fmt::format("The parser stopped with an error: {}. Facts it added before are kept.", what);
  f.supports = "The entry is only partly analysed.";
  f.does_not_prove = "Anything about the host: this is a defect of ascend-triage or an unforeseen format.";
  f.next_checks = {"Report the entry (or its first lines) to the ascend-triage maintainers"};
  f.evidence.push_back(make_evidence(entry, 0, 0, what));
  return f;
}

Finding total_bytes_limit_finding(const std::string& entry, uint64_t limit, size_t inputs_not_read) {
  Finding f = base("input-limit/total-bytes", Severity::warning,
                   fmt::format("Stopped reading after --max-total-bytes ({} bytes)", limit));
  f.observed = fmt::format(
      "The decompressed bytes of all inputs reached --max-total-bytes in {}; that entry was cut, "
      "later entries{} were not read.",
      entry, inputs_not_read ? fmt::format(" and {} later input(s)", inputs_not_read) : "");
  f.supports = "The analysis covers only what was read.";
  f.does_not_prove = "That the unread part holds nothing relevant.";
  f.next_checks = {fmt::format("Run again with a higher limit: --max-total-bytes {}", limit * 2)};
  f.evidence.push_back(make_evidence(entry, 0, 0, "cut at --max-total-bytes"));
  f.value("limit", std::to_string(limit));
  return f;
}

Finding entry_bytes_limit_finding(const std::string& input, const std::vector<NamedEntry>& entries,
                                  size_t total, uint64_t limit) {
  Finding f = base("input-limit/entry-bytes", Severity::warning,
                   fmt::format("{} entr{} cut at --max-entry-bytes ({} bytes)", total,
                               total == 1 ? "y" : "ies", limit));
  f.observed = fmt::format("Only the first {} decompressed bytes of these entries of {} were read{}.",
                           limit, input, more(std::min(entries.size(), kMaxEvidence), total));
  f.supports = "The analysis covers only the beginning of these entries.";
  f.does_not_prove = "That the rest of them holds nothing relevant (a hang shows at the end of a log).";
  f.next_checks = {fmt::format("Run again with a higher limit: --max-entry-bytes {}", limit * 4)};
  add_named(f, entries, total);
  f.value("limit", std::to_string(limit));
  return f;
}

Finding entries_limit_finding(const std::string& input, uint64_t limit, const std::string& last_entry) {
  Finding f = base("input-limit/entries", Severity::warning,
                   fmt::format("Stopped reading after --max-entries ({} entries)", limit));
  f.observed = fmt::format("{} entries were read in all; reading of {} stopped after {}; later "
                           "entries and inputs were not read.", limit, input, last_entry);
  f.supports = "The analysis covers only the entries read.";
  f.does_not_prove = "That the unread entries hold nothing relevant.";
  f.next_checks = {fmt::format("Run again with a higher limit: --max-entries {}", limit * 4)};
  f.evidence.push_back(make_evidence(last_entry.empty() ? input : last_entry, 0, 0, "last entry read"));
  f.value("limit", std::to_string(limit));
  return f;
}

Finding overlong_lines_finding(const std::string& input, const std::vector<OverlongSample>& samples,
                               uint64_t total, uint64_t limit) {
  Finding f = base("input-limit/line-bytes", Severity::info,
                   fmt::format("{} line(s) in {} longer than --max-line-bytes ({} bytes) were cut",
                               total, input, limit));
  f.observed = "Each such line was kept up to the limit and counted malformed; the lines after it "
               "were read normally.";
  f.supports = "Those lines are analysed only in part.";
  f.does_not_prove = "Damage: binary or minified data makes long lines too.";
  f.next_checks = {fmt::format("Run again with a higher limit if these lines matter: --max-line-bytes {}",
                               limit * 4)};
  for (const auto& s : samples)
    f.evidence.push_back(make_evidence(s.entry, s.line, s.offset,
                                       fmt::format("line of {} bytes", s.length)));
  f.value("count", std::to_string(total));
  f.value("limit", std::to_string(limit));
  return f;
}

}  // namespace triage
