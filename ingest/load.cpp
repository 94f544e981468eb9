#include "ingest/load.h"

#include <fmt/format.h>

#include <algorithm>
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

// "worker-0", "rank_3", "node12": a member directory of a job's collection.
bool member_directory_name(std::string_view n) {
  for (std::string_view prefix : {"worker", "rank", "node"}) {
    if (n.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = n.substr(prefix.size());
    if (!rest.empty() && (rest[0] == '-' || rest[0] == '_')) rest.remove_prefix(1);
    if (rest.empty() || rest.size() > 6) return false;
    for (char c : rest)
      if (c < '0' || c > '9') return false;
    return true;
  }
  return false;
}

// A directory that holds only member directories (ascend-fd's collection of a job: worker-N/,
// one per node) is its members, in name order, each an input of its own.
std::vector<std::string> expand_members(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& input : paths) {
    std::error_code ec;
    std::vector<std::string> members;
    bool only_members = input != kStdinPath && std::filesystem::is_directory(input, ec);
    if (only_members)
      for (std::filesystem::directory_iterator it(input, ec), end; !ec && it != end && only_members; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (it->is_directory(ec) && !it->is_symlink(ec) && member_directory_name(name)) members.push_back(it->path().string());
        else only_members = false;
        if (members.size() > 4096) only_members = false;
      }
    if (ec || !only_members || members.empty()) {
      out.push_back(input);
      continue;
    }
    std::sort(members.begin(), members.end());
    out.insert(out.end(), members.begin(), members.end());
  }
  return out;
}

}  // namespace

// Each input is read once, in the order given; its entries are sorted afterwards.
LoadResult load_evidence(const std::vector<std::string>& given, const AnalyzeOptions& options,
                         ReadProgress* progress) {
  const std::vector<std::string> paths = expand_members(given);
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
