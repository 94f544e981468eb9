#pragma once
// The last guard between bundle text and a terminal (docs/security.md): a streambuf that every
// byte the analyzer prints goes through (standard output, standard error and -o files; the
// `main` of the CLI installs it), whatever subcommand wrote it. It shows as text, the way
// printable_utf8 does: C0 controls but newline and tab, DEL and invalid UTF-8 bytes as \xNN;
// C1 controls, bidi overrides and isolates (U+202A-202E, U+2066-2069) and the line and
// paragraph separators (U+2028, U+2029) as \u{NNNN}. The one escape sequence let through is
// the colour (SGR) the text report writes with --color: ESC [ digits and ';' m. An OSC 52
// clipboard write, a title change or a screen clear from a bundle cannot pass. Renderers still
// escape bundle text themselves (a newline inside an entry name is theirs to show): JSON
// writes these code points as \uNNNN, so the guard never changes a JSON document.
#include <streambuf>
#include <string>

namespace triage {

class SafeOutputBuf final : public std::streambuf {
 public:
  explicit SafeOutputBuf(std::streambuf* target) : target_(target) {}
  ~SafeOutputBuf() override { flush_pending(); }
  SafeOutputBuf(const SafeOutputBuf&) = delete;
  SafeOutputBuf& operator=(const SafeOutputBuf&) = delete;

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void put(unsigned char c);
  void emit(const char* s, size_t n) {
    if (target_->sputn(s, static_cast<std::streamsize>(n)) != static_cast<std::streamsize>(n)) failed_ = true;
  }
  void emit_hex(unsigned char c);
  void flush_pending();  // an incomplete sequence at a flush or the end: shown as bytes
  void finish_utf8();
  void finish_escape();

  std::streambuf* target_;
  std::string pending_;  // an escape sequence or a UTF-8 sequence not yet complete
  size_t utf8_need_ = 0; // bytes the pending UTF-8 sequence needs in all (0: not in one)
  bool failed_ = false;  // a write to the target failed (a full disk): the stream goes bad
};

}  // namespace triage
