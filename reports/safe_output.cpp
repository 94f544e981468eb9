#include "reports/safe_output.h"

#include <cstdio>

#include "reports/display_width.h"

namespace triage {
namespace {

constexpr size_t kMaxEscape = 32;  // longer than any colour sequence the report writes

size_t utf8_length_of_lead(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;  // a continuation byte or a byte no sequence starts with
}

}  // namespace

void SafeOutputBuf::emit_hex(unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  char b[4] = {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
  emit(b, 4);
}

// The pending UTF-8 bytes are complete (or cut short): a character shown as it is, a control
// or bidi character as \u{NNNN}, an invalid sequence byte by byte.
void SafeOutputBuf::finish_utf8() {
  Utf8Step step = decode_utf8(pending_, 0);
  if (step.valid && step.len == pending_.size()) {
    if (shown_escaped(step.cp)) {
      char b[16];
      int n = std::snprintf(b, sizeof b, "\\u{%04X}", static_cast<unsigned>(step.cp));
      emit(b, static_cast<size_t>(n));
    } else {
      emit(pending_.data(), pending_.size());
    }
  } else {
    for (char c : pending_) emit_hex(static_cast<unsigned char>(c));
  }
  pending_.clear();
  utf8_need_ = 0;
}

// The pending escape sequence ended: a colour (ESC [ digits ; ... m) passes, anything else is
// shown as text (ESC as \x1b, the rest through the guard again).
void SafeOutputBuf::finish_escape() {
  std::string seq;
  seq.swap(pending_);
  bool sgr = seq.size() >= 3 && seq[1] == '[' && seq.back() == 'm';
  for (size_t i = 2; sgr && i + 1 < seq.size(); ++i) sgr = (seq[i] >= '0' && seq[i] <= '9') || seq[i] == ';';
  if (sgr) {
    emit(seq.data(), seq.size());
    return;
  }
  emit_hex(0x1b);
  for (size_t i = 1; i < seq.size(); ++i) put(static_cast<unsigned char>(seq[i]));
}

void SafeOutputBuf::put(unsigned char c) {
  if (!pending_.empty() && pending_[0] == '\x1b') {
    pending_ += static_cast<char>(c);
    // An SGR sequence is ESC '[' then digits and ';' then 'm'; stop at the first byte that
    // cannot continue one.
    bool can_go_on = pending_.size() <= kMaxEscape &&
                     (pending_.size() == 2 ? c == '[' : (c >= '0' && c <= '9') || c == ';');
    if (!can_go_on) finish_escape();
    return;
  }
  if (utf8_need_) {
    if ((c & 0xC0) == 0x80) {
      pending_ += static_cast<char>(c);
      if (pending_.size() == utf8_need_) finish_utf8();
      return;
    }
    finish_utf8();  // cut short by this byte, which is read on its own below
  }
  if (c >= 0x80) {
    size_t need = utf8_length_of_lead(c);
    if (!need) {
      emit_hex(c);
      return;
    }
    pending_.assign(1, static_cast<char>(c));
    utf8_need_ = need;
    return;
  }
  if (c == 0x1b) {
    pending_.assign(1, '\x1b');
    return;
  }
  if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
    emit_hex(c);
    return;
  }
  char ch = static_cast<char>(c);
  emit(&ch, 1);
}

void SafeOutputBuf::flush_pending() {
  if (pending_.empty()) return;
  if (pending_[0] == '\x1b') {
    emit_hex(0x1b);
    std::string rest = pending_.substr(1);
    pending_.clear();
    for (char c : rest) put(static_cast<unsigned char>(c));
    flush_pending();
  } else {
    finish_utf8();
  }
}

SafeOutputBuf::int_type SafeOutputBuf::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  put(static_cast<unsigned char>(traits_type::to_char_type(ch)));
  return failed_ ? traits_type::eof() : ch;
}

std::streamsize SafeOutputBuf::xsputn(const char* s, std::streamsize n) {
  // The common case in one call: a run of printable ASCII, newlines and tabs goes through whole.
  std::streamsize i = 0;
  while (i < n) {
    if (pending_.empty()) {
      std::streamsize j = i;
      while (j < n) {
        auto c = static_cast<unsigned char>(s[j]);
        if (c >= 0x80 || c == 0x7f || (c < 0x20 && c != '\n' && c != '\t')) break;
        ++j;
      }
      if (j > i) emit(s + i, static_cast<size_t>(j - i));
      i = j;
      if (i == n) break;
    }
    put(static_cast<unsigned char>(s[i++]));
  }
  return failed_ ? 0 : n;
}

int SafeOutputBuf::sync() {
  // A pending sequence stays pending across a flush (its next byte may be on its way); the
  // destructor shows what is left.
  return target_->pubsync() == 0 && !failed_ ? 0 : -1;
}

}  // namespace triage
