#include "ingest/sniff_job_text.h"

#include <fmt/format.h>

#include "ingest/head_lines.h"
#include "knowledge/error_levels.h"
#include "knowledge/job_text_forms.h"
#include "parsers/common/line_prefix.h"

namespace triage {

namespace {

// A Markdown document (a README, a ticket's notes) quotes log lines in prose: it is not a log.
bool markdown_document(std::string_view first_line, uint32_t headings, uint32_t fences) {
  return first_line.starts_with("# ") && (headings > 0 || fences > 0);
}

}  // namespace

std::optional<SniffResult> sniff_job_text(std::string_view head, bool whole) {
  const JobTextForms& forms = job_text_forms_for("");
  const ErrorLevels& levels = error_levels_for("");
  uint32_t nonempty = 0, levelled = 0, text_errors = 0, progress = 0, headings = 0, fences = 0;
  uint32_t first_error = 0, first_progress = 0, lines = 0;
  std::string_view first_line, error_form, progress_form;
  HeadLines head_lines(head, whole);
  std::string_view line;
  while (head_lines.next(line)) {
    ++lines;
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (++nonempty == 1) first_line = line;
    if (line.starts_with("## ")) ++headings;
    if (line.starts_with("```")) ++fences;
    LinePrefix p = split_line_prefix(line, {});
    std::string_view text = p.logger.empty() ? p.body : p.logger;
    uint8_t roles = forms.roles(p.body);
    if ((roles & kTextError) && !p.logger.empty()) roles |= forms.roles(p.logger) & kTextBelowError;
    if (roles & kTextProgress) {
      if (progress++ == 0) {
        first_progress = lines;
        if (const auto* f = forms.first(p.body, kTextProgress)) progress_form = f->id;
      }
    }
    bool level = !(roles & kTextBelowError) && levels.first(text) >= 0;
    if (level || JobTextForms::is_error(roles)) {
      level ? ++levelled : ++text_errors;
      if (first_error == 0) {
        first_error = lines;
        if (!level)
          if (const auto* f = forms.first(p.body, kTextError)) error_form = f->id;
      }
    }
  }
  if (nonempty == 0 || markdown_document(first_line, headings, fences)) return std::nullopt;
  if (progress >= 2 || (progress == 1 && progress * 4 >= nonempty))
    return SniffResult{SourceKind::python_log,
                       fmt::format("job output: {} progress line{} of a training or serving run "
                                   "(first at line {}: {})",
                                   progress, progress == 1 ? "" : "s", first_progress, progress_form)};
  // An error level at the start of a line is a log's own; an error word in prose needs a
  // quarter of the lines, so that a document mentioning a failure is not read as a log.
  uint32_t errors = levelled + text_errors;
  if (levelled > 0 || (text_errors > 0 && errors * 4 >= nonempty))
    return SniffResult{SourceKind::python_log,
                       fmt::format("text log of unknown shape: {} error-level line{} among {} "
                                   "(first at line {}{})",
                                   errors, errors == 1 ? "" : "s", nonempty, first_error,
                                   error_form.empty() ? "" : fmt::format(": {}", error_form))};
  return std::nullopt;
}

}  // namespace triage
