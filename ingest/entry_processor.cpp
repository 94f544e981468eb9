#include "ingest/entry_processor.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <tuple>

#include "ingest/classify.h"
#include "ingest/fact_order.h"
#include "bundle/decompress_source.h"
#include "bundle/line_reader.h"
#include "bundle/member_name.h"
#include "bundle/stored_source.h"
#include "bundle/utf16_source.h"
#include "ingest/registry.h"
#include "parsers/collector/manifest_parsers.h"

namespace triage {
namespace {

constexpr size_t kManifestCap = 64 << 20;  // a manifest larger than this is not a manifest

std::string_view skip_reason(EntryType t) {
  switch (t) {
    case EntryType::device: return "device node: not read";
    case EntryType::fifo: return "FIFO: not read";
    case EntryType::socket: return "socket: not read";
    case EntryType::directory: return "directory";
    default: return "not a regular file: not read";
  }
}

std::string join_display(const std::string& input, const std::string& path) {
  if (!input.empty() && input.back() == '/') return input + path;
  return input + "/" + path;
}

}  // namespace

EntryProcessor::EntryProcessor(BundleFacts& bundle, const AnalyzeOptions& options, LoadBudget& budget)
    : bundle_(bundle), options_(options), budget_(budget) {}

void EntryProcessor::on_input(const InputDescription& input) {
  form_ = input.form;
  bundle_.inventory.input_form = input.format;
}

// The path the layout rules see: relative to the bundle root. A bundle may sit in a
// directory named ascend-bundle-<host>-<ts>/ (or any directory holding manifest.json), or
// one level down in a loose directory.
std::string EntryProcessor::class_path_of(const std::string& path) {
  if (form_ == InputForm::single_file) return path;
  if (!root_.empty() && path.size() > root_.size() && path.compare(0, root_.size(), root_) == 0 &&
      path[root_.size()] == '/')
    return path.substr(root_.size() + 1);
  std::string_view top = first_component(path);
  if (top.empty()) return path;
  std::string_view rest = strip_first_component(path);
  if (is_bundle_root_name(top) || (root_.empty() && rest == "manifest.json")) {
    if (root_.empty()) root_ = std::string(top);
    return std::string(rest);
  }
  if (!match_layout(path)) {
    auto under = match_layout(rest);
    if (under && under->kind != SourceKind::unknown) return std::string(rest);
  }
  return path;
}

bool EntryProcessor::on_member(const MemberHeader& h, ByteSource* data) {
  if (budget_.exhausted()) return false;
  if (h.type == EntryType::directory && h.read_error.empty()) return true;  // not an entry
  if (budget_.entries_used >= options_.limits.max_entries) {
    budget_.entries_exhausted = true;
    bundle_.input_findings.push_back(
        entries_limit_finding(bundle_.input, options_.limits.max_entries, last_display_));
    return false;
  }
  ++budget_.entries_used;
  // What this member adds, to tell past the listing cap whether it added only counts (counted
  // only there: fact_count walks every process's evidence).
  bool past_cap = listed() >= options_.limits.max_listed_entries;
  size_t facts_before = past_cap ? fact_count(bundle_) : 0, findings_before = bundle_.input_findings.size();
  bool noted = false;  // a finding names it (unsafe name, a copy, unreadable, a reader warning)

  EntryInfo info;
  info.input = bundle_.input;
  info.raw_path = h.raw_name;
  info.size = h.size;
  info.mtime = h.mtime;
  info.type = h.type;
  info.link_target = h.link_target;
  if (form_ == InputForm::single_file) {
    info.path = h.raw_name;
    info.display = bundle_.input;
  } else {
    NormalisedName n = normalise_member_name(h.raw_name);
    info.path = n.path.empty() ? "(unnamed)" : n.path;
    info.unsafe_name = n.unsafe;
    info.display = form_ == InputForm::directory ? join_display(bundle_.input, info.path)
                                                 : bundle_.input + "!" + escape_control_bytes(h.raw_name);
    if (n.unsafe) unsafe_.add(info.display, fmt::format("stored as '{}', read as '{}'", h.raw_name, info.path));
    // A name stored again: its evidence must not be mistaken for the first copy's lines.
    if (form_ != InputForm::directory && h.type != EntryType::directory) {
      if (size_t copy = member_copies_.add(info.path); copy > 1) {
        info.display += fmt::format(" (copy {})", copy);
        duplicates_.add(info.display, fmt::format("'{}' stored again", h.raw_name));
        noted = true;
      }
    }
  }
  last_display_ = info.display;
  if (budget_.bytes.progress) budget_.bytes.progress->on_entry(info.display);
  if (!h.warning.empty()) warnings_.add(info.display, h.warning);

  std::string class_path = class_path_of(info.path);
  bool unreadable = !h.read_error.empty();
  if (unreadable) unreadable_.add(info.display, h.read_error);
  noted = noted || unreadable || info.unsafe_name || !h.warning.empty();

  if (h.type == EntryType::device || h.type == EntryType::fifo || h.type == EntryType::socket ||
      h.type == EntryType::other || h.type == EntryType::directory) {
    std::string reason(skip_reason(h.type));
    if (unreadable) reason = h.read_error;
    if (past_cap && !noted) {
      folded_lookup_.push_back(name_hash(class_path));
      fold(SourceKind::unknown, std::move(reason), info, nullptr);
      return true;
    }
    bundle_.inventory.skipped.push_back({std::move(info), std::move(reason)});
    skipped_lookup_.push_back(std::move(class_path));
    return true;
  }

  Record r;
  r.lookup_path = class_path;
  r.before_manifest = !manifest_.loaded() && !items_.loaded();
  r.entry.info = std::move(info);
  InventoryEntry& e = r.entry;
  if (h.type == EntryType::symlink || h.type == EntryType::hardlink) {
    e.kind = SourceKind::symlink;
    e.classified_by = ClassifiedBy::file_type;
    e.reason = h.type == EntryType::symlink
                   ? fmt::format("symbolic link -> {}", e.info.link_target)
                   : fmt::format("hard link to {} (its data is stored there)", e.info.link_target);
    if (unreadable) e.reason += fmt::format(" ({})", h.read_error);
  } else if (unreadable || !data) {
    e.reason = fmt::format("not read: {}", unreadable ? h.read_error : "no data");
  } else {
    read_file(r, *data);
  }
  if (past_cap && fold_if_quiet(r, facts_before, findings_before, noted))
    return !budget_.exhausted();
  records_.push_back(std::move(r));
  return !budget_.exhausted();
}

void EntryProcessor::read_file(Record& r, ByteSource& data) {
  InventoryEntry& e = r.entry;
  const InputLimits& limits = options_.limits;
  StoredSource stored(data);
  Compression compression = detect_compression(stored.peek(10));
  std::optional<DecompressSource> decompressed;
  ByteSource* src = &stored;
  std::string kind_path = r.lookup_path;
  if (compression != Compression::none) {
    decompressed.emplace(stored, compression);
    src = &*decompressed;
    e.info.decompressed_from = std::string(to_string(compression));
    kind_path = std::string(strip_compression_suffix(kind_path, compression));
  }

  // UTF-16 text is read as UTF-8 (a log saved by a Windows tool): the limits count UTF-8 bytes.
  // Other text passes through it unchanged (it holds the first bytes it looked at).
  Utf16Source text(*src);
  Utf16Source::Encoding encoding = text.detect();
  src = &text;

  EntryStream stream(*src, limits.max_entry_bytes, budget_.bytes, head_);
  std::string_view head = stream.fill_head(kSniffBytes);
  bool whole = stream.head_is_whole();
  const ManifestIndex& index = manifest_.loaded() ? manifest_ : items_;
  const ManifestItem* item = index.loaded() ? index.find(r.lookup_path) : nullptr;
  Classification c = classify_entry(kind_path, head, whole, item);
  e.kind = c.kind;
  e.classified_by = c.by;
  e.reason = std::move(c.reason);
  if (compression != Compression::none)
    e.reason += fmt::format(" [{}-compressed, read decompressed]", to_string(compression));
  if (encoding != Utf16Source::Encoding::none)
    e.reason += fmt::format(" [{} text, read as UTF-8]", to_string(encoding));

  bool is_manifest = e.kind == SourceKind::manifest_json && kind_path == "manifest.json";
  bool is_items = e.kind == SourceKind::manifest_items_jsonl && kind_path == "manifest.items.jsonl";
  if ((is_manifest && !manifest_.loaded()) || (is_items && !items_.loaded()))
    capture_manifest(r, stream, is_items);
  else if (parser_for(e.kind))
    run_parser(r, stream);
  else
    count_lines(r, stream, head, whole);
  stream.drain();
  e.stats.bytes = stream.bytes();
  uint64_t stored_read = stored.count();  // where decoding stopped, before the hash drains the rest

  if (stream.overlong_count() > 0) {
    overlong_total_ += stream.overlong_count();
    for (const auto& s : stream.overlong_samples())
      if (overlong_.size() < 5) overlong_.push_back({e.info.display, s.line, s.offset, s.length});
  }
  bool complete = stream.cut() == EntryStream::Cut::none;
  if (stream.cut() == EntryStream::Cut::entry_limit)
    entry_cuts_.add(e.info.display, fmt::format("{} bytes read", stream.bytes()));
  if (stream.cut() == EntryStream::Cut::total_limit && !budget_.total_reported) {
    budget_.total_reported = true;
    bundle_.input_findings.push_back(total_bytes_limit_finding(e.info.display, limits.max_total_bytes, 0));
  }
  if (complete) {
    stored.drain();  // a decoder that failed early leaves stored bytes: the hash covers them all
    if (stored.error().empty()) e.sha256 = stored.sha256_hex();
  }
  if (!stream.data_error().empty()) {
    DamageAt at;
    at.input = bundle_.input;
    at.entry = e.info.display;
    at.path = e.info.path;
    at.offset = stream.bytes();
    at.stored_offset = stored_read;
    at.message = stream.data_error();
    // The archive's own stream failed (not a compressed member inside it): nothing follows.
    at.stops_input = form_ == InputForm::archive && !stored.error().empty();
    input_cut_ = input_cut_ || at.stops_input;
    bundle_.input_findings.push_back(input_damaged_finding(at));
  }
  if (e.info.size == 0 || !complete) e.info.size = std::max(e.info.size, stored.count());
}

void EntryProcessor::run_parser(Record& r, ByteSource& src) {
  run_parser(r, src, parser_for(r.entry.kind));
}

void EntryProcessor::run_parser(Record& r, ByteSource& src, const std::function<void(ParseContext&, ByteSource&)>& parse) {
  InventoryEntry& e = r.entry;
  e.has_parser = true;
  ParseContext ctx{e.info, bundle_, e.stats, options_};
  try {
    parse(ctx, src);
  } catch (const std::exception& ex) {
    bundle_.input_findings.push_back(parser_error_finding(e.info.display, to_string(e.kind), ex.what()));
  } catch (...) {
    bundle_.input_findings.push_back(parser_error_finding(e.info.display, to_string(e.kind), "unknown exception"));
  }
}

// Kinds without a parser still get their lines counted; overlong lines count as malformed.
// The lines of an unknown entry are lines no reader understood (shown by inventory).
void EntryProcessor::count_lines(Record& r, ByteSource& src, std::string_view head, bool whole) {
  ParseStats& stats = r.entry.stats;
  if (whole && head.size() <= options_.limits.max_line_bytes) {
    stats.lines = static_cast<uint64_t>(std::count(head.begin(), head.end(), '\n'));
    if (!head.empty() && head.back() != '\n') ++stats.lines;
  } else {
    LineReader lines(src, options_.limits.max_line_bytes);
    Line line;
    while (lines.next(line)) {
      ++stats.lines;
      if (line.overlong) stats.note_malformed(r.entry.info.display, line.number, line.offset, line.text);
    }
  }
  if (r.entry.kind == SourceKind::unknown) stats.lines_unrecognised = stats.lines - stats.malformed;
}

// The manifest is parsed once, as it streams in, like any entry; its index points at the items
// its parser read (a small damaged manifest.json is reread whole by the index, for its repairs).
void EntryProcessor::capture_manifest(Record& r, ByteSource& src, bool items) {
  ManifestIndex& index = items ? items_ : manifest_;
  const ManifestFacts& m = bundle_.manifest;
  const std::vector<ManifestItem>& list = items ? m.jsonl_items : m.json_items;
  size_t begin = list.size();
  ManifestJsonRead read;
  bool parsed = false;
  run_parser(r, src, [&](ParseContext& ctx, ByteSource& s) {
    if (items) parse_manifest_items_jsonl(ctx, s);
    else read = read_manifest_json(ctx, s);
    parsed = true;
  });
  if (!parsed) return;  // the parser failed (a finding says so): no index
  std::string error;
  bool ok = false;
  if (items) {
    ok = list.size() > begin;
    if (ok) index.use_items(list, begin, list.size());
  } else if (read.damaged && !read.whole_text.empty()) {
    ok = index.load_json(read.whole_text, &error);
  } else if (read.damaged) {
    ok = read.items_end > read.items_begin;
    error = ok ? "damaged; the items before the damage were read" : "damaged before any item";
  } else if (!read.items_array) {
    error = "no \"items\" array (damaged or cut JSON?)";
  } else {
    ok = true;
    if (read.not_object_item) error = "an item is not a JSON object";
  }
  if (ok && !items && read.whole_text.empty()) index.use_items(list, read.items_begin, read.items_end);
  uint64_t bytes = items ? r.entry.stats.bytes : read.bytes;
  if (bytes > kManifestCap) {
    ok = false;
    index = ManifestIndex();
    error = fmt::format("larger than {} bytes", kManifestCap);
  }
  if (ok) index.origin = r.entry.info.path;
  if (!error.empty() && !items)
    manifest_error_ = ok ? error : fmt::format("could not be used: {}", error);
}

void EntryProcessor::on_member_warning(std::string_view message) {
  warnings_.add(last_display_, std::string(message));
}

void EntryProcessor::on_input_damaged(std::string_view last_member, uint64_t offset,
                                      std::string_view message) {
  DamageAt at;
  at.input = bundle_.input;
  at.input_level = true;
  if (!last_member.empty()) {
    at.entry = last_display_;
    at.path = normalise_member_name(last_member).path;
  }
  at.stored_offset = offset;
  at.message = std::string(message);
  input_cut_ = true;
  bundle_.input_findings.push_back(input_damaged_finding(at));
}

// A single top-level directory that is the bundle root is not part of entry paths. In an
// archive, any single top-level directory is the archived directory (`tar -c dir`), so the
// archive names what the directory given itself would, unless it is a layout area
// ("kernel/", "logs/": then the paths need it).
void EntryProcessor::strip_root() {
  std::optional<std::string> top;
  auto same_top = [&](const std::string& path) {
    std::string_view t = first_component(path);
    if (t.empty()) return false;
    if (!top) top = std::string(t);
    return *top == t;
  };
  bool single = !records_.empty() || !bundle_.inventory.skipped.empty();
  for (const auto& r : records_) single = single && same_top(r.entry.info.path);
  for (const auto& s : bundle_.inventory.skipped) single = single && same_top(s.info.path);
  if (folded_top_) single = single && !folded_tops_differ_ && top && *top == *folded_top_;
  if (!single || !top) return;
  auto in_layout = [](const std::string& path) {
    auto m = match_layout(path);
    return m && m->pattern.substr(0, 3) != "**/";  // "**/*.err" names no area
  };
  bool archived_dir = form_ == InputForm::archive &&
                      std::none_of(records_.begin(), records_.end(),
                                   [&](const Record& r) { return in_layout(r.entry.info.path); }) &&
                      !folded_in_layout_;
  if (!(*top == root_ || is_bundle_root_name(*top) || archived_dir)) return;
  for (auto& r : records_) r.entry.info.path = std::string(strip_first_component(r.entry.info.path));
  for (auto& s : bundle_.inventory.skipped) s.info.path = std::string(strip_first_component(s.info.path));
  for (auto& f : bundle_.inventory.folded)
    for (auto& p : f.samples) p = std::string(strip_first_component(p));
}

// What the manifest says against what was read, "" when they agree.
std::string EntryProcessor::manifest_disagreement(const Record& r, const ManifestIndex& index) const {
  const InventoryEntry& e = r.entry;
  const ManifestItem* item = index.find(r.lookup_path);
  std::vector<std::string> parts;
  if (!item) {
    if (e.kind != SourceKind::manifest_json && e.kind != SourceKind::manifest_items_jsonl &&
        e.kind != SourceKind::step_stderr)
      parts.push_back("not listed in the manifest");
  } else {
    if (item->status == ItemStatus::absent) parts.push_back("the manifest says absent, yet the entry is present");
    if (e.kind != SourceKind::symlink) {
      if (item->bytes && !e.sha256.empty() && static_cast<uint64_t>(*item->bytes) != e.info.size)
        parts.push_back(fmt::format("{} bytes, the manifest says {}", e.info.size, *item->bytes));
      if (!item->sha256.empty() && !e.sha256.empty() && item->sha256 != e.sha256)
        parts.push_back(fmt::format("sha256 {}..., the manifest says {}...", e.sha256.substr(0, 12),
                                    item->sha256.substr(0, 12)));
      std::string why;
      auto said = kind_from_manifest_item(*item, &why);
      if (said && *said != e.kind) {
        if (e.classified_by == ClassifiedBy::layout_path)
          parts.push_back(fmt::format("the manifest item ({}) suggests {}; the layout path wins", why, to_string(*said)));
        else if (r.before_manifest)
          parts.push_back(fmt::format("the manifest item ({}) suggests {} (manifest read after this entry; kept {})", why,
                                      to_string(*said), to_string(e.kind)));
      }
    }
  }
  std::string note = e.manifest_note;
  for (const auto& p : parts) {
    if (!note.empty()) note += "; ";
    note += p;
  }
  return note;
}

// Past --max-listed-entries an entry is counted, not listed, when it added nothing a report
// could point at: no fact (but the summary of a plog with no warning, error or event line),
// no finding, no damage, no manifest disagreement. Anything else is listed as always.
bool EntryProcessor::fold_if_quiet(Record& r, size_t facts_before, size_t findings_before, bool noted) {
  const InventoryEntry& e = r.entry;
  const ParseStats& st = e.stats;
  if (noted || bundle_.input_findings.size() != findings_before || st.malformed > 0 ||
      !st.not_collected.empty() || !st.segments.empty() || !e.manifest_note.empty() ||
      (e.kind != SourceKind::symlink && e.sha256.empty()) || e.kind == SourceKind::manifest_json ||
      e.kind == SourceKind::manifest_items_jsonl)
    return false;
  auto& plogs = bundle_.logs.plog_entries;
  size_t added = fact_count(bundle_) - facts_before;
  bool quiet_plog = false;
  if (added == 1 && !plogs.empty() && plogs.back().entry == e.info.display) {
    const PlogEntrySummary& p = plogs.back();
    auto at = [&](PlogLevel l) { return p.by_level[static_cast<size_t>(l)]; };
    quiet_plog = at(PlogLevel::warning) + at(PlogLevel::error) + at(PlogLevel::event) + at(PlogLevel::other) == 0 &&
                 p.level_lines.empty() && p.folded_lines == 0 && p.level_lines_over_cap == 0;
  }
  if (added != 0 && !quiet_plog) return false;
  const ManifestIndex* index = manifest_.loaded() ? &manifest_ : items_.loaded() ? &items_ : nullptr;
  if (index && !manifest_disagreement(r, *index).empty()) return false;
  if (!index) ++folded_before_manifest_;
  if (quiet_plog) plogs.pop_back();
  folded_lookup_.push_back(name_hash(r.lookup_path));
  fold(e.kind, "", e.info, &st);
  return true;
}

void EntryProcessor::fold(SourceKind kind, std::string skipped, const EntryInfo& info, const ParseStats* stats) {
  auto& rows = bundle_.inventory.folded;
  bundle_.inventory.listed_cap = options_.limits.max_listed_entries;
  auto it = std::find_if(rows.begin(), rows.end(),
                         [&](const FoldedEntries& f) { return f.kind == kind && f.skipped == skipped; });
  bool first = it == rows.end();
  FoldedEntries& f = first ? rows.emplace_back() : *it;
  if (first) {
    f.kind = kind;
    f.skipped = std::move(skipped);
  }
  ++f.entries;
  f.size += info.size;
  if (stats) {
    f.stats.lines += stats->lines;
    f.stats.parsed += stats->parsed;
    f.stats.unrecognised += stats->unrecognised;
    f.stats.bytes += stats->bytes;
    f.stats.lines_recognised += stats->lines_recognised;
    f.stats.lines_unrecognised += stats->lines_unrecognised;
  }
  if (f.samples.size() < FoldedEntries::kMaxSamples) f.samples.push_back(info.path);
  std::string_view top = first_component(info.path);
  if (!folded_top_) folded_top_ = std::string(top);
  folded_tops_differ_ = folded_tops_differ_ || top.empty() || *folded_top_ != top;
  if (!folded_in_layout_) {
    auto m = match_layout(info.path);
    folded_in_layout_ = m && m->pattern.substr(0, 3) != "**/";
  }
}

void EntryProcessor::reconcile() {
  const ManifestIndex* index = manifest_.loaded() ? &manifest_ : items_.loaded() ? &items_ : nullptr;
  auto& notes = bundle_.inventory.manifest_notes;
  if (!manifest_error_.empty()) notes.push_back({"manifest.json", manifest_error_});
  if (!index) return;
  bundle_.inventory.manifest_entry = index->origin;
  std::set<std::string, std::less<>> present;
  for (auto& r : records_) {
    present.insert(r.lookup_path);
    r.entry.manifest_note = manifest_disagreement(r, *index);
  }
  for (const auto& p : skipped_lookup_) present.insert(p);
  std::sort(folded_lookup_.begin(), folded_lookup_.end());
  auto folded = [&](const std::string& path) {
    return std::binary_search(folded_lookup_.begin(), folded_lookup_.end(), name_hash(path));
  };
  if (folded_before_manifest_ > 0)
    notes.push_back({fmt::format("({} entries)", folded_before_manifest_),
                     "read before the manifest and past --max-listed-entries: checked for presence only"});
  for (const auto& item : index->items())
    if (item.status == ItemStatus::ok && !present.count(item.path) && !folded(item.path))
      notes.push_back({item.path, input_cut_ ? "listed as collected (status ok); not read: the input is damaged"
                                             : "listed as collected (status ok) but not in the input"});
}

void EntryProcessor::raise_findings() {
  const std::string& input = bundle_.input;
  auto& out = bundle_.input_findings;
  if (!unsafe_.empty()) out.push_back(unsafe_names_finding(input, unsafe_.first, unsafe_.total));
  if (!duplicates_.empty()) out.push_back(duplicate_members_finding(input, duplicates_.first, duplicates_.total));
  if (!unreadable_.empty()) out.push_back(unreadable_finding(input, unreadable_.first, unreadable_.total));
  if (!warnings_.empty()) out.push_back(archive_warning_finding(input, warnings_.first, warnings_.total));
  if (!entry_cuts_.empty())
    out.push_back(entry_bytes_limit_finding(input, entry_cuts_.first, entry_cuts_.total,
                                            options_.limits.max_entry_bytes));
  if (overlong_total_ > 0)
    out.push_back(overlong_lines_finding(input, overlong_, overlong_total_, options_.limits.max_line_bytes));
  sort_findings(out);
}

void EntryProcessor::finish() {
  reconcile();
  strip_root();
  // Sorted through an index: entries are large, moving them around in a sort costs.
  std::vector<size_t> order(records_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const InventoryEntry& a = records_[x].entry;
    const InventoryEntry& b = records_[y].entry;
    return std::tie(a.info.path, a.info.raw_path, a.sha256) < std::tie(b.info.path, b.info.raw_path, b.sha256);
  });
  auto& entries = bundle_.inventory.entries;
  entries.reserve(entries.size() + records_.size());
  for (size_t i : order) entries.push_back(std::move(records_[i].entry));
  records_.clear();
  auto& skipped = bundle_.inventory.skipped;
  std::sort(skipped.begin(), skipped.end(), [](const SkippedEntry& a, const SkippedEntry& b) {
    return std::tie(a.info.path, a.info.raw_path) < std::tie(b.info.path, b.info.raw_path);
  });
  auto& folded = bundle_.inventory.folded;
  std::sort(folded.begin(), folded.end(), [](const FoldedEntries& a, const FoldedEntries& b) {
    return std::tie(a.kind, a.skipped) < std::tie(b.kind, b.skipped);
  });
  auto& notes = bundle_.inventory.manifest_notes;
  std::sort(notes.begin(), notes.end(), [](const ManifestNote& a, const ManifestNote& b) {
    return std::tie(a.path, a.note) < std::tie(b.path, b.note);
  });
  raise_findings();
}

}  // namespace triage
