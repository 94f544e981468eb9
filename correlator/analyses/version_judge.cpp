// Judging versions by the version tables of knowledge/versions/ (loaded by
// knowledge/version_tables.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "correlator/analyses/version_matrix.h"
#include "model/pep440.h"
#include "model/strings.h"

namespace triage {
namespace {
// "8.5.x" matches 8.5.anything; otherwise equal (case-insensitive). A driver's patch
// ("25.0.rc1.1") matches its base ("25.0.rc1").
bool version_matches(std::string_view pattern, std::string_view version, bool allow_patch) {
  std::string p = ascii_lower(pattern), v = ascii_lower(version);
  if (p.ends_with(".x")) return v.starts_with(p.substr(0, p.size() - 1));
  if (v == p) return true;
  return allow_patch && v.starts_with(p + ".");
}

// numeric components of "9.0.0.0.205" / "9.9.99"; stops at the first non-number.
std::vector<int64_t> numbers(std::string_view s) {
  std::vector<int64_t> out;
  for (auto part : split(s, '.')) {
    if (part.empty() || !std::all_of(part.begin(), part.end(), ::isdigit)) break;
    out.push_back(std::stoll(std::string(part.substr(0, 15))));
  }
  return out;
}
int compare_prefix(const std::vector<int64_t>& a, const std::vector<int64_t>& b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

// "[a,b],[c],[d,e]" -> pairs (second empty for single values).
std::vector<std::pair<std::string, std::string>> bracket_list(std::string_view s) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t pos = 0;
  while ((pos = s.find('[', pos)) != std::string_view::npos) {
    size_t end = s.find(']', pos);
    if (end == std::string_view::npos) break;
    std::string_view in = s.substr(pos + 1, end - pos - 1);
    size_t comma = in.find(',');
    if (comma == std::string_view::npos) out.emplace_back(std::string(in), "");
    else out.emplace_back(std::string(in.substr(0, comma)), std::string(in.substr(comma + 1)));
    pos = end + 1;
  }
  return out;
}

// "V100R001C11SPC001B243" -> ("V100R001C", 11).
std::optional<std::pair<std::string, int64_t>> inner_c(std::string_view s) {
  size_t c = s.find('C', s.find('R'));
  if (c == std::string_view::npos || s.find('R') == std::string_view::npos) return std::nullopt;
  size_t e = c + 1;
  while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
  if (e == c + 1) return std::nullopt;
  return std::make_pair(std::string(s.substr(0, c + 1)), std::stoll(std::string(s.substr(c + 1, e - c - 1))));
}

}  // namespace

std::string_view to_string(Compatibility v) {
  switch (v) {
    case Compatibility::compatible: return "compatible";
    case Compatibility::incompatible: return "incompatible";
    case Compatibility::not_declared: return "not-declared";
  }
  return "not-declared";
}

Judgement judge_wheel(const VersionTables& t, std::string_view torch_npu, std::string_view torch,
                      std::string_view cann) {
  Judgement j;
  auto wheel = parse_pep440(torch_npu);
  if (!wheel) {
    j.reason = fmt::format("torch_npu version '{}' is not a PEP 440 version", torch_npu);
    return j;
  }
  std::vector<const WheelRow*> declared, inferred;
  for (const auto& r : t.wheels) {
    auto rv = parse_pep440(r.torch_npu);
    if (!rv || !same_public_version(*rv, *wheel)) continue;
    (r.status == "declared" ? declared : inferred).push_back(&r);
  }
  for (const WheelRow* r : declared) {
    if (!version_matches(r->cann, cann, false)) continue;
    j.source = r->source;
    auto tv = parse_pep440(torch), rt = parse_pep440(r->torch);
    if (!torch.empty() && tv && rt && !same_public_version(*tv, *rt)) {
      j.verdict = Compatibility::incompatible;
      j.reason = fmt::format("table 1.1 pairs torch_npu {} with PyTorch {}, not {}", r->torch_npu,
                             r->torch, torch);
      return j;
    }
    j.verdict = Compatibility::compatible;
    j.reason = fmt::format("table 1.1 row: torch_npu {} / PyTorch {} / CANN {} ({})", r->torch_npu,
                           r->torch, r->cann, r->branch);
    return j;
  }
  if (!declared.empty()) {
    std::string canns;
    for (const WheelRow* r : declared) canns += (canns.empty() ? "" : ", ") + r->cann;
    j.verdict = Compatibility::incompatible;
    j.source = declared.front()->source;
    j.reason = fmt::format("table 1.1 pairs torch_npu {} with CANN {}, never with {}",
                           declared.front()->torch_npu, canns, cann);
    return j;
  }
  if (!inferred.empty()) {
    j.inferred_cann = inferred.front()->cann;
    j.source = inferred.front()->source;
    j.reason = fmt::format("torch_npu {} is a hotfix wheel ({}) absent from table 1.1; its CANN "
                           "is inferred as {}, not declared",
                           torch_npu, inferred.front()->branch, j.inferred_cann);
    return j;
  }
  j.reason = fmt::format("torch_npu {} is in neither table 1.1 nor the list of released wheels",
                         torch_npu);
  return j;
}

Judgement judge_cann_driver(const VersionTables& t, std::string_view cann, std::string_view driver,
                            std::string_view driver_compatible, std::string_view cann_inner) {
  Judgement j;
  for (const auto& r : t.hdk)
    if (r.relation == "excluded" && version_matches(r.cann, cann, false) &&
        version_matches(r.hdk, driver, true)) {
      j.verdict = Compatibility::incompatible;
      j.source = r.source;
      j.reason = fmt::format("CANN {} excludes driver {} ({})", r.cann, r.hdk, r.source);
      return j;
    }
  for (const auto& r : t.hdk)
    if (r.relation == "compatible" && version_matches(r.cann, cann, false) &&
        version_matches(r.hdk, driver, true)) {
      j.verdict = Compatibility::compatible;
      j.source = r.source;
      j.reason = fmt::format("CANN {} lists driver {} ({})", r.cann, r.hdk, r.source);
      return j;
    }
  if (auto inner = inner_c(cann_inner)) {
    for (const auto& [lo, hi] : bracket_list(driver_compatible)) {
      auto a = inner_c(lo);
      auto b = hi.empty() ? a : inner_c(hi);
      if (!a || !b || a->first != inner->first) continue;
      if (a->second <= inner->second && inner->second <= b->second) {
        j.verdict = Compatibility::compatible;
        j.source = "driver version.info compatible_version";
        j.reason = fmt::format("the driver's compatible_version lists {}C{} (CANN {} inner {})",
                               inner->first, inner->second, cann, cann_inner);
        return j;
      }
    }
  }
  j.reason = fmt::format("no table row and no compatible_version entry pairs CANN {} with "
                         "driver {}", cann, driver);
  return j;
}

Judgement judge_driver_firmware(std::string_view driver, std::string_view firmware,
                                std::string_view compatible_fw, std::string_view compatible_drv) {
  Judgement j;
  auto fw = numbers(firmware);
  for (const auto& [lo, hi] : bracket_list(compatible_fw)) {
    auto l = numbers(lo), h = numbers(hi.empty() ? lo : hi);
    if (l.empty() || fw.empty()) continue;
    size_t n = std::max(l.size(), h.size());
    if (compare_prefix(fw, l, n) >= 0 && compare_prefix(fw, h, n) <= 0) {
      j.verdict = Compatibility::compatible;
      j.source = "driver version.info compatible_version_fw";
      j.reason = fmt::format("firmware {} lies in the driver's compatible_version_fw [{},{}]",
                             firmware, lo, hi);
      return j;
    }
  }
  std::string drv = ascii_lower(driver);
  for (const auto& [lo, hi] : bracket_list(compatible_drv)) {
    std::string l = ascii_lower(lo), h = ascii_lower(hi);
    bool in = drv == l || (!h.empty() && h.back() == '.' && drv.starts_with(h)) ||
              (h.empty() && drv.starts_with(l + "."));
    if (in) {
      j.verdict = Compatibility::compatible;
      j.source = "firmware version.info compatible_version_drv";
      j.reason = fmt::format("driver {} is in the firmware's compatible_version_drv [{},{}]",
                             driver, lo, hi);
      return j;
    }
  }
  j.reason = fmt::format("neither compatible_version_fw nor compatible_version_drv declares "
                         "firmware {} with driver {}", firmware, driver);
  return j;
}

}  // namespace triage
