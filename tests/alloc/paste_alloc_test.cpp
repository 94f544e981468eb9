// The paste readers allocate nothing per line that carries no fact: a mixed paste (prompt,
// then kernel lines of no interest, wrapped continuation-like text), the kernel text reader
// with its header/body joiner, the npu-smi topo legend and a framework report's fields cost
// the same number of allocations for 2,000 and 20,000 lines. Lines verbatim from section 3.2
// and 3.3 of the reference excerpts, tests/fixtures/pastes/ and the MindSpore run_check.
// A program of its own: it replaces the global operator new.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "bundle/byte_source.h"
#include "ingest/classify.h"
#include "ingest/mixed_text.h"
#include "ingest/segment.h"
#include "knowledge/knowledge.h"
#include "model/host_facts.h"
#include "parsers/job/framework_env_parser.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/tools/npu_smi_topo_parser.h"

static std::atomic<uint64_t> g_allocations{0};

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace triage;

namespace {

const std::vector<std::string> kKernelNoFact = {
    "[  452.964549] [<ffff0000080830b0>] el1_irq+0xb0/0x140",
    "[  452.973580] [<ffff0000080858cc>] arch_cpu_idle+0x44/0x144",
    "[54278.187703] Mem abort info:",
    "[54278.187706]   ESR = 0x00000004",
    "log_to_printk_and_ringbuf: 4 callbacks suppressed",
    "",
};
const std::vector<std::string> kTopoLegend = {
    "  X    = Self",
    "  PIX  = Path traversing a single PCIe switch",
    "  HCCS = Connection traversing HCCS.",
    "",
};
const std::vector<std::string> kReportFields = {
    "OS: Ubuntu 22.04.5 LTS (aarch64)",
    "CPU op-mode(s):                  64-bit",
    "Vulnerability Spectre v2:        Not affected",
    "[conda] Could not collect",
    "The result of multiplication caclulation is correct, MindSpore has been installed on platform [Ascend] successfully!",
    "==============================",
};

std::string text_of(const std::string& first, const std::vector<std::string>& lines, size_t n) {
  std::string t = first;
  for (size_t i = 0; i < n; ++i) {
    t += lines[i % lines.size()];
    t += '\n';
  }
  return t;
}

using Parse = void (*)(ParseContext&, ByteSource&);

uint64_t allocations(Parse parse, const std::string& text, uint64_t* lines) {
  BundleFacts facts;
  ParseStats stats;
  AnalyzeOptions options;
  EntryInfo entry;
  entry.path = "paste.txt";
  entry.display = entry.path;
  entry.size = text.size();
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(text);
  uint64_t before = g_allocations.load();
  parse(ctx, src);
  uint64_t n = g_allocations.load() - before;
  *lines = stats.lines;
  return n;
}

int check(const char* name, Parse parse, const std::string& first, const std::vector<std::string>& lines) {
  std::string small = text_of(first, lines, 2000), large = text_of(first, lines, 20000);
  uint64_t ls = 0, ll = 0;
  (void)allocations(parse, small, &ls);  // warm-up: RE2 builds DFA states lazily
  uint64_t a = allocations(parse, small, &ls);
  uint64_t b = allocations(parse, large, &ll);
  std::printf("%s: %llu lines %llu allocations, %llu lines %llu allocations\n", name, (unsigned long long)ls,
              (unsigned long long)a, (unsigned long long)ll, (unsigned long long)b);
  if (a != b || ll <= ls) {
    std::printf("FAIL: %s allocates per line\n", name);
    return 1;
  }
  return 0;
}

}  // namespace

int main() {
  (void)knowledge_for("");
  int failures = 0;
  failures += check("mixed paste", parse_mixed_text,
                    "root@senfetech-pc:/usr/local/samples/cplusplus/level2_simple_inference/1_classification/"
                    "resnet50_imagenet_classification/out# dmesg \n",
                    kKernelNoFact);
  failures += check("kernel text", parse_dmesg, "", kKernelNoFact);
  failures += check("npu-smi topo", parse_npu_smi_topo,
                    "\t   NPU0       NPU1       CPU Affinity\n", kTopoLegend);
  failures += check("framework report", parse_framework_env, "Collecting environment information...\n",
                    kReportFields);
  // The segmenter's line shapes: no allocation per line at all once warmed up.
  uint64_t before = g_allocations.load();
  size_t shaped = 0;
  for (int k = 0; k < 3; ++k)
    for (const auto& l : kKernelNoFact) shaped += line_shape_kind(l) != SourceKind::unknown;
  before = g_allocations.load();
  for (int k = 0; k < 1000; ++k)
    for (const auto& l : kKernelNoFact) shaped += line_shape_kind(l) != SourceKind::unknown;
  uint64_t shape_allocs = g_allocations.load() - before;
  std::printf("line shapes: %zu shaped, %llu allocations\n", shaped, (unsigned long long)shape_allocs);
  if (shape_allocs != 0) {
    std::printf("FAIL: line_shape_kind allocated\n");
    ++failures;
  }
  std::printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
