#include "correlator/summaries/facts_listing.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "model/evidence.h"
#include "model/kernel_words.h"
#include "parsers/common/entry_fact_scan.h"

namespace triage {

namespace {

using sv = std::string_view;

// Of the rows per-entry mentions read (RowKeep::mentions), what can change them: the first
// line of each value, and the times at an entry's first and last line (and those stated for
// the whole entry, line 0). A storm of a million kept lines of one template lists a handful.
class MentionRowReducer {
 public:
  void add(FactRow&& r) {
    if (r.key != "time") {
      std::string k = r.entry + '\0' + r.key + '\0' + r.value;
      auto [at, added] = first_.try_emplace(std::move(k), kept_.size());
      if (added)
        kept_.push_back(std::move(r));
      else if (r.line < kept_[at->second].line)
        kept_[at->second].line = r.line;
      return;
    }
    if (r.line == 0) {
      kept_.push_back(std::move(r));
      return;
    }
    Span& s = spans_[r.entry];
    if (s.at_min.empty() || r.line <= s.min) {
      if (s.at_min.empty() || r.line < s.min) s.at_min.clear();
      s.min = r.line;
      s.at_min.push_back(r);
    }
    if (s.at_max.empty() || r.line >= s.max) {
      if (s.at_max.empty() || r.line > s.max) s.at_max.clear();
      s.max = r.line;
      s.at_max.push_back(std::move(r));
    }
  }
  // Every kept row, unsorted (sort_unique removes a row both ends kept).
  void flush_into(std::vector<FactRow>& out) {
    for (auto& r : kept_) out.push_back(std::move(r));
    for (auto& [entry, s] : spans_) {
      for (auto& r : s.at_min) out.push_back(std::move(r));
      for (auto& r : s.at_max) out.push_back(std::move(r));
    }
  }

 private:
  struct Span {
    uint64_t min = 0, max = 0;
    std::vector<FactRow> at_min, at_max;
  };
  std::vector<FactRow> kept_;
  std::unordered_map<std::string, size_t> first_;  // entry, key, value -> kept_
  std::unordered_map<std::string, Span> spans_;    // by entry
};

class Rows {
 public:
  explicit Rows(std::vector<FactRow>& out, MentionRowReducer* mentions = nullptr)
      : out_(out), mentions_(mentions) {}
  void add(sv key, sv value, const EvidenceRef& ev) {
    if (value.empty()) return;
    if (mentions_) {
      if (names_an_entry_mention(key) || key == "time")
        mentions_->add({std::string(key), std::string(value), ev.entry, ev.line});
      return;
    }
    out_.push_back({std::string(key), std::string(value), ev.entry, ev.line});
  }
  void add(sv key, int64_t value, const EvidenceRef& ev) { add(key, std::to_string(value), ev); }
  template <typename T>
  void add(sv key, const std::optional<T>& value, const EvidenceRef& ev) {
    if (value) add(key, static_cast<int64_t>(*value), ev);
  }
  // A CANN time as printed, and its seconds (`2024-07-03-11:28:40.419.527` -> `...:40`).
  void time(sv text, const EvidenceRef& ev) {
    add("time", text, ev);
    if (text.size() > 19 && text[4] == '-' && text[10] == '-' && text[19] == '.')
      add("time", text.substr(0, 19), ev);
  }

 private:
  std::vector<FactRow>& out_;
  MentionRowReducer* mentions_;
};

RE2::Options latin1() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

// Facts named inside free text that the readers keep (report lines, exception messages,
// plog error descriptions): operators, streams, tasks, devices.
void scan_text(Rows& rows, sv text, const EvidenceRef& ev) {
  struct Pattern {
    const char* key;
    RE2 re;
  };
  static const Pattern kPatterns[] = {
      {"operator", RE2(R"([Oo]ptype:? ?\[([A-Za-z0-9_]+)\])", latin1())},
      {"operator", RE2(R"(current working operator name is ([A-Za-z0-9_]+))", latin1())},
      {"operator", RE2(R"(op_name \[([A-Za-z0-9_]+)\])", latin1())},
      {"operator", RE2(R"(OPS function error: ([A-Za-z0-9_]+))", latin1())},
      {"operator", RE2(R"(\b(aclnn[A-Z][A-Za-z0-9_]*))", latin1())},
      {"operator", RE2(R"(^\s*([A-Z][A-Za-z0-9_]+) ADD_TO_LAUNCHER_LIST)", latin1())},
      {"operator", RE2(R"(\b([A-Z][A-Za-z0-9]+Operation) (?:setup|execute) failed)", latin1())},
      {"code", RE2(R"(\bresult = (\d{5,}))", latin1())},
      {"code", RE2(R"(\bErrorNo: (\d+))", latin1())},
      {"code", RE2(R"(\berrno\[(\d+)\])", latin1())},
      {"code", RE2(R"(\berrNo\[(0x[0-9A-Fa-f]+)\])", latin1())},
      {"operator", RE2(R"(OpName:\[([A-Za-z][A-Za-z0-9]*?)(?:_\d+)?\])", latin1())},
      {"stream", RE2(R"(\bstream_?id[:= ]\s*(\d+))", latin1())},
      {"task", RE2(R"(\btask_?id[:= ]\s*(\d+))", latin1())},
      {"device", RE2(R"(\bdevice_?id[:= ]\s*(\d+))", latin1())},
      {"device", RE2(R"(\bdevice\((?:chipId:)?(\d+))", latin1())},
      {"component", RE2(R"(\bModuleName \[([A-Z_]+)\])", latin1())},
      // A CANN install named by its versioned directory in a path the job printed
      {"version", RE2(R"(/ascend-toolkit/(\d+\.\d+\.[0-9A-Za-z.]+)/)", latin1())},
      // HCCL and MindIE name the rank in their text: `info error:rank[0]`, `createLink
      // para:rank[7]-localUserrank[7]`, `HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4`
      {"rank", RE2(R"((?:^|[^A-Za-z])rank\[(\d+)\])", latin1())},
      {"rank", RE2(R"((?:^|[^A-Za-z])rank: ?(\d+)(?:,|$))", latin1())},
  };
  for (const auto& p : kPatterns) {
    re2::StringPiece in(text.data(), text.size()), m;
    while (RE2::FindAndConsume(&in, p.re, &m)) rows.add(p.key, sv(m.data(), m.size()), ev);
  }
}

std::string lower(sv s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Capture names of signature hits, in the corpus vocabulary.
sv key_for_capture(sv name) {
  if (name.find("stream") != sv::npos) return "stream";
  if (name.find("task") != sv::npos) return "task";
  if (name.find("device") != sv::npos || name == "dev") return "device";
  if (name.find("code") != sv::npos || name == "ret") return "code";
  if (name == "pid") return "pid";
  if (name == "op" || name.find("operator") != sv::npos) return "operator";
  return {};
}

void python_rows(Rows& rows, const PythonFacts& py) {
  for (const auto& s : py.streams) {
    EvidenceRef ev;
    ev.entry = s.entry;
    rows.add("pid", s.pid, ev);
    rows.add("rank", s.rank, ev);
  }
  for (const auto& t : py.tracebacks) {
    const EvidenceRef& ev = t.evidence_exception.entry.empty() ? t.evidence_start : t.evidence_exception;
    rows.add("code", t.ecode, ev);
    rows.add("code", t.error_code, ev);
    scan_text(rows, t.message, ev);
  }
  for (const auto& e : py.torch_errors) {
    rows.add("code", e.error_code, e.evidence);
    scan_text(rows, e.call, e.evidence);
  }
  for (const auto& e : py.err_lines) {
    rows.add("code", e.code, e.evidence);
    rows.add("pid", e.pid, e.evidence);
    rows.add("device", e.device, e.evidence);
    rows.add("rank", e.rank, e.evidence);
    rows.add("component", e.submodule, e.evidence);
    rows.time(e.time.original, e.evidence);
  }
  for (const auto& b : py.error_reports) {
    const EvidenceRef& ev = b.evidence_header.entry.empty() ? b.evidence : b.evidence_header;
    rows.add("code", b.code, ev);
    rows.add("pid", b.pid, ev);
    rows.add("code", b.runtime_result, ev);
    rows.add("component", b.component, ev);
    if (b.has_time) rows.time(b.time.original, ev);
    scan_text(rows, b.message, ev);
    for (const auto& d : b.details) scan_text(rows, d, b.evidence);
    for (const auto& f : b.frames) scan_text(rows, f.text, b.evidence);
  }
  for (const auto& w : py.warnings) {
    rows.add("code", w.error_code, w.evidence);
    scan_text(rows, w.message, w.evidence);
  }
  // When a job-output entry ran: its first and last stamped line, for an entry whose kept facts
  // carry no time (a healthy log); where they do, their times are the ones a report names.
  std::unordered_set<std::string_view> timed;
  for (const auto& e : py.err_lines)
    if (!e.time.original.empty()) timed.insert(e.evidence.entry);
  for (const auto& b : py.error_reports)
    if (b.has_time) timed.insert(b.evidence.entry);
  for (const auto& j : py.job_events)
    if (!j.time.empty()) timed.insert(j.evidence.entry);
  for (const auto& span : py.spans) {
    if (timed.count(span.first_at.entry)) continue;
    rows.time(span.first, span.first_at);
    rows.time(span.last, span.last_at);
  }
  for (const auto& j : py.job_events) {
    rows.add("code", j.code, j.evidence);
    rows.add("device", j.device, j.evidence);
    rows.add("library", j.library, j.evidence);
    rows.add("library", j.loaded_by, j.evidence);
    rows.add("symbol", j.symbol, j.evidence);
    rows.add("operator", j.operator_name, j.evidence);
    rows.add("pid", j.pid, j.evidence);
    rows.add("rank", j.rank, j.evidence);
    rows.add("time", j.time, j.evidence);
    rows.add("component", j.component, j.evidence);
    scan_text(rows, j.call, j.evidence);  // ids inside the message (`rank:1`, `device_id=4`)
  }
}

// What a plog or device-log entry's summary names: its components, pids, device and span,
// all under the entry's own name.
void plog_summary_rows(Rows& rows, const PlogEntrySummary& e) {
  EvidenceRef ev;
  ev.entry = e.entry;
  for (const auto& [module, n] : e.by_module)
    if (module != "(other)") rows.add("component", module, ev);
  rows.add("pid", e.pid_from_name, ev);
  rows.add("device", e.device_id, ev);
  for (int64_t pid : e.pids) rows.add("pid", pid, ev);
  rows.time(e.first.time.original, ev);  // the span the entry covers, as printed
  rows.time(e.last.time.original, ev);
}

// Its warning and error lines: one row set per kept line (facts kept, not entries).
void plog_level_rows(Rows& rows, const PlogEntrySummary& e) {
  for (const auto& l : e.level_lines) {
    rows.add("pid", l.pid, l.evidence);
    rows.time(l.first.time.original, l.evidence);
    scan_text(rows, l.evidence.excerpt, l.evidence);  // the kept excerpt of a warning/error line
  }
}

void log_rows(Rows& rows, const LogFacts& logs, FactScope scope, bool with_plog_summaries) {
  for (const auto& s : logs.stalls) {
    rows.add("stream", s.stream_id, s.evidence);
    rows.add("task", s.task_id, s.evidence);
    rows.add("device", s.device_id, s.evidence);
    rows.add("pid", s.origin.pid, s.evidence);
  }
  for (const auto& s : logs.sync_timeouts) {
    rows.add("stream", s.stream_id, s.evidence);
    rows.add("device", s.device_id, s.evidence);
  }
  for (const auto& c : logs.error_codes) {
    rows.add("code", c.code, c.evidence);
    rows.add("component", c.module, c.evidence);
    rows.add("device", c.device_id, c.evidence);
    rows.time(c.time.time.original, c.evidence);
    scan_text(rows, c.description, c.evidence);
  }
  for (const auto& h : logs.signature_hits) {
    rows.add("pid", h.pid, h.evidence);
    rows.time(h.time.time.original, h.evidence);
    for (const auto& [name, value] : h.captures)
      if (sv key = key_for_capture(name); !key.empty()) rows.add(key, value, h.evidence);
    // A line a signature took is not kept again as a level line: its excerpt still carries
    // the codes the pattern did not capture (`errNo[0x...]`).
    scan_text(rows, h.evidence.excerpt, h.evidence);
  }
  // Kernel lines kept (Ascend printk, fault manager, signature or error-priority lines):
  // their time as printed and the ids of the Ascend printk (`<comm:pid>`, `(device=1; ...)`).
  for (const auto& k : logs.kernel_events) {
    if (scope == FactScope::report && k.ascend &&
        is_plain_info_printk(k.ascend->error_tag, k.priority, k.ascend->message))
      continue;
    rows.add("time", k.time.original, k.evidence);
    if (k.ascend) {
      rows.add("pid", k.ascend->pid, k.evidence);
      for (const auto& [name, value] : k.ascend->values)
        if (name == "device" || name == "devid" || name == "dev_id" || name == "device_id")
          rows.add("device", value, k.evidence);
    }
    scan_text(rows, k.message, k.evidence);
  }
  for (const auto& e : logs.service_errors) {
    rows.add("pid", e.pid, e.evidence);
    rows.add("time", e.time_text, e.evidence);
  }
  for (const auto& e : logs.plog_entries) {
    if (with_plog_summaries) plog_summary_rows(rows, e);
    plog_level_rows(rows, e);
  }
}

// For the report a version is named by what it is the version of (`vllm-ascend==0.11.0rc0`,
// `Version=25.5.1`): a bare `2.3.1` out of a package list says nothing there.
void version_rows(Rows& rows, const BundleFacts& f, FactScope scope) {
  const bool named = scope == FactScope::report;
  for (const auto* info : {&f.devices.info, &f.devices.map_failure}) {
    if (!*info) continue;
    const NpuSmiInfo& n = **info;
    rows.add("version", n.version, n.evidence);
    if (n.driver_version != n.version) rows.add("version", n.driver_version, n.evidence);
    rows.add("code", n.failure_code, n.evidence);
    for (const auto& c : n.chips) {
      rows.add("device", c.npu, c.evidence);
      // The PCIe address names the same chip in lspci, dmesg and the driver's own lines.
      if (!c.bus_id.empty()) rows.add("device", c.bus_id, c.evidence);
    }
    for (const auto& p : n.processes) rows.add("pid", p.pid, p.evidence);
  }
  // `npu-smi info -t health`: the device and the error code it answers, NA (none) included.
  for (const auto& h : f.devices.health) {
    rows.add("device", h.npu, h.evidence);
    rows.add("code", h.error_code, h.evidence);
  }
  auto packages = [&](const std::vector<PackageRow>& list) {
    for (const auto& p : list)
      if (!p.version.empty()) rows.add("version", named ? p.name + "==" + p.version : p.version, p.evidence);
  };
  packages(f.libraries.default_packages);
  packages(f.libraries.default_pip);
  for (const auto& [pid, lib] : f.libraries.by_pid) {
    packages(lib.packages);
    packages(lib.pip);
    if (!lib.torch_npu_version.empty())
      rows.add("version", named ? "torch_npu==" + lib.torch_npu_version : lib.torch_npu_version,
               lib.torch_npu_version_evidence);
  }
  auto version_file = [&](const VersionFile& v) {
    for (const auto& l : v.lines)
      if (lower(l.key).find("version") != std::string::npos && !l.value.empty())  // `Version=` too
        rows.add("version", named ? l.key + "=" + l.value : l.value, l.evidence);
  };
  for (const auto* v : {&f.libraries.driver_version, &f.libraries.firmware_version,
                        &f.libraries.ascend_install})
    if (*v) version_file(**v);
  for (const auto& v : f.libraries.cann_files) version_file(v);
}

}  // namespace

// Device RAS events and black-box exception codes: the id as printed (its case kept) too.
void device_rows(Rows& rows, const DeviceFacts& d) {
  for (const auto& e : d.ras_events) {
    rows.add("code", e.event_id, e.evidence);
    const std::string& x = e.evidence.excerpt;
    auto it = std::search(x.begin(), x.end(), e.event_id.begin(), e.event_id.end(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    if (it != x.end()) rows.add("code", sv(&*it, e.event_id.size()), e.evidence);
    rows.add("time", e.time_text, e.evidence);
    rows.add("device", e.device, e.evidence);
    scan_text(rows, x, e.evidence);
  }
}

namespace {

auto row_key(const FactRow& r) { return std::tie(r.entry, r.line, r.key, r.value); }

void sort_unique(std::vector<FactRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const FactRow& a, const FactRow& b) { return row_key(a) < row_key(b); });
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [](const FactRow& a, const FactRow& b) { return row_key(a) == row_key(b); }),
             rows.end());
}

// Every row but those of the plog entries' summaries (with_plog_summaries false).
std::vector<FactRow> fact_rows(const BundleFacts& facts, FactScope scope, bool with_plog_summaries,
                               RowKeep keep = RowKeep::every) {
  std::vector<FactRow> out;
  MentionRowReducer mentions;
  Rows rows(out, keep == RowKeep::mentions ? &mentions : nullptr);
  python_rows(rows, facts.python);
  log_rows(rows, facts.logs, scope, with_plog_summaries);
  version_rows(rows, facts, scope);
  device_rows(rows, facts.devices);
  if (keep == RowKeep::mentions) mentions.flush_into(out);
  sort_unique(out);
  return out;
}

}  // namespace

bool names_an_entry_mention(std::string_view key) {
  return key == "pid" || key == "device" || key == "rank" || key == "component" || key == "version";
}

std::vector<FactRow> list_facts(const BundleFacts& facts, FactScope scope) {
  std::vector<FactRow> out = fact_rows(facts, scope, true);
  // Issue 36, facts anywhere: what the fact scanner read in each entry's lines
  // (knowledge/fact-forms.tsv), kept by entry outside BundleFacts (parsers/common/entry_fact_scan.h).
  const size_t listed = out.size();
  for (const auto& e : facts.inventory.entries) {
    const std::string& entry = e.info.display.empty() ? e.info.path : e.info.display;
    for (auto& f : scanned_facts(entry))
      out.push_back({std::move(f.key), std::move(f.value), f.evidence.entry, f.evidence.line});
  }
  if (out.size() != listed) sort_unique(out);
  return out;
}

// The rows of list_facts grouped by entry, without holding them all: every plog entry has a
// summary, so an archive of a million one-line plogs would list seven rows of each at once.
// The other rows (one set per kept fact) are listed and sorted as list_facts does; the
// summaries' rows are made one entry at a time, merged in entry order.
void for_each_entry_rows(const BundleFacts& facts, FactScope scope,
                         const std::function<void(const std::vector<FactRow>&)>& visit, RowKeep keep) {
  std::vector<FactRow> rest = fact_rows(facts, scope, false, keep);
  std::vector<const PlogEntrySummary*> plogs;
  plogs.reserve(facts.logs.plog_entries.size());
  for (const auto& e : facts.logs.plog_entries) plogs.push_back(&e);
  std::stable_sort(plogs.begin(), plogs.end(),
                   [](const PlogEntrySummary* a, const PlogEntrySummary* b) { return a->entry < b->entry; });
  std::vector<FactRow> group;
  Rows rows(group);
  size_t i = 0, j = 0;
  while (i < rest.size() || j < plogs.size()) {
    std::string entry = j == plogs.size() || (i < rest.size() && rest[i].entry < plogs[j]->entry)
                             ? rest[i].entry
                             : plogs[j]->entry;
    group.clear();
    for (; i < rest.size() && rest[i].entry == entry; ++i) group.push_back(std::move(rest[i]));
    for (; j < plogs.size() && plogs[j]->entry == entry; ++j) plog_summary_rows(rows, *plogs[j]);
    sort_unique(group);
    visit(group);
  }
}

void print_fact_rows(const std::vector<FactRow>& rows, std::ostream& out) {
  for (const auto& r : rows)
    out << r.key << '=' << make_excerpt(r.value, 512) << '\t' << r.entry << ':' << r.line << '\n';
}

}  // namespace triage
