// failure-class: every failure line the parsers kept (tracebacks, CANN error reports, ERR
// lines, torch_npu errors, warnings, plog error codes, signature hits, plog ERROR lines) is
// looked up in knowledge/failure-classes.tsv by its codes, then by its text. One finding per
// class and bundle, with up to 8 evidence lines; which row matched is kept in the values.
#include "correlator/analyses/failure_class.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/strings.h"
#include "knowledge/failure_classes.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"

namespace triage {
namespace {

struct Hit {
  const FailureClassInfo* row = nullptr;
  std::string text;  // the line's text as the fact holds it
  EvidenceRef evidence;
  std::string library;  // a signature's `library` capture (the excerpt may be cut before it)
  std::string call;     // a traceback's allocating call (`torch.empty`), see allocating_call
};

// `Tried to allocate more than 1EB` / `8.00 EiB` / `2.00 PiB`: no device holds that much, so
// the size is corrupted (signature memory/impossible-allocation-size says so), not memory
// pressure: such a line is no device-memory/exhausted.
bool impossible_allocation(std::string_view text) {
  size_t p = text.find("Tried to allocate ");
  if (p == std::string_view::npos) return false;
  std::string_view rest = text.substr(p + 18);
  if (rest.rfind("more than ", 0) == 0) return true;
  size_t unit = rest.find_first_not_of("0123456789. ");
  if (unit == std::string_view::npos || unit == 0) return false;
  std::string_view u = rest.substr(unit, 3);
  return u.rfind("PiB", 0) == 0 || u.rfind("EiB", 0) == 0 || u.rfind("PB", 0) == 0 || u.rfind("EB", 0) == 0;
}

struct Collector {
  const FailureClasses& table;
  std::map<std::string, std::vector<Hit>> by_class;
  std::set<std::pair<std::string, uint64_t>> seen;  // (entry, line): one line counts once

  // Codes first (exact), then the phrases in `text`.
  void line(std::initializer_list<std::string_view> codes, std::string_view text, const EvidenceRef& ev,
            std::string call = {}) {
    const FailureClassInfo* row = nullptr;
    for (auto c : codes)
      if (!row) row = table.of_code(c);
    if (!row) row = table.of_text(text);
    if (!row && text != ev.excerpt) row = table.of_text(ev.excerpt);
    if (row && row->klass == "device-memory" && (impossible_allocation(text) || impossible_allocation(ev.excerpt)))
      return;
    if (row) add(row, text, ev, {}, row->klass == "device-memory" ? std::move(call) : std::string());
  }
  void add(const FailureClassInfo* row, std::string_view text, const EvidenceRef& ev, std::string library = {},
           std::string call = {}) {
    if (!ev.entry.empty() && !seen.insert({ev.entry, ev.line}).second) return;
    by_class[row->klass].push_back(Hit{row, std::string(text), ev, std::move(library), std::move(call)});
  }
};

std::string num(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); }

// A line a benign signature matched (start-up noise such as vLLM's optional CUDA extension
// failing to import on an NPU host) supports no failure class.
void skip_benign(const BundleFacts& b, const KnowledgeBase& kb, Collector& c) {
  for (const auto& h : b.logs.signature_hits)
    if (const Signature* s = kb.find_signature(h.id); s && s->outcome == "benign")
      c.seen.insert({h.evidence.entry, h.evidence.line});
}

// A module missing while the innermost frame is CANN's own Python code (the toolkit's
// python/site-packages: tbe, te, ...) is a dependency CANN needs that this Python lacks, not
// the job's import: the marker lets a phrase row of failure-classes.tsv name that class.
constexpr std::string_view kCannImportMarker = "[raised while CANN's Python package imported it]";
bool missing_module_in_cann(const PythonTraceback& t) {
  if (t.frames.empty() || t.message.rfind("No module named ", 0) != 0) return false;
  const std::string& file = t.frames.back().file;
  return file.find("/ascend-toolkit/") != std::string::npos ||
         file.find("/Ascend/") != std::string::npos || file.find("/cann-") != std::string::npos;
}

// torch_npu's own output somewhere in the bundle: its `[ERROR] <time> (PID:..) ERRnnnnn` lines,
// or a traceback frame inside its package. Then torch_npu is installed and ran in some process
// of the job, and an npu device string torch does not know (job-code) comes from a process
// that never imported it (the launch code); without it, the plug-in may be missing altogether.
bool torch_npu_loaded(const BundleFacts& b) {
  if (!b.python.err_lines.empty()) return true;
  for (const auto& t : b.python.tracebacks)
    for (const auto& f : t.frames)
      if (f.file.find("/torch_npu/") != std::string::npos) return true;
  return false;
}

// The call that allocated, for an out-of-memory traceback: the source line of the innermost
// frame outside torch and torch_npu (their wrappers, `transfer_to_npu`'s `return fn(...)`),
// up to its first `(`: `self.cache = torch.empty(` -> `torch.empty`. "" when none.
std::string allocating_call(const PythonTraceback& t) {
  for (auto f = t.frames.rbegin(); f != t.frames.rend(); ++f) {
    if (f->file.find("/torch/") != std::string::npos || f->file.find("/torch_npu/") != std::string::npos) continue;
    std::string_view src = f->source;
    size_t paren = src.find('(');
    if (paren == std::string_view::npos || paren == 0) return {};
    size_t start = paren;
    while (start > 0 && (is_alnum(src[start - 1]) || src[start - 1] == '_' || src[start - 1] == '.')) --start;
    std::string_view name = src.substr(start, paren - start);
    if (name.empty() || name.front() == '.' || is_digit(name.front())) return {};
    return std::string(name);
  }
  return {};
}

void collect(const BundleFacts& b, Collector& c) {
  for (const auto& t : b.python.tracebacks) {
    if (!t.complete) continue;
    std::string text = t.exception_type + ": " + t.message;
    if (missing_module_in_cann(t)) text = fmt::format("{} {}", kCannImportMarker, text);
    c.line({t.ecode, num(t.error_code)}, text, t.evidence_exception.entry.empty() ? t.evidence_start : t.evidence_exception,
           allocating_call(t));
  }
  for (const auto& r : b.python.error_reports) {
    const EvidenceRef& ev = r.evidence_header.entry.empty() ? r.evidence : r.evidence_header;
    std::string text = r.message;
    for (const auto& d : r.details) text += "\n" + d;
    for (const auto& f : r.frames) text += "\n" + f.text;
    c.line({r.code, num(r.runtime_result)}, text, ev);
  }
  for (const auto& e : b.python.err_lines) c.line({e.code}, e.text + "\n" + e.error_text, e.evidence);
  for (const auto& t : b.python.torch_errors) c.line({num(t.error_code)}, t.call + " " + t.reason, t.evidence);
  for (const auto& w : b.python.warnings) c.line({num(w.error_code)}, w.message, w.evidence);
  for (const auto& e : b.logs.error_codes) c.line({e.code}, e.description, e.evidence);
  for (const auto& h : b.logs.signature_hits)
    if (const auto* row = c.table.of_signature(h.id)) c.add(row, h.evidence.excerpt, h.evidence, capture_of(h, "library"));
  for (const auto& s : b.logs.plog_entries)
    for (const auto& l : s.level_lines)
      if (l.level == PlogLevel::error) c.line({}, l.evidence.excerpt, l.evidence);
  // torch_npu's out-of-memory message outside a traceback the reader could parse (after a
  // wrapper's `Error:` prefix): the same words as in one. Other job lines are not read here:
  // a loader line alone weighs less (loader-line), and a code in a logger's line is no report.
  for (const auto& e : b.python.job_events)
    if (e.kind == JobEventKind::npu_out_of_memory) c.line({}, e.evidence.excerpt, e.evidence);
}

// "…/libtorch_npu.so: undefined symbol: _ZN5torch…" -> library, symbol (basename of the path).
void library_and_symbol(std::string_view text, std::string& library, std::string& symbol) {
  auto token_before = [&](size_t pos) {
    std::string_view head = text.substr(0, pos);
    size_t start = head.find_last_of(" \t'\"(");
    std::string_view tok = start == std::string_view::npos ? head : head.substr(start + 1);
    size_t slash = tok.rfind('/');
    return std::string(slash == std::string_view::npos ? tok : tok.substr(slash + 1));
  };
  if (size_t p = text.find(": undefined symbol: "); p != std::string_view::npos) {
    library = token_before(p);
    std::string_view rest = text.substr(p + 20);
    symbol = std::string(rest.substr(0, rest.find_first_of(" \t'\"\n")));
  } else if (size_t q = text.find(": cannot open shared object file"); q != std::string_view::npos) {
    library = token_before(q);
  } else {
    // A component's own load failure names the file by its path (`Fail to load so file
    // /usr/.../libops_fusion_pass_aicore.so, ...`): the first lib*.so token.
    for (size_t at = text.find(".so"); at != std::string_view::npos; at = text.find(".so", at + 3)) {
      size_t end = at + 3;
      while (end + 1 < text.size() && text[end] == '.' && is_digit(text[end + 1])) {  // `.so.1.2`
        ++end;
        while (end < text.size() && is_digit(text[end])) ++end;
      }
      if (end < text.size() && (is_alnum(text[end]) || text[end] == '_')) continue;  // `.sock`, `.so_x`
      std::string name = token_before(end);
      if (name.rfind("lib", 0) == 0 && name.size() > 6) {
        library = std::move(name);
        return;
      }
    }
  }
}

// The operator a line names: `call aclnnXxx failed`, `OpName:[X]`, `optype [X]`,
// `OPS function error: X`, `operator name is X`.
std::string operator_of(std::string_view text) {
  // autograd names the backward step whose saved tensor was changed in place:
  // `..., which is output 0 of <Op>Backward0, is at version 2; ...`.
  if (size_t p = text.find("which is output "); p != std::string_view::npos) {
    size_t of = text.find(" of ", p);
    size_t end = of == std::string_view::npos ? of : text.find_first_of(", ", of + 4);
    if (end != std::string_view::npos && end > of + 4) return std::string(text.substr(of + 4, end - of - 4));
  }
  struct Form { std::string_view before, stop; };
  static constexpr Form kForms[] = {{"call aclnn", " "}, {"OpName:[", "]"}, {"optype [", "]"},
                                    {"optype[", "]"},    {"OPS function error: ", ","},
                                    {"operator name is ", " .\n"}};
  for (const auto& f : kForms) {
    size_t p = text.find(f.before);
    if (p == std::string_view::npos) continue;
    size_t start = p + f.before.size();
    if (f.before == "call aclnn") start = p + 5;  // keep the aclnn prefix
    size_t end = text.find_first_of(f.stop, start);
    std::string_view name = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    while (!name.empty() && (name.back() == '.' || name.back() == ',')) name.remove_suffix(1);
    if (!name.empty()) return std::string(name);
  }
  return {};
}

// `Tried to allocate 386.00 MiB (NPU 2; 60.97 GiB total capacity; ...)`: the figures.
std::string oom_figures(std::string_view text) {
  size_t p = text.find("Tried to allocate ");
  if (p == std::string_view::npos) return {};
  std::string_view rest = text.substr(p);
  size_t close = rest.find(')');
  return std::string(rest.substr(0, close == std::string_view::npos ? std::min<size_t>(rest.size(), 200) : close + 1));
}

// "yes" when a library the lines name is one the torch / torch_npu / CANN / NNAL / driver stack
// installs (the `library` rows of failure-classes.tsv, by file-name prefix), "no" when none is
// (the job's own dependency: no Ascend package mismatch explains it), "unknown" when no line
// names a library.
std::string library_stack(const FailureClasses& table, const std::vector<std::string>& libraries) {
  if (libraries.empty()) return "unknown";
  for (const auto& lib : libraries) {
    std::string_view name = lib;
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    for (const auto& row : table.rows)
      if (row.match == "library" && name.substr(0, row.text.size()) == row.text) return "yes";
  }
  return "no";
}

void add_unique(std::vector<std::string>& v, std::string s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

// One `id = "..."` per class: explain_catalogue_test reads the ids from these lines.
void set_id(Finding& f, std::string_view klass) {
  if (klass == "operator") f.id = "operator-error";
  else if (klass == "job-code") f.id = "job-code";
  else if (klass == "device-memory") f.id = "device-memory/exhausted";
  else if (klass == "library-load") f.id = "library-load/failed";
  else if (klass == "install-mismatch") f.id = "install-mismatch";
  else if (klass == "import-path") f.id = "import-path";
}

// The classes in report order; their words are data (knowledge/findings/failure-classes.tsv).
constexpr std::string_view kClasses[] = {"operator",     "job-code",         "device-memory",
                                         "library-load", "install-mismatch", "import-path"};

}  // namespace

void analyze_failure_class(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const FailureClasses& table = ctx.failure_classes;
  for (const auto& b : evidence.bundles) {
    Collector c{table, {}, {}};
    skip_benign(b, ctx.knowledge, c);
    collect(b, c);
    for (std::string_view klass : kClasses) {
      auto it = c.by_class.find(std::string(klass));
      if (it == c.by_class.end()) continue;
      const std::vector<Hit>& hits = it->second;
      std::vector<std::string> matched, meanings, libraries, symbols, operators, figures;
      // Only bare loader lines (signature rows, no traceback or report saying it): a plug-in
      // loader's probe may print one per backend it tries, so the verdict weighs it less.
      bool only_signature_rows = std::all_of(hits.begin(), hits.end(),
                                             [](const Hit& h) { return h.row->match == "signature"; });
      for (const auto& h : hits) {
        add_unique(matched, h.row->text);
        add_unique(meanings, h.row->meaning);
        std::string lib, sym;
        library_and_symbol(h.text, lib, sym);
        if (lib.empty()) library_and_symbol(h.evidence.excerpt, lib, sym);
        if (lib.empty()) lib = h.library;
        add_unique(libraries, lib);
        add_unique(symbols, sym);
        add_unique(operators, operator_of(h.text));
        add_unique(operators, h.call);
        add_unique(figures, oom_figures(h.text));
      }
      Finding f;
      set_id(f, klass);
      f.host = b.host;
      f.severity = Severity::error;
      f.confidence = hits.size() > 1 || matched.size() > 1 ? Confidence::high : Confidence::medium;
      f.observed = fmt::format("{} line(s) matched {}: {}.{}{}{}{}", hits.size(), fmt::join(matched, ", "),
                               fmt::join(meanings, "; "),
                               libraries.empty() ? "" : fmt::format(" Library: {}.", fmt::join(libraries, ", ")),
                               symbols.empty() ? "" : fmt::format(" Missing symbol: {}.", fmt::join(symbols, ", ")),
                               operators.empty() ? "" : fmt::format(" Operator: {}.", fmt::join(operators, ", ")),
                               figures.empty() ? "" : fmt::format(" {}.", fmt::join(figures, "; ")));
      // "#named": the title names the libraries or operators the lines give.
      bool named = (klass == "library-load" && !libraries.empty()) ||
                   (klass == "operator" && !operators.empty());
      render_finding_words(f, ctx.finding_texts,
                           {{"libraries", fmt::format("{}", fmt::join(libraries, ", "))},
                            {"operators", fmt::format("{}", fmt::join(operators, ", "))},
                            {"library", libraries.empty() ? "<library>" : libraries.front()}},
                           named ? "named" : "");
      for (const auto& h : hits)
        if (f.evidence.size() < 8) f.evidence.push_back(h.evidence);
      f.value("class", std::string(klass))
          .value("matched", fmt::format("{}", fmt::join(matched, ",")))
          .value("count", std::to_string(hits.size()))
          .value("library", fmt::format("{}", fmt::join(libraries, ",")))
          .value("symbol", fmt::format("{}", fmt::join(symbols, ",")))
          .value("operator", fmt::format("{}", fmt::join(operators, ",")))
          .value("library_kind", klass != "library-load" ? ""
                                 : !symbols.empty()           ? "undefined-symbol"
                                 : only_signature_rows        ? "loader-line"
                                                              : "missing-library")
          .value("library_stack", klass != "library-load" ? "" : library_stack(table, libraries));
      if (klass == "job-code") f.value("torch_npu_loaded", torch_npu_loaded(b) ? "yes" : "no");
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
