#include "bundle/load.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "bundle/line_reader.h"
#include "parsers/finalize.h"
#include "parsers/parser.h"

namespace triage {
namespace fs = std::filesystem;

namespace {

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const fs::path& p) : in_(p, std::ios::binary) {
    if (!in_) error_ = "cannot open";
  }
  size_t read(char* buf, size_t n) override {
    if (!in_) return 0;
    in_.read(buf, static_cast<std::streamsize>(n));
    return static_cast<size_t>(in_.gcount());
  }

 private:
  std::ifstream in_;
};

}  // namespace

// Minimal reader for directories and plain files; the input stage replaces it with the
// libarchive-based reader and the classifier.
LoadResult load_evidence(const std::vector<std::string>& paths, const AnalyzeOptions& options) {
  LoadResult result;
  for (const auto& input : paths) {
    std::error_code ec;
    if (!fs::exists(input, ec)) {
      result.errors.push_back(input + ": no such file or directory");
      continue;
    }
    BundleFacts& bundle = result.evidence.bundles.emplace_back();
    bundle.input = input;
    std::vector<fs::path> files;
    if (fs::is_directory(input)) {
      for (auto& e : fs::recursive_directory_iterator(input, ec))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(input);
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      InventoryEntry& entry = bundle.inventory.entries.emplace_back();
      entry.info.input = input;
      entry.info.path = fs::is_directory(input) ? fs::relative(f, input).generic_string()
                                                : f.filename().string();
      entry.info.raw_path = entry.info.path;
      entry.info.display = f.string();
      entry.info.size = fs::file_size(f, ec);
      FileSource src(f);
      LineReader lines(src, options.limits.max_line_bytes);
      Line line;
      while (lines.next(line)) ++entry.stats.lines;
      entry.stats.bytes = lines.bytes_read();
    }
    finalize_facts(bundle, options);
  }
  return result;
}

}  // namespace triage
