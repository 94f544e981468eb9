#pragma once
// A line typed at Python's interactive prompt, as people paste a session:
//   >>> os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '1'
//   >>> torch_npu._C._npu_setDevice(0)
// Only what decides when a device-visibility variable was set is kept: the assignment, and the
// lines that import or use torch_npu. Pure functions of one line: nothing is allocated.
#include <optional>
#include <string_view>

namespace triage::repl {

struct ReplInput {
  enum class What { other, sets_visible_devices, imports_npu, uses_npu } what = What::other;
  std::string_view variable;  // sets_visible_devices: ASCEND_RT_VISIBLE_DEVICES or ASCEND_VISIBLE_DEVICES
  std::string_view code;      // the input after the prompt
};

// The input of a `>>> ` line (a bare `>>>` too); nullopt for any other line.
std::optional<ReplInput> parse_repl_input(std::string_view body);

}  // namespace triage::repl
