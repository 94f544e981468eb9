// Input-stage throughput: writes a .tar.zst of generated plog files (libarchive writer), then
// reads it with load_evidence and prints MB/s. Run by hand, not by ctest:
//   build/bench/read_bench [MB of plog, default 512] [files, default 16] [keep|rm]
#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "ingest/load.h"

using namespace triage;

namespace {

std::string plog_chunk(std::mt19937_64& rng, size_t bytes) {
  std::string s;
  s.reserve(bytes + 256);
  uint64_t n = 0;
  while (s.size() < bytes) {
    s += fmt::format("[INFO] RUNTIME(618,python3):2025-03-06-01:09:07.{:03}.{:03} [stream.cc:{}]{} "
                     "SynchronizeExecutedTask:stream_id={}, task_id={}, sqHead={}, pendingNum={}\n",
                     n % 1000, rng() % 1000, 1400 + n % 100, 619 + n % 8, n % 64, rng() % 100000,
                     rng() % 100000, rng() % 1000);
    ++n;
  }
  return s;
}

void write_bench_archive(const std::string& path, size_t total_mb, int files) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_add_filter_zstd(a);
  archive_write_open_filename(a, path.c_str());
  std::mt19937_64 rng(1);
  size_t per_file = total_mb * (1 << 20) / static_cast<size_t>(files);
  for (int f = 0; f < files; ++f) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(
        e, fmt::format("logs/host/root/ascend/log/debug/plog/plog-{}_20250306010906978.log", 1000 + f).c_str());
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(per_file));
    archive_write_header(a, e);
    size_t left = per_file;
    while (left > 0) {
      std::string chunk = plog_chunk(rng, std::min<size_t>(left, 4 << 20));
      chunk.resize(std::min(chunk.size(), left));
      archive_write_data(a, chunk.data(), chunk.size());
      left -= chunk.size();
    }
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

}  // namespace

int main(int argc, char** argv) {
  size_t mb = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
  int files = argc > 2 ? std::atoi(argv[2]) : 16;
  bool keep = argc > 3 && std::string(argv[3]) == "keep";
  std::string path = (std::filesystem::temp_directory_path() / fmt::format("read_bench_{}.tar.zst", getpid())).string();
  auto t0 = std::chrono::steady_clock::now();
  write_bench_archive(path, mb, files);
  auto t1 = std::chrono::steady_clock::now();
  LoadResult loaded = load_evidence({path}, AnalyzeOptions{});
  auto t2 = std::chrono::steady_clock::now();
  uint64_t bytes = 0, lines = 0;
  for (const auto& e : loaded.evidence.bundles.at(0).inventory.entries) {
    bytes += e.stats.bytes;
    lines += e.stats.lines;
  }
  double secs = std::chrono::duration<double>(t2 - t1).count();
  double stored_mb = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
  std::printf("wrote %s (%.1f MB compressed) in %.1f s\n", path.c_str(), stored_mb,
              std::chrono::duration<double>(t1 - t0).count());
  std::printf("read %zu entries, %.1f MB decompressed, %llu lines in %.2f s: %.0f MB/s decompressed, "
              "%.0f MB/s compressed, %.2f M lines/s\n",
              loaded.evidence.bundles[0].inventory.entries.size(), static_cast<double>(bytes) / (1 << 20),
              static_cast<unsigned long long>(lines), secs, static_cast<double>(bytes) / (1 << 20) / secs,
              stored_mb / secs, static_cast<double>(lines) / 1e6 / secs);
  if (!keep) std::filesystem::remove(path);
  return 0;
}
