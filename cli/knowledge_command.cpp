// `knowledge check FILE...`, `knowledge list`, `knowledge explain ID|CODE`: the knowledge
// files (signatures, error codes) as the analyzer sees them. Exit codes per docs/cli.md.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "ingest/knowledge_check.h"
#include "knowledge/knowledge.h"
#include "knowledge/source_links.h"

namespace triage::cli {

namespace {

struct Args {
  std::vector<std::string> files;
  std::string id;
  std::string what = "all";
};

int run_check(const Args& a, const GlobalOptions& g) {
  std::vector<KnowledgeFile> files;
  if (a.files.empty()) {
    // Without FILE: the knowledge in use (built-in, or with --knowledge DIR).
    files = builtin_knowledge_files();
    if (!g.knowledge_dir.empty()) {
      std::vector<std::string> errors;
      auto extra = read_knowledge_dir(g.knowledge_dir, errors);
      for (const auto& e : errors) std::cerr << "ascend-triage: " << e << '\n';
      if (!errors.empty()) return kExitCannotAnalyse;
      for (auto& f : extra) files.push_back(std::move(f));
    }
  } else {
    for (const auto& path : a.files) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << "ascend-triage: cannot read " << path << '\n';
        return kExitCannotAnalyse;
      }
      if (!path.ends_with(".json") && !path.ends_with(".tsv")) {
        std::cerr << "ascend-triage: " << path << ": expected a .json signature file or a .tsv error-code file\n";
        return kExitCannotAnalyse;
      }
      std::ostringstream ss;
      ss << in.rdbuf();
      files.push_back({path, ss.str()});
    }
  }
  bool ok = true;
  for (const auto& f : files) {
    KnowledgeCheck c = check_knowledge_file(f.content, f.name);
    for (const auto& p : c.problems) std::cout << "FAIL " << p << '\n';
    std::cout << (c.ok() ? "ok   " : "FAIL ") << f.name << ": " << c.signatures << " signatures, "
              << c.samples << " samples, " << c.error_codes << " error codes\n";
    ok = ok && c.ok();
    // Findings at warning or above that link to nothing: counted, not failed (docs/knowledge.md).
    if (f.name.ends_with(kFindingSourcesFile)) {
      std::vector<std::string> ignored;
      auto missing = check_finding_sources(f.content, f.name, ignored);
      if (!missing.empty()) {
        std::cout << "warn " << f.name << ": " << missing.size() << " findings at warning or above have no row:";
        for (const auto& id : missing) std::cout << ' ' << id;
        std::cout << '\n';
      }
    }
  }
  // Ids must be unique across the whole set too.
  if (files.size() > 1) {
    KnowledgeBase kb = build_knowledge(files, "check");
    for (const auto& e : kb.errors)
      if (e.find("duplicate signature id") != std::string::npos) {
        std::cout << "FAIL " << e << '\n';
        ok = false;
      }
  }
  return ok ? kExitClean : kExitFindings;
}

int run_list(const Args& a, const GlobalOptions& g) {
  const KnowledgeBase& kb = knowledge_for(g.knowledge_dir);
  for (const auto& e : kb.errors) std::cerr << "ascend-triage: " << e << '\n';
  std::cout << "knowledge: " << kb.origin << '\n';
  if (a.what == "all" || a.what == "signatures") {
    std::cout << "signatures (" << kb.signatures.size() << "):\n";
    for (const auto& s : kb.signatures)
      std::cout << "  " << s.id << "  [" << s.severity << ", " << s.category << "]  " << s.title
                << "  (" << s.file << ")\n";
  }
  if (a.what == "all" || a.what == "codes") {
    std::cout << "error codes (" << kb.error_codes.size() << "):\n";
    for (const auto& c : kb.error_codes)
      std::cout << "  " << c.kind << ' ' << c.code << "  " << c.name << "  [" << c.failure_class << "]  "
                << c.meaning << '\n';
  }
  return kExitClean;
}

int run_explain(const Args& a, const GlobalOptions& g) {
  const KnowledgeBase& kb = knowledge_for(g.knowledge_dir);
  bool found = false;
  if (const Signature* s = kb.find_signature(a.id)) {
    found = true;
    std::cout << s->id << " [" << s->severity << ", " << s->category << "]\n"
              << s->title << "\n\n" << s->explanation << "\n\nNext steps:\n";
    for (const auto& n : s->next_steps) std::cout << "  - " << n << '\n';
    std::cout << "\nPattern: " << s->pattern << "\nFile: " << s->file << '\n';
  }
  for (const auto& c : kb.error_codes) {
    if (c.code != a.id) continue;
    found = true;
    std::cout << c.kind << ' ' << c.code << "  " << c.name << "\n  meaning:    " << c.meaning
              << "\n  component:  " << c.component << "\n  class:      " << c.failure_class
              << "\n  next check: " << c.next_check << "\n  source:     " << c.source << '\n';
  }
  if (!found) {
    std::cerr << "ascend-triage: no signature or error code '" << a.id << "'\n";
    return kExitCannotAnalyse;
  }
  return kExitClean;
}

}  // namespace

Command add_knowledge_command(CLI::App& app, GlobalOptions& g) {
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("knowledge", "Check, list or explain the knowledge files");
  cmd->require_subcommand(1);
  auto* check = cmd->add_subcommand(
      "check", "Compile every pattern, check ids and run every sample (no FILE: the knowledge in use)");
  check->add_option("files", args->files, "Signature (.json) or error-code (.tsv) files");
  auto* list = cmd->add_subcommand("list", "List signatures and error codes");
  list->add_option("--only", args->what, "What to list")
      ->check(CLI::IsMember({"all", "signatures", "codes"}))
      ->capture_default_str();
  auto* explain = cmd->add_subcommand("explain", "Show a signature or an error code");
  explain->add_option("id", args->id, "Signature id or error code")->required();
  auto run = [args, check, list, explain](const GlobalOptions& g) {
    if (check->parsed()) return run_check(*args, g);
    if (list->parsed()) return run_list(*args, g);
    if (explain->parsed()) return run_explain(*args, g);
    return kExitCannotAnalyse;
  };
  return {cmd, run};
}

}  // namespace triage::cli
