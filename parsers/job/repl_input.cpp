#include "parsers/job/repl_input.h"

namespace triage::repl {

namespace {

bool contains(std::string_view s, std::string_view x) { return s.find(x) != std::string_view::npos; }

// `import torch_npu`, `import torch, torch_npu`, `from torch_npu... import`: the first import
// binds the name; the runtime reads the visibility variables when torch_npu initialises.
bool imports_npu(std::string_view code) {
  return (code.substr(0, 7) == "import " || code.substr(0, 5) == "from ") && contains(code, "torch_npu");
}

}  // namespace

std::optional<ReplInput> parse_repl_input(std::string_view body) {
  if (body == ">>>") return ReplInput{};
  if (body.substr(0, 4) != ">>> ") return std::nullopt;
  ReplInput in;
  in.code = body.substr(4);
  // Set through os.environ or putenv, not merely read (`print(os.environ[...])` names it too).
  for (std::string_view var : {std::string_view("ASCEND_RT_VISIBLE_DEVICES"), std::string_view("ASCEND_VISIBLE_DEVICES")}) {
    size_t at = in.code.find(var);
    if (at == std::string_view::npos) continue;
    std::string_view after = in.code.substr(at + var.size());
    bool item_set = contains(in.code, "environ[") && after.find('=') != std::string_view::npos &&
                    after.find("==") == std::string_view::npos;
    bool call_set = contains(in.code, "putenv(") || contains(in.code, "environ.setdefault(") ||
                    contains(in.code, "environ.update(");
    if (item_set || call_set) {
      in.what = ReplInput::What::sets_visible_devices;
      in.variable = var;
      return in;
    }
  }
  if (imports_npu(in.code)) in.what = ReplInput::What::imports_npu;
  else if (contains(in.code, "torch_npu") || contains(in.code, "torch.npu")) in.what = ReplInput::What::uses_npu;
  return in;
}

}  // namespace triage::repl
