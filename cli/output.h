#pragma once
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "reports/safe_output.h"

namespace triage::cli {

// A -o FILE, written through the output guard like standard output (reports/safe_output.h).
// Members in this order: the guard flushes into the file before the file closes.
struct OutputFile {
  std::ofstream file;
  std::unique_ptr<SafeOutputBuf> guard;
  std::unique_ptr<std::ostream> out;
};

// -o FILE or stdout (guarded by main); nullptr (after a message) when FILE cannot be written.
inline std::ostream* open_output(const std::string& path, OutputFile& f) {
  if (path.empty() || path == "-") return &std::cout;
  f.file.open(path, std::ios::binary | std::ios::trunc);
  if (!f.file) {
    std::cerr << "ascend-triage: cannot write " << path << '\n';
    return nullptr;
  }
  f.guard = std::make_unique<SafeOutputBuf>(f.file.rdbuf());
  f.out = std::make_unique<std::ostream>(f.guard.get());
  return f.out.get();
}

}  // namespace triage::cli
