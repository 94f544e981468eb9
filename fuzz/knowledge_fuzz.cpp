// The knowledge loaders as `knowledge check FILE` and --knowledge DIR run them. The first line
// is the file name the rest claims to be ("error-codes.tsv\n..."), since the name decides the
// loader: signatures, error codes, device events, PCI ids, failure classes, the finding
// catalogue, verdict rules, version tables, JSON schemas, mappings. When the first line is no
// known name, the first byte picks one (every built-in file, and the mappings).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/knowledge_check.h"
#include "knowledge/knowledge.h"

namespace {

const std::vector<std::string>& knowledge_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : triage::builtin_knowledge_files()) n.push_back(f.name);
    n.push_back("mappings/ascend-fd.tsv");  // not built in; `knowledge check` reads it
    return n;
  }();
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& names = knowledge_names();
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t nl = all.find('\n');
  std::string_view first = all.substr(0, nl);
  std::string name = names[data[0] % names.size()];
  for (const auto& n : names)
    if (nl != std::string_view::npos && n == first) name = n;
  std::string_view content = nl == std::string_view::npos ? all.substr(1) : all.substr(nl + 1);
  (void)triage::check_knowledge_file(content, name);
  return 0;
}
