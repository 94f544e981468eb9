// Every parser of the registry (ingest/registry.cpp), straight on the bytes. The first line
// names the kind ("plog\n..."; make-seeds.sh writes the seeds so); when it names no parsed
// kind, its first byte picks one (modulo the kinds that have a parser). The rest is the entry.
// The facts are then finalized as after a whole bundle.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "bundle/byte_source.h"
#include "fuzz/fuzz_support.h"
#include "ingest/finalize.h"
#include "ingest/registry.h"

namespace {

const std::vector<triage::SourceKind>& parsed_kinds() {
  static const std::vector<triage::SourceKind> kinds = [] {
    std::vector<triage::SourceKind> k;
    for (int i = 0; i < static_cast<int>(triage::SourceKind::count_); ++i)
      if (triage::parser_for(static_cast<triage::SourceKind>(i)))
        k.push_back(static_cast<triage::SourceKind>(i));
    return k;
  }();
  return kinds;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace triage;
  if (size == 0) return 0;
  static const AnalyzeOptions options = fuzz::fuzz_options();
  const auto& kinds = parsed_kinds();
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t nl = all.find('\n');
  std::optional<SourceKind> named =
      nl == std::string_view::npos ? std::nullopt : parse_source_kind(all.substr(0, nl));
  SourceKind kind = named && parser_for(*named) ? *named : kinds[data[0] % kinds.size()];
  std::string_view body = nl == std::string_view::npos ? all.substr(1) : all.substr(nl + 1);
  EntryInfo entry;
  entry.input = "fuzz";
  entry.path = "fuzz/entry";
  entry.display = "fuzz!fuzz/entry";
  BundleFacts facts;
  ParseStats stats;
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(body);
  parser_for(kind)(ctx, src);
  finalize_facts(facts, options);
  return 0;
}
