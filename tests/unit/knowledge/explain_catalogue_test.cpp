// `explain` and its catalogue (knowledge/findings/<area>.tsv): every finding id the sources can
// raise is catalogued, and the command prints meaning, limits and how to settle.
#include <catch2/catch.hpp>
#include <re2/re2.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ingest/knowledge_check.h"
#include "knowledge/finding_catalogue.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Finding ids as the analyses write them: `x.id = "..."`, input findings' `base("...")`,
// `members_finding("...")` and `stop_finding("...")`, the manifest's `raise(f, "...")`,
// device-exception's kinds (`Kind{"..."` becomes "device-exception/<kind>") and tables of
// classes with full ids (`Class{"collective/..."`).
std::set<std::string> ids_in_sources() {
  fs::path root = fs::path(TEST_DATA_DIR).parent_path();
  RE2 assign(R"re(\bid = "([a-z][a-z0-9/.-]*)")re"), base(R"re(\b(?:base|members_finding|stop_finding)\("([a-z][a-z0-9/.-]*)")re"),
      raised(R"re(\braise\(\w+, "([a-z][a-z0-9/.-]*)")re"),
      kind(R"re(\bKind\{"([a-z][a-z0-9-]*)")re"), table(R"re(\bClass\{"([a-z][a-z0-9/.-]*/[a-z0-9.-]+)")re");
  std::set<std::string> ids;
  for (const char* dir : {"correlator", "bundle", "ingest", "parsers"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      std::string name = e.path().filename().string();
      if (e.path().extension() != ".cpp" || name.rfind("verdict", 0) == 0) continue;
      std::string text = read_all(e.path());
      re2::StringPiece in(text);
      std::string id;
      while (RE2::FindAndConsume(&in, assign, &id)) ids.insert(id);
      in = text;
      while (RE2::FindAndConsume(&in, base, &id)) ids.insert(id);
      in = text;
      while (RE2::FindAndConsume(&in, raised, &id)) ids.insert(id);
      in = text;  // a table of classes names full ids (collective.cpp)
      while (RE2::FindAndConsume(&in, table, &id)) ids.insert(id);
      if (name == "device_exception.cpp") {
        in = text;
        while (RE2::FindAndConsume(&in, kind, &id)) ids.insert("device-exception/" + id);
      }
    }
  return ids;
}

std::pair<int, std::string> run_cli(const std::string& args) {
  std::string cmd = std::string(ASCEND_TRIAGE_BIN) + " " + args + " 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int rc = pclose(p);
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out};
}

}  // namespace

TEST_CASE("finding catalogue covers every finding id in the sources", "[explain]") {
  auto ids = ids_in_sources();
  REQUIRE(ids.size() >= 50);  // the scan itself works
  CHECK(ids.count("stream-stall"));
  CHECK(ids.count("device-exception/hbm-ecc"));
  CHECK(ids.count("input-limit/line-bytes"));
  const auto& catalogue = finding_catalogue_for("");
  for (const auto& id : ids) {
    INFO(id);
    CHECK(find_catalogue_entry(catalogue, id) != nullptr);
  }
  // And nothing catalogued that no source raises (a renamed id leaves no ghost behind).
  for (const auto& e : catalogue) {
    INFO(e.id);
    CHECK(ids.count(e.id));
  }
}

TEST_CASE("finding catalogue: built from the area files; a findings.tsv of an older override is named", "[explain]") {
  // Every entry comes from findings/<area>.tsv, once, with its severity range and meaning.
  const auto& catalogue = finding_catalogue_for("");
  REQUIRE(catalogue.size() > 80);
  std::set<std::string> seen;
  for (const auto& e : catalogue) {
    INFO(e.id);
    CHECK(seen.insert(e.id).second);
    CHECK(e.id.find('#') == std::string::npos);  // variants are words, not findings
    CHECK_FALSE(e.meaning.empty());
    CHECK_FALSE(e.how_to_settle.empty());
  }
  const CatalogueEntry* stall = find_catalogue_entry(catalogue, "stream-stall");
  REQUIRE(stall);
  CHECK(stall->severity == "warning..error");
  // The file that held these rows before is refused with where they go now, not read as codes.
  KnowledgeCheck c = check_knowledge_file("id\tseverity\tmeaning\tdoes_not_prove\thow_to_settle\n", "findings.tsv");
  REQUIRE(c.problems.size() == 1);
  CHECK(c.problems[0].starts_with("findings.tsv: no longer read"));
  CHECK(c.problems[0].find("findings/<area>.tsv") != std::string::npos);
  // analyze with such a --knowledge DIR says so on stderr, even quiet, and still reports.
  fs::path dir = fs::temp_directory_path() / "triage-retired-catalogue";
  fs::create_directories(dir);
  std::ofstream(dir / "findings.tsv") << "id\tseverity\tmeaning\tdoes_not_prove\thow_to_settle\n";
  fs::path bundle = fs::path(TEST_DATA_DIR) / "data" / "minimal-bundle";
  auto [rc, out] = run_cli("--quiet analyze --knowledge " + dir.string() + " " + bundle.string());
  CHECK(out.find("ascend-triage: warning: --knowledge " + dir.string() +
                 ": findings.tsv: no longer read") != std::string::npos);
  CHECK(out.find("In short") != std::string::npos);
  CHECK(rc <= 1);
  fs::remove_all(dir);
}

TEST_CASE("explain prints a finding, a hypothesis, and falls back to codes", "[explain][cli]") {
  auto [rc, out] = run_cli("explain stream-stall");
  CHECK(rc == 0);
  CHECK(out.find("Does not prove:") != std::string::npos);
  CHECK(out.find("How to settle:") != std::string::npos);
  CHECK(out.find("is explained by host-driver-installation") != std::string::npos);

  std::tie(rc, out) = run_cli("explain host-driver-installation");
  CHECK(rc == 0);
  CHECK(out.find("[verdict hypothesis]") != std::string::npos);
  CHECK(out.find("module-provenance/two-sets") != std::string::npos);

  std::tie(rc, out) = run_cli("explain 507015");
  CHECK(rc == 0);
  CHECK(out.find("[error code") != std::string::npos);

  CHECK(run_cli("explain no-such-id").first == 2);
  CHECK(run_cli("explain").first == 2);

  std::tie(rc, out) = run_cli("explain --list");
  CHECK(rc == 0);
  for (const auto& e : finding_catalogue_for("")) CHECK(out.find("  " + e.id + "  [") != std::string::npos);
  CHECK(out.find("insufficient-evidence") != std::string::npos);
}
