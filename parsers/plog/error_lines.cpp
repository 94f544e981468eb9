#include "parsers/plog/error_lines.h"

#include <algorithm>

#include "model/strings.h"

namespace triage {
namespace {

// The error number a plog message states (`errno[561103]`, `ErrorNo: 1343250441(...)`), so a
// group is keyed by its code as job output's are; "" when it states none.
std::string plog_code(std::string_view message) {
  for (std::string_view tag : {std::string_view("errno["), std::string_view("ErrorNo: ")}) {
    size_t at = message.find(tag);
    if (at == std::string_view::npos) continue;
    size_t i = at + tag.size(), j = i;
    while (j < message.size() && j - i < 12 && is_digit(message[j])) ++j;
    if (j > i) return std::string(message.substr(i, j - i));
  }
  return {};
}

}  // namespace

void split_plog(std::string_view line, std::string& module, std::string& message) {
  size_t lvl = line.find("] ");
  size_t open = lvl == std::string_view::npos ? lvl : line.find('(', lvl);
  size_t close = open == std::string_view::npos ? open : line.find("):", open);
  if (close == std::string_view::npos) {
    message = std::string(line);
    return;
  }
  module = std::string(line.substr(lvl + 2, open - lvl - 2));
  size_t loc = line.find(']', close);
  size_t i = loc == std::string_view::npos ? close + 2 : loc + 1;
  while (i < line.size() && is_digit(line[i])) ++i;  // the thread id after [file:line]
  while (i < line.size() && line[i] == ' ') ++i;
  message = std::string(line.substr(std::min(i, line.size())));
}

bool is_plog_error(std::string_view excerpt) {
  size_t at = excerpt.find("[ERROR]");
  return at != std::string_view::npos && at < 64;
}

void plog_coded_error_lines(const BundleFacts& b, ErrorLineSink& out) {
  for (const auto& e : b.logs.error_codes) {
    ErrorLine* l = out.add("plog", e.evidence);
    if (!l) continue;
    std::string module;
    split_plog(e.evidence.excerpt, module, l->message);
    l->module = e.module.empty() ? module : e.module;
    l->code = e.code;
    l->first = l->last = error_time_text(e.time);
    l->add_repeats(e.repeats);
    if (e.origin.pid) l->pid = e.origin.pid;
    l->device = e.device_id;
  }
}

void plog_error_rows(const BundleFacts& b, ErrorLineSink& out) {
  for (const auto& p : b.logs.plog_entries)
    for (const auto& r : p.level_lines) {
      if (r.level != PlogLevel::error) continue;
      ErrorLine* l = out.add("plog", r.evidence);
      if (!l) continue;
      split_plog(r.evidence.excerpt, l->module, l->message);
      l->code = r.code.empty() ? plog_code(l->message) : r.code;
      l->count = r.count;
      l->first = error_time_text(r.first);
      l->last = error_time_text(r.last);
      if (r.pid) l->pid = r.pid;
      l->device = p.device_id;
    }
}

}  // namespace triage
