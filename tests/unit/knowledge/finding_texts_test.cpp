// Findings as data (knowledge/findings/<area>.tsv): rows are checked, render_finding_words()
// fills placeholders and variants and leaves other braces alone, the catalogue that `explain`
// prints takes the same entries, and each area's doc lists the ids of its file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <fstream>
#include <set>
#include <sstream>

#include "knowledge/finding_catalogue.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

bool any_contains(const std::vector<std::string>& v, std::string_view s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

const std::string kArea =
    "id\tfield\ttext\n"
    "demo/thing\tseverity\terror\n"
    "demo/thing\tmeaning\tA thing happened.\n"
    "demo/thing\ttitle\t{count} thing(s) on device {device}\n"
    "demo/thing\tsupports\tThe thing is real.\n"
    "demo/thing\tdoes_not_prove\tWhy it happened.\n"
    "demo/thing\tnext_check\tdocker inspect c --format '{{json .HostConfig.Devices}}'\n"
    "demo/thing\tnext_check\tnpu-smi info -t board -i {device}\n"
    "demo/thing\thow_to_settle\tLook at device {device}.\n"
    "demo/thing#busy\tsupports\tAnother process holds it.\n";

}  // namespace

TEST_CASE("finding texts: words filled from values, a variant replaces what it holds", "[finding_texts]") {
  FindingTexts texts;
  std::vector<std::string> errors;
  parse_finding_texts(kArea, "findings/demo.tsv", texts.entries, errors);
  REQUIRE(errors.empty());
  Finding f;
  f.id = "demo/thing";
  REQUIRE(render_finding_words(f, texts, {{"count", "2"}, {"device", "4"}}));
  CHECK(f.title == "2 thing(s) on device 4");
  CHECK(f.supports == "The thing is real.");
  CHECK(f.does_not_prove == "Why it happened.");
  REQUIRE(f.next_checks.size() == 2);
  CHECK(f.next_checks[0] == "docker inspect c --format '{{json .HostConfig.Devices}}'");  // not a word
  CHECK(f.next_checks[1] == "npu-smi info -t board -i 4");

  Finding g;
  g.id = "demo/thing";
  REQUIRE(render_finding_words(g, texts, {{"count", "1"}}, "busy"));
  CHECK(g.supports == "Another process holds it.");
  CHECK(g.title == "1 thing(s) on device {device}");  // a word not given stays as written
  CHECK(g.next_checks.size() == 2);                     // the variant holds none: the base's

  Finding unknown;
  unknown.id = "demo/other";
  unknown.title = "kept";
  CHECK_FALSE(render_finding_words(unknown, texts));
  CHECK(unknown.title == "kept");
}

TEST_CASE("finding texts: rows are checked and named by file and line", "[finding_texts]") {
  std::vector<FindingText> out;
  std::vector<std::string> errors;
  parse_finding_texts("id\tfield\ttext\n"
                      "demo/a\tseverity\twarning\n"
                      "demo/a\ttitle\tA\n"
                      "demo/a\ttitle\tA again\n"
                      "demo/a\tcolour\tred\n"
                      "demo/b#x\tsupports\tno base\n",
                      "findings/demo.tsv", out, errors);
  CHECK(any_contains(errors, "findings/demo.tsv:4: title of demo/a twice"));
  CHECK(any_contains(errors, "findings/demo.tsv:5: unknown field 'colour'"));
  CHECK(any_contains(errors, "variant demo/b#x of a finding this file does not hold"));
  CHECK(any_contains(errors, "findings/demo.tsv:2: demo/a needs severity, meaning, title and how_to_settle"));
  CHECK(any_contains(errors, "demo/a: does_not_prove is required above info"));
}

TEST_CASE("finding texts: the built-in areas load, feed the catalogue and match their docs", "[finding_texts]") {
  const FindingTexts& texts = finding_texts_for("");
  REQUIRE(texts.find("device-access/dcmi-failure"));
  CHECK(texts.find("device-access/dcmi-failure#occupied"));
  const auto& catalogue = finding_catalogue_for("");
  std::map<std::string, std::set<std::string>> by_file;  // area file -> its finding ids
  for (const auto& e : texts.entries) {
    if (e.variant()) continue;
    const CatalogueEntry* c = find_catalogue_entry(catalogue, e.id);
    REQUIRE(c);
    CHECK(c->meaning == e.meaning);  // explain prints these words, not another row's
    by_file[e.where.substr(0, e.where.find(':'))].insert(e.id);
  }
  // An id is catalogued once: a moved area leaves no row behind in findings.tsv.
  std::set<std::string> seen;
  for (const auto& c : catalogue) CHECK(seen.insert(c.id).second);

  // docs/findings/<area>.md lists every id of knowledge/findings/<area>.tsv (an area moves
  // analysis by analysis), and every `<analysis>/<kind>` id an area doc lists is catalogued.
  fs::path root = fs::path(TEST_DATA_DIR).parent_path();
  REQUIRE_FALSE(by_file.empty());
  for (const auto& [file, ids] : by_file) {
    std::string area = fs::path(file).stem().string();
    std::ifstream in(root / "docs" / "findings" / (area + ".md"));
    REQUIRE(in.good());
    std::set<std::string> listed;  // table rows "| `id` |" and section headings "## `id`"
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("| `") && line.find("` |") != std::string::npos)
        listed.insert(line.substr(3, line.find("` |") - 3));
      if (line.starts_with("## `") && line.ends_with("`")) listed.insert(line.substr(4, line.size() - 5));
    }
    INFO(file);
    for (const auto& id : ids) CHECK(listed.count(id));
  }
  for (const auto& doc : fs::directory_iterator(root / "docs" / "findings")) {
    std::ifstream in(doc.path());
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("| `") && line.find("` |") != std::string::npos) {
        std::string id = line.substr(3, line.find("` |") - 3);
        // Finding ids are `<analysis>/<kind>`; other tables of the docs list kinds or samples.
        if (id.find('/') == std::string::npos || id.find_first_of("*<. ") != std::string::npos) continue;
        INFO(doc.path().filename().string() << ": " << id);
        CHECK(find_catalogue_entry(catalogue, id));
      }
  }
}

TEST_CASE("finding texts: a broken override leaves the built-in words standing, its problems reported",
          "[finding_texts]") {
  fs::path dir = fs::temp_directory_path() / "finding-texts-override";
  fs::create_directories(dir / "findings");
  std::ofstream(dir / "findings" / "device-access.tsv") << "id\tfield\ttext\nx/y\tcolour\tred\n";
  const FindingTexts& texts = finding_texts_for(dir.string());
  Finding f;
  f.id = "device-access/dcmi-failure";
  REQUIRE(render_finding_words(f, texts, {{"dcmi_code", "-8005"}}));
  CHECK(f.title == "npu-smi could not reach the devices: DCMI -8005");
  const KnowledgeBase& kb = knowledge_for(dir.string());
  bool reported = false;
  for (const auto& e : kb.errors) reported = reported || e.find("unknown field 'colour'") != std::string::npos;
  CHECK(reported);
  fs::remove_all(dir);
}
