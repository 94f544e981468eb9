#pragma once
// The input stage for one input path: each member is named safely, classified on its
// first bytes, handed to its parser (or its lines counted), hashed and measured; afterwards
// the entries are sorted, the bundle root stripped and the manifest reconciled.
#include <cstdint>
#include <map>
#include <optional>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "bundle/entry_stream.h"
#include "ingest/input_findings.h"
#include "bundle/input_reader.h"
#include "ingest/manifest_index.h"
#include "ingest/name_copies.h"
#include "model/host_facts.h"
#include "model/options.h"
#include "parsers/common/parser.h"

namespace triage {

// Limits shared by all inputs of one run.
struct LoadBudget {
  ReadBudget bytes;
  uint64_t entries_used = 0;
  bool entries_exhausted = false;
  bool total_reported = false;  // the --max-total-bytes finding is raised once
  explicit LoadBudget(const InputLimits& limits) { bytes.total_limit = limits.max_total_bytes; }
  bool exhausted() const { return bytes.total_exhausted || entries_exhausted; }
};

class EntryProcessor final : public MemberSink {
 public:
  EntryProcessor(BundleFacts& bundle, const AnalyzeOptions& options, LoadBudget& budget);
  void on_input(const InputDescription& input) override;
  bool on_member(const MemberHeader& header, ByteSource* data) override;
  void on_member_warning(std::string_view message) override;
  void on_input_damaged(std::string_view last_member, uint64_t offset,
                        std::string_view message) override;
  // After the last member: sorting, root stripping, manifest reconciliation, findings.
  void finish();

 private:
  struct Record {
    InventoryEntry entry;
    std::string lookup_path;      // bundle-relative stored name (manifest item path)
    bool before_manifest = true;  // classified before a manifest was read
  };
  std::string class_path_of(const std::string& path);
  void read_file(Record& r, ByteSource& data);
  void run_parser(Record& r, ByteSource& src);
  // Runs `parse` on the entry; an exception becomes a parser-error finding.
  void run_parser(Record& r, ByteSource& src, const std::function<void(ParseContext&, ByteSource&)>& parse);
  void count_lines(Record& r, ByteSource& src, std::string_view head, bool whole);
  void capture_manifest(Record& r, ByteSource& src, bool items);
  bool fold_if_quiet(Record& r, size_t facts_before, size_t findings_before, bool noted);
  void fold(SourceKind kind, std::string skipped, const EntryInfo& info, const ParseStats* stats);
  std::string manifest_disagreement(const Record& r, const ManifestIndex& index) const;
  size_t listed() const { return records_.size() + bundle_.inventory.skipped.size(); }
  void strip_root();
  void reconcile();
  void raise_findings();

  BundleFacts& bundle_;
  const AnalyzeOptions& options_;
  LoadBudget& budget_;
  InputForm form_ = InputForm::single_file;
  std::string root_;         // bundle root directory inside the input ("" = none)
  std::vector<char> head_;   // sniff buffer, reused for every entry
  ManifestIndex manifest_;   // from manifest.json
  ManifestIndex items_;      // from manifest.items.jsonl (used when manifest.json is missing)
  std::string manifest_error_;
  std::string last_display_;
  bool input_cut_ = false;  // reading of this input stopped at damage
  std::vector<Record> records_;
  std::vector<std::string> skipped_lookup_;  // bundle-relative paths of skipped members
  NamedEntries unsafe_, unreadable_, warnings_, entry_cuts_, duplicates_;
  NameCopies member_copies_;  // archive member names seen
  // Entries folded past --max-listed-entries: their lookup paths' hashes (for the manifest's
  // presence check), how many were read before any manifest, and what strip_root must know.
  std::vector<uint64_t> folded_lookup_;
  uint64_t folded_before_manifest_ = 0;
  std::optional<std::string> folded_top_;  // first path component, while all agree
  bool folded_tops_differ_ = false;
  bool folded_in_layout_ = false;
  std::vector<OverlongSample> overlong_;
  uint64_t overlong_total_ = 0;
};

}  // namespace triage
