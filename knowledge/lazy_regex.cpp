#include "knowledge/lazy_regex.h"

namespace triage {

LazyRegex LazyRegex::compiled(std::shared_ptr<const RE2> re) {
  LazyRegex out;
  out.state_ = std::make_shared<State>();
  out.state_->eager = true;
  std::call_once(out.state_->once, [&] {
    if (re && re->ok()) out.state_->re = std::move(re);
  });
  return out;
}

LazyRegex::LazyRegex(std::string pattern, const RE2::Options& options) : state_(std::make_shared<State>()) {
  state_->pattern = std::move(pattern);
  state_->options = options;
}

const RE2* LazyRegex::get() const {
  if (!state_) return nullptr;
  State& s = *state_;
  std::call_once(s.once, [&s] {
    auto re = std::make_shared<const RE2>(s.pattern, s.options);
    if (re->ok()) s.re = std::move(re);
  });
  return s.re.get();
}

}  // namespace triage
