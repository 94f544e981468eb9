// `ascend-triage fleet INPUT...`: the reduce step of fleet triage (docs/fleet.md). Reads
// per-node summaries (mapping bundles first when given bundles) and says which node failed
// first and how, which only waited, the clock skew between nodes and who differs from the
// majority.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/fleet_map.h"
#include "cli/output.h"
#include "fleet/fleet_report.h"
#include "reports/redact.h"

namespace triage::cli {

namespace {

// A private directory for mapped summaries, removed afterwards unless --keep-summaries.
struct TempDir {
  std::string path;
  bool keep = false;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty() && !keep) std::filesystem::remove_all(path, ec);
  }
};

// --redact: every string of the summaries, the hosts of all nodes learned first.
template <class F>
void each_node_string(fleet::LoadedNode& n, F&& f) {
  NodeSummary& s = n.node;
  f(n.source);
  f(s.host);
  for (auto& i : s.inputs) f(i);
  for (auto& r : s.ranks) f(r.rank);
  for (auto& x : s.findings)
    for (std::string* t : {&x.id, &x.title, &x.clock, &x.rank}) f(*t);
  for (auto& k : s.skews)
    for (std::string* t : {&k.source_a, &k.source_b, &k.method}) f(*t);
  for (auto& c : s.collectives) f(c.key);
  // The wait graph's addresses: one redactor over every node, so a pseudonym still names the
  // same address on every node and the targets resolve as without --redact.
  for (auto& w : s.waits)
    for (std::string* t : {&w.signature, &w.waiter_rank, &w.waiter_address, &w.target_rank, &w.target_address, &w.clock})
      f(*t);
  for (auto& a : s.addresses)
    for (std::string* t : {&a.ip, &a.rank, &a.source}) f(*t);
}

std::string redact_nodes(std::vector<fleet::LoadedNode>& nodes) {
  Redactor r;
  for (const auto& n : nodes) r.add_host(n.node.host);
  for (auto& n : nodes)
    each_node_string(n, [&](std::string& s) { r.learn(s); });
  for (auto& n : nodes) each_node_string(n, [&](std::string& s) { r.apply(s); });
  return r.note();
}

}  // namespace

Command add_fleet_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::vector<std::string> inputs;
    std::string format = "text", output, keep;
    unsigned jobs = 0;
    bool redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "fleet", "Which node of a multi-node job failed first and how; who only waited; skew; who differs");
  cmd->add_option("inputs", args->inputs,
                  "Summaries (analyze --format summary), directories of them, @LIST files (one input "
                  "a line), or bundles (mapped here first)")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->transform(format_spellings())
      ->check(CLI::IsMember({"text", "md", "json", "html"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write the report to FILE instead of stdout");
  cmd->add_option("-j,--jobs", args->jobs, "Bundles mapped at once (default: the number of cores)");
  cmd->add_option("--keep-summaries", args->keep, "Write the summaries of mapped bundles to DIR and keep them");
  add_redact_flag(*cmd, args->redact, "the sentence saying what was replaced goes to stderr; kept summaries are not redacted");

  auto run = [args](const GlobalOptions& g) {
    FleetInputs inputs;
    if (!expand_fleet_inputs(args->inputs, inputs)) return kExitCannotAnalyse;
    std::vector<std::string> files = inputs.summaries;
    TempDir tmp;
    if (!inputs.bundles.empty()) {
      std::error_code ec;
      if (!args->keep.empty()) {
        tmp.path = args->keep;
        tmp.keep = true;
        std::filesystem::create_directories(tmp.path, ec);
      } else {
        std::string templ = (std::filesystem::temp_directory_path(ec) / "ascend-triage-fleet.XXXXXX").string();
        if (mkdtemp(templ.data())) tmp.path = templ;
      }
      if (tmp.path.empty() || ec) {
        std::cerr << "ascend-triage: cannot create a directory for the mapped summaries\n";
        return kExitCannotAnalyse;
      }
      unsigned jobs = args->jobs ? args->jobs : std::max(1u, std::thread::hardware_concurrency());
      std::vector<std::string> global;
      if (!g.knowledge_dir.empty()) global = {"--knowledge", g.knowledge_dir};
      if (!map_bundles(inputs.bundles, tmp.path, jobs, global, g.quiet, files)) return kExitCannotAnalyse;
    }
    std::vector<fleet::LoadedNode> nodes;
    fleet::SummaryReader reader;
    for (const auto& f : files) {
      std::string error;
      if (!reader.read_file(f, nodes, error)) {
        std::cerr << "ascend-triage: " << error << '\n';
        return kExitCannotAnalyse;
      }
    }
    if (nodes.empty()) {
      std::cerr << "ascend-triage: the inputs hold no node\n";
      return kExitCannotAnalyse;
    }
    if (args->redact) std::cerr << "ascend-triage: " << redact_nodes(nodes) << '\n';
    fleet::FleetReport report = fleet::correlate_fleet(std::move(nodes));
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    auto format = args->format == "json"   ? fleet::FleetFormat::json
                  : args->format == "md"   ? fleet::FleetFormat::md
                  : args->format == "html" ? fleet::FleetFormat::html
                                           : fleet::FleetFormat::text;
    fleet::render_fleet(report, format, *out);
    return report.has_findings() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
