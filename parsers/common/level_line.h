#pragma once
// An error-level line of unknown shape (issue 36, "an error-level line is never silent"): a
// line no more specific reader claimed whose text starts with a form of
// knowledge/error-levels.tsv (`ERROR 04-18 15:43:36 [x.py:800] msg`, `[ERROR] TBE ...`,
// `ERROR:root:msg`, glog `E0708 ...`). Shared by the job-output reader and the plog reader (a
// plog line that failed the plog grammar). Finding the level allocates nothing (a line
// without one costs one DFA pass, a repeat of a kept line is counted by its key); reading
// the groups of a line whose facts are kept may.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "knowledge/error_levels.h"
#include "knowledge/knowledge.h"

namespace triage {

// Where the level was found.
struct LevelHit {
  int form = -1;
  std::string_view text;  // what the form matched: the logger prefix and the body, or the body
  bool message_is_body = false;  // the prefix is not followed by the body in the line
  bool blank = false;     // a level and nothing after it (vLLM's blank `ERROR ... ]` line)
  // The key of a repeat: the form and the text with its digits left out (time, pid, counters).
  uint64_t key = 0;
};

struct LevelLine {
  const ErrorLevelForm* form = nullptr;
  std::string_view level, message, time, module, where;  // message trimmed; may be empty
  std::optional<int64_t> pid;                              // when the form carries one
};

class LevelReader {
 public:
  explicit LevelReader(const std::string& knowledge_dir);
  // The level of `head` + `body`: `head` is a logger prefix the caller split off already (""
  // when none; `body` follows it in the line, or the message is `body` when it does not).
  // Allocates nothing.
  bool find(std::string_view head, std::string_view body, LevelHit& out) const;
  // The groups of a line find() took. May allocate.
  bool read(const LevelHit& hit, std::string_view body, LevelLine& out) const;
  // find() and read() in one.
  bool read(std::string_view head, std::string_view body, LevelLine& out) const;
  // The code a message names: a CANN message code of the catalogue (`EE1002`, `EI0002`), else
  // `error code is N`, else a six-digit catalogue result after an error word (`ret[207001]`,
  // `ACL error: 107020`, `error code 107001`); "" when none.
  std::string code(std::string_view message) const;

 private:
  const ErrorLevels& levels_;
  const KnowledgeBase& kb_;
};

}  // namespace triage
