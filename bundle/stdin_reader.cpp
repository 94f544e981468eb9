// Standard input as one loose file (`analyze -`): a paste from a ticket or a pipe. Read as it
// arrives, never spooled: a single-file input needs no seeking (sniffing reads a head buffer).
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bundle/file_source.h"
#include "bundle/input_reader.h"

namespace triage {
namespace {

// The byte read to tell an empty stdin apart, then the rest of the stream.
class PeekedSource final : public ByteSource {
 public:
  PeekedSource(char first, ByteSource& rest) : first_(first), rest_(rest) {}
  size_t read(char* buf, size_t n) override {
    if (n == 0) return 0;
    if (!first_served_) {
      first_served_ = true;
      buf[0] = first_;
      return 1;
    }
    size_t k = rest_.read(buf, n);
    if (k == 0) error_ = rest_.error();
    return k;
  }

 private:
  char first_;
  bool first_served_ = false;
  ByteSource& rest_;
};

}  // namespace

std::string read_stdin(const std::string& name, MemberSink& sink, InputDescription& described) {
  int fd = ::dup(STDIN_FILENO);  // FdSource closes its descriptor; fd 0 stays open
  if (fd < 0) return std::string("cannot read standard input: ") + std::strerror(errno);
  FdSource rest(fd);
  char first;
  if (rest.read(&first, 1) == 0)
    return rest.error().empty() ? "standard input is empty (nothing was piped or pasted in)"
                                : "standard input: " + rest.error();
  described = {InputForm::single_file, "standard input"};
  sink.on_input(described);
  MemberHeader m;
  m.raw_name = name;  // the layout rules see it: `--name plog-1234.log` classifies like the file
  PeekedSource src(first, rest);
  sink.on_member(m, &src);
  return {};
}

}  // namespace triage
