#include "parsers/common/level_line.h"

#include "model/strings.h"
#include "parsers/common/log_text.h"

namespace triage {

namespace {

bool all_digits(std::string_view s) {
  for (char c : s)
    if (!is_digit(c)) return false;
  return !s.empty();
}

// An error word just before a number: `ret[`, `error code `, `ACL error: `, `ErrCode=`,
// `result = `, `errno[` (case aside). A bare six-digit number (a size, a step, a pid) is no code.
bool error_word_before(std::string_view msg, size_t at) {
  size_t from = at > 24 ? at - 24 : 0;
  std::string_view w = msg.substr(from, at - from);
  for (std::string_view word : {"code", "Code", "CODE", "ret", "Ret", "result", "error", "Error", "ERROR", "errno"})
    if (w.find(word) != std::string_view::npos) return true;
  return false;
}

}  // namespace

LevelReader::LevelReader(const std::string& knowledge_dir)
    : levels_(error_levels_for(knowledge_dir)), kb_(knowledge_for(knowledge_dir)) {}

bool LevelReader::find(std::string_view head, std::string_view body, LevelHit& out) const {
  // One contiguous text when the logger prefix sits right before the body in the line.
  bool joined = head.empty() || head.data() + head.size() == body.data();
  std::string_view text = head.empty() ? body : joined ? std::string_view(head.data(), head.size() + body.size()) : head;
  int form = levels_.first(text);
  if (form < 0) return false;
  out.form = form;
  out.text = text;
  out.message_is_body = !joined;
  out.blank = !head.empty() && trim(body).empty();
  out.key = mix64(message_template_key(text), static_cast<uint64_t>(form));
  return true;
}

bool LevelReader::read(const LevelHit& hit, std::string_view body, LevelLine& out) const {
  ErrorLevelMatch m;
  if (!levels_.groups(hit.text, hit.form, m)) return false;
  out = {};
  out.form = m.form;
  out.level = m.level;
  out.message = trim(hit.message_is_body ? body : m.message);
  out.time = m.time;
  out.module = m.module;
  out.where = m.where;
  if (!m.pid.empty() && m.pid.size() <= 12 && all_digits(m.pid)) {
    int64_t v = 0;
    for (char c : m.pid) v = v * 10 + (c - '0');
    out.pid = v;
  }
  return true;
}

bool LevelReader::read(std::string_view head, std::string_view body, LevelLine& out) const {
  LevelHit hit;
  return find(head, body, hit) && read(hit, body, out);
}

std::string LevelReader::code(std::string_view msg) const {
  std::string_view six;
  for (size_t i = 0; i < msg.size();) {
    if (!is_alnum(msg[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < msg.size() && is_alnum(msg[j])) ++j;
    std::string_view t = msg.substr(i, j - i);
    size_t at = i;
    i = j;
    if (t.size() != 6) continue;
    if (t[0] == 'E' && (is_digit(t[1]) || (t[1] >= 'A' && t[1] <= 'Z')) && all_digits(t.substr(2))) {
      if (kb_.find_code(t)) return std::string(t);
    } else if (six.empty() && all_digits(t) && error_word_before(msg, at) && kb_.find_code(t)) {
      six = t;
    }
  }
  constexpr std::string_view kIs = "error code is ";
  if (size_t at = msg.find(kIs); at != std::string_view::npos) {
    size_t k = at + kIs.size(), b = k;
    if (k < msg.size() && msg[k] == '-') ++k;
    while (k < msg.size() && k - b < 12 && is_digit(msg[k])) ++k;
    if (k > b && is_digit(msg[k - 1])) return std::string(msg.substr(b, k - b));
  }
  return std::string(six);
}

}  // namespace triage
