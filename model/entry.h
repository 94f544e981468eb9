#pragma once
// One member of an input (a file of a directory, a member of an archive, or the input itself).
#include <cstdint>
#include <string>
#include <string_view>

namespace triage {

enum class EntryType { file, directory, symlink, hardlink, device, fifo, socket, other };

constexpr std::string_view to_string(EntryType t) {
  switch (t) {
    case EntryType::file: return "file";
    case EntryType::directory: return "directory";
    case EntryType::symlink: return "symlink";
    case EntryType::hardlink: return "hardlink";
    case EntryType::device: return "device";
    case EntryType::fifo: return "fifo";
    case EntryType::socket: return "socket";
    case EntryType::other: return "other";
  }
  return "other";
}

struct EntryInfo {
  std::string input;        // the path the user gave
  std::string path;         // normalised path relative to the bundle root ("system/uname.txt")
  std::string raw_path;     // the name as stored (before normalisation and root stripping)
  std::string display;      // what reports show: "<input>!<raw_path>" for archive members
  uint64_t size = 0;        // stored size (compressed size for *.gz members)
  int64_t mtime = 0;        // epoch seconds, 0 when unknown
  EntryType type = EntryType::file;
  std::string link_target;  // for symlinks and hardlinks
  bool unsafe_name = false; // the stored name was absolute or climbed out with ../
  std::string decompressed_from;  // "gzip"/"zstd" when a compressed member is read decompressed
};

}  // namespace triage
