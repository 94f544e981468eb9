#include "parsers/kernel/service_lines.h"

namespace triage {

namespace {

bool digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// `E0817 16:52:02.414082 ` (glog: level, MMDD, time with micros)
bool glog_error(std::string_view m) {
  return m.size() > 22 && (m[0] == 'E' || m[0] == 'F') && digits(m, 1, 4) && m[5] == ' ' &&
         digits(m, 6, 2) && m[8] == ':' && digits(m, 9, 2) && m[11] == ':' && digits(m, 12, 2) &&
         m[14] == '.' && digits(m, 15, 6) && m[21] == ' ';
}

bool logrus_error(std::string_view m) {
  for (std::string_view mark : {std::string_view("level=error"), std::string_view("level=fatal")}) {
    size_t at = m.find(mark);
    if (at != std::string_view::npos && (at == 0 || m[at - 1] == ' ') &&
        (at + mark.size() == m.size() || m[at + mark.size()] == ' '))
      return true;
  }
  return false;
}

}  // namespace

bool is_service_error(std::string_view m) {
  return glog_error(m) || m.starts_with("[ERROR]") || logrus_error(m);
}

void keep_service_error(LogFacts& logs, std::string_view entry, const KernelLine& k,
                        uint64_t line_no, uint64_t offset, std::string_view text) {
  if (!is_service_error(k.message)) return;
  if (logs.service_errors.size() >= LogFacts::kMaxServiceErrors) {
    ++logs.service_errors_over_cap;
    return;
  }
  ServiceErrorLine& s = logs.service_errors.emplace_back();
  s.ident = std::string(k.ident);
  if (!k.ident_pid.empty()) {
    int64_t v = 0;
    for (char c : k.ident_pid) v = v * 10 + (c - '0');
    s.pid = v;
  }
  s.time_text = std::string(k.time_text);
  // glog's header repeats the time and the pid: the message keeps `file.go:90] ...`.
  std::string_view msg = k.message;
  if (glog_error(msg)) {
    size_t i = 22;
    while (i < msg.size() && msg[i] == ' ') ++i;
    size_t d = i;
    while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9') ++i;
    if (i > d && i < msg.size() && msg[i] == ' ') msg.remove_prefix(i + 1);
  }
  s.message = std::string(msg);
  s.evidence = make_evidence(entry, line_no, offset, text);
}

}  // namespace triage
