#include "python_test_util.h"

#include <fmt/format.h>

#include "bundle/byte_source.h"
#include "ingest/finalize.h"
#include "parsers/job/python_parser.h"

namespace triage::pytest {

Parsed parse_python_text(std::string_view text, const AnalyzeOptions& options, std::string path) {
  Parsed p;
  EntryInfo entry;
  entry.path = path;
  entry.display = path;
  ParseContext ctx{entry, p.facts, p.stats, options};
  StringSource src(text);
  parse_python_log(ctx, src);
  finalize_facts(p.facts, options);
  return p;
}

namespace {
std::string basename(const std::string& path) {
  size_t k = path.find_last_of('/');
  return k == std::string::npos ? path : path.substr(k + 1);
}
std::string code(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; }
std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }
template <class T, class F>
std::string join(const std::vector<T>& v, F f) {
  std::string out;
  for (const auto& x : v) {
    if (!out.empty()) out += ',';
    out += f(x);
  }
  return out.empty() ? "-" : out;
}
}  // namespace

std::string summarise(const Parsed& p) {
  const PythonFacts& py = p.facts.python;
  // The traceback an analysis would look at first: the last finally-raised one.
  const PythonTraceback* t = nullptr;
  for (const auto& x : py.tracebacks)
    if (x.last_in_chain) t = &x;
  std::string innermost = "-", exception = "-", error_code = "-", ecode = "-", anchor = "-";
  if (t) {
    if (const PyFrame* f = t->innermost())
      innermost = fmt::format("{}:{}:{}", basename(f->file), f->line, f->function);
    exception = or_dash(t->exception_type) + (t->truncated ? "(truncated)" : "");
    error_code = code(t->error_code);
    ecode = or_dash(t->ecode);
    const PyTimeAnchor& a = t->anchor;
    if (a.kind == PyAnchorKind::none) anchor = "none";
    else
      anchor = fmt::format("{}:pid={},device={},rank={},{}{}", to_string(a.kind),
                           a.pid ? std::to_string(*a.pid) : "-",
                           a.device ? std::to_string(*a.device) : "-",
                           a.rank ? std::to_string(*a.rank) : "-", a.time.original,
                           a.after_exception ? "" : ",before");
  }
  std::string torch = join(py.torch_errors, [](const TorchNpuError& e) {
    return e.error_code ? fmt::format("{}={}", to_string(e.kind), *e.error_code)
                        : std::string(to_string(e.kind));
  });
  std::string errs = join(py.err_lines, [](const ErrLine& e) { return e.code; });
  std::string reports = join(py.error_reports, [](const ErrorReportBlock& b) {
    return fmt::format("{}:{}:{}", b.code, to_string(b.style), code(b.runtime_result));
  });
  std::string warnings = join(py.warnings, [](const TorchWarning& w) {
    return fmt::format("{}:{}:{}", w.python_warning ? std::string("py") : std::string(1, w.level),
                       code(w.error_code), or_dash(w.function));
  });
  return fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}/{}/{}", py.tracebacks.size(),
                     innermost, exception, error_code, ecode, anchor, torch, errs, reports,
                     warnings, p.stats.parsed, p.stats.unrecognised, p.stats.malformed);
}

}  // namespace triage::pytest
