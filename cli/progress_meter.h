#pragma once
// Progress of a long read on a terminal (docs/cli.md#progress): after the first second,
// one line on stderr redrawn in place at most four times a second, erased at the end.
#include <cstdint>
#include <string>
#include <string_view>

#include "bundle/read_progress.h"

namespace triage::cli {

class ProgressMeter final : public ReadProgress {
 public:
  explicit ProgressMeter(int fd);  // fd: a terminal (stderr)
  ~ProgressMeter() override { finish(); }
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;
  void on_entry(std::string_view display) override;
  void on_bytes(uint64_t total_bytes) override;
  // Erases the line (if one was drawn); the report or messages follow on a clean line.
  void finish();

 private:
  void maybe_draw();
  int fd_;
  int64_t start_ms_, last_draw_ms_ = 0;
  uint64_t entries_ = 0, bytes_ = 0;
  std::string entry_;  // capacity kept from entry to entry
  std::string line_;
  bool drawn_ = false;
};

// `--quiet` or stderr not a terminal: no meter.
bool want_progress(bool quiet);

}  // namespace triage::cli
