#pragma once
// The default-pip package rows the paste readers make (pip list and pip freeze text, a
// framework's collect_env, pip's console in job output): one way to spell a row, and the
// characters of a distribution name (PEP 508: letters, digits, - _ .).
#include <string_view>

#include "model/facts_libraries.h"
#include "model/pep440.h"
#include "model/strings.h"

namespace triage {

inline bool is_distribution_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '-' || c == '_' || c == '.';
}

inline PackageRow& add_default_pip(LibraryFacts& lf, std::string_view name, std::string_view version,
                                   std::string_view kind, EvidenceRef evidence) {
  PackageRow row;
  row.name = std::string(name);
  row.normalized = pep503_normalize(name);
  row.version = std::string(version);
  row.kind = std::string(kind);
  row.evidence = std::move(evidence);
  lf.has_default_pip = true;
  return lf.default_pip.emplace_back(std::move(row));
}

}  // namespace triage
