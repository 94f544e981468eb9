#pragma once
// ascend/npu-smi-*.txt: `npu-smi info` (910B, A3 and 26.x wide layouts, process table, failure
// text), `-m` (id map), `-t health`, `-t usages` samples (first line `sampled_utc=`).
// Facts go to BundleFacts::devices (model/facts_device.h).
#include <optional>
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

void parse_npu_smi_info(ParseContext& ctx, ByteSource& src);
void parse_npu_smi_map(ParseContext& ctx, ByteSource& src);
void parse_npu_smi_health(ParseContext& ctx, ByteSource& src);
void parse_npu_smi_usages(ParseContext& ctx, ByteSource& src);
// `-t common`, `-t temp`, `-t power` samples: LoadFacts::readings (model/facts_load.h).
void parse_npu_smi_readings(ParseContext& ctx, ByteSource& src);

// The integers of a name like "npu-smi-usages-0-1.2.txt" after `prefix`: npu, chip, sample.
struct NpuSmiNameIds {
  std::optional<int64_t> npu, chip, sample;
};
NpuSmiNameIds npu_smi_name_ids(std::string_view path, std::string_view prefix);

// `dcmi module initialize failed. ret is -8005` and its kin: the ret value, if the line is one.
std::optional<int64_t> npu_smi_failure_code(std::string_view line);

}  // namespace triage
