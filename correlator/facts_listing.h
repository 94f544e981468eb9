#pragma once
// `ascend-triage facts`: every fact the readers extracted, flattened to key=value rows in the
// corpus vocabulary (code, pid, rank, device, time, operator, library, symbol, stream, task,
// component, version), each with the entry and line it came from. The corpus tests compare
// these rows with the `expect:` lines of tests/data/real/*/SOURCE.md.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "model/host_facts.h"

namespace triage {

struct FactRow {
  std::string key, value, entry;
  uint64_t line = 0;
};

// Rows of one bundle, in a stable order (by entry, line, key, value), without duplicates.
std::vector<FactRow> list_facts(const BundleFacts& facts);

// `key=value<TAB>entry:line`, one row a line; control bytes in values are escaped.
void print_fact_rows(const std::vector<FactRow>& rows, std::ostream& out);

}  // namespace triage
