#include "ingest/load.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <string_view>

#include "ingest/entry_processor.h"
#include "ingest/fact_order.h"
#include "bundle/input_reader.h"
#include "bundle/read_ahead.h"
#include "ingest/finalize.h"

namespace triage {

namespace {

std::string_view last_component(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (auto slash = path.rfind('/'); slash != std::string_view::npos) path.remove_prefix(slash + 1);
  return path;
}

// Several inputs are the members of one job (ascend-fd's worker-N directories, one per node):
// a directory whose files name no host is called by its own name, when that name is unique
// among the inputs and no other input's host.
void name_members_by_input(EvidenceSet& evidence) {
  if (evidence.bundles.size() < 2) return;
  std::map<std::string, size_t> uses;
  for (const auto& b : evidence.bundles) ++uses[b.host.empty() ? std::string(last_component(b.input)) : b.host];
  for (auto& b : evidence.bundles) {
    std::string name(last_component(b.input));
    std::error_code ec;
    if (!std::filesystem::is_directory(b.input, ec)) continue;  // a loose file is a paste, not a member
    if (b.host.empty() && !name.empty() && name != "." && name != ".." && name != "-" && uses[name] == 1) b.host = name;
  }
}

}  // namespace

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
  name_members_by_input(result.evidence);
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
