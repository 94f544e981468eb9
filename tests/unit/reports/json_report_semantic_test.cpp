// The JSON report's meaning on every sample, independent of golden files: schema, stable
// finding ids, the stall's span, frozen head and pending count, links into the findings,
// and the verdict order the samples' descriptions call for (docs/json-report.md).
#include <catch2/catch.hpp>
#include <simdjson.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "ingest/load.h"
#include "correlator/correlate.h"
#include "knowledge/finding_catalogue.h"
#include "reports/render.h"

using namespace triage;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

namespace {

struct Parsed {
  simdjson::dom::parser parser;
  element root;
};

// Renders a sample's JSON report and parses it back.
Parsed& report_json(const std::string& sample) {
  static std::map<std::string, std::unique_ptr<Parsed>> cache;
  auto& slot = cache[sample];
  if (slot) return *slot;
  AnalyzeOptions options;
  LoadResult loaded = load_evidence({std::string(SAMPLES_DIR) + "/" + sample}, options);
  Report report = correlate(loaded.evidence, options);
  std::ostringstream out;
  render_json(report, loaded.evidence, RenderOptions{}, out);
  slot = std::make_unique<Parsed>();
  auto err = slot->parser.parse(out.str()).get(slot->root);
  INFO(out.str().substr(0, 400));
  REQUIRE(!err);
  return *slot;
}

std::string str(element e) {
  std::string_view s;
  REQUIRE(!e.get_string().get(s));
  return std::string(s);
}

std::string value_of(element finding, std::string_view key) {
  std::string_view s;
  if (finding["values"][key].get_string().get(s)) return "<missing>";
  return std::string(s);
}

std::vector<element> findings_with(element root, std::string_view id) {
  std::vector<element> out;
  for (element f : root["findings"].get_array()) {
    std::string_view fid;
    if (!f["id"].get_string().get(fid) && fid == id) out.push_back(f);
  }
  return out;
}

std::vector<std::string> verdict_order(element root) {
  std::vector<std::string> ids;
  for (element h : root["verdict"]["ranked"].get_array()) ids.push_back(str(h["id"]));
  return ids;
}

// Shape checks every sample must pass.
void check_common(element root) {
  CHECK(str(root["schema"]) == "ascend-triage-report");
  CHECK(int64_t(root["schema_version"]) == 1);
  array findings = root["findings"].get_array();
  std::vector<std::string> ids;
  const auto& catalogue = finding_catalogue_for("");
  for (element f : findings) {
    ids.push_back(str(f["id"]));
    INFO(ids.back());
    CHECK(find_catalogue_entry(catalogue, ids.back()) != nullptr);  // stable, documented ids
    std::string sev = str(f["severity"]);
    if (sev != "info") CHECK(!str(f["does_not_prove"]).empty());
  }
  element verdict = root["verdict"];
  array ranked = verdict["ranked"].get_array();
  // Empty only where no fault was found: that verdict stands alone.
  bool no_fault = str(verdict["summary"]).rfind("No fault found", 0) == 0;
  CHECK(ranked.size() >= (no_fault ? 0u : 1u));
  if (no_fault) CHECK(ranked.size() == 0);
  int64_t rank = 0, last_score = INT64_MAX;
  for (element h : ranked) {
    CHECK(int64_t(h["rank"]) == ++rank);
    int64_t score = h["score"];
    CHECK(score <= last_score);  // best first
    last_score = score;
    for (const char* list : {"supporting", "contradicting", "consequences"})
      for (element l : h[list].get_array()) {
        uint64_t index = l["index"];
        REQUIRE(index < ids.size());
        CHECK(ids[index] == str(l["id"]));
        CHECK(!str(l["why"]).empty());
      }
  }
  CHECK(!str(verdict["summary"]).empty());
  // A next check where something was ranked; none beside "No fault found".
  CHECK(str(verdict["next_check"]["separates"]).empty() == no_fault);
  CHECK(str(verdict["next_check"]["description"]).empty() == no_fault);
}

void check_stream_47(element root) {
  element stall{};
  for (element f : findings_with(root, "stream-stall"))
    if (value_of(f, "stream_id") == "47") stall = f;
  REQUIRE(stall.type() == simdjson::dom::element_type::OBJECT);
  CHECK(value_of(stall, "sq_head") == "500");
  CHECK(value_of(stall, "pending_num") == "781");
  CHECK(value_of(stall, "task_id") == "1280");
  CHECK(value_of(stall, "samples") == "7");
  CHECK(value_of(stall, "span_s") == "1080");
  CHECK(str(stall["severity"]) == "error");
  CHECK(str(stall["confidence"]) == "high");
  REQUIRE(findings_with(root, "observation-point").size() == 1);
  CHECK(value_of(findings_with(root, "observation-point")[0], "error_code") == "107020");
}

bool links(element hypothesis, const char* list, std::string_view id) {
  for (element l : hypothesis[list].get_array())
    if (str(l["id"]) == id) return true;
  return false;
}

}  // namespace

TEST_CASE("json report: incident before reboot", "[json][samples]") {
  element root = report_json("incident-910b-before-reboot").root;
  check_common(root);
  check_stream_47(root);
  auto order = verdict_order(root);
  REQUIRE(!order.empty());
  CHECK(order[0] == "host-driver-installation");
  element top = root["verdict"]["ranked"].at(0);
  CHECK(str(top["host"]) == str(root["bundles"].at(0)["host"]));
  CHECK(links(top, "supporting", "module-provenance/two-sets"));
  CHECK(links(top, "consequences", "stream-stall"));
  CHECK(links(top, "consequences", "observation-point"));
  // Firmware numbering and the declared-compatible versions are not a mismatch.
  for (element h : root["verdict"]["ranked"].get_array())
    if (str(h["id"]) == "cann-wheel-mismatch") {
      CHECK(int64_t(h["score"]) < 0);
      CHECK(h["supporting"].get_array().size() == 0);
    }
  CHECK(root["verdict"]["collect_more"].get_array().size() == 0);
}

TEST_CASE("json report: incident after reboot", "[json][samples]") {
  element root = report_json("incident-910b-after-reboot").root;
  check_common(root);
  auto order = verdict_order(root);
  REQUIRE(!order.empty());
  CHECK(order[0] == "host-driver-installation");
  element top = root["verdict"]["ranked"].at(0);
  CHECK(str(top["confidence"]) == "high");
  CHECK(links(top, "supporting", "driver-binding/load-failure"));
  // No hardware fault: nothing supports the device.
  for (element h : root["verdict"]["ranked"].get_array())
    if (str(h["id"]) == "device-hardware") CHECK(int64_t(h["score"]) <= 0);
}

TEST_CASE("json report: healthy first-step compile", "[json][samples]") {
  element root = report_json("healthy-first-step-compile").root;
  check_common(root);
  for (element f : root["findings"].get_array()) CHECK(str(f["severity"]) == "info");
  CHECK(findings_with(root, "stream-stall").empty());
  // the eight ranks' slow first step: one finding naming the eight processes
  auto moving = findings_with(root, "stream-stall/progressing");
  REQUIRE(moving.size() == 1);
  CHECK(value_of(moving[0], "processes") == "8");
  CHECK(verdict_order(root).empty());
  CHECK(str(root["verdict"]["summary"]).rfind("No fault found", 0) == 0);
  CHECK(root["verdict"]["collect_more"].get_array().size() == 0);
}

TEST_CASE("json report: loose files", "[json][samples]") {
  element root = report_json("incident-loose-files").root;
  check_common(root);
  check_stream_47(root);
  auto order = verdict_order(root);
  CHECK(order[0] == "insufficient-evidence");
  for (const char* never : {"host-driver-installation", "cann-wheel-mismatch", "device-hardware"})
    CHECK(std::find(order.begin(), order.end(), never) == order.end());
  bool collector = false;
  for (element c : root["verdict"]["collect_more"].get_array())
    collector = collector || str(c) == "sudo bash ascend-collect.sh --boots 3 --probes";
  CHECK(collector);
}
