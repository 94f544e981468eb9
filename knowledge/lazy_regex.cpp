#include "knowledge/lazy_regex.h"

#include <new>

#include "knowledge/run_once.h"

namespace triage {

void require_compile_headroom() {
  // Address space, not memory: nothing is touched, and it is given back at once.
  char* probe = new (std::nothrow) char[kCompileHeadroom];
  if (!probe) throw std::bad_alloc();
  delete[] probe;
}

LazyRegex LazyRegex::compiled(std::shared_ptr<const RE2> re) {
  LazyRegex out;
  out.state_ = std::make_shared<State>();
  out.state_->eager = true;
  if (re && re->ok()) out.state_->re = std::move(re);
  out.state_->done.store(true, std::memory_order_release);
  return out;
}

LazyRegex::LazyRegex(std::string pattern, const RE2::Options& options) : state_(std::make_shared<State>()) {
  state_->pattern = std::move(pattern);
  state_->options = options;
}

const RE2* LazyRegex::get() const {
  if (!state_) return nullptr;
  State& s = *state_;
  run_once(s.done, s.mu, [&s] {
    require_compile_headroom();
    auto re = std::make_shared<const RE2>(s.pattern, s.options);
    if (re->ok()) s.re = std::move(re);
  });
  return s.re.get();
}

}  // namespace triage
