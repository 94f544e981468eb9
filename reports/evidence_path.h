#pragma once
// Where an evidence line is, as a reader of a ticket wants it: the entry's path inside its
// bundle ("logs/host/.../plog-48213_....log"), not the path the input was given by (an
// absolute path on the engineer's machine, repeated on every line). EvidenceRef::entry keeps
// the display form ("<input>/<path>", "<input>!<member>") for the JSON report and `show`.
#include <string>
#include <string_view>
#include <unordered_map>

#include "model/host_facts.h"

namespace triage {

class EvidencePaths {
 public:
  explicit EvidencePaths(const EvidenceSet& set);
  // The entry's path inside its bundle (a loose file's name); with several inputs the input's
  // name leads it ("before/logs/...", "b.tar.zst!logs/..."); a member stored again keeps its
  // "(copy N)". An entry no input holds stays as it is.
  std::string relative(std::string_view entry) const;
  // "path:line" (or the path alone when the reference names no line).
  std::string where(const EvidenceRef& e) const;
  // Whether the paths are relative to an input (a report built in memory has none).
  bool has_inputs() const { return !set_.bundles.empty(); }

 private:
  const EvidenceSet& set_;
  std::unordered_map<std::string_view, std::string_view> path_of_;  // display -> inventory path
};

}  // namespace triage
