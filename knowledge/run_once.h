#pragma once
// Runs `make` once, thread-safe, for what is built on first use (knowledge/lazy_regex.h). A mutex
// and a flag, not std::call_once: an exception (out of memory) thrown through pthread_once makes
// glibc load libgcc_s to unwind, which fails under the same memory limit and aborts. An exception
// from `make` leaves the flag unset, so a later call tries again.
#include <atomic>
#include <mutex>

namespace triage {

template <class F>
void run_once(std::atomic<bool>& done, std::mutex& mu, F&& make) {
  if (done.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(mu);
  if (done.load(std::memory_order_relaxed)) return;
  make();
  done.store(true, std::memory_order_release);
}

}  // namespace triage
