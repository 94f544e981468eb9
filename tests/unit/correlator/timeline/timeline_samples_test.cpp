// The timeline end to end on the samples (load_evidence + correlate): the stall of stream 47
// as one row, the installer history, the reboot, and the known 37 s journal/dmesg skew of
// samples/incident-910b-after-reboot ("The clock skew" in its .md).
#include <catch2/catch.hpp>
#include <simdjson.h>

#include <sstream>
#include <string>

#include "ingest/load.h"
#include "correlator/correlate.h"
#include "reports/json_writer.h"
#include "reports/render.h"

using namespace triage;

namespace {

struct Analysed {
  LoadResult loaded;
  Report report;
};

Analysed analyse(std::vector<std::string> names, AnalyzeOptions options = {}) {
  std::vector<std::string> paths;
  for (const auto& n : names) paths.push_back(std::string(SAMPLES_DIR) + "/" + n);
  Analysed a;
  a.loaded = load_evidence(paths, options);
  a.report = correlate(a.loaded.evidence, options);
  return a;
}

const TimelineEvent* stall_row(const Timeline& t, int64_t stream) {
  for (const auto& e : t.events)
    if (e.stream == stream && e.pid == 48213 && e.kind.find("three-minute") != std::string::npos)
      return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("timeline on incident-910b-before-reboot: stream 47's stall reports are one row",
          "[timeline][samples]") {
  Analysed a = analyse({"incident-910b-before-reboot"});
  const Timeline& t = a.report.timeline;
  const TimelineEvent* s = stall_row(t, 47);
  REQUIRE(s);
  CHECK(s->count == 7);  // run/ and debug/ copies of the plog count once
  CHECK(format_utc(s->first_utc_us).substr(0, 20) == "2026-09-04T01:25:58.");
  CHECK(format_utc(s->last_utc_us).substr(0, 20) == "2026-09-04T01:43:58.");
  CHECK(s->source == "plog");
  CHECK(s->local_offset_seconds == 8 * 3600);  // the host's zone (CST-8), not the analyst's
  CHECK(std::find(s->finding_ids.begin(), s->finding_ids.end(), "stream-stall") != s->finding_ids.end());
  // stream 51 is another row (stream numbers mean nothing, and its head moves)
  const TimelineEvent* s51 = stall_row(t, 51);
  REQUIRE(s51);
  CHECK(s51 != s);
}

TEST_CASE("timeline on incident-910b-before-reboot: the installer history is on the axis",
          "[timeline][samples]") {
  Analysed a = analyse({"incident-910b-before-reboot"});
  const Timeline& t = a.report.timeline;
  auto has = [&](std::string_view source, std::string_view text, std::string_view utc) {
    for (const auto& e : t.events)
      if (e.source == source && e.message.find(text) != std::string::npos &&
          format_utc(e.first_utc_us) == utc)
        return true;
    return false;
  };
  // install log times are local (+08:00): 2026-08-29 16:22:11 local = 08:22:11Z
  CHECK(has("install-log", "Driver_ko_install failed", "2026-08-29T08:22:11Z"));
  CHECK(has("install-log", "install command: ./Ascend-hdk-910b-npu-driver_25.5.1", "2026-06-12T02:05:14Z"));
  CHECK(has("install-log", "Driver package uninstalled successfully", "2026-08-29T08:02:50Z"));
  CHECK(has("operation-log", "Uninstall uninstall.sh success", "2026-08-29T08:02:31Z"));
  CHECK(has("operation-log", "Upgrade Ascend-hdk-910b-npu-firmware_9.0.0.0.205.run success",
            "2026-08-29T08:31:02Z"));
  // module files: when each set was placed
  bool dkms_set = false;
  for (const auto& e : t.events)
    if (e.source == "module-files" && e.message.find("updates/dkms") != std::string::npos)
      dkms_set = true;
  CHECK(dkms_set);
  // the processes and the probes have their rows, and the collection closes the axis
  bool proc = false, probe = false, collected = false;
  for (const auto& e : t.events) {
    proc |= e.kind == "process-start" && e.pid == 48213;
    probe |= e.kind == "probe-run";
    collected |= e.kind == "collection";
  }
  CHECK(proc);
  CHECK(probe);
  CHECK(collected);
  CHECK(t.boots.size() >= 2);  // boots.txt lists four boots
  // the skew of this bundle is small on every pair
  for (const auto& s : t.skews) CHECK(std::abs(s.b_minus_a_seconds) < 5.0);
}

TEST_CASE("timeline on incident-910b-after-reboot: the reboot is marked and the 37 s "
          "journal/dmesg skew is measured",
          "[timeline][samples]") {
  Analysed a = analyse({"incident-910b-after-reboot"});
  const Timeline& t = a.report.timeline;
  const BootMark* current = nullptr;
  for (const auto& b : t.boots)
    if (b.boot_id == "596ee2d3-f59b-49cd-a5d4-642c5fb09f18") current = &b;
  REQUIRE(current);
  CHECK(current->after_previous);
  const ClockSkew* jd = nullptr;
  for (const auto& s : t.skews)
    if (s.source_a == "dmesg" && s.source_b == "journal") jd = &s;
  REQUIRE(jd);
  CHECK(jd->b_minus_a_seconds == Approx(-37.0).margin(1.0));  // the journal reads 37 s early
  CHECK(jd->pairs >= 3);
  CHECK(jd->method.find("same kernel line") != std::string::npos);
}

TEST_CASE("timeline across both incident bundles: one host, the reboot between them, lines "
          "collected twice counted once",
          "[timeline][samples]") {
  Analysed a = analyse({"incident-910b-before-reboot", "incident-910b-after-reboot"});
  const Timeline& t = a.report.timeline;
  const TimelineEvent* s = stall_row(t, 47);
  REQUIRE(s);
  CHECK(s->count == 7);  // the after-reboot bundle carries the same plog again
  size_t failed_ko = 0;
  for (const auto& e : t.events)
    if (e.message.find("Driver_ko_install failed") != std::string::npos) failed_ko += e.count;
  CHECK(failed_ko == 1);
  size_t reboots = 0;
  for (const auto& b : t.boots) reboots += b.boot_id == "596ee2d3-f59b-49cd-a5d4-642c5fb09f18";
  CHECK(reboots == 1);
}

TEST_CASE("timeline JSON: the section parses and carries events, boots, skews and counts",
          "[timeline][samples][json]") {
  Analysed a = analyse({"incident-910b-after-reboot"});
  std::ostringstream out;
  JsonWriter w(out);
  write_timeline_json(w, a.report.timeline);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(out.str()).get(doc) == simdjson::SUCCESS);
  simdjson::dom::array events;
  REQUIRE(doc["events"].get(events) == simdjson::SUCCESS);
  REQUIRE(events.size() == a.report.timeline.events.size());
  for (auto e : events) {
    std::string_view first;
    REQUIRE(e["first_utc"].get(first) == simdjson::SUCCESS);
    CHECK(first.back() == 'Z');
    std::string_view local;
    if (e["first_local"].get(local) == simdjson::SUCCESS) CHECK(local.find("+08:00") != std::string_view::npos);
    uint64_t count = 0;
    CHECK(e["count"].get(count) == simdjson::SUCCESS);
    CHECK(count >= 1);
    for (const char* k : {"source", "kind", "severity", "message", "host", "pid", "device", "stream",
                          "evidence", "finding_ids", "last_utc", "last_local"})
      CHECK(e[k].error() == simdjson::SUCCESS);
  }
  simdjson::dom::array skews;
  REQUIRE(doc["skews"].get(skews) == simdjson::SUCCESS);
  bool found = false;
  for (auto s : skews) {
    std::string_view a_src, b_src;
    int64_t ms = 0;
    if (s["source_a"].get(a_src) || s["source_b"].get(b_src) || s["b_minus_a_ms"].get(ms)) continue;
    if (a_src == "dmesg" && b_src == "journal") {
      found = true;
      CHECK(ms < -36000);
      CHECK(ms > -38000);
    }
  }
  CHECK(found);
  for (const char* k : {"boots", "filtered_out", "undated", "collection_utc"})
    CHECK(doc[k].error() == simdjson::SUCCESS);
}

TEST_CASE("jsonl: every line is a JSON object with Timesketch's required keys",
          "[timeline][samples][jsonl]") {
  for (const char* name : {"incident-910b-before-reboot", "incident-910b-after-reboot",
                           "healthy-first-step-compile", "incident-loose-files"}) {
    Analysed a = analyse({name});
    std::ostringstream out;
    render_jsonl(a.report, a.loaded.evidence, RenderOptions{}, out);
    std::string text = out.str();
    if (std::string_view(name) != "incident-loose-files") REQUIRE_FALSE(text.empty());
    if (!text.empty()) REQUIRE(text.back() == '\n');
    std::istringstream lines(text);
    std::string line;
    size_t n = 0;
    int64_t previous = INT64_MIN;
    simdjson::dom::parser parser;
    while (std::getline(lines, line)) {
      ++n;
      INFO(name << " line " << n << ": " << line);
      simdjson::dom::element doc;
      REQUIRE(parser.parse(line).get(doc) == simdjson::SUCCESS);
      REQUIRE(doc.is_object());
      std::string_view message, datetime, desc;
      int64_t timestamp = 0;
      REQUIRE(doc["message"].get(message) == simdjson::SUCCESS);
      REQUIRE(doc["datetime"].get(datetime) == simdjson::SUCCESS);
      REQUIRE(doc["timestamp"].get(timestamp) == simdjson::SUCCESS);
      REQUIRE(doc["timestamp_desc"].get(desc) == simdjson::SUCCESS);
      CHECK_FALSE(desc.empty());
      CHECK(parse_iso8601_utc_us(datetime) == timestamp);  // datetime and timestamp agree
      for (const char* k : {"source", "kind", "severity", "host", "count", "last_datetime", "entry", "line"})
        CHECK(doc[k].error() == simdjson::SUCCESS);
      if (desc != "Boot") {
        CHECK(timestamp >= previous);  // events in time order
        previous = timestamp;
      }
    }
    CHECK(n == a.report.timeline.events.size() + a.report.timeline.boots.size());
  }
}
