#pragma once
// Per-process facts from processes/<pid>/ (environ, cmdline, stat, tz, fd).
// Filled by the base parsers (Foundation B).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/evidence.h"
#include "model/time.h"

namespace triage {

struct ProcessInfo {
  int64_t pid = 0;
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environ;  // in file order
  std::optional<ZoneRule> zone;  // from tz.txt
  std::string zone_origin;
  std::vector<EvidenceRef> evidence;

  const std::string* env(std::string_view name) const {
    for (const auto& [k, v] : environ)
      if (k == name) return &v;
    return nullptr;
  }
};

struct ProcessFacts {
  std::map<int64_t, ProcessInfo> by_pid;
};

}  // namespace triage
