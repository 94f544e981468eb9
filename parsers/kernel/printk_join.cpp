#include "parsers/kernel/printk_join.h"
#include "model/strings.h"

#include "parsers/kernel/kernel_line.h"

namespace triage {
namespace {

using sv = std::string_view;


bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "devmm_pin_user_pages_fast <VLLM::Worker_TP:3068957>": the function, unbracketed, then <comm>.
size_t function_before_comm(sv t) {
  size_t i = 0;
  while (i < t.size() && ident_char(t[i])) ++i;
  if (i == 0 || i + 1 >= t.size() || t[i] != ' ' || t[i + 1] != '<') return 0;
  return i;
}

}  // namespace

bool PrintkJoin::incomplete(sv message) {
  AscendPrintkView v;
  if (!parse_ascend_printk(message, v)) return false;
  return v.comm.empty() && v.values.empty();
}

void PrintkJoin::start(sv message, sv time_text, const Line& line) {
  pending_ = true;
  taken_ = 0;
  message_.assign(trim(message));
  time_.assign(time_text);
  text_.assign(line.text);
  line_ = line;
  line_.text = text_;
}

bool PrintkJoin::take(sv text) {
  sv t = trim(text);
  if (!pending_ || t.empty() || taken_ >= kMaxContinuations || t.size() > 1024) return false;
  AscendPrintkView v;
  if (!parse_ascend_printk(message_, v)) return false;
  bool accept = false;
  if (t.front() == '(' && v.values.empty() && t.find('=') != sv::npos) {
    accept = true;  // the (k=v; ...) tail
  } else if (v.comm.empty() && t.front() == '<' && t.find('>') != sv::npos) {
    accept = true;  // <comm:pid,tid> and the text
  } else if (v.comm.empty() && v.message.empty() && function_before_comm(t)) {
    size_t f = function_before_comm(t);
    message_ += " [";
    message_.append(t.substr(0, f));
    message_ += ']';
    t = t.substr(f);
    accept = true;
  } else if (!v.comm.empty() && v.message.empty()) {
    accept = true;  // the text after <comm>
  }
  if (!accept) return false;
  ++taken_;
  message_ += ' ';
  message_.append(trim(t));
  text_ += ' ';
  text_.append(trim(text));
  line_.text = text_;
  return true;
}

}  // namespace triage
