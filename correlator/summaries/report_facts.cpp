#include "correlator/summaries/report_facts.h"

#include <re2/re2.h>

#include <array>
#include <memory>

namespace triage {
namespace {

struct Rule {
  const char* key;
  const char* pattern;  // one capture: the value
};

// Verbatim forms of the corpus (docs/findings/unexplained.md); first match per key wins.
constexpr std::array<Rule, 14> kRules = {{
    {"chip", R"(device\(chipId:(\d+))"},
    {"die", R"(device\(chipId:\d+, ?dieId:(\d+)\))"},
    {"device_id", R"(\bdevice_id[=: ]\s*(\d+))"},
    {"stream_id", R"(\bstream_id[=: ]\s*(\d+))"},
    {"task_id", R"(\btask_id[=: ]\s*(\d+))"},
    {"timeout", R"(\btimeout[:=]\s*(\d+(?:\.\d+)?\s*(?:min|ms|s)?(?:\(default\))?))"},
    {"op_name", R"(\bop_name \[([^\]]+)\])"},
    {"op_name", R"(\bop_name=([A-Za-z_][\w.]*))"},
    {"op_name", R"((?:^|\s)([A-Z][A-Za-z0-9_]+) ADD_TO_LAUNCHER_LIST)"},  // `<OpType> ADD_TO_LAUNCHER_LIST_AICORE failed.`
    {"kernel_name", R"(\bkernel_?[nN]ame[=:]\s*\[?([A-Za-z_][\w.]*))"},
    {"error_str", R"(\berrorStr[=:]\s*([^,.\[]+))"},
    {"errcode", R"(\berrcode:(\d+))"},
    {"retcode", R"(\bretcode (0x[0-9a-fA-F]+))"},
    {"rank", R"(\brank(?:Id|_id|ID)?[=:]\s*(\d+))"},
}};

const std::vector<std::unique_ptr<RE2>>& compiled() {
  static const std::vector<std::unique_ptr<RE2>> res = [] {
    std::vector<std::unique_ptr<RE2>> v;
    for (const auto& r : kRules) v.push_back(std::make_unique<RE2>(r.pattern));
    return v;
  }();
  return res;
}

bool has(const ReportFacts& out, std::string_view key) {
  for (const auto& [k, v] : out)
    if (k == key) return true;
  return false;
}

}  // namespace

void add_report_facts(std::string_view text, ReportFacts& out) {
  const auto& res = compiled();
  re2::StringPiece in(text.data(), text.size());
  for (size_t i = 0; i < kRules.size(); ++i) {
    if (has(out, kRules[i].key)) continue;
    std::string value;
    if (!RE2::PartialMatch(in, *res[i], &value)) continue;
    while (!value.empty() && value.back() == ' ') value.pop_back();
    if (!value.empty()) out.emplace_back(kRules[i].key, std::move(value));
  }
}

std::string report_facts_text(const ReportFacts& facts) {
  std::string s;
  for (const auto& [k, v] : facts) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s;
}

}  // namespace triage
