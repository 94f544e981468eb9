#include "correlator/passes/unexplained_errors.h"
#include "model/strings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "correlator/summaries/line_facts.h"
#include "correlator/summaries/report_facts.h"
#include "ingest/registry.h"
#include "parsers/common/entry_fact_scan.h"
#include "parsers/plog/error_lines.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"

namespace triage {
namespace {

constexpr size_t kMaxGroups = 256;     // groups kept per bundle; lines beyond are counted
constexpr size_t kTopGroups = 5;       // groups named in the finding's observed text
constexpr size_t kMaxTemplate = 160;   // bytes of masked message in a group key
constexpr size_t kMaxIds = 16;         // pids / devices / ranks listed per group

using LineKey = std::pair<std::string_view, uint64_t>;  // entry, line

struct Group {
  std::string source, module, code, templ;
  std::string meaning;  // the catalogue's words for the code (code_meaning), "" when unknown
  uint64_t count = 0;
  std::string first, last;
  std::set<int64_t> pids, devices, ranks;
  EvidenceRef evidence;
  ReportFacts facts;  // ids, timeouts, names the group's first line (or report) carries
  LineFacts scanned;  // codes, pids, ids the fact scanner finds there (issue 36)
  bool explained = false;
  const EvidenceRef* header = nullptr;  // a CANN report's timed header, cited with its first line
  bool cited = false;                 // a line of the group is cited or accounted for
  std::optional<size_t> shown_by;     // else: the finding whose failure it repeats
  EvidenceRef shown;                  // the group's first such line (and its report header)
  const EvidenceRef* shown_also = nullptr;
};

// Takes the error lines every reader family offers (ingest/registry.cpp), and the signature
// hits, which span families: each line once, to the first that offers it.
class Collector final : public ErrorLineSink {
 public:
  Collector(const BundleFacts& b, const KnowledgeBase& kb) : b_(b), kb_(kb) {}

  std::vector<ErrorLine> run() {
    for (const auto& e : b_.logs.kernel_events) kernel_lines_[{e.evidence.entry, e.evidence.line}] = &e;
    benign_lines();
    for (const auto& r : error_line_readers())
      if (r.before_signatures) r.read(b_, *this);
    signature_hits();
    for (const auto& r : error_line_readers())
      if (!r.before_signatures) r.read(b_, *this);
    return std::move(lines_);
  }

  ErrorLine* add(std::string_view source, const EvidenceRef& ev) override {
    if (!taken_.insert({ev.entry, ev.line}).second) return nullptr;
    ErrorLine& l = lines_.emplace_back();
    l.source = source;
    l.evidence = &ev;
    return &l;
  }
  void take(const EvidenceRef& ev) override { taken_.insert({ev.entry, ev.line}); }

 private:
  // A line a benign signature matched is start-up noise: never an error of its own. Nor is
  // an error line a logged successful fallback handled (signature category handled-error:
  // the log-signature finding reports it at info).
  void benign_lines() {
    for (const auto& h : b_.logs.signature_hits)
      if (const Signature* s = kb_.find_signature(h.id);
          s && (s->outcome == "benign" || s->category == "handled-error"))
        taken_.insert({h.evidence.entry, h.evidence.line});
  }
  void signature_hits() {
    for (const auto& h : b_.logs.signature_hits) {
      bool severe = h.severity == "error" || h.severity == "critical";
      if (!severe && !is_plog_error(h.evidence.excerpt)) continue;
      std::string_view src = h.source == "job" || h.source == "npu-smi" ? std::string_view(h.source)
                             : h.source.empty() || h.source == "plog" ? "plog" : "kernel";
      ErrorLine* l = add(src, h.evidence);
      if (!l) continue;
      std::string module;
      if (src == "plog") split_plog(h.evidence.excerpt, module, l->message);
      else if (auto k = kernel_lines_.find({h.evidence.entry, h.evidence.line}); k != kernel_lines_.end())
        l->message = k->second->message, module = k->second->ascend ? k->second->ascend->module : "kernel";
      else l->message = h.evidence.excerpt;
      l->module = module.empty() ? "signature" : module;
      l->code = h.id;
      l->first = l->last = error_time_text(h.time);
      l->add_repeats(h.repeats);
      l->pid = h.pid;
    }
  }

  const BundleFacts& b_;
  const KnowledgeBase& kb_;
  std::set<LineKey> taken_;
  std::map<LineKey, const KernelEvent*> kernel_lines_;  // a kernel hit's message (not its JSON)
  std::vector<ErrorLine> lines_;
};

// Every line a finding cites or accounts for, with the first finding that does.
using Explained = std::map<LineKey, size_t>;
Explained explained_lines(const std::vector<Finding>& findings) {
  Explained out;
  for (size_t i = 0; i < findings.size(); ++i) {
    for (const auto& e : findings[i].evidence)
      if (e.line) out.emplace(LineKey{e.entry, e.line}, i);
    for (const auto& e : findings[i].explains)
      if (e.line) out.emplace(LineKey{e.entry, e.line}, i);
  }
  return out;
}

void keep_ids(std::set<int64_t>& ids, std::optional<int64_t> v) {
  if (v && ids.size() < kMaxIds) ids.insert(*v);
}

std::string list(const std::set<int64_t>& ids) { return fmt::format("{}", fmt::join(ids, ",")); }

// What the catalogue says a code means, in a few words (its first clause, at most 60
// characters): `107002 (The context is empty)`. "" when the catalogue does not know it.
std::string code_meaning(const KnowledgeBase& kb, std::string_view code) {
  if (code.empty()) return {};
  const ErrorCodeInfo* c = kb.find_code(code);
  if (!c || c->meaning.empty()) return {};
  std::string_view m = c->meaning;
  size_t end = std::min(m.find_first_of(".(;:"), m.size());
  while (end > 0 && m[end - 1] == ' ') --end;
  if (end == 0) return {};
  return std::string(m.substr(0, std::min<size_t>(end, 60)));
}

std::string group_line(const Group& g) {
  std::string s = fmt::format("{} {}{}{}{}: {} x{}", g.source, g.module, g.code.empty() ? "" : " ",
                              g.code, g.meaning.empty() ? "" : " (" + g.meaning + ")", g.templ, g.count);
  if (!g.first.empty()) s += fmt::format(", first {}, last {}", g.first, g.last);
  if (!g.pids.empty()) s += ", pid " + list(g.pids);
  if (!g.devices.empty()) s += ", device " + list(g.devices);
  if (!g.ranks.empty()) s += ", rank " + list(g.ranks);
  std::string facts = report_facts_text(g.facts);
  if (std::string more = g.scanned.text(s + " " + facts); !more.empty()) facts += (facts.empty() ? "" : "; ") + more;
  if (!facts.empty()) s += " (" + facts + ")";
  return s;
}

// One failure surfaces in several layers at once: the runtime's `ErrCode=107020`, ACL's
// `runtime result = 107020`, torch_npu's `error code is 107020`, the job logger's `ACL error:
// 107020`, all within the same second of one process. When a finding cites one of them, the
// others are that failure too: a line carrying an error code that a cited line of the same
// process (or of an unknown one) carries, or a line of the same process in the same second.
// Each key maps to the finding that cited the line it came from.
struct SameFailure {
  std::map<std::pair<std::string, int64_t>, size_t> codes;    // (code, pid or -1)
  std::map<std::pair<int64_t, std::string>, size_t> seconds;  // (pid, time text to the second)
  std::vector<std::tuple<std::string_view, uint64_t, uint64_t, size_t>> blocks;  // cited reports: entry, lines
  static std::string second(const std::string& t) { return t.size() >= 19 ? t.substr(0, 19) : std::string(); }
  // The finding that accounts for the line, if any.
  std::optional<size_t> covers(const ErrorLine& l) const {
    if (is_error_code(l.code)) {
      if (auto it = codes.find({l.code, -1}); it != codes.end()) return it->second;
      if (l.pid)
        if (auto it = codes.find({l.code, *l.pid}); it != codes.end()) return it->second;
      if (!l.pid)
        for (const auto& [c, finding] : codes)
          if (c.first == l.code) return finding;
    }
    for (const auto& [entry, first, last, finding] : blocks)  // a detail line of a cited report
      if (l.evidence && l.evidence->entry == entry && l.evidence->line >= first && l.evidence->line <= last)
        return finding;
    std::string sec = second(l.first);
    if (!l.pid || sec.empty()) return std::nullopt;
    if (auto it = seconds.find({*l.pid, sec}); it != seconds.end()) return it->second;
    return std::nullopt;
  }
  // A numeric code or an EXnnnn report code: not a signature id, not an exception type.
  static bool is_error_code(const std::string& c) {
    if (c.empty()) return false;
    if (std::all_of(c.begin(), c.end(), [](char ch) { return is_digit(ch); })) return c.size() >= 5;
    return c.size() == 6 && c[0] == 'E' && std::all_of(c.begin() + 2, c.end(), [](char ch) { return is_digit(ch); });
  }
};

// The finding citing a line of `l`, if any: its first line, its report header, or a line
// inside its CANN error report (a detail such as `Aicpu kernel execute failed, ...`). The
// block's lines follow its first line: the header, the details, the TraceBack line and its
// frames (line numbers are not kept per detail).
std::optional<size_t> citing(const ErrorLine& l, const Explained& explained) {
  for (const EvidenceRef* e : {l.evidence, l.also})
    if (e)
      if (auto it = explained.find({e->entry, e->line}); it != explained.end()) return it->second;
  if (!l.report) return std::nullopt;
  const ErrorReportBlock& r = *l.report;
  uint64_t first = r.evidence.line;
  uint64_t last = first + 2 + r.details.size() + r.frames.size() + r.lines_omitted;
  auto it = explained.lower_bound({r.evidence.entry, first});
  if (it != explained.end() && it->first.first == r.evidence.entry && it->first.second <= last) return it->second;
  return std::nullopt;
}

SameFailure same_failure(const std::vector<ErrorLine>& lines, const Explained& explained) {
  SameFailure s;
  for (const auto& l : lines) {
    auto finding = citing(l, explained);
    if (!finding) continue;
    if (SameFailure::is_error_code(l.code)) s.codes.emplace(std::make_pair(l.code, l.pid.value_or(-1)), *finding);
    if (const ErrorReportBlock* r = l.report) {
      uint64_t first = r->evidence.line;
      s.blocks.emplace_back(r->evidence.entry, first,
                            first + 2 + r->details.size() + r->frames.size() + r->lines_omitted, *finding);
    }
    if (std::string sec = SameFailure::second(l.first); l.pid && !sec.empty())
      s.seconds.emplace(std::make_pair(*l.pid, sec), *finding);
  }
  return s;
}

// Shows a group explained only as the same failure as a cited line on the finding that cited
// it: its first line, and a CANN report's timed header (where the time and pid are printed).
void show_on(Finding& f, const EvidenceRef& e) {
  if (f.same_failure.size() >= Finding::kMaxSameFailure) return;
  for (const auto& x : f.same_failure)
    if (x.entry == e.entry && x.line == e.line) return;
  f.same_failure.push_back(e);
}

// Every text of an error line: the line, its report's timed header, and a CANN report's
// message, details and frames (a frame may print the only code: `ret: 0x7BC80`).
void scan_line(const ErrorLine& l, const KnowledgeBase& kb, LineFacts& facts) {
  if (l.evidence) facts.add(l.evidence->excerpt, &kb);
  if (l.also) facts.add(l.also->excerpt, &kb);
  if (!l.report) return;
  facts.add(l.report->message, &kb);
  for (const auto& d : l.report->details) facts.add(d, &kb);
  for (const auto& fr : l.report->frames) facts.add(fr.text, &kb);
}

// What a finding says already: its words, values and cited lines (a fact there is not repeated).
std::string finding_said(const Finding& f) {
  std::string s = f.title + "\n" + f.observed;
  for (const auto& [k, v] : f.values) s += "\n" + k + "=" + v;
  for (const auto& e : f.evidence) s += "\n" + e.excerpt;
  return s;
}

// Issue 36, facts anywhere: the lines each finding cites, its same-failure lines and the
// lines it accounts for, every finding of a line (a line two readings cite gives both its
// facts: one of them may be folded into the other later, fold_same_event).
using CitedLines = std::multimap<LineKey, size_t>;
CitedLines cited_lines(const std::vector<Finding>& findings) {
  CitedLines cited;
  for (size_t i = 0; i < findings.size(); ++i)
    for (const auto* list : {&findings[i].evidence, &findings[i].same_failure, &findings[i].explains})
      for (const auto& e : *list)
        if (e.line) cited.emplace(LineKey{e.entry, e.line}, i);
  return cited;
}

// A CANN report one of whose lines a finding cites, whoever's error line it became (a
// signature may hold its first line): its frames' codes are that finding's to name.
void cited_reports(const EvidenceSet& evidence, const KnowledgeBase& kb, const CitedLines& cited,
                   std::map<size_t, LineFacts>& accounted) {
  for (const auto& b : evidence.bundles)
    for (const auto& r : b.python.error_reports) {
      uint64_t first = r.evidence.line;
      uint64_t last = first + 2 + r.details.size() + r.frames.size() + r.lines_omitted;
      std::set<size_t> by;
      for (auto it = cited.lower_bound({r.evidence.entry, first});
           it != cited.end() && it->first.first == r.evidence.entry && it->first.second <= last; ++it)
        by.insert(it->second);
      if (r.evidence_header.line)
        for (auto [it, end] = cited.equal_range({r.evidence_header.entry, r.evidence_header.line}); it != end; ++it)
          by.insert(it->second);
      if (by.empty()) continue;
      ErrorLine l;
      l.evidence = &r.evidence, l.also = &r.evidence_header, l.report = &r;
      for (size_t i : by) scan_line(l, kb, accounted[i]);
    }
}

// Each scanned fact (parsers/common/entry_fact_scan.h) goes to the findings citing the
// nearest line of its entry, at most kNearLines away (the lines of one report or one failure
// are together; ties go to the line above: a report's header comes first).
constexpr uint64_t kNearLines = 10;
void near_cited_lines(const KnowledgeBase& kb, const CitedLines& cited, std::map<size_t, LineFacts>& accounted) {
  std::set<std::string_view> entries;
  for (const auto& [k, i] : cited) entries.insert(k.first);
  for (std::string_view entry : entries)
    for (const auto& f : scanned_facts(entry)) {
      const uint64_t line = f.evidence.line;
      auto it = cited.lower_bound({entry, line > kNearLines ? line - kNearLines : 0});
      uint64_t best = 0, best_distance = kNearLines + 1;
      for (; it != cited.end() && it->first.first == entry && it->first.second <= line + kNearLines; ++it) {
        uint64_t d = it->first.second > line ? it->first.second - line : line - it->first.second;
        if (d < best_distance) best_distance = d, best = it->first.second;
      }
      if (best_distance > kNearLines) continue;
      for (auto [at, end] = cited.equal_range({entry, best}); at != end; ++at) accounted[at->second].put(f.key, f.value, &kb);
    }
}

}  // namespace

std::string message_template(std::string_view text) {
  std::string out;
  out.reserve(std::min(text.size(), kMaxTemplate));
  for (size_t i = 0; i < text.size() && out.size() < kMaxTemplate;) {
    if (text[i] == '0' && i + 2 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
        is_hex(text[i + 2])) {
      i += 2;
      while (i < text.size() && is_hex(text[i])) ++i;
      out += '#';
    } else if (is_digit(text[i])) {
      while (i < text.size() && is_digit(text[i])) ++i;
      out += '#';
    } else {
      out += text[i++];
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '.')) out.pop_back();
  return out;
}

void analyze_unexplained_errors(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  const Explained explained = explained_lines(out);  // views into `out`: append only at the end
  std::vector<Finding> added;
  std::map<size_t, LineFacts> accounted;  // per finding: facts of the lines it cites or accounts for
  for (const auto& b : evidence.bundles) {
    std::vector<ErrorLine> lines = Collector(b, kb).run();
    if (lines.empty()) continue;
    const SameFailure same = same_failure(lines, explained);
    std::map<std::tuple<std::string, std::string, std::string, std::string>, Group> groups;
    uint64_t over_lines = 0, over_rows = 0;
    for (const auto& l : lines) {
      std::string templ = message_template(l.message);
      auto key = std::make_tuple(std::string(l.source), l.module, l.code, templ);
      auto it = groups.find(key);
      if (it == groups.end()) {
        if (groups.size() >= kMaxGroups) {
          over_lines += l.count, ++over_rows;
          continue;
        }
        it = groups.emplace(key, Group{}).first;
        Group& g = it->second;
        g.source = l.source, g.module = l.module, g.code = l.code, g.templ = templ;
        g.meaning = code_meaning(kb, l.code);
        g.evidence = *l.evidence;
        add_report_facts(l.evidence->excerpt, g.facts);
        scan_line(l, kb, g.scanned);
        if (l.report) {
          add_report_facts(l.report->message, g.facts);
          for (const auto& d : l.report->details) add_report_facts(d, g.facts);
          for (const auto& fr : l.report->frames) add_report_facts(fr.text, g.facts);
          // The runtime's numeric result behind the report (`runtime result = 107027`).
          if (l.report->runtime_result) g.facts.emplace_back("runtime_result", std::to_string(*l.report->runtime_result));
          g.header = l.also;  // its timed header: the time and pid as printed
        }
        if (const JobEvent* r = l.raised_from) {
          if (!r->call.empty()) g.facts.emplace_back("raised_from", r->call);
          if (!r->library.empty()) g.facts.emplace_back("frame0_library", r->library);
        }
      }
      Group& g = it->second;
      // A later line of the group: the template masks its numbers, its own codes are scanned
      // (at most LineFacts::kMaxPerKey a key).
      if (g.count > 0) scan_line(l, kb, g.scanned);
      g.count += l.count;
      if (!l.first.empty() && (g.first.empty() || l.first < g.first)) g.first = l.first;
      if (!l.last.empty() && (g.last.empty() || l.last > g.last)) g.last = l.last;
      keep_ids(g.pids, l.pid), keep_ids(g.devices, l.device), keep_ids(g.ranks, l.rank);
      if (auto cited_by = citing(l, explained)) {
        g.explained = true;  // a repeat of a cited line
        g.cited = true;
        scan_line(l, kb, accounted[*cited_by]);
      } else if (auto by = same.covers(l)) {
        g.explained = true;  // the same failure in another layer
        if (!g.shown_by) g.shown_by = by, g.shown = *l.evidence, g.shown_also = l.also;
        scan_line(l, kb, accounted[*by]);
      }
    }
    // Earliest lines first (the first error of a failure is the one to read), up to the cap.
    std::vector<const Group*> shown;
    for (const auto& [k, g] : groups)
      if (!g.cited && g.shown_by) shown.push_back(&g);
    std::sort(shown.begin(), shown.end(), [](const Group* a, const Group* c) {
      return std::tie(a->shown.entry, a->shown.line) < std::tie(c->shown.entry, c->shown.line);
    });
    // The cap keeps few lines, so a layer (module and code) not yet shown on the finding goes
    // first: a failure that climbs OP -> NNOP -> APP shows one line of each, with its code,
    // rather than four of the first layer. The kept lines are then put back in file order.
    std::set<std::tuple<size_t, std::string_view, std::string_view>> layers;
    std::vector<const Group*> second;
    std::set<size_t> touched;
    auto show = [&](const Group* g) {
      show_on(out[*g->shown_by], g->shown);
      if (g->shown_also) show_on(out[*g->shown_by], *g->shown_also);
      touched.insert(*g->shown_by);
    };
    for (const Group* g : shown)
      if (layers.emplace(*g->shown_by, g->module, g->code).second)
        show(g);
      else
        second.push_back(g);
    for (const Group* g : second) show(g);
    for (size_t i : touched)
      std::sort(out[i].same_failure.begin(), out[i].same_failure.end(),
                [](const EvidenceRef& a, const EvidenceRef& c) { return std::tie(a.entry, a.line) < std::tie(c.entry, c.line); });
    std::vector<const Group*> open;
    uint64_t total = 0;
    for (const auto& [k, g] : groups)
      if (!g.explained) open.push_back(&g), total += g.count;
    if (open.empty() && over_rows == 0) continue;
    std::stable_sort(open.begin(), open.end(),
                     [](const Group* a, const Group* c) { return a->count > c->count; });
    Finding f;
    f.id = "unexplained-errors";
    f.host = b.host;
    f.severity = Severity::warning;
    f.confidence = Confidence::high;
    std::string top;
    for (size_t i = 0; i < open.size() && i < kTopGroups; ++i)
      top += fmt::format("{}{}", top.empty() ? "" : "; ", group_line(*open[i]));
    f.observed = fmt::format("Error lines, CANN error reports or error codes that no other finding "
                             "cites and no benign signature covers, grouped by source, module, code "
                             "and message with numbers masked. Top: {}.", top);
    if (open.size() > kTopGroups)
      f.observed += fmt::format(" {} more group(s) in the JSON report.", open.size() - kTopGroups);
    if (over_rows)
      f.observed += fmt::format(" {} more line(s) were not grouped: more than {} groups.", over_lines,
                                kMaxGroups);
    render_finding_words(f, ctx.finding_texts,
                         {{"lines", std::to_string(total + over_lines)},
                          {"groups", std::to_string(open.size() + (over_rows ? 1 : 0))}});
    for (size_t i = 0; i < open.size(); ++i) {
      f.evidence.push_back(open[i]->evidence);
      if (open[i]->header) f.evidence.push_back(*open[i]->header);
      f.value(fmt::format("group.{}", i), group_line(*open[i]));
    }
    f.value("lines", std::to_string(total + over_lines)).value("groups", std::to_string(open.size()));
    if (over_rows) f.value("ungrouped_lines", std::to_string(over_lines));
    added.push_back(std::move(f));
  }
  out.insert(out.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  // Issue 36, facts anywhere: a finding names the codes, pids and ids of the lines it accounts
  // for that its own words and cited lines do not show (a report frame's `ret: 0x7BC80`), and
  // those the scanner found in any line read near a line it cites (the header above a device
  // error report, a launcher-prefixed retCode below a cited one).
  const CitedLines cited = cited_lines(out);
  cited_reports(evidence, kb, cited, accounted);
  near_cited_lines(kb, cited, accounted);
  for (auto& [i, facts] : accounted)
    if (std::string text = facts.text(finding_said(out[i])); !text.empty()) out[i].value("facts", text);
}

}  // namespace triage
