// The TSV reader's per-line API allocates nothing once warmed up: every operator new after
// the first rows is counted. A program of its own, since it replaces the global operator new.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "bundle/byte_source.h"
#include "parsers/common/tsv.h"

static size_t g_allocations = 0;

void* operator new(size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

int main() {
  std::string data = "kver\tmodule\tpath\ttarget_exists\tsize\n";
  for (int i = 0; i < 20000; ++i)
    data += "5.10.0-136\tdrv_mod_" + std::to_string(i % 100) +
            "\t/lib/modules/5.10.0/updates/dkms/with\\ttab\\\\" + std::to_string(i % 10) +
            ".ko\t" + (i % 2 ? "1" : "0") + "\t" + std::to_string(1000 + i) + "\n";
  triage::StringSource src(data);
  triage::ParseStats stats;
  triage::TsvReader tsv(src, stats, "modules/tree.tsv");
  if (!tsv.read_header()) return 1;
  int module = tsv.column("module"), path = tsv.column("path"), exists = tsv.column("target_exists"),
      size = tsv.column("size");
  size_t rows = 0, before = 0, checksum = 0;
  while (tsv.next()) {
    if (++rows == 100) before = g_allocations;  // warmed up
    checksum += tsv.field(module).size() + tsv.field(path).size();
    checksum += tsv.boolean(exists).value_or(false) + static_cast<size_t>(tsv.integer(size).value_or(0));
    tsv.count_parsed();
  }
  size_t during = g_allocations - before;
  std::printf("rows %zu, allocations after warm-up %zu, checksum %zu\n", rows, during, checksum);
  if (rows != 20000 || stats.parsed != 20001 || stats.malformed != 0) return 1;
  return during == 0 ? 0 : 1;
}
