// Archive inputs (.tar, .tar.zst, .tar.gz/.tgz, .zip, ...) and the choice between an archive,
// a directory and a single file.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bundle/file_source.h"
#include "bundle/input_reader.h"
#include "bundle/member_name.h"

namespace triage {
namespace {

bool digits_after(std::string_view comp, std::string_view prefix) {
  if (!comp.starts_with(prefix) || comp.size() == prefix.size()) return false;
  for (char c : comp.substr(prefix.size()))
    if (c < '0' || c > '9') return false;
  return true;
}

// A single file's name, with the device-log tree it sits in when its path shows one
// (`.../hisi_logs/device-1/<time>/log/kernel.log` -> `hisi_logs/device-1/<time>/log/kernel.log`,
// `.../device-1/device-1_<time>.log` -> `device-1/device-1_<time>.log`): the tree says which
// device wrote it and what kind of file it is, as it does for a directory input.
std::string single_file_name(std::string_view path) {
  std::string_view dir = path.substr(0, path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/'));
  size_t from = std::string_view::npos;  // the outermost tree component found
  while (!dir.empty()) {
    size_t slash = dir.rfind('/');
    size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
    std::string_view comp = dir.substr(begin);
    if (comp == "hisi_logs" || comp == "slog" || digits_after(comp, "device-") ||
        digits_after(comp, "dev-os-") || digits_after(comp, "device-os-"))
      from = begin;
    if (slash == std::string_view::npos) break;
    dir = dir.substr(0, slash);
  }
  std::string_view tail = from == std::string_view::npos ? base_name(path) : path.substr(from);
  if (tail.find("/./") != std::string_view::npos || tail.find("/../") != std::string_view::npos)
    tail = base_name(path);  // a tree name is a plain relative path or nothing
  return std::string(tail);
}

std::string archive_message(archive* a) {
  const char* s = archive_error_string(a);
  return s ? s : "unknown libarchive error";
}

// The data of the current archive member.
class ArchiveMemberSource final : public ByteSource {
 public:
  explicit ArchiveMemberSource(archive* a) : a_(a) {}
  size_t read(char* buf, size_t n) override {
    if (!error_.empty()) return 0;
    for (int retries = 0; retries < 16; ++retries) {
      la_ssize_t k = archive_read_data(a_, buf, n);
      if (k >= 0) return static_cast<size_t>(k);
      if (k == ARCHIVE_RETRY) continue;
      if (k == ARCHIVE_WARN) {  // not fatal: note it and go on
        if (warning_.empty()) warning_ = archive_message(a_);
        continue;
      }
      fatal_ = k == ARCHIVE_FATAL;
      error_ = archive_message(a_);
      return 0;
    }
    error_ = "libarchive kept asking to retry";
    return 0;
  }
  bool fatal() const { return fatal_; }
  const std::string& warning() const { return warning_; }

 private:
  archive* a_;
  bool fatal_ = false;
  std::string warning_;
};

EntryType type_of(archive_entry* e) {
  if (archive_entry_hardlink(e)) return EntryType::hardlink;
  switch (archive_entry_filetype(e)) {
    case AE_IFREG: return EntryType::file;
    case AE_IFDIR: return EntryType::directory;
    case AE_IFLNK: return EntryType::symlink;
    case AE_IFCHR:
    case AE_IFBLK: return EntryType::device;
    case AE_IFIFO: return EntryType::fifo;
    case AE_IFSOCK: return EntryType::socket;
    default: return EntryType::other;
  }
}

// UTF-8 name when libarchive can convert it, else the stored bytes.
std::string name_of(const char* utf8, const char* raw) {
  if (utf8) return utf8;
  return raw ? raw : "";
}

struct ArchiveHandle {
  archive* a = archive_read_new();
  ~ArchiveHandle() { archive_read_free(a); }
};

}  // namespace

bool read_archive(const std::string& path, MemberSink& sink, std::string& format,
                  std::string& error) {
  ArchiveHandle h;
  archive* a = h.a;
  // Filters that need no external program; formats that carry bundles.
  archive_read_support_filter_gzip(a);
  archive_read_support_filter_bzip2(a);
  archive_read_support_filter_xz(a);
  archive_read_support_filter_lzma(a);
  archive_read_support_filter_zstd(a);
  archive_read_support_filter_lz4(a);
  archive_read_support_format_tar(a);
  archive_read_support_format_gnutar(a);
  archive_read_support_format_zip(a);
  // The format is chosen while opening: failure means "not an archive" (a single file,
  // possibly compressed or damaged, which the caller reads as one).
  if (archive_read_open_filename(a, path.c_str(), 128 * 1024) != ARCHIVE_OK) return false;

  std::string last_member;
  bool described = false;
  int retries = 0;
  while (true) {
    archive_entry* e = nullptr;
    int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF) break;
    if (r == ARCHIVE_RETRY && ++retries < 16) continue;
    if (!described) {
      format = archive_format_name(a) ? archive_format_name(a) : "archive";
      if (archive_filter_count(a) > 1) format += fmt::format(" ({})", archive_filter_name(a, 0));
      InputDescription d{InputForm::archive, format};
      sink.on_input(d);
      described = true;
    }
    if (r == ARCHIVE_FATAL || r == ARCHIVE_RETRY) {
      sink.on_input_damaged(last_member, static_cast<uint64_t>(archive_filter_bytes(a, 0)),
                            archive_message(a));
      break;
    }
    retries = 0;
    MemberHeader m;
    m.raw_name = name_of(archive_entry_pathname_utf8(e), archive_entry_pathname(e));
    m.type = type_of(e);
    if (archive_entry_size_is_set(e)) {
      m.size = static_cast<uint64_t>(archive_entry_size(e));
      m.size_known = true;
    }
    if (archive_entry_mtime_is_set(e)) m.mtime = archive_entry_mtime(e);
    if (m.type == EntryType::symlink)
      m.link_target = name_of(archive_entry_symlink_utf8(e), archive_entry_symlink(e));
    if (m.type == EntryType::hardlink)
      m.link_target = name_of(archive_entry_hardlink_utf8(e), archive_entry_hardlink(e));
    if (r == ARCHIVE_WARN) m.warning = archive_message(a);
    if (r == ARCHIVE_FAILED) m.read_error = archive_message(a);
    last_member = m.raw_name;
    if (m.type == EntryType::file && r != ARCHIVE_FAILED) {
      ArchiveMemberSource src(a);
      bool go_on = sink.on_member(m, &src);
      if (!src.warning().empty()) sink.on_member_warning(src.warning());
      if (src.fatal() || !go_on) break;  // the sink reported the damage with the member
    } else if (!sink.on_member(m, nullptr)) {
      break;
    }
  }
  if (!described) {
    format = archive_format_name(a) ? archive_format_name(a) : "archive";
    InputDescription d{InputForm::archive, format};
    sink.on_input(d);
  }
  return true;
}

std::string read_input(const std::string& path, MemberSink& sink, InputDescription& described) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "no such file or directory" : std::strerror(errno);
  if (S_ISDIR(st.st_mode)) {
    described = {InputForm::directory, "directory"};
    sink.on_input(described);
    return read_directory(path, sink);
  }
  if (!S_ISREG(st.st_mode)) return "not a regular file or a directory";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open: ") + std::strerror(errno);

  std::string format, error;
  if (read_archive(path, sink, format, error)) {
    ::close(fd);
    described = {InputForm::archive, format};
    return error;
  }
  if (!error.empty()) {
    ::close(fd);
    return error;
  }
  described = {InputForm::single_file, "file"};
  sink.on_input(described);
  MemberHeader m;
  m.raw_name = single_file_name(path);
  m.size = static_cast<uint64_t>(st.st_size);
  m.size_known = true;
  m.mtime = st.st_mtime;
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  FdSource src(fd);
  sink.on_member(m, &src);
  return {};
}

}  // namespace triage
