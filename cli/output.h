#pragma once
#include <fstream>
#include <iostream>
#include <string>

namespace triage::cli {

// -o FILE or stdout; nullptr (after a message) when FILE cannot be written.
inline std::ostream* open_output(const std::string& path, std::ofstream& file) {
  if (path.empty() || path == "-") return &std::cout;
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    std::cerr << "ascend-triage: cannot write " << path << '\n';
    return nullptr;
  }
  return &file;
}

}  // namespace triage::cli
