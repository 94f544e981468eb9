#include "cli/chain_input.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "compare/baseline_read.h"
#include "compare/chain_build.h"
#include "correlator/correlate.h"

namespace triage::cli {
namespace {

// The first bytes of a regular file ("" for directories, archives are read as bundles).
std::string head_of(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

}  // namespace

bool load_chain_input(const std::string& path, const GlobalOptions& g, bool analyse, bool allow_baseline,
                      ChainInput& out) {
  if (looks_like_baseline(head_of(path))) {
    if (!allow_baseline) {
      std::cerr << "ascend-triage: " << path << ": is a baseline file already; give a bundle\n";
      return false;
    }
    std::string error;
    if (!read_baseline(path, out.chain, error)) {
      std::cerr << "ascend-triage: " << error << '\n';
      return false;
    }
    out.is_baseline = true;
    return true;
  }
  AnalyzeOptions options;
  if (!build_analyze_options(g, options)) return false;
  LoadResult loaded;
  if (!load_for_analysis({path}, options, g.quiet, loaded)) return false;
  std::vector<std::string> errors;
  const ChainSelection& selection = chain_selection_for(options.knowledge_dir, errors);
  for (const auto& e : errors) std::cerr << "ascend-triage: knowledge: " << e << '\n';
  if (!errors.empty()) return false;
  out.chain = build_chain(loaded.evidence.bundles.front(), selection);
  out.chain.input = path;
  if (analyse) out.findings = correlate(loaded.evidence, options).findings;
  return true;
}

}  // namespace triage::cli
