// Knowledge files: the built-in set loads and passes its own checks; broken files are
// caught; --knowledge overrides file by file; the RE2::Set prefilter finds exactly what
// running every signature would; the CLI's exit codes.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "ingest/knowledge_check.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"
#include "parsers/plog/plog_line.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("ascend-triage-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int run_cli(const std::string& args) {
  std::string cmd = std::string(ASCEND_TRIAGE_BIN) + " " + args + " >/dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

const char* kGood = R"J({
  "format": "ascend-triage-signatures",
  "version": 1,
  "signatures": [{
    "id": "test/one", "sources": ["plog"], "severity": "error", "category": "test",
    "outcome": "own", "title": "t", "explanation": "e", "next_steps": ["n"],
    "pattern": "boom (?P<n>\\d+)",
    "samples": {"match": ["[ERROR] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:boom 7"],
                "near_miss": ["[ERROR] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:boom x"]}
  }]
})J";

}  // namespace

TEST_CASE("knowledge: the built-in files load and pass their own checks", "[knowledge]") {
  const KnowledgeBase& kb = knowledge_for("");
  CHECK(kb.errors.empty());
  CHECK(kb.origin == "built-in");
  CHECK(kb.signatures.size() >= 20);
  CHECK(kb.error_codes.size() >= 300);
  CHECK_FALSE(kb.plog_matcher.empty());
  CHECK_FALSE(kb.kernel_matcher.empty());
  for (const auto& f : builtin_knowledge_files()) {
    KnowledgeCheck c = check_knowledge_file(f.content, f.name);
    INFO(f.name);
    for (const auto& p : c.problems) INFO(p);
    CHECK(c.ok());
  }
  // The checked-in files are what was embedded.
  for (const auto& f : builtin_knowledge_files())
    CHECK(read_file(std::string(KNOWLEDGE_DIR) + "/" + f.name) == f.content);
  const ErrorCodeInfo* c = kb.find_code("507015");
  REQUIRE(c);
  CHECK(c->kind == "runtime");
  CHECK(c->name == "ACL_ERROR_RT_AICORE_EXCEPTION");
  CHECK(c->failure_class == "device-hardware");
  CHECK(c->component == "runtime");
  CHECK_FALSE(c->next_check.empty());
  CHECK(c->source.find("Ascend/pytorch@c4840e3c0959") != std::string::npos);
  CHECK(kb.find_code("EZ9999"));
  CHECK(kb.find_code("0x26"));
  CHECK(kb.find_code("0X2A") == kb.find_code("0x2a"));
  REQUIRE(kb.find_code("0x07020014"));
  CHECK(kb.find_code("0x07020014")->name == "RT_ERROR_DRV_INVALID_HANDLE");
  CHECK_FALSE(kb.find_code("999999"));
  for (const auto& e : kb.error_codes) {
    INFO(e.code);
    CHECK_FALSE(e.source.empty());
    CHECK_FALSE(e.meaning.empty());
    CHECK_FALSE(e.next_check.empty());
    CHECK(is_failure_class(e.failure_class));
  }
}

TEST_CASE("knowledge: the catalogue holds every code of its public sources", "[knowledge]") {
  // Spot ranges of each source (docs/knowledge.md lists the sources and their counts).
  const KnowledgeBase& kb = knowledge_for("");
  auto has = [&](const std::string& code, const std::string& kind) {
    for (const auto& e : kb.error_codes)
      if (e.code == code && e.kind == kind) return true;
    return false;
  };
  for (int v = 507000; v <= 507057; ++v) CHECK(has(std::to_string(v), "runtime"));  // rt_error_codes.h
  for (int v = 0; v <= 24; ++v) CHECK(has(std::to_string(v), "hccl"));              // HcclResult
  for (int v = 0; v <= 99; ++v) CHECK(has(std::to_string(v), "drv"));               // drvError_t
  CHECK(has("65534", "drv"));                                                        // DRV_ERROR_NOT_SUPPORT
  for (int v : {0, -8001, -8002, -8003, -8004, -8005, -8006, -8007, -8008, -8009, -8010, -8011,
                -8012, -8013, -8014, -8015, -8016, -8017, -8020, -8022, -8023, -8255})
    CHECK(has(std::to_string(v), "dcmi"));
  for (int v = 1; v <= 20; ++v) {
    if (v == 9) continue;  // no EI0009 in any catalogue
    CHECK(has(fmt::format("EI{:04d}", v), "message"));
  }
  for (int v = 1; v <= 22; ++v) CHECK(has(fmt::format("EL{:04d}", v), "message"));
  CHECK(has("E10001", "message"));  // GE catalogue
  const ErrorCodeInfo* ei = kb.find_code("EI0002");
  REQUIRE(ei);
  CHECK(ei->failure_class == "collective-communication");
  CHECK(ei->meaning.find("group information: [%s]") != std::string::npos);  // not truncated
}

TEST_CASE("knowledge check catches broken signature files", "[knowledge]") {
  CHECK(check_knowledge_file(kGood, "good.json").ok());
  auto problems = [](std::string text) {
    return check_knowledge_file(text, "bad.json").problems;
  };
  std::string good = kGood;
  auto replace = [&](std::string from, std::string to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  CHECK_FALSE(problems(replace("boom (?P<n>\\\\d+)", "boom (unclosed")).empty());
  CHECK_FALSE(problems(replace("F:boom 7", "F:bam 7")).empty());       // sample does not match
  CHECK_FALSE(problems(replace("F:boom x", "F:boom 8")).empty());      // near miss matches
  CHECK_FALSE(problems(replace("\"near_miss\"", "\"near_misses\"")).empty());  // unknown key
  CHECK_FALSE(problems(replace("\"error\"", "\"fatal\"")).empty());     // bad severity
  CHECK_FALSE(problems(replace("\"plog\"", "\"journal\"")).empty());    // bad source
  CHECK_FALSE(problems(replace("\"outcome\": \"own\", ", "")).empty());  // leads nowhere
  CHECK_FALSE(problems(replace("\"own\"", "\"benign\"")).empty());      // benign above info
  CHECK_FALSE(problems(replace("\"own\"", "\"no-such-finding\"")).empty());
  CHECK(problems(replace("\"own\"", "\"device-exception\"")).empty());  // a finding family
  CHECK_FALSE(problems("{").empty());
  CHECK_FALSE(problems(R"({"format": "x", "signatures": []})").empty());
  // duplicate ids
  std::string dup = good;
  size_t start = dup.find("{\n    \"id\"");
  size_t end = dup.rfind("}]");
  std::string sig = dup.substr(start, end - start + 1);
  dup.insert(end + 1, ", " + sig);
  auto p = problems(dup);
  REQUIRE_FALSE(p.empty());
  CHECK(p[0].find("duplicate id") != std::string::npos);
  // module filter is applied to samples: a RUNTIME sample fails a HCCL-only signature
  CHECK_FALSE(problems(replace("\"sources\": [\"plog\"]", "\"sources\": [\"plog\"], \"modules\": [\"HCCL\"]")).empty());
}

TEST_CASE("knowledge: a narrower signature replaces the broader one it supersedes, on that line only", "[knowledge]") {
  const char* two = R"J({
  "format": "ascend-triage-signatures", "version": 1,
  "signatures": [
   {"id": "t/socket", "sources": ["plog"], "severity": "error", "category": "t", "outcome": "own",
    "title": "t", "explanation": "e", "next_steps": ["n"], "pattern": "ra socket [a-z ]+? fail",
    "samples": {"match": ["[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 ra socket init fail"],
                "near_miss": ["[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 ra socket"]}},
   {"id": "t/socket-close", "sources": ["plog"], "severity": "warning", "category": "t", "outcome": "own",
    "supersedes": ["t/socket"],
    "title": "t", "explanation": "e", "next_steps": ["n"], "pattern": "ra socket batch close fail",
    "samples": {"match": ["[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 ra socket batch close fail"],
                "near_miss": ["[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 ra socket init fail"]}}]
})J";
  CHECK(check_knowledge_file(two, "two.json").ok());
  std::vector<Signature> sigs;
  std::vector<std::string> errors;
  parse_signature_file(two, "two.json", sigs, errors);
  REQUIRE(errors.empty());
  REQUIRE(sigs.size() == 2);
  SignatureMatcher m(sigs, kSigPlog);
  std::vector<int> scratch, hits;
  m.match("ra socket batch close fail. return[228202], num[1]", "HCCL", scratch, hits);
  CHECK(hits == std::vector<int>{1});  // both match; the close replaces the general one
  m.match("ra socket listen start fail. return[1]", "HCCL", scratch, hits);
  CHECK(hits == std::vector<int>{0});
  // Only an id of the same file, never itself.
  std::string bad = two;
  bad.replace(bad.find("[\"t/socket\"]"), 12, "[\"t/sockets\"]");
  auto p = check_knowledge_file(bad, "two.json").problems;
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("supersedes 't/sockets'") != std::string::npos);
}

TEST_CASE("knowledge check catches broken error-code files", "[knowledge]") {
  std::string head = "code\tkind\tname\tmeaning\tcomponent\tclass\tnext_check\tsource\n";
  auto row = [](std::string code, std::string kind, std::string meaning, std::string cls,
                std::string next, std::string source) {
    return code + "\t" + kind + "\tX\t" + meaning + "\tACL\t" + cls + "\t" + next + "\t" + source + "\n";
  };
  std::string good = row("1", "acl", "m", "application-code", "n", "s");
  CHECK(check_knowledge_file(head + good, "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + "1\tacl\tX\tm\tACL\tunknown\tn\n", "c.tsv").ok());  // short row
  CHECK_FALSE(check_knowledge_file(head + row("1", "nope", "m", "unknown", "n", "s"), "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + row("1", "acl", "", "unknown", "n", "s"), "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + row("1", "acl", "m", "unknown", "n", ""), "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + row("1", "acl", "m", "unknown", "", "s"), "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + row("1", "acl", "m", "hardware", "n", "s"), "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file(head + good + good, "c.tsv").ok());  // duplicate (code, kind)
  CHECK(check_knowledge_file(head + good + row("1", "hccl", "m", "unknown", "n", "s"), "c.tsv").ok());
  // the column's earlier name still loads; a missing column is one error, not one per row
  std::string old_head = "code\tkind\tname\tmeaning\tcomponent\tclass\tadvice\tsource\n";
  CHECK(check_knowledge_file(old_head + good, "c.tsv").ok());
  auto missing = check_knowledge_file("code\tkind\tname\tmeaning\tnext_check\tsource\n" + good + good, "c.tsv");
  CHECK(missing.problems.size() == 2);  // component, class
  CHECK_FALSE(check_knowledge_file("code\tkind\n", "c.tsv").ok());
  CHECK_FALSE(check_knowledge_file("x", "c.txt").ok());
}

TEST_CASE("knowledge: --knowledge DIR replaces files by name and keeps the others", "[knowledge]") {
  fs::path dir = temp_dir("override");
  fs::create_directories(dir / "signatures");
  std::ofstream(dir / "signatures" / "plog.json") << kGood;
  const KnowledgeBase& kb = knowledge_for(dir.string());
  CHECK(kb.errors.empty());
  CHECK(kb.origin == "built-in + " + dir.string());
  CHECK(kb.find_signature("test/one"));
  CHECK_FALSE(kb.find_signature("stream-stall/three-minute-report"));  // plog.json replaced
  CHECK(kb.find_signature("kernel/oops"));                               // kernel.json kept
  CHECK(kb.find_code("507015"));
  const KnowledgeBase& missing = knowledge_for((dir / "nope").string());
  CHECK_FALSE(missing.errors.empty());
  CHECK(missing.find_signature("kernel/oops"));  // built-in still works
  fs::remove_all(dir);
}

TEST_CASE("knowledge: the Set prefilter finds exactly what every signature would", "[knowledge]") {
  const KnowledgeBase& kb = knowledge_for("");
  std::ifstream in(std::string(TEST_DATA_DIR) + "/fixtures/reference/real-log-excerpts.md");
  std::string line;
  std::vector<int> scratch, hits;
  size_t lines = 0, with_hits = 0;
  while (std::getline(in, line)) {
    ++lines;
    for (uint8_t source : {uint8_t{kSigPlog}, uint8_t{kSigKernel}}) {
      std::string_view module;
      std::string_view text = sample_text(line, source, module);
      const SignatureMatcher& m = source == kSigPlog ? kb.plog_matcher : kb.kernel_matcher;
      m.match(text, module, scratch, hits);
      std::vector<int> brute;
      for (size_t i = 0; i < kb.signatures.size(); ++i) {
        const Signature& s = kb.signatures[i];
        if (!(s.sources & source) || !s.re) continue;
        if (!s.modules.empty() && !module.empty() &&
            std::find(s.modules.begin(), s.modules.end(), module) == s.modules.end())
          continue;
        if (RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *s.re))
          brute.push_back(static_cast<int>(i));
      }
      // A narrower signature that matched replaces the broader ones it names.
      std::vector<int> kept;
      for (int i : brute) {
        bool replaced = false;
        for (int j : brute)
          for (const auto& id : kb.signatures[static_cast<size_t>(j)].supersedes)
            replaced = replaced || id == kb.signatures[static_cast<size_t>(i)].id;
        if (!replaced) kept.push_back(i);
      }
      brute = kept;
      // A generated ascend-fd fragment signature gives way to a hand-written one on the line.
      bool hand_written = std::any_of(brute.begin(), brute.end(), [&](int i) {
        return kb.signatures[static_cast<size_t>(i)].ascend_fd.empty();
      });
      if (hand_written)
        std::erase_if(brute, [&](int i) { return !kb.signatures[static_cast<size_t>(i)].ascend_fd.empty(); });
      INFO(line);
      CHECK(hits == brute);
      with_hits += !hits.empty();
    }
  }
  CHECK(lines > 1000);
  CHECK(with_hits > 15);
}

TEST_CASE("knowledge CLI: exit codes of check, list and explain", "[knowledge]") {
  fs::path dir = temp_dir("cli");
  std::ofstream(dir / "good.json") << kGood;
  std::string bad = kGood;
  bad.replace(bad.find("F:boom 7"), 8, "F:bam 7");
  std::ofstream(dir / "bad.json") << bad;
  std::ofstream(dir / "x.txt") << "x";
  CHECK(run_cli("knowledge check") == 0);
  CHECK(run_cli("knowledge check " + (dir / "good.json").string()) == 0);
  CHECK(run_cli("knowledge check " + std::string(KNOWLEDGE_DIR) + "/error-codes.tsv") == 0);
  CHECK(run_cli("knowledge check " + (dir / "bad.json").string()) == 1);
  CHECK(run_cli("knowledge check " + (dir / "good.json").string() + " " + (dir / "bad.json").string()) == 1);
  CHECK(run_cli("knowledge check " + (dir / "missing.json").string()) == 2);
  CHECK(run_cli("knowledge check " + (dir / "x.txt").string()) == 2);
  CHECK(run_cli("knowledge") == 2);
  CHECK(run_cli("knowledge list") == 0);
  CHECK(run_cli("knowledge explain 507046") == 0);
  CHECK(run_cli("knowledge explain EI0018") == 0);  // from the hcomm catalogue
  CHECK(run_cli("explain EL0022") == 0);            // from the driver's catalogue
  CHECK(run_cli("knowledge list --only codes") == 0);
  CHECK(run_cli("knowledge explain stream-stall/three-minute-report") == 0);
  CHECK(run_cli("knowledge explain no-such-id") == 2);
  fs::create_directories(dir / "k" / "signatures");
  std::ofstream(dir / "k" / "signatures" / "extra.json") << kGood;
  CHECK(run_cli("--knowledge " + (dir / "k").string() + " knowledge explain test/one") == 0);
  CHECK(run_cli("knowledge --knowledge " + (dir / "k").string() + " check") == 0);
  fs::remove_all(dir);
}

TEST_CASE("knowledge: the ascend-fd rule mapping names only what exists", "[knowledge]") {
  const std::string name = "mappings/ascend-fd.tsv";
  std::string text = read_file(std::string(KNOWLEDGE_DIR) + "/" + name);
  KnowledgeCheck check = check_knowledge_file(text, name);
  for (const auto& p : check.problems) INFO(p);
  CHECK(check.ok());
  std::vector<FaultRuleMapping> rules;
  std::vector<std::string> errors;
  parse_fault_rule_mapping(text, name, rules, errors);
  CHECK(rules.size() >= 1000);  // kg-config.json holds 1050 rules
  const KnowledgeBase& kb = knowledge_for("");
  for (const auto& r : rules) {
    if (r.ours == "-") continue;
    INFO(r.rule_id << " -> " << r.ours);
    if (r.ours.starts_with("code:")) CHECK(kb.find_code(r.ours.substr(5)));
    else if (r.ours.starts_with("device-event:")) CHECK(kb.find_device_event(r.ours.substr(13)));
    else if (r.ours.starts_with("finding:")) CHECK(finding_texts_for("").find(r.ours.substr(8)));  // id or id#variant
    else CHECK(kb.find_signature(r.ours));
  }
  // broken rows are caught
  std::string head = "rule_id\tpattern\tours\tstatus\tnote\n";
  CHECK(check_knowledge_file(head + "R1\tp\tcode:EI0002\tcovered\t\n", name).ok());
  CHECK_FALSE(check_knowledge_file(head + "R1\tp\t-\tcovered\t\n", name).ok());        // covered by nothing
  CHECK_FALSE(check_knowledge_file(head + "R1\tp\t-\tmissing\t\n", name).ok());        // no note
  CHECK_FALSE(check_knowledge_file(head + "R1\tp\t-\tsomehow\tn\n", name).ok());       // bad status
  CHECK_FALSE(check_knowledge_file(head + "R1\tp\t-\tmissing\tn\nR1\tp\t-\tmissing\tn\n", name).ok());
}
