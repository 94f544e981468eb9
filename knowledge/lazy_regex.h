#pragma once
// A regex compiled on first use, once, thread-safe. A mutex, not std::call_once: an exception
// (out of memory) thrown through pthread_once makes glibc load libgcc_s to unwind, which fails
// under the same memory limit and aborts (robustness.hostile_inputs.oom). The built-in signatures are compiled by
// the tests (`knowledge check`), so a run compiles only the few whose lines it meets: most runs
// read a paste of a few lines, and compiling every signature was a third of their time.
#include <re2/re2.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

namespace triage {

// Called before compiling a regex, set or table on first use: throws std::bad_alloc unless
// kCompileHeadroom bytes could be had. RE2 is not safe against a failed allocation (it ends
// in std::terminate, or through pthread_once in an abort when glibc cannot load libgcc_s
// under the same limit): under an address-space limit, the run must run out of memory in
// our code, which ends with a message and exit 2 (robustness.hostile_inputs.oom).
constexpr size_t kCompileHeadroom = 8u << 20;  // RE2's default max_mem of one regex or set
void require_compile_headroom();

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
    std::mutex mu;
    std::atomic<bool> done{false};
    std::shared_ptr<const RE2> re;  // null when the pattern does not compile; set before done
  };
  std::shared_ptr<State> state_;  // shared by copies: compiled once for all of them
};

}  // namespace triage
