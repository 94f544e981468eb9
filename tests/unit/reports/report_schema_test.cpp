// The JSON report's schema (docs/schemas/report.schema.json, issue 25): the goldens pass it
// (ctest "report schema: golden ..."); here, a report with a field dropped, a type changed
// or a field added fails it at the right path, and every field the schema names is
// documented in docs/json-report.md or docs/timeline.md.
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <simdjson.h>
#include <string>
#include <vector>

#include "jsonschema/schema.h"

using triage::jsonschema::Schema;

namespace {

std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const std::string kSchemaPath = std::string(TEST_DATA_DIR) + "/../docs/schemas/report.schema.json";
const std::string kGolden = std::string(TEST_DATA_DIR) + "/golden/incident-910b-before-reboot/report.json";

const Schema& report_schema() {
  static std::unique_ptr<Schema> s = [] {
    std::vector<std::string> errors;
    auto c = Schema::compile(read_file(kSchemaPath), errors);
    for (const auto& e : errors) UNSCOPED_INFO(e);
    return c;
  }();
  REQUIRE(s);
  return *s;
}

// The violations of `json` as "path: rule: message".
std::vector<std::string> violations(const std::string& json) {
  std::vector<std::string> out;
  for (const auto& v : report_schema().validate(json)) out.push_back(v.to_string());
  return out;
}

// Whether exactly one violation is found and it matches `pattern` (ECMAScript regex).
bool one_violation(const std::string& json, const std::string& pattern) {
  auto v = violations(json);
  std::string all;
  for (const auto& x : v) all += x + "\n";
  INFO(all);
  return v.size() == 1 && std::regex_match(v[0], std::regex(pattern));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  INFO(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// `text` without the whole line holding the first `key` (a key that is not its object's last).
std::string without_line(std::string text, const std::string& key) {
  size_t at = text.find(key);
  INFO(key);
  REQUIRE(at != std::string::npos);
  size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
  REQUIRE(text[end - 1] == ',');
  return text.erase(begin, end - begin + 1);
}

// Every property name the schema declares, at any depth.
void property_names(simdjson::dom::element e, std::set<std::string>& out) {
  simdjson::dom::object o;
  if (e.get_object().get(o)) return;
  for (auto f : o) {
    if (f.key == "properties") {
      simdjson::dom::object props;
      if (!f.value.get_object().get(props))
        for (auto p : props) out.emplace(p.key);
    }
    property_names(f.value, out);
  }
}

// Every word inside backquotes (inline code and fenced blocks) of a Markdown text.
std::set<std::string> code_words(const std::string& md) {
  std::set<std::string> out;
  bool in_code = false;
  std::string word;
  for (char c : md) {
    if (c == '`') in_code = !in_code;
    bool w = in_code && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (w) word += c;
    else if (!word.empty()) out.insert(std::move(word)), word.clear();
  }
  return out;
}

}  // namespace

TEST_CASE("report schema: a golden report is valid; a broken one fails at its path", "[jsonschema][report]") {
  const std::string golden = read_file(kGolden);
  REQUIRE(violations(golden).empty());
  // A field dropped, at the top and nested.
  CHECK(one_violation(without_line(golden, "\"tool_version\""), "/tool_version: required: .*"));
  CHECK(one_violation(without_line(golden, "\"confidence\""), "/verdict/ranked/0/confidence: required: .*"));
  CHECK(one_violation(without_line(golden, "\"unrecognised\""), "/bundles/0/entries/0/stats/unrecognised: required: .*"));
  // A type changed.
  CHECK(one_violation(replaced(golden, "\"schema_version\": 1", "\"schema_version\": \"1\""),
                      "/schema_version: const: \"1\" is not 1"));
  // Two faults in one object: both are reported, in document order.
  auto two = violations(replaced(golden, "\"host\": \"", "\"host\": null, \"h\": \""));
  REQUIRE(two.size() == 2);
  CHECK(two[0] == "/bundles/0/host: type: expected string, got null");
  CHECK(two[1] == "/bundles/0/h: additionalProperties: the property is not allowed here");
  CHECK(one_violation(std::regex_replace(golden, std::regex("\"size\": ([0-9]+)"), "\"size\": \"$1\"",
                                         std::regex_constants::format_first_only),
                      "/bundles/0/entries/0/size: type: expected integer, got string"));
  CHECK(one_violation(replaced(golden, "\"reboot\": false", "\"reboot\": 0"),
                      "/timeline/boots/[0-9]+/reboot: type: expected boolean, got integer"));
  CHECK(one_violation(replaced(golden, "\"values\": {", "\"values\": {\"n\": 1,"),
                      "/findings/[0-9]+/values/n: type: expected string, got integer"));
  CHECK(one_violation(replaced(golden, "\"severity\": \"", "\"severity\": \"fatal-"),
                      "/findings/0/severity: enum: .*"));
  // A field added, at the top and nested.
  CHECK(one_violation(replaced(golden, "\"schema\": ", "\"extra\": 1, \"schema\": "),
                      "/extra: additionalProperties: the property is not allowed here"));
  CHECK(one_violation(replaced(golden, "\"excerpt\": ", "\"note\": \"x\", \"excerpt\": "),
                      "/findings/[0-9]+/evidence/[0-9]+/note: additionalProperties: .*"));
  CHECK(one_violation(replaced(golden, "\"undated\": ", "\"dated\": 1, \"undated\": "),
                      "/timeline/dated: additionalProperties: .*"));
}

TEST_CASE("report schema: every field it names is documented", "[jsonschema][report]") {
  simdjson::dom::parser parser;
  simdjson::padded_string text(read_file(kSchemaPath));
  simdjson::dom::element root;
  REQUIRE_FALSE(parser.parse(text).get(root));
  std::set<std::string> names;
  property_names(root, names);
  CHECK(names.size() > 80);
  std::set<std::string> documented = code_words(read_file(std::string(TEST_DATA_DIR) + "/../docs/json-report.md"));
  for (const auto& w : code_words(read_file(std::string(TEST_DATA_DIR) + "/../docs/timeline.md"))) documented.insert(w);
  for (const auto& n : names) {
    INFO(n);
    CHECK(documented.count(n));
  }
}
