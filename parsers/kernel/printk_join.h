#pragma once
// An Ascend driver message whose header and body stand on separate lines, as renderers and
// people wrap them when they paste:
//   [ascend] [devmm] [ERROR] [devmm_pin_user_pages_fast 124]
//   <VLLM::Worker_TP:670605,670605> Get_user_pages_fast fail.
//   (va=0xfffc8c19e2e8; expected_page_num=1; real_got_page_num=0)
// The header is held (copied into buffers reused for every message) until the lines that
// complete it have been read; then the whole message is offered as one kernel event.
#include <cstdint>
#include <string>
#include <string_view>

#include "bundle/line_reader.h"

namespace triage {

class PrintkJoin {
 public:
  static constexpr int kMaxContinuations = 4;

  // An Ascend printk message that lacks its `<comm:pid>`, its text or its `(k=v)` tail.
  static bool incomplete(std::string_view message);

  // Holds a header line: its message, time text and the line (for evidence).
  void start(std::string_view message, std::string_view time_text, const Line& line);
  bool pending() const { return pending_; }
  // Takes a following line that completes the held message; false when it does not.
  bool take(std::string_view text);
  // The joined message; the held line's number and offset with the joined text.
  std::string_view message() const { return message_; }
  std::string_view time_text() const { return time_; }
  const Line& line() const { return line_; }
  void clear() { pending_ = false; }

 private:
  bool pending_ = false;
  int taken_ = 0;
  std::string message_, time_, text_;
  Line line_;
};

}  // namespace triage
