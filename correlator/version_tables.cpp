// Loading and judging by the version tables of knowledge/versions/ (see its README.md).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>

#include "correlator/version_matrix.h"
#include "knowledge/knowledge.h"
#include "model/pep440.h"

namespace triage {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (true) {
    size_t e = s.find(sep, pos);
    out.push_back(s.substr(pos, e == std::string_view::npos ? s.npos : e - pos));
    if (e == std::string_view::npos) break;
    pos = e + 1;
  }
  return out;
}

template <class F>
void for_rows(std::string_view content, const std::string& name, size_t columns,
              std::string_view header_first, std::vector<std::string>& errors, F&& f) {
  size_t line_no = 0;
  for (std::string_view line : split(content, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    auto cols = split(line, '\t');
    if (cols.size() != columns) {
      errors.push_back(fmt::format("{}:{}: {} columns, expected {}", name, line_no, cols.size(),
                                   columns));
      continue;
    }
    if (cols[0] == header_first) continue;
    f(cols, line_no);
  }
}

// "8.5.x" matches 8.5.anything; otherwise equal (case-insensitive). A driver's patch
// ("25.0.rc1.1") matches its base ("25.0.rc1").
bool version_matches(std::string_view pattern, std::string_view version, bool allow_patch) {
  std::string p = lower(pattern), v = lower(version);
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

void parse_wheel_table(std::string_view content, std::vector<WheelRow>& out,
                       std::vector<std::string>& errors) {
  for_rows(content, "versions/torch_npu_cann.tsv", 6, "torch_npu", errors,
           [&](const std::vector<std::string_view>& c, size_t line) {
             if (!parse_pep440(c[0]) || (c[4] != "declared" && c[4] != "inferred")) {
               errors.push_back(fmt::format("versions/torch_npu_cann.tsv:{}: bad wheel or status",
                                            line));
               return;
             }
             out.push_back(WheelRow{std::string(c[0]), std::string(c[1]), std::string(c[2]),
                                    std::string(c[3]), std::string(c[4]), std::string(c[5])});
           });
}

void parse_hdk_table(std::string_view content, std::vector<HdkRow>& out,
                     std::vector<std::string>& errors) {
  for_rows(content, "versions/cann_hdk.tsv", 4, "cann", errors,
           [&](const std::vector<std::string_view>& c, size_t line) {
             if (c[2] != "compatible" && c[2] != "excluded") {
               errors.push_back(fmt::format("versions/cann_hdk.tsv:{}: bad relation", line));
               return;
             }
             out.push_back(HdkRow{std::string(c[0]), std::string(c[1]), std::string(c[2]),
                                  std::string(c[3])});
           });
}

const VersionTables& version_tables_for(const std::string& knowledge_dir) {
  // Built once per --knowledge directory from the knowledge base's versions/*.tsv (a file of
  // the directory replaces the built-in one of the same name).
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<VersionTables>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(knowledge_dir);
  if (it != cache.end()) return *it->second;
  auto t = std::make_unique<VersionTables>();
  const KnowledgeBase& kb = knowledge_for(knowledge_dir);
  if (const KnowledgeFile* f = kb.find_version_file("versions/torch_npu_cann.tsv"))
    parse_wheel_table(f->content, t->wheels, t->errors);
  if (const KnowledgeFile* f = kb.find_version_file("versions/cann_hdk.tsv"))
    parse_hdk_table(f->content, t->hdk, t->errors);
  const VersionTables& ref = *t;
  cache.emplace(knowledge_dir, std::move(t));
  return ref;
}

const VersionTables& builtin_version_tables() { return version_tables_for(""); }

std::vector<std::string> check_version_table(std::string_view content, const std::string& name) {
  std::vector<std::string> errors;
  std::vector<WheelRow> w;
  std::vector<HdkRow> h;
  if (name.ends_with("torch_npu_cann.tsv")) parse_wheel_table(content, w, errors);
  else if (name.ends_with("cann_hdk.tsv")) parse_hdk_table(content, h, errors);
  else errors.push_back(name + ": unknown version table");
  return errors;
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
  std::string drv = lower(driver);
  for (const auto& [lo, hi] : bracket_list(compatible_drv)) {
    std::string l = lower(lo), h = lower(hi);
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
