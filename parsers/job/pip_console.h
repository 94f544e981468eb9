#pragma once
// pip's install console as people paste it after their command (`pip install x==1.0`):
//   Looking in indexes: https://mirrors.example/pypi/web/simple
//   Collecting vllm-ascend==0.11.0rc0
//     Downloading https://.../vllm_ascend-0.11.0rc0-cp311-cp311-manylinux_2_24_aarch64.whl (671 kB)
//        ━━━━━━━━━━━━━━━━━━━━ 671.1/671.1 kB 4.6 MB/s  0:00:00
//   Requirement already satisfied: torch==2.8.0 in /usr/local/lib/python3.11/site-packages (2.8.0)
//   Successfully installed cmake-4.1.2 vllm-ascend-0.11.0rc0
// Pure functions of one line: every field views the line, nothing is allocated.
#include <optional>
#include <string_view>

namespace triage::pipconsole {

struct PipLine {
  enum class Shape { index, collecting, downloading, progress, satisfied, installed } shape = Shape::index;
  // collecting: a pinned requirement (`name==version`), "" when not pinned;
  // satisfied: the version in parentheses at the end
  std::string_view name, version;
  std::string_view installed;  // `Successfully installed`: the `name-version ...` list
};
std::optional<PipLine> parse_pip_line(std::string_view body);

// One item of `Successfully installed`: `vllm-ascend-0.11.0rc0` -> name and version, split at
// the last '-' before a digit. False when the item has no version.
bool split_installed_item(std::string_view item, std::string_view& name, std::string_view& version);

}  // namespace triage::pipconsole
