#include "model/chain.h"

#include "model/strings.h"

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

bool ChainDiff::different_hosts() const {
  return !baseline_host.empty() && !current_host.empty() && ascii_lower(baseline_host) != ascii_lower(current_host);
}

}  // namespace triage
