#pragma once
// `ascend-triage facts`: every fact the readers extracted, flattened to key=value rows in the
// corpus vocabulary (code, pid, rank, device, time, operator, library, symbol, stream, task,
// component, version), each with the entry and line it came from. The corpus tests compare
// these rows with the `expect:` lines of tests/data/real/*/SOURCE.md.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
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

// Rows of one bundle, in a stable order (by entry, line, key, value), without duplicates: what
// the readers keep and what the fact scanner read in job-output lines (knowledge/fact-forms.tsv).
std::vector<FactRow> list_facts(const BundleFacts& facts, FactScope scope = FactScope::all);

// Which rows for_each_entry_rows gives: every one, or only those that can change an entry's
// mentions (correlator/summaries/entry_mentions.h): of each pid, device, rank, component and
// version value its first line, and the times at the entry's first and last line and line 0.
// Those are a few per entry however many facts were kept (issue 35: a storm's facts).
enum class RowKeep : uint8_t { every, mentions };

// The keys whose values an entry's mentions list (time aside).
bool names_an_entry_mention(std::string_view key);

// The same rows, one entry at a time in the same order: visit gets each entry's rows (sorted
// by line, key, value, without duplicates). Holds the rows of kept facts and of one entry's
// summary, not a summary's rows for every entry (issue 33: a million one-line members).
void for_each_entry_rows(const BundleFacts& facts, FactScope scope,
                         const std::function<void(const std::vector<FactRow>&)>& visit,
                         RowKeep keep = RowKeep::every);

// `key=value<TAB>entry:line`, one row a line; control bytes in values are escaped.
void print_fact_rows(const std::vector<FactRow>& rows, std::ostream& out);

}  // namespace triage
