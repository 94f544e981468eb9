// stream-stall and observation-point end to end on the samples (load_evidence + correlate).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ingest/load.h"
#include "correlator/correlate.h"

using namespace triage;

namespace {

Report analyze(const std::string& name) {
  AnalyzeOptions options;
  LoadResult loaded = load_evidence({std::string(SAMPLES_DIR) + "/" + name}, options);
  return correlate(loaded.evidence, options);
}

std::vector<const Finding*> with_id(const Report& r, std::string_view id) {
  std::vector<const Finding*> out;
  for (const auto& f : r.findings)
    if (f.id == id) out.push_back(&f);
  return out;
}

const Finding* stall_of(const Report& r, std::string_view pid) {
  for (const auto* f : with_id(r, "stream-stall"))
    if (*f->find_value("pid") == pid) return f;
  return nullptr;
}

void check_stream_47(const Finding& f) {
  CHECK(*f.find_value("stream_id") == "47");
  CHECK(*f.find_value("sq_id") == "9");
  CHECK(*f.find_value("task_id") == "1280");
  CHECK(*f.find_value("sq_head") == "500");
  CHECK(*f.find_value("pending_num") == "781");
  CHECK(*f.find_value("samples") == "7");  // run/ and debug/ copies counted once
  CHECK(*f.find_value("span_s") == "1080");
  CHECK(f.find_value("first_local")->rfind("2026-09-04T09:25:58.614493", 0) == 0);
  CHECK(f.find_value("last_local")->rfind("2026-09-04T09:43:58.622293", 0) == 0);
  CHECK(f.severity == Severity::error);
  CHECK(f.confidence == Confidence::high);
}

void check_observation(const Report& r) {
  auto obs = with_id(r, "observation-point");
  REQUIRE(obs.size() == 1);
  const Finding& o = *obs[0];
  CHECK(*o.find_value("frame") == "/root/work/det/det_toolkit/losses/retina_loss.py:41 anchor_gen");
  CHECK(*o.find_value("error_code") == "107020");
  CHECK(*o.find_value("e_code") == "EE9999");
  CHECK(*o.find_value("pid") == "48213");
  CHECK(o.find_value("linked_to")->find("pid 48213 device 0 stream 47") != std::string::npos);
  CHECK(*o.find_value("link_method") == "pid");
  CHECK(o.title.find("not its cause") != std::string::npos);
}

}  // namespace

TEST_CASE("samples: before-reboot names stream 47 as stalled and the loss frame as observation point",
          "[stall][samples]") {
  Report r = analyze("incident-910b-before-reboot");
  const Finding* f = stall_of(r, "48213");
  REQUIRE(f);
  check_stream_47(*f);
  CHECK(*f->find_value("device") == "0");
  CHECK(*f->find_value("first_utc") == "2026-09-04T01:25:58.614493Z");
  // stream 51 of the same process moves; the earlier attempt (pid 31544) stalled too
  bool stream51_moving = false;
  for (const auto* p : with_id(r, "stream-stall/progressing"))
    stream51_moving |= *p->find_value("stream_id") == "51";
  CHECK(stream51_moving);
  for (const auto* s : with_id(r, "stream-stall")) CHECK(*s->find_value("stream_id") != "51");
  check_observation(r);
}

TEST_CASE("samples: loose files give the same stall and observation point, zone unknown",
          "[stall][samples]") {
  Report r = analyze("incident-loose-files");
  const Finding* f = stall_of(r, "48213");
  REQUIRE(f);
  check_stream_47(*f);
  CHECK(*f->find_value("first_utc") == "unknown");
  CHECK(f->find_value("first_local")->find("zone unknown") != std::string::npos);
  check_observation(r);
}

TEST_CASE("samples: the healthy first step is progress, nothing at warning or above", "[stall][samples]") {
  Report r = analyze("healthy-first-step-compile");
  CHECK(with_id(r, "stream-stall").empty());
  CHECK(with_id(r, "observation-point").empty());
  // the eight ranks' slow first step is one finding naming every process
  auto moving = with_id(r, "stream-stall/progressing");
  REQUIRE(moving.size() == 1);
  CHECK(*moving[0]->find_value("processes") == "8");
  CHECK(*moving[0]->find_value("pids") == "20131,20132,20133,20134,20135,20136,20137,20138");
  for (const auto& f : r.findings)
    if (f.id.rfind("stream-stall", 0) == 0 || f.id == "observation-point")
      CHECK(f.severity == Severity::info);
}
