#pragma once
// library-provenance: which install each mapped Ascend / torch_npu library of a process
// comes from. The helpers are shared with the environment, version-matrix and mount analyses.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

enum class LibOrigin { none, cann, driver, torch_npu, dcmi, nnal, other_ascend };
std::string_view to_string(LibOrigin o);
LibOrigin origin_of(std::string_view path);

struct CannRef {
  std::string install;  // the install directory ("/usr/local/Ascend/cann-9.1.0")
  std::string version;  // "9.1.0", "" when unknown
};
// The CANN install a path lies in: a row of ascend/cann/index.tsv (install or resolved dir),
// else a "cann-<version>" or "ascend-toolkit/<version>" directory in the path.
std::optional<CannRef> cann_of_path(std::string_view path, const LibraryFacts& lf);

struct MappedCann {
  CannRef cann;
  std::vector<const MappedFile*> files;
};
// The CANN installs a process maps, in first-seen order.
std::vector<MappedCann> mapped_canns(const ProcessLibraries& p, const LibraryFacts& lf);
// The mapped libtorch_npu.so, or nullptr.
const MappedFile* mapped_torch_npu(const ProcessLibraries& p);

void analyze_library_provenance(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
