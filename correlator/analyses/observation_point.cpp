#include "correlator/analyses/observation_point.h"

#include <re2/re2.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "correlator/analyses/stream_stall.h"
#include "parsers/common/log_text.h"

namespace triage {
namespace {

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

// Whether the exception is an NPU error that surfaced at a host/device synchronisation: a
// sync call in its message, torch_npu error or CANN report, or a code only a sync returns.
// A failing synchronous call (AclrtSetDevice, 507033) is where its error happened: not here.
bool surfaced_at_sync(const PythonTraceback& t, const PythonFacts& py) {
  if (t.error_code && (*t.error_code == 107020 || *t.error_code == 507046 || *t.error_code == 507048))
    return true;
  if (t.ecode == "EE1002") return true;  // Execution_Error_Stream_Synchronize_Timeout
  auto sync_text = [](std::string_view s) {
    return contains(s, "ynchroniz") || contains(s, "stream sync") || contains(s, "task timeout");
  };
  if (sync_text(t.message)) return true;
  if (t.torch_error && sync_text(py.torch_errors[*t.torch_error].call)) return true;
  if (t.error_report) {
    const auto& r = py.error_reports[*t.error_report];
    if (sync_text(r.message)) return true;
    for (const auto& fr : r.frames)
      if (sync_text(fr.text)) return true;
  }
  for (const auto& fr : t.frames)  // Event.synchronize / torch.npu.synchronize() at the top
    if (fr.function == "synchronize" && contains(fr.file, "npu")) return true;
  return false;
}

struct PidChoice {
  std::optional<int64_t> pid;
  std::string source;  // how the pid is known
};

PidChoice pid_of(const PythonTraceback& t, const PythonFacts& py) {
  if (t.anchor.pid) return {t.anchor.pid, std::string("the traceback's anchor (") +
                                              std::string(to_string(t.anchor.kind)) + ")"};
  if (t.err_line) return {py.err_lines[*t.err_line].pid, "the ERR line"};
  if (t.error_report && py.error_reports[*t.error_report].pid)
    return {py.error_reports[*t.error_report].pid, "the error report"};
  if (t.stream < py.streams.size() && py.streams[t.stream].pid)
    return {py.streams[t.stream].pid, "the output's process tag"};
  return {};
}

std::optional<int64_t> named_stream(const PythonTraceback& t, const PythonFacts& py) {
  static const RE2 re(R"(stream_id=(\d+))");
  int64_t id = 0;
  if (t.error_report && RE2::PartialMatch(py.error_reports[*t.error_report].message, re, &id)) return id;
  if (RE2::PartialMatch(t.message, re, &id)) return id;
  return std::nullopt;
}

int64_t local_us(const CivilTime& c) { return civil_to_epoch_us(c); }

std::string frame_text(const PythonTraceback& t) {
  const PyFrame* f = t.innermost();
  if (!f) return "(no frame)";
  return fmt::format("{}:{} {}", f->file, f->line, f->function.empty() ? "?" : f->function);
}

struct Link {
  const StreamHistory* history = nullptr;
  std::string method;  // "pid", "time proximity", "only stalled process", ""
  std::string why_not;  // when not linked
};

Link choose_link(const std::vector<StreamHistory>& hs, const PidChoice& pid,
                 std::optional<int64_t> stream, std::optional<int64_t> anchor_us) {
  auto best_of = [&](auto&& pred) -> const StreamHistory* {
    const StreamHistory* best = nullptr;
    for (const auto& h : hs) {
      if (!pred(h)) continue;
      bool named = stream && h.stream_id == *stream;
      bool best_named = best && stream && best->stream_id == *stream;
      if (!best || (named && !best_named) ||
          (named == best_named && h.verdict == StreamVerdict::stalled &&
           best->verdict != StreamVerdict::stalled))
        best = &h;
    }
    return best;
  };
  if (pid.pid) {
    const StreamHistory* h = best_of([&](const StreamHistory& x) {
      return x.pid == *pid.pid && x.verdict == StreamVerdict::stalled;
    });
    if (h) return {h, "pid", ""};
    return {nullptr, "", fmt::format("no stalled stream of pid {} in the evidence", *pid.pid)};
  }
  std::set<int64_t> stalled_pids;
  for (const auto& h : hs)
    if (h.verdict == StreamVerdict::stalled) stalled_pids.insert(h.pid);
  if (anchor_us) {
    // The sync error follows the last report by up to a few minutes.
    std::set<int64_t> near;
    for (const auto& h : hs) {
      if (h.verdict != StreamVerdict::stalled) continue;
      int64_t first = civil_to_epoch_us(h.samples[h.frozen_from]->time.civil);
      int64_t last = civil_to_epoch_us(h.samples.back()->time.civil);
      if (*anchor_us >= first && *anchor_us <= last + int64_t{600} * 1000000) near.insert(h.pid);
    }
    if (near.size() == 1) {
      int64_t p = *near.begin();
      return {best_of([&](const StreamHistory& x) { return x.pid == p && x.verdict == StreamVerdict::stalled; }),
              "time proximity", ""};
    }
    if (near.size() > 1) return {nullptr, "", "stalls of several processes end near that time"};
  }
  if (stalled_pids.size() == 1) {
    int64_t p = *stalled_pids.begin();
    return {best_of([&](const StreamHistory& x) { return x.pid == p && x.verdict == StreamVerdict::stalled; }),
            "only stalled process", ""};
  }
  return {nullptr, "", stalled_pids.empty() ? "no stalled stream in the evidence"
                                            : "several processes stalled and nothing names one"};
}

Finding make_finding(const HostGroup& group, const BundleFacts& b, const PythonTraceback& t,
                     const std::vector<StreamHistory>& hs, const FindingTexts& texts) {
  const PythonFacts& py = b.python;
  PidChoice pid = pid_of(t, py);
  bool anchored = t.anchor.kind != PyAnchorKind::none;
  std::optional<int64_t> anchor_us;
  if (anchored) anchor_us = local_us(t.anchor.local);
  Link link = choose_link(hs, pid, named_stream(t, py), anchor_us);
  std::optional<int64_t> chain_pid = pid.pid;
  if (!chain_pid && link.history) chain_pid = link.history->pid;

  std::string code = t.error_code ? std::to_string(*t.error_code) : "";
  std::string ecode = t.ecode;
  if (ecode.empty() && t.error_report) ecode = py.error_reports[*t.error_report].code;

  Finding f;
  f.id = "observation-point";
  f.severity = Severity::warning;
  f.host = group.host;
  const PyFrame* inner = t.innermost();

  // The chain: stall reports -> plog error lines -> ERR line -> E-code -> traceback.
  if (link.history) {
    const auto& h = *link.history;
    f.evidence.push_back(h.samples[h.frozen_from]->evidence);
    f.evidence.push_back(h.samples.back()->evidence);
  }
  std::vector<const ErrorCodeFact*> plog_codes;
  if (chain_pid)
    for (const auto* bb : group.bundles)
      for (const auto& e : bb->logs.error_codes)
        if (e.origin.pid == *chain_pid && plog_codes.size() < 3 &&
            (code.empty() ? e.form == ErrorCodeForm::err_code : e.code == code)) {
          bool dup = false;
          for (const auto* p : plog_codes) dup |= p->evidence.excerpt == e.evidence.excerpt;
          if (!dup) plog_codes.push_back(&e);
        }
  for (const auto* e : plog_codes) f.evidence.push_back(e->evidence);
  // Accounted for without citing: the same code in the process's plog beyond the three cited,
  // and the torch_npu error messages of every exception of this chain (one error surfacing).
  if (chain_pid)
    for (const auto* bb : group.bundles)
      for (const auto& e : bb->logs.error_codes)
        if (e.origin.pid == *chain_pid && !code.empty() && e.code == code)
          f.explains.push_back(EvidenceRef{e.evidence.entry, e.evidence.line, 0, {}});
  for (const auto& te : py.torch_errors)
    if (te.traceback && *te.traceback < py.tracebacks.size() && py.tracebacks[*te.traceback].chain == t.chain)
      f.explains.push_back(EvidenceRef{te.evidence.entry, te.evidence.line, 0, {}});
  if (t.err_line) f.evidence.push_back(py.err_lines[*t.err_line].evidence);
  if (t.error_report) {
    const auto& r = py.error_reports[*t.error_report];
    f.evidence.push_back(r.evidence_header.entry.empty() ? r.evidence : r.evidence_header);
  }
  if (!t.evidence_exception.entry.empty()) f.evidence.push_back(t.evidence_exception);
  if (!t.evidence_innermost.entry.empty()) f.evidence.push_back(t.evidence_innermost);
  if (f.evidence.empty()) f.evidence.push_back(t.evidence_start);

  f.observed = fmt::format("`{}` holds a traceback whose innermost frame is {}", t.evidence_start.entry,
                           frame_text(t));
  if (inner && !inner->source.empty()) f.observed += fmt::format(" (`{}`)", inner->source);
  f.observed += fmt::format(", raising {}: {}.", t.exception_type, t.message);
  if (!code.empty()) f.observed += " Error code " + code + ".";
  if (!ecode.empty()) f.observed += " CANN error report " + ecode + ".";
  if (anchored)
    f.observed += fmt::format(" Time-anchored by {} at {} (local).", to_string(t.anchor.kind),
                              t.anchor.evidence.excerpt.empty() ? "?" : fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                                  t.anchor.local.year, t.anchor.local.month, t.anchor.local.day,
                                  t.anchor.local.hour, t.anchor.local.minute, t.anchor.local.second));
  else
    f.observed += " The traceback is not time-anchored (no ERR line or timed error report of its stream).";
  if (pid.pid) f.observed += fmt::format(" Process {} per {}.", *pid.pid, pid.source);
  if (!plog_codes.empty())
    f.observed += fmt::format(" The plog of that process records it too: `{}`.", plog_codes.front()->evidence.excerpt);

  // Words of the title (the frame or the output, the error) and of the supports (the linked
  // stall, or why none is: variant "unlinked").
  FindingWords words = {
      {"place", inner ? fmt::format("{}:{}", inner->file, inner->line) : "the job output"},
      {"error", code.empty() ? (ecode.empty() ? t.exception_type : ecode) : "error " + code},
      {"pid", chain_pid ? std::to_string(*chain_pid) : "<pid>"},
      {"why_not", link.why_not}};
  if (link.history) {
    const auto& h = *link.history;
    words.insert(words.end(), {{"stream", stream_label(h)},
                               {"link_method", link.method},
                               {"task_id", std::to_string(h.samples.back()->task_id)},
                               {"stream_id", std::to_string(h.stream_id)}});
  }
  render_finding_words(f, texts, words, link.history ? "" : "unlinked");
  int score = 0;
  if (link.history && link.method == "pid") score = 2;
  else if (link.history && link.method == "time proximity") score = 1;
  else if (anchored) score = 1;
  if (score == 2 && plog_codes.empty() && !anchored) score = 1;
  f.confidence = score == 2 ? Confidence::high : score == 1 ? Confidence::medium : Confidence::low;

  f.value("frame", frame_text(t))
      .value("error_code", code.empty() ? "unknown" : code)
      .value("e_code", ecode.empty() ? "unknown" : ecode)
      .value("pid", pid.pid ? std::to_string(*pid.pid) : (link.history ? std::to_string(link.history->pid) : "unknown"))
      .value("linked_to", link.history ? fmt::format("stream-stall {}", stream_label(*link.history)) : "none")
      .value("link_method", link.history ? link.method : "none")
      .value("anchor", std::string(to_string(t.anchor.kind)))
      .value("observed_utc", anchored && t.anchor.time.known() ? format_utc(t.anchor.time.utc_us) : "unknown");
  return f;
}

// The tracebacks one finding stands for.
struct Repeated {
  size_t index = 0;  // of the finding
  size_t count = 1;
  std::string last;  // observed_utc of the last
  std::set<std::pair<std::string, uint64_t>> seen;  // lines it cites or explains
};

}  // namespace

void analyze_observation_point(const AnalysisContext& ctx, std::vector<Finding>& findings) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const HostGroup& group : evidence.groups()) {
    auto histories = stream_histories(group);
    for (const auto* b : group.bundles) {
      // Per exception chain, the first exception that surfaced at a sync (later ones wrap it).
      std::map<size_t, const PythonTraceback*> by_chain;
      for (const auto& t : b->python.tracebacks) {
        if (!surfaced_at_sync(t, b->python)) continue;
        auto [it, fresh] = by_chain.emplace(t.chain, &t);
        if (!fresh && t.chain_position < it->second->chain_position) it->second = &t;
      }
      // One finding per repeated traceback: a job that retries prints the same one thousands
      // of times (issue 35: 20k findings for an 8 MiB log). Same frame, exception, message
      // (digits aside), codes and process: the first is told, the others accounted for.
      std::map<std::vector<std::string>, Repeated> same;
      for (const auto& [chain, t] : by_chain) {
        Finding f = make_finding(group, *b, *t, histories, ctx.finding_texts);
        std::vector<std::string> key = {std::to_string(message_template_key(t->message)), t->exception_type};
        for (std::string_view v : {"frame", "error_code", "e_code", "pid"}) key.push_back(*f.find_value(v));
        auto [it, first] = same.try_emplace(std::move(key));
        Repeated& r = it->second;
        if (first) {
          r.index = findings.size();
          for (const auto* list : {&f.evidence, &f.explains})
            for (const auto& e : *list) r.seen.insert({e.entry, e.line});
          findings.push_back(std::move(f));
          continue;
        }
        ++r.count;
        r.last = *f.find_value("observed_utc");
        Finding& kept = findings[r.index];
        for (const auto* list : {&f.evidence, &f.explains})
          for (const auto& e : *list)
            if (e.line && r.seen.insert({e.entry, e.line}).second)
              kept.explains.push_back(EvidenceRef{e.entry, e.line, 0, {}});
      }
      for (auto& [key, r] : same) {
        if (r.count == 1) continue;
        Finding& f = findings[r.index];
        f.observed += fmt::format(" The same traceback (frame, exception, codes, process) is printed {} times{}: "
                                  "the others are counted here, not reported again.",
                                  r.count, r.last == "unknown" ? "" : ", the last at " + r.last + " UTC");
        f.value("tracebacks", std::to_string(r.count));
      }
    }
  }
}

}  // namespace triage
