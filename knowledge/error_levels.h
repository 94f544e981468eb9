#pragma once
// knowledge/error-levels.tsv: the common forms of a log line that carry an error level
// (Python logging, vLLM's logger, CANN / MindSpore `[ERROR]`, glog `E`, ...), and
// knowledge/error-level-samples.tsv: a line each form must match and a near miss it must not.
// A line no more specific reader claimed and that one of these forms matches is an
// error-level line of unknown shape: it joins unexplained-errors (issue 36, "an error-level
// line is never silent"). Format: docs/knowledge.md ("Error levels").
#include <re2/re2.h>
#include <re2/set.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kErrorLevelsFile = "error-levels.tsv";
constexpr std::string_view kErrorLevelSamplesFile = "error-level-samples.tsv";

struct ErrorLevelForm {
  std::string id;       // "vllm"
  std::string name;     // "vLLM logger": the module a line of it is grouped under when it names none
  std::string pattern;  // RE2, anchored at the start of the text; named groups below
  std::unique_ptr<RE2> re;
  // Capturing-group indices of the named groups (0: the form has none). `level` and `msg`
  // are required; `time`, `pid`, `module`, `where` (file:line) are optional.
  int level = 0, msg = 0, time = 0, pid = 0, module = 0, where = 0;
};

// What a matching line carries: views into the text given to match().
struct ErrorLevelMatch {
  const ErrorLevelForm* form = nullptr;
  std::string_view level, message, time, pid, module, where;
};

class ErrorLevels {
 public:
  std::vector<ErrorLevelForm> forms;  // file order: the first form that matches names the line

  // Whether a form matches `text` (from its start). Allocates nothing once warm: a line
  // without an error level costs one DFA pass.
  bool any(std::string_view text) const;
  // The index of the first form that matches, -1 when none does. Allocates nothing once warm
  // (no groups are captured): a repeated line can be counted without them.
  int first(std::string_view text) const;
  // The groups of form `index` on `text` (which it matches); false when it does not. May
  // allocate (RE2's submatch search): for lines whose facts are kept.
  bool groups(std::string_view text, int index, ErrorLevelMatch& out) const;
  // first() and groups() in one.
  bool match(std::string_view text, ErrorLevelMatch& out) const;

  void build_set();  // after `forms` is filled: the prefilter over all patterns
 private:
  std::unique_ptr<RE2::Set> set_;
};

// Rows in file order; problems as "file:line: message" (empty field, duplicate id, a pattern
// that does not compile or lacks the `level` or `msg` group, an unknown group name).
ErrorLevels parse_error_levels(std::string_view content, const std::string& name,
                               std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/error-levels.tsv replaces it).
const ErrorLevels& error_levels_for(const std::string& dir);

// What `knowledge check` says of either file: forms and samples are read together (the one
// given, the built-in other); every form needs a match and a near miss sample, every sample
// must do what it says and name a form.
std::vector<std::string> check_error_levels(std::string_view content, const std::string& name,
                                            size_t& samples_checked);

}  // namespace triage
