#pragma once
// version-matrix: which torch / torch_npu / CANN / driver / firmware versions a process really
// uses, and whether each pair is declared compatible. Judged by declaration only, from the
// data files knowledge/versions/*.tsv (each row with its source).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/version_tables.h"
#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

enum class Compatibility { compatible, incompatible, not_declared };
std::string_view to_string(Compatibility v);

struct Judgement {
  Compatibility verdict = Compatibility::not_declared;
  std::string reason;  // one sentence
  std::string source;  // the table row's source
  std::string inferred_cann;  // for hotfix wheels
};
// torch_npu (+ torch, may be empty) against CANN, by table 1.1.
Judgement judge_wheel(const VersionTables& t, std::string_view torch_npu, std::string_view torch,
                      std::string_view cann);
// CANN against the driver: the CANN-HDK table and the driver's compatible_version list
// (CANN inner versions, e.g. "[V100R001C25],[V100R001C11]") given the CANN's innerversion.
Judgement judge_cann_driver(const VersionTables& t, std::string_view cann, std::string_view driver,
                            std::string_view driver_compatible, std::string_view cann_inner);
// Driver against firmware: compatible_version_fw (ranges of firmware versions) and the
// firmware's compatible_version_drv (driver version prefixes).
Judgement judge_driver_firmware(std::string_view driver, std::string_view firmware,
                                std::string_view compatible_fw, std::string_view compatible_drv);

void analyze_version_matrix(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
