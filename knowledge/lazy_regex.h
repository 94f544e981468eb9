#pragma once
// A regex compiled on first use, once, thread-safe. The built-in signatures are compiled by
// the tests (`knowledge check`), so a run compiles only the few whose lines it meets: most runs
// read a paste of a few lines, and compiling every signature was a third of their time.
#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>

namespace triage {

class LazyRegex {
 public:
  LazyRegex() = default;  // no pattern: false, get() is null
  // Compiled now; `*this` is false when it does not compile.
  static LazyRegex compiled(std::shared_ptr<const RE2> re);
  // Compiled on the first get(); false from then on if it does not compile.
  LazyRegex(std::string pattern, const RE2::Options& options);

  const RE2* get() const;
  explicit operator bool() const { return get() != nullptr; }
  const RE2* operator->() const { return get(); }
  const RE2& operator*() const { return *get(); }
  // Compiled at construction (compiled()) and did not compile; never compiles a lazy one.
  bool failed_at_load() const { return state_ && state_->eager && !state_->re; }

 private:
  struct State {
    std::string pattern;
    RE2::Options options;
    bool eager = false;  // made by compiled()
    std::once_flag once;
    std::shared_ptr<const RE2> re;  // null when the pattern does not compile
  };
  std::shared_ptr<State> state_;  // shared by copies: compiled once for all of them
};

}  // namespace triage
