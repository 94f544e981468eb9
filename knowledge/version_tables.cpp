// Loading the version tables of knowledge/versions/ (see its README.md); the judging by
// them is correlator/analyses/version_judge.cpp.
#include "knowledge/version_tables.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>

#include "knowledge/knowledge.h"
#include "knowledge/table_lines.h"
#include "model/pep440.h"

namespace triage {
namespace {
template <class F>
void for_rows(std::string_view content, const std::string& name, size_t columns,
              std::string_view header_first, std::vector<std::string>& errors, F&& f) {
  for_each_table_line(content, [&](size_t line_no, const std::vector<std::string_view>& cols) {
    if (cols.size() != columns)
      return errors.push_back(fmt::format("{}:{}: {} columns, expected {}", name, line_no,
                                          cols.size(), columns));
    if (cols[0] != header_first) f(cols, line_no);
  });
}

}  // namespace

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

void parse_torch_abi_table(std::string_view content, std::vector<TorchAbiRow>& out,
                           std::vector<std::string>& errors) {
  for_rows(content, "versions/torch_abi.tsv", 5, "torch_from", errors,
           [&](const std::vector<std::string_view>& c, size_t line) {
             auto bound = [](std::string_view b) { return b == "-" || parse_pep440(b).has_value(); };
             if (!bound(c[0]) || !bound(c[1]) || c[2].empty() || (c[3] != "0" && c[3] != "1")) {
               errors.push_back(fmt::format("versions/torch_abi.tsv:{}: bad bound, label or ABI (0 or 1)",
                                            line));
               return;
             }
             out.push_back(TorchAbiRow{std::string(c[0]), std::string(c[1]), std::string(c[2]),
                                       std::string(c[4]), c[3] == "1"});
           });
}

const TorchAbiRow* torch_abi_row(const VersionTables& t, std::string_view torch_version) {
  auto v = parse_pep440(torch_version);
  if (!v) return nullptr;
  std::string local;
  for (const auto& seg : v->local) local += (local.empty() ? "" : ".") + seg;
  // Bounds compare public versions: 2.5.1+cpu is a 2.5.1.
  auto pub = parse_pep440(v->public_str());
  for (const auto& r : t.torch_abi) {
    if (r.local_contains != "-" && local.find(r.local_contains) == std::string::npos) continue;
    if (r.from != "-" && compare_pep440(*pub, *parse_pep440(r.from)) < 0) continue;
    if (r.below != "-" && compare_pep440(*pub, *parse_pep440(r.below)) >= 0) continue;
    return &r;
  }
  return nullptr;
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
  if (const KnowledgeFile* f = kb.find_version_file("versions/torch_abi.tsv"))
    parse_torch_abi_table(f->content, t->torch_abi, t->errors);
  const VersionTables& ref = *t;
  cache.emplace(knowledge_dir, std::move(t));
  return ref;
}

const VersionTables& builtin_version_tables() { return version_tables_for(""); }

std::vector<std::string> check_version_table(std::string_view content, const std::string& name) {
  std::vector<std::string> errors;
  std::vector<WheelRow> w;
  std::vector<HdkRow> h;
  std::vector<TorchAbiRow> a;
  if (name.ends_with("torch_npu_cann.tsv")) parse_wheel_table(content, w, errors);
  else if (name.ends_with("cann_hdk.tsv")) parse_hdk_table(content, h, errors);
  else if (name.ends_with("torch_abi.tsv")) parse_torch_abi_table(content, a, errors);
  else errors.push_back(name + ": unknown version table");
  return errors;
}

}  // namespace triage
