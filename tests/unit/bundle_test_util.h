#pragma once
// Helpers for input-stage tests: temporary directories, archives written with libarchive's
// writer, compressed bytes, loading, and running the CLI as a child process.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/load.h"
#include "model/entry.h"
#include "model/report.h"
#include "parsers/common/parser.h"

namespace triage::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

void write_file(const std::string& path, std::string_view data);  // creates parent directories
std::string read_file(const std::string& path);

struct Member {
  std::string name;
  std::string data;
  EntryType type = EntryType::file;
  std::string link = {};  // symlink target
};

enum class ArchiveFormat { tar, gnu_tar, zip };  // gnu_tar stores names as raw bytes
enum class Filter { none, gzip, zstd };
// Writes members in the order given.
void write_archive(const std::string& path, const std::vector<Member>& members, ArchiveFormat format,
                   Filter filter);
std::string compress(std::string_view data, Filter filter);  // a .gz / .zst file's bytes

// Files of a small, consistent bundle (manifest listing the others with bytes and sha256).
std::vector<Member> sample_bundle();
void write_tree(const std::string& dir, const std::vector<Member>& members);

LoadResult load(const std::vector<std::string>& paths, const AnalyzeOptions& options = {});
const InventoryEntry* find_entry(const BundleFacts& b, std::string_view path);
const Finding* find_finding(const BundleFacts& b, std::string_view id);

// One pasted file: `text` written as dir/name and loaded alone; its one bundle (REQUIREd),
// alive as long as `keep`.
const BundleFacts& load_one(TempDir& dir, std::string_view name, std::string_view text, LoadResult& keep);
// The same in a directory of its own, loaded and correlated end to end.
Report analyze_one(std::string_view name, std::string_view text);
// `text` read by one parser as the entry `path` (default options) into `facts`.
ParseStats parse_into(BundleFacts& facts, ParseFn fn, const std::string& path, const std::string& text);

struct CliRun {
  int exit_code = -1;
  std::string out, err;
  long max_rss_kib = 0;  // ru_maxrss of the child
};
CliRun run_cli(const std::vector<std::string>& args);

// The code blocks of one section ("### 1.2 ...") of the copied real-log-excerpts.md.
std::vector<std::string> reference_blocks(std::string_view section_number);

}  // namespace triage::testing
