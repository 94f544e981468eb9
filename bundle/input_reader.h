#pragma once
// Walks one input path (a directory, an archive, or a single file) and hands each member to
// a sink, streaming: nothing is extracted to disk and each input is read once.
#include <cstdint>
#include <string>
#include <string_view>

#include "bundle/byte_source.h"
#include "model/entry.h"

namespace triage {

struct MemberHeader {
  std::string raw_name;     // the name as stored (archive) or relative path (directory)
  EntryType type = EntryType::file;
  uint64_t size = 0;
  bool size_known = false;
  int64_t mtime = 0;
  std::string link_target;  // symlinks and hardlinks
  std::string warning;      // a non-fatal complaint of the reader about this member
  std::string read_error;   // the member could not be read at all (permission, unsupported)
};

struct InputDescription;

class MemberSink {
 public:
  virtual ~MemberSink() = default;
  // Called once, before the first member, when the form of the input is known.
  virtual void on_input(const InputDescription& input) = 0;
  // `data` is set for regular files only. Returns false to stop reading this input.
  virtual bool on_member(const MemberHeader& header, ByteSource* data) = 0;
  // The reader warned while the last member's data was read (ARCHIVE_WARN: not fatal).
  virtual void on_member_warning(std::string_view message) = 0;
  // Reading stopped between members (or before the first one): the input is damaged.
  virtual void on_input_damaged(std::string_view last_member, uint64_t offset,
                                std::string_view message) = 0;
};

enum class InputForm { directory, archive, single_file };

struct InputDescription {
  InputForm form = InputForm::single_file;
  std::string format;  // "directory", "GNU tar format (zstd)", "ZIP 2.0 (deflation)", "file"
};

// Reads `path`. Returns "" on success (damage inside the input is reported to the sink),
// or why the input could not be read at all.
std::string read_input(const std::string& path, MemberSink& sink, InputDescription& described);

// Reads standard input as one loose file called `name`, as it arrives (a pipe or a paste; never
// an archive). Returns "" or why nothing could be read (an empty stdin is refused).
std::string read_stdin(const std::string& name, MemberSink& sink, InputDescription& described);

// The parts, for tests.
std::string read_directory(const std::string& path, MemberSink& sink);
// Returns false (and leaves `error` empty) when the file is not an archive.
bool read_archive(const std::string& path, MemberSink& sink, std::string& format,
                  std::string& error);

}  // namespace triage
