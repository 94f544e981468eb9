#pragma once
// `ascend-triage facts`: every fact the readers extracted, flattened to key=value rows in the
// corpus vocabulary (code, pid, rank, device, time, operator, library, symbol, stream, task,
// component, version), each with the entry and line it came from. The corpus tests compare
// these rows with the `expect:` lines of tests/data/real/*/SOURCE.md.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "model/host_facts.h"

namespace triage {

struct FactRow {
  std::string key, value, entry;
  uint64_t line = 0;
};

// Which facts: all of them (`ascend-triage facts`), or those the report may show, which
// leaves out the plain info printks of the kernel log (model/kernel_words.h): whether those
// are kept depends on AnalyzeOptions::full_info_kernel_lines, and a report must not.
enum class FactScope : uint8_t { all, report };

// Rows of one bundle, in a stable order (by entry, line, key, value), without duplicates.
std::vector<FactRow> list_facts(const BundleFacts& facts, FactScope scope = FactScope::all);

// The same rows, one entry at a time in the same order: visit gets each entry's rows (sorted
// by line, key, value, without duplicates). Holds the rows of kept facts and of one entry's
// summary, not a summary's rows for every entry (issue 33: a million one-line members).
void for_each_entry_rows(const BundleFacts& facts, FactScope scope,
                         const std::function<void(const std::vector<FactRow>&)>& visit);

// `key=value<TAB>entry:line`, one row a line; control bytes in values are escaped.
void print_fact_rows(const std::vector<FactRow>& rows, std::ostream& out);

}  // namespace triage
