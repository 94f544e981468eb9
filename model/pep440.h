#pragma once
// Python package names and versions: PEP 503 name normalisation ("torch-npu" = "torch_npu"
// = "Torch.NPU") and a PEP 440 version parser with the standard ordering
// (1.0.dev1 < 1.0a1 < 1.0rc1 < 1.0 < 1.0+local < 1.0.post1), enough for wheel versions such
// as 2.9.0.post6, 2.1.0.post8.dev20241009, 2.9.0+git2ab7354 and 1.11.0.rc2.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

std::string pep503_normalize(std::string_view name);

struct Pep440Version {
  int64_t epoch = 0;
  std::vector<int64_t> release;   // as written (1.0 keeps two parts); compared zero-padded
  std::string pre_kind;           // "a", "b", "rc" or "" (none)
  int64_t pre = 0;
  std::optional<int64_t> post;
  std::optional<int64_t> dev;
  std::vector<std::string> local; // lowercased segments after '+'

  // Canonical text ("2.9.0.post6", "1!2.0rc1.dev3+git.abc").
  std::string str() const;
  // The same version without the local part ("2.9.0.post6" for "2.9.0.post6+git2ab7354").
  std::string public_str() const;
};

// nullopt when `text` is not a PEP 440 version.
std::optional<Pep440Version> parse_pep440(std::string_view text);
// <0, 0, >0 as a is older than, equal to, newer than b.
int compare_pep440(const Pep440Version& a, const Pep440Version& b);
// Equal public versions (local labels ignored): "2.9.0.post6+gitabc" matches "2.9.0.post6".
bool same_public_version(const Pep440Version& a, const Pep440Version& b);

}  // namespace triage
