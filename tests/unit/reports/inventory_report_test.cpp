#include <catch2/catch.hpp>
#include <simdjson.h>

#include <sstream>

#include "bundle_test_util.h"
#include "reports/render.h"

using namespace triage;
using namespace triage::testing;

namespace {

struct Rendered {
  std::string text, json;
};

Rendered render(const LoadResult& loaded) {
  std::ostringstream text, json;
  render_inventory_text(loaded.evidence, text);
  render_inventory_json(loaded.evidence, json);
  return {text.str(), json.str()};
}

// A bundle with something of everything the inventory must show.
std::string messy_bundle(const TempDir& tmp) {
  auto members = sample_bundle();
  members.push_back({"extra/notes.txt", "call the customer back\nask for npu-smi output\n"});
  members.push_back({"dev/davinci0", "", EntryType::device});
  members.push_back({"../outside.txt", "[    1.000000] Linux version 5.10.0\n"});
  write_archive(tmp / "messy.tar", members, ArchiveFormat::tar, Filter::none);
  return tmp / "messy.tar";
}

}  // namespace

TEST_CASE("inventory text: every entry, then unknowns, skipped, manifest notes, findings", "[inventory]") {
  TempDir tmp;
  std::string input = messy_bundle(tmp);
  Rendered r = render(load({input}));
  CHECK_THAT(r.text, Catch::StartsWith("# " + input + " (POSIX ustar format; host node-a)\n"));
  CHECK_THAT(r.text, Catch::Contains("manifest: manifest.json\n"));
  CHECK_THAT(r.text, Catch::Contains("KIND"));
  CHECK_THAT(r.text, Catch::Contains("layout path: kernel/syslog/*"));
  CHECK_THAT(r.text, Catch::Contains("extra/usr/local/Ascend/ascend-toolkit/latest -> 8.5.0"));
  CHECK_THAT(r.text, Catch::Contains("12 entries: 11 recognised, 1 not recognised, 1 skipped\n"));
  CHECK_THAT(r.text, Catch::Contains("\nNot recognised (1):\n  extra/notes.txt: in extra/**: text, 2 lines: no known format"));
  CHECK_THAT(r.text, Catch::Contains("\nSkipped (1):\n  dev/davinci0: device node: not read\n"));
  CHECK_THAT(r.text, Catch::Contains("\nManifest disagreements (3):\n"));
  CHECK_THAT(r.text, Catch::Contains("  outside.txt: not listed in the manifest\n"));
  CHECK_THAT(r.text, Catch::Contains("[warning] input-damaged/unsafe-name"));
  // Parsed and unrecognised show "-" for kinds nobody parses yet; line counts are always there.
  std::istringstream lines(r.text);
  std::string line;
  bool saw_uname = false;
  while (std::getline(lines, line))
    if (line.rfind("system/uname.txt ", 0) == 0) {
      saw_uname = true;
      CHECK_THAT(line, Catch::Contains(" uname "));
      CHECK_THAT(line, Catch::Contains("  layout path: system/uname.txt"));
    }
  CHECK(saw_uname);
}

TEST_CASE("inventory JSON carries kinds, reasons, hashes, counts, skipped and findings", "[inventory]") {
  TempDir tmp;
  std::string input = messy_bundle(tmp);
  Rendered r = render(load({input}));
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.json);
  CHECK(std::string_view(doc["schema"]) == "ascend-triage-inventory");
  simdjson::dom::element b = doc["bundles"].at(0);
  CHECK(std::string_view(b["input"]) == input);
  CHECK(std::string_view(b["manifest"]) == "manifest.json");
  CHECK(uint64_t(b["summary"]["entries"]) == 12);
  CHECK(uint64_t(b["summary"]["unknown"]) == 1);
  bool saw_gz = false, saw_link = false, saw_unsafe = false;
  for (simdjson::dom::element e : simdjson::dom::array(b["entries"])) {
    std::string_view path = e["path"];
    if (path == "kernel/syslog/messages-20250301.gz") {
      saw_gz = true;
      CHECK(std::string_view(e["kind"]) == "syslog");
      CHECK(std::string_view(e["decompressed_from"]) == "gzip");
      CHECK(uint64_t(e["stats"]["lines"]) == 2);
      CHECK(std::string_view(e["sha256"]).size() == 64);
    }
    if (path == "extra/usr/local/Ascend/ascend-toolkit/latest") {
      saw_link = true;
      CHECK(std::string_view(e["type"]) == "symlink");
      CHECK(std::string_view(e["link_target"]) == "8.5.0");
      CHECK(std::string_view(e["classified_by"]) == "file type");
    }
    if (path == "outside.txt") {
      saw_unsafe = true;
      CHECK(bool(e["unsafe_name"]));
      CHECK(std::string_view(e["raw_path"]) == "../outside.txt");
      CHECK(std::string_view(e["display"]) == input + "!../outside.txt");
    }
  }
  CHECK(saw_gz);
  CHECK(saw_link);
  CHECK(saw_unsafe);
  simdjson::dom::element skipped = simdjson::dom::array(b["skipped"]).at(0);
  CHECK(std::string_view(skipped["type"]) == "device");
  simdjson::dom::element finding = simdjson::dom::array(b["findings"]).at(0);
  CHECK(std::string_view(finding["id"]) == "input-damaged/unsafe-name");
  CHECK(std::string_view(finding["severity"]) == "warning");
}

TEST_CASE("inventory of several inputs renders one section each", "[inventory]") {
  TempDir tmp;
  write_file(tmp / "kern.txt", "[    1.000000] Linux version 5.10.0\n");
  write_file(tmp / "other.txt", "nothing to see\n");
  Rendered r = render(load({tmp / "kern.txt", tmp / "other.txt"}));
  CHECK_THAT(r.text, Catch::Contains("# " + tmp / "kern.txt" + " (file; host unknown)"));
  CHECK_THAT(r.text, Catch::Contains("\n\n# " + tmp / "other.txt" + " (file; host unknown)"));
  CHECK_THAT(r.text, Catch::Contains("other.txt: text, 1 line: no known format"));
}

TEST_CASE("non-UTF-8 member names (GBK) are kept as bytes and render as valid JSON", "[inventory]") {
  TempDir tmp;
  const std::string gbk_name = "extra/\xd6\xd0\xce\xc4.log";  // "中文" in GBK
  write_archive(tmp / "gbk.tar", {{gbk_name, "[    1.000000] Linux version 5.10.0\n"}}, ArchiveFormat::gnu_tar,
                Filter::none);
  LoadResult loaded = load({tmp / "gbk.tar"});
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  REQUIRE(b.inventory.entries.size() == 1);
  CHECK(b.inventory.entries[0].kind == SourceKind::dmesg);
  CHECK(b.inventory.entries[0].info.path == gbk_name);
  Rendered r = render(loaded);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE_FALSE(parser.parse(r.json).get(doc));
  std::string_view path = doc["bundles"].at(0)["entries"].at(0)["path"];
  CHECK(path == "extra/\u00d6\u00d0\u00ce\u00c4.log");  // each byte as the contract writes it
}
