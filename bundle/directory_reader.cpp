// Walks a directory with openat()/fstatat() and never follows a symbolic link: a link is
// recorded as data, so nothing outside the given directory is read. (libarchive's disk
// reader is not used: it changes the process's working directory while walking.)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "bundle/file_source.h"
#include "bundle/input_reader.h"

namespace triage {
namespace {

constexpr int kMaxDepth = 64;

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// The manifest first (classification may use it), then byte order.
bool walk_order(const std::string& a, const std::string& b) {
  bool am = a == "manifest.json", bm = b == "manifest.json";
  if (am != bm) return am;
  return a < b;
}

EntryType type_of(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return EntryType::file;
    case S_IFDIR: return EntryType::directory;
    case S_IFLNK: return EntryType::symlink;
    case S_IFCHR:
    case S_IFBLK: return EntryType::device;
    case S_IFIFO: return EntryType::fifo;
    case S_IFSOCK: return EntryType::socket;
    default: return EntryType::other;
  }
}

class Walker {
 public:
  explicit Walker(MemberSink& sink) : sink_(sink) {}
  void walk(int dir_fd, const std::string& prefix, int depth);

 private:
  void member(int dir_fd, const std::string& name, const std::string& rel, int depth);
  void emit(const MemberHeader& h, ByteSource* data) {
    if (!sink_.on_member(h, data)) stop_ = true;
  }
  MemberSink& sink_;
  bool stop_ = false;
};

void Walker::walk(int dir_fd, const std::string& prefix, int depth) {
  DIR* dir = fdopendir(dir_fd);
  if (!dir) {
    ::close(dir_fd);
    return;
  }
  std::vector<std::string> names;
  errno = 0;
  while (dirent* de = readdir(dir)) {
    if (std::strcmp(de->d_name, ".") == 0 || std::strcmp(de->d_name, "..") == 0) continue;
    names.emplace_back(de->d_name);
  }
  if (errno != 0) {
    MemberHeader h;
    h.raw_name = prefix.empty() ? "." : prefix;
    h.type = EntryType::directory;
    h.read_error = errno_text("directory listing incomplete");
    emit(h, nullptr);
  }
  std::sort(names.begin(), names.end(), walk_order);
  for (const auto& name : names) {
    if (stop_) break;
    member(dirfd(dir), name, prefix.empty() ? name : prefix + "/" + name, depth);
  }
  closedir(dir);
}

void Walker::member(int dir_fd, const std::string& name, const std::string& rel, int depth) {
  MemberHeader h;
  h.raw_name = rel;
  struct stat st;
  if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    h.type = EntryType::other;
    h.read_error = errno_text("stat failed");
    emit(h, nullptr);
    return;
  }
  h.type = type_of(st.st_mode);
  h.mtime = st.st_mtime;
  switch (h.type) {
    case EntryType::directory: {
      if (depth >= kMaxDepth) {
        h.read_error = "deeper than 64 directory levels: not read";
        emit(h, nullptr);
        return;
      }
      int sub = openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) {
        h.read_error = errno_text("cannot open directory");
        emit(h, nullptr);
        return;
      }
      walk(sub, rel, depth + 1);
      return;
    }
    case EntryType::symlink: {
      std::string target(4096, '\0');
      ssize_t k = readlinkat(dir_fd, name.c_str(), target.data(), target.size());
      if (k < 0) h.read_error = errno_text("readlink failed");
      else target.resize(static_cast<size_t>(k));
      h.link_target = k < 0 ? std::string() : target;
      emit(h, nullptr);
      return;
    }
    case EntryType::file: {
      h.size = static_cast<uint64_t>(st.st_size);
      h.size_known = true;
      // O_NONBLOCK: if the file was swapped for a FIFO since fstatat, open must not hang.
      int fd = openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      struct stat now;
      if (fd < 0 || fstat(fd, &now) != 0 || !S_ISREG(now.st_mode)) {
        h.read_error = fd < 0 ? errno_text("cannot open") : "changed while being read";
        if (fd >= 0) ::close(fd);
        emit(h, nullptr);
        return;
      }
      posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      FdSource src(fd);
      emit(h, &src);
      return;
    }
    default:
      emit(h, nullptr);  // devices, FIFOs, sockets: listed, never opened
      return;
  }
}

}  // namespace

std::string read_directory(const std::string& path, MemberSink& sink) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_text("cannot open directory");
  Walker(sink).walk(fd, "", 0);
  return {};
}

}  // namespace triage
