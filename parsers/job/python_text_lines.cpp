// Job-output lines that no line grammar reads (issue 36), by the forms of
// knowledge/job-text-forms.tsv: an error-level line of any shape joins unexplained-errors
// with the codes it names; a healthy run's progress line is a known shape. And the handled
// errors: the error lines just before a logged successful fallback (the signature
// job/handled-error of knowledge/signatures/job.json) are cited by it, not left unexplained.
#include <algorithm>
#include <optional>

#include "parsers/common/log_text.h"
#include "parsers/job/job_lines.h"
#include "parsers/job/python_parser_state.h"

namespace triage::pyparse {

namespace {

constexpr std::string_view kHandledSignature = "job/handled-error";
constexpr std::string_view kErrorTextForm = "error text";
// Stream lines between an error line and the fallback that handles it; a traceback between
// them counts as one line (its exception line is the one measured).
constexpr uint64_t kHandledWindow = 5;
constexpr uint64_t kErrorTextSalt = 0x6a6f622d74657874;  // "job-text": keys apart from level forms

bool handled_kind(JobEventKind k) {
  switch (k) {
    case JobEventKind::level_line:
    case JobEventKind::acl_call_failed:
    case JobEventKind::library_missing:
    case JobEventKind::undefined_symbol:
    case JobEventKind::dcmi_error:
    case JobEventKind::driver_error:
    case JobEventKind::component_error:
    case JobEventKind::framework_log:
    case JobEventKind::app_log:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool PythonLogParser::text_line(StreamState& s, const Prefix& p) {
  // A tool's own error text as the entry's first line (`cat: x: No such file or directory`)
  // says the file was not collected (parsers/common/tool_error.h), not that the job failed.
  if (!tool_error_.empty() && ctx_.stats.lines <= 3) return false;
  // A logger prefix split off the line (vLLM's `INFO 04-18 15:43:36 [x.py:12] `) that no
  // error-level form took is a lower level: the line is that logger's record, known already.
  if (p.logger_prefix) return false;
  uint8_t roles = text_forms_.roles(p.body);
  if (roles == 0) return false;
  if (!JobTextForms::is_error(roles)) return (roles & kTextProgress) != 0;
  // Storm bound as level_line's: past kPlogKeptPerTemplate kept lines of one template in a
  // stream, a line is counted on the last kept one.
  uint64_t key = mix64(mix64(message_template_key(p.body), kErrorTextSalt),
                       mix64(static_cast<uint64_t>(p.pid.value_or(-1)), s.index));
  if (auto it = level_templates_.find(key); it != level_templates_.end() &&
                                            it->second.kept >= kPlogKeptPerTemplate &&
                                            it->second.last < py_.job_events.size()) {
    ++py_.job_events[it->second.last].repeats;
    return true;
  }
  std::string_view msg = trim(p.body);
  if (msg.empty()) return true;
  JobEvent e;
  e.stream = s.index;
  e.kind = JobEventKind::level_line;
  e.form = std::string(kErrorTextForm);
  e.pid = p.pid;
  e.call = cap(msg, kMaxText);
  e.code = levels_.code(msg);
  e.device = joblines::device_named(msg);
  if (auto i = add_job_event(std::move(e))) {
    LevelSlot& slot = level_templates_[key];
    ++slot.kept;
    slot.last = *i;
  }
  return true;
}

void PythonLogParser::handled_errors(const StreamState& s, size_t from) {
  auto& hits = ctx_.facts.logs.signature_hits;
  std::optional<SignatureHit> fallback;
  for (size_t i = from; i < hits.size() && !fallback; ++i)
    if (hits[i].id == kHandledSignature) fallback = hits[i];
  if (!fallback) return;
  const uint64_t line = cur_->number;
  uint64_t start = line > kHandledWindow ? line - kHandledWindow : 0;
  auto mark = [&](const EvidenceRef& ev) {
    SignatureHit h;
    h.id = fallback->id;
    h.severity = fallback->severity;
    h.category = fallback->category;
    h.source = fallback->source;
    h.pid = fallback->pid;
    h.captures = {{"handled_by", cap(trim(fallback->evidence.excerpt), kMaxText)}};
    h.evidence = ev;
    hits.push_back(std::move(h));
  };
  // A traceback whose exception line is within the window: handled, and the window reaches
  // back to the line before its header (the ERROR record logging.exception printed).
  for (size_t i = py_.tracebacks.size(), seen = 0; i > tb_base_ && seen < 64; --i, ++seen) {
    const PythonTraceback& t = py_.tracebacks[i - 1];
    if (t.stream != s.index) continue;
    if (!t.complete || t.evidence_exception.entry.empty() || t.evidence_exception.line >= line) continue;
    if (t.evidence_exception.line + kHandledWindow < line) break;
    mark(t.evidence_exception);
    uint64_t header = t.evidence_start.line;
    start = std::min(start, header > 2 ? header - 2 : 0);
  }
  for (size_t i = py_.job_events.size(); i > 0; --i) {
    const JobEvent& e = py_.job_events[i - 1];
    if (e.evidence.entry != entry_ || e.evidence.line < start) break;
    if (e.stream == s.index && handled_kind(e.kind) && e.evidence.line < line) mark(e.evidence);
  }
}

}  // namespace triage::pyparse
