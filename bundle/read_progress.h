#pragma once
// Told how reading goes, for a progress display on a terminal (cli/progress_meter.h). Both
// calls run on the reading path (on_bytes once per chunk read), so they must stay cheap.
#include <cstdint>
#include <string_view>

namespace triage {

class ReadProgress {
 public:
  virtual ~ReadProgress() = default;
  // An entry starts; `display` is only valid during the call.
  virtual void on_entry(std::string_view display) = 0;
  // Decompressed bytes read so far, all inputs together.
  virtual void on_bytes(uint64_t total_bytes) = 0;
};

}  // namespace triage
