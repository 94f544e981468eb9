#pragma once
// A literal prefilter for a set of signature regexes (issue 35): most log lines hold none of
// the literal strings ("atoms") that a signature needs, and finding that out with one cheap
// scan is several times faster than running the signature set's DFA over every byte.
//
// The atoms come from RE2's own prefilter analysis (re2::FilteredRE2, one regex at a time):
// a regex can only match a text that holds its atoms in one of the combinations the analysis
// requires ("send msg failed"; "time out" and "(dev_id="; any of an alternation's). The
// prefilter keeps those combinations as terms of atoms and answers false only when no term of
// any regex is complete in the text: may_match() false means no regex matches; true means
// "run the regexes". It turns itself off (always true) when some regex has no atom of at least
// 4 bytes (it would match lines the scan cannot see) or an atom is not ASCII.
//
// The scan: every atom is at least `min_len` bytes long (4..8), so an occurrence covers
// `min_len - 3` consecutive 4-byte windows, one of which starts at a multiple of that stride.
// The scan reads the window at every stride-th position, looks its hash up in an 8 KiB bitmap,
// and only on a hit compares the atoms indexed under that window, case-insensitively (RE2
// returns atoms lower-cased and expects them found regardless of case).
#include <re2/re2.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

class LiteralPrefilter {
 public:
  LiteralPrefilter() = default;  // disabled: may_match() is always true
  // `patterns` compiled with `options` (the options of the set the prefilter stands before).
  // The atoms are worked out on first use, once: the analysis compiles every pattern again, and
  // a run that never consults a set (a job paste has no kernel lines) should not pay for it.
  LiteralPrefilter(std::vector<std::string> patterns, const RE2::Options& options);

  // False only when no pattern can match `text`. Allocates nothing once built; thread-safe.
  bool may_match(std::string_view text) const;

  bool enabled() const { return built() != nullptr; }
  size_t min_len() const;
  std::vector<std::string> atoms() const;

  struct Impl;

 private:
  struct Lazy {  // a mutex, not std::call_once: see knowledge/lazy_regex.h
    std::vector<std::string> patterns;
    RE2::Options options;
    std::mutex mu;
    std::atomic<bool> done{false};
    std::shared_ptr<const Impl> impl;  // null after the build: the prefilter stays off
  };
  const Impl* built() const;
  std::shared_ptr<Lazy> lazy_;
};

}  // namespace triage
