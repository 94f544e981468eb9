#include "model/chain.h"

namespace triage {

std::string_view to_string(ChainLayer l) {
  switch (l) {
    case ChainLayer::kernel: return "kernel";
    case ChainLayer::modules: return "modules";
    case ChainLayer::versions: return "driver/firmware/CANN";
    case ChainLayer::wheels: return "wheels";
    case ChainLayer::processes: return "processes";
  }
  return "kernel";
}

}  // namespace triage
