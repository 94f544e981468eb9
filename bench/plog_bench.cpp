// plog_bench [N]: generates N plog lines in memory (a mix of the real shapes) and times
// the line API alone and the whole plog parser (facts, signatures, dedupe). Not run by ctest.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bundle/byte_source.h"
#include "knowledge/knowledge.h"
#include "model/host_facts.h"
#include "parsers/plog/plog_line.h"
#include "parsers/plog/plog_parser.h"

using namespace triage;

namespace {

// Shapes seen in real plogs; %d is replaced by a counter so lines and times differ.
const char* kTemplates[] = {
    "[INFO] RUNTIME(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [stream.cc:1402]14601 "
    "SynchronizeExecutedTask:launch kernel, stream_id=61, task_id=%d",
    "[INFO] GE(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [graph_manager.cc:123]14595 "
    "BuildGraph: build graph %d success",
    "[INFO] HCCL(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [hccl_comm.cc:115] [14601]"
    "[HcclComm][Init]rank %d ready",
    "[EVENT] PROFILING(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [msprof_callback_impl.cpp:79] "
    ">>> (tid:14601) MsprofCtrlCallback called, type: %d",
    "[INFO] TDT(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [process_mode_manager.cpp:2219]"
    "[LoadPackageConfigInfoToDevice][tid:14601] Receive load package config response result:%d",
    "[WARNING] DRV(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [ascend][curpid: 14595, 14601]"
    "[drv][devmm][_devmm_mem_stats_show 158]DEV_MEM dev1 Cached_size:%dBytes",
    "[ERROR] RUNTIME(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [stream.cc:1472]14595 "
    "GetError:Stream Synchronize failed, stream_id=45, retCode=0x2a, [aicpu exception]. seq=%d",
    "[EVENT] RUNTIME(14595,python3):2026-03-01-12:%02d:%02d.%03d.%03d [stream.cc:1402]14601 "
    "SynchronizeExecutedTask:report three minutes timeout! stream_id=61, sq_id=2, task_id=%d, "
    "sqHead=393, flip_num=0, pendingNum=1.",
};
constexpr size_t kShapes = sizeof kTemplates / sizeof kTemplates[0];

std::string generate(size_t n, size_t error_every) {
  std::string text;
  text.reserve(n * 160);
  char buf[512];
  for (size_t i = 0; i < n; ++i) {
    // mostly INFO-like lines; one fact-bearing line in `error_every`
    size_t shape = (i % error_every == 0) ? 6 + (i / error_every) % 2 : i % 6;
    int us = static_cast<int>(i % 1000000);
    int k = std::snprintf(buf, sizeof buf, kTemplates[shape], static_cast<int>(i / 60000000 % 60),
                          static_cast<int>(i / 1000000 % 60), us / 1000, us % 1000, static_cast<int>(i));
    text.append(buf, static_cast<size_t>(k));
    text += '\n';
  }
  return text;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
  size_t error_every = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  std::string text = generate(n, error_every);
  double mb = static_cast<double>(text.size()) / 1e6;
  std::printf("%zu lines, %.1f MB, one fact line in %zu\n", n, mb, error_every);
  (void)knowledge_for("");

  {
    auto t0 = std::chrono::steady_clock::now();
    PlogDialect dialect;
    PlogLine p;
    size_t parsed = 0, pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      parsed += dialect.parse(std::string_view(text.data() + pos, nl - pos), p) == PlogResult::parsed;
      pos = nl + 1;
    }
    double s = seconds_since(t0);
    std::printf("line API:    %8.2f M lines/s  %7.1f MB/s  (%zu parsed)\n", n / s / 1e6, mb / s, parsed);
  }
  {
    BundleFacts facts;
    ParseStats stats;
    AnalyzeOptions options;
    EntryInfo entry;
    entry.path = "logs/host/root/ascend/log/debug/plog/plog-14595_20260301120000000.log";
    ParseContext ctx{entry, facts, stats, options};
    StringSource src(text);
    auto t0 = std::chrono::steady_clock::now();
    parse_plog(ctx, src);
    double s = seconds_since(t0);
    std::printf("plog parser: %8.2f M lines/s  %7.1f MB/s  (%llu parsed, %zu stalls, %zu error codes, %zu signature hits)\n",
                n / s / 1e6, mb / s, static_cast<unsigned long long>(stats.parsed), facts.logs.stalls.size(),
                facts.logs.error_codes.size(), facts.logs.signature_hits.size());
  }
  return 0;
}
