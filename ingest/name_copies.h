#pragma once
// How often each member name was stored, kept as 64-bit hashes: 16 bytes per distinct name
// instead of a string in a tree, so a million members stay cheap. Two names with one hash
// (about n^2 / 2^65: 3e-8 at a million) would be reported as a copy.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace triage {

uint64_t name_hash(std::string_view name);

class NameCopies {
 public:
  // The copy number of this name: 1 the first time it is seen.
  size_t add(std::string_view name);

 private:
  void grow();
  std::vector<uint64_t> slots_;  // open addressing, 0 = empty
  size_t used_ = 0;
  std::unordered_map<uint64_t, size_t> copies_;  // names seen more than once
};

}  // namespace triage
