// The library analyses end to end on the samples.
#include <catch2/catch.hpp>

#include "ingest/load.h"
#include "correlator/correlate.h"

using namespace triage;

namespace {

Report analyze(const std::string& name) {
  LoadResult r = load_evidence({std::string(SAMPLES_DIR) + "/" + name}, AnalyzeOptions{});
  return correlate(r.evidence, AnalyzeOptions{});
}

bool mine(const Finding& f) {
  for (std::string_view p : {"library-provenance", "environment", "mount-shadowing",
                             "version-matrix", "localization-mode/task-queue-value", "container"})
    if (f.id.starts_with(p)) return true;
  return false;
}

}  // namespace

TEST_CASE("samples: before-reboot versions are compatible by declaration") {
  Report r = analyze("incident-910b-before-reboot");
  int wheel = 0;
  for (const auto& f : r.findings) {
    if (!mine(f)) continue;
    INFO(f.id << ": " << f.title);
    CHECK(f.severity < Severity::warning);
    if (f.id == "version-matrix/torch-npu-cann") {
      ++wheel;
      CHECK(*f.find_value("verdict") == "compatible");
      CHECK(*f.find_value("torch_npu") == "2.9.0.post6");
      CHECK(*f.find_value("cann") == "9.1.0");
      CHECK(*f.find_value("cann_source") == "maps");
    }
    if (f.id == "version-matrix/cann-driver") CHECK(*f.find_value("verdict") == "compatible");
    if (f.id == "version-matrix/driver-firmware") {
      CHECK(*f.find_value("verdict") == "compatible");
      CHECK(*f.find_value("firmware") == "9.0.0.0.205");
    }
    if (f.id == "library-provenance") CHECK(*f.find_value("cann_installs") == "1");
  }
  CHECK(wheel == 1);
}

TEST_CASE("samples: nothing of these analyses at warning or above in the healthy sample") {
  Report r = analyze("healthy-first-step-compile");
  size_t seen = 0;
  for (const auto& f : r.findings) {
    if (!mine(f)) continue;
    ++seen;
    INFO(f.id << ": " << f.title);
    CHECK(f.severity < Severity::warning);
    if (f.id == "version-matrix/torch-npu-cann") CHECK(*f.find_value("verdict") == "compatible");
  }
  CHECK(seen >= 3);
  // one provenance finding for the eight ranks that map the same CANN
  size_t ranks = 0;
  for (const auto& f : r.findings)
    if (f.id == "library-provenance" && f.find_value("processes")) ranks += std::stoul(*f.find_value("processes"));
  CHECK(ranks == 8);
}

TEST_CASE("samples: no version conflict from firmware numbering anywhere") {
  for (std::string name : {"incident-910b-before-reboot", "incident-910b-after-reboot",
                           "healthy-first-step-compile", "incident-loose-files"}) {
    Report r = analyze(name);
    for (const auto& f : r.findings) {
      INFO(name << " " << f.id << ": " << f.title);
      if (f.id.starts_with("version-matrix")) CHECK(f.severity < Severity::warning);
    }
  }
}

TEST_CASE("samples: after the reboot (no process) the CANN comes from the cann link") {
  Report r = analyze("incident-910b-after-reboot");
  int wheel = 0;
  for (const auto& f : r.findings)
    if (f.id == "version-matrix/torch-npu-cann") {
      ++wheel;
      CHECK(*f.find_value("verdict") == "compatible");
      CHECK(*f.find_value("cann") == "9.1.0");
      CHECK(*f.find_value("cann_source") == "install records (the /usr/local/Ascend/cann link)");
      CHECK(*f.find_value("torch_npu_source") == "the collector's python3 packages");
    }
  CHECK(wheel == 1);
}
