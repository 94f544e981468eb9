#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "correlator/correlate.h"
#include "ingest/load.h"
#include "reports/render.h"

namespace triage::fuzz {

AnalyzeOptions fuzz_options() {
  AnalyzeOptions o;
  o.limits.max_total_bytes = 8u << 20;
  o.limits.max_entry_bytes = 2u << 20;
  o.limits.max_entries = 2000;
  o.limits.max_line_bytes = 64u << 10;
  return o;
}

std::string scratch_file(std::string_view name, const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/ascend-fuzz-XXXXXX";
    if (!::mkdtemp(templ.data())) std::abort();  // no scratch space: nothing can be fuzzed
    return templ;
  }();
  std::string path = dir + "/" + std::string(name);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

void analyze_path(const std::string& path) {
  static const AnalyzeOptions options = fuzz_options();
  LoadResult loaded = load_evidence({path}, options);
  Report report = correlate(loaded.evidence, options);
  std::ostringstream out;
  render_json(report, loaded.evidence, RenderOptions{}, out);
}

}  // namespace triage::fuzz
