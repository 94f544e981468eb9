#include "ingest/load.h"

#include <fmt/format.h>

#include "ingest/entry_processor.h"
#include "ingest/fact_order.h"
#include "bundle/input_reader.h"
#include "bundle/read_ahead.h"
#include "ingest/finalize.h"

namespace triage {

// Each input is read once, in the order given; its entries are sorted afterwards.
LoadResult load_evidence(const std::vector<std::string>& paths, const AnalyzeOptions& options,
                         ReadProgress* progress) {
  LoadResult result;
  LoadBudget budget(options.limits);
  budget.bytes.progress = progress;
  result.evidence.bundles.reserve(paths.size());
  size_t not_read = 0;
  for (const auto& input : paths) {
    if (budget.exhausted()) {
      ++not_read;  // counted in the limit finding of the input where reading stopped
      continue;
    }
    BundleFacts& bundle = result.evidence.bundles.emplace_back();
    bool from_stdin = input == kStdinPath;
    bundle.input = from_stdin ? options.stdin_name : input;
    EntryProcessor processor(bundle, options, budget);
    InputDescription described;
    InputWalk walk = [&](MemberSink& sink, InputDescription& d) {
      return from_stdin ? read_stdin(options.stdin_name, sink, d) : read_input(input, sink, d);
    };
    std::string error = options.read_threads >= 2 ? read_ahead(walk, processor, described)
                                                  : walk(processor, described);
    if (!error.empty()) {
      result.errors.push_back(bundle.input + ": " + error);
      result.evidence.bundles.pop_back();
      continue;
    }
    processor.finish();
    order_facts_by_entry(bundle);  // before finalize: its dedupes keep the first copy
    finalize_facts(bundle, options);
    if (!bundle.system.hostname.empty()) bundle.host = bundle.system.hostname;
  }
  if (not_read > 0)
    for (auto& bundle : result.evidence.bundles)
      for (auto& f : bundle.input_findings)
        if (f.id == "input-limit/total-bytes" || f.id == "input-limit/entries") {
          f.value("inputs_not_read", std::to_string(not_read));
          f.observed += fmt::format(" {} later input(s) were not read at all.", not_read);
        }
  auto recognised = [](SourceKind k) { return k != SourceKind::unknown && k != SourceKind::symlink; };
  for (const auto& bundle : result.evidence.bundles) {
    for (const auto& e : bundle.inventory.entries) result.recognised_any |= recognised(e.kind);
    for (const auto& f : bundle.inventory.folded) result.recognised_any |= recognised(f.kind);
  }
  return result;
}

}  // namespace triage
