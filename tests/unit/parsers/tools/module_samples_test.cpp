// module-provenance and driver-binding end to end on the samples (load_evidence + correlate).
#include <catch2/catch.hpp>

#include "ingest/load.h"
#include "correlator/correlate.h"
#include "samples_support.h"

using namespace samples_test;

namespace {

triage::Report analyze(const std::vector<std::string>& names) {
  std::vector<std::string> paths;
  for (const auto& n : names) paths.push_back(sample_path(n).string());
  triage::AnalyzeOptions options;
  auto loaded = triage::load_evidence(paths, options);
  REQUIRE(loaded.errors.empty());
  return triage::correlate(loaded.evidence, options);
}

std::vector<const triage::Finding*> with_prefix(const triage::Report& r, std::string_view prefix) {
  std::vector<const triage::Finding*> out;
  for (const auto& f : r.findings)
    if (f.id.rfind(prefix, 0) == 0) out.push_back(&f);
  return out;
}

const triage::Finding* one(const triage::Report& r, std::string_view id) {
  const triage::Finding* found = nullptr;
  for (const auto& f : r.findings)
    if (f.id == id) {
      CHECK_FALSE(found);  // exactly one per host
      found = &f;
    }
  return found;
}

const std::string kKver = "5.15.0-119-generic";

}  // namespace

TEST_CASE("samples: before the reboot, two module sets with the stale DKMS set resident") {
  auto r = analyze({"incident-910b-before-reboot"});
  const triage::Finding* f = one(r, "module-provenance/two-sets");
  REQUIRE(f);
  CHECK(f->host == "ascend-node07");
  CHECK(f->severity == triage::Severity::error);
  CHECK(*f->find_value("kver") == kKver);
  CHECK(*f->find_value("resident_set") == "updates/dkms");
  CHECK(*f->find_value("newest_set") == "updates");
  CHECK(f->find_value("next_boot_set")->rfind("mixed:", 0) == 0);
  CHECK(*f->find_value("set.updates") == "18");
  CHECK(*f->find_value("set.updates/dkms") == "18");
  CHECK(f->find_value("module.drv_pcie_host")->rfind("resident=updates/dkms (build id 8f9b308b)", 0) == 0);
  CHECK(f->does_not_prove.find("vermagic") != std::string::npos);
  CHECK(one(r, "module-provenance/mixed-chain"));
  CHECK_FALSE(one(r, "module-provenance/resident-unmatched"));
  CHECK(with_prefix(r, "driver-binding/unbound").empty());
}

TEST_CASE("samples: after the reboot, the driver does not bind and loads failed") {
  auto r = analyze({"incident-910b-after-reboot"});
  const triage::Finding* two = one(r, "module-provenance/two-sets");
  REQUIRE(two);
  CHECK(*two->find_value("resident_set") == "updates");
  const triage::Finding* unbound = one(r, "driver-binding/unbound");
  REQUIRE(unbound);
  CHECK(unbound->severity == triage::Severity::critical);
  CHECK(*unbound->find_value("npu_functions") == "8");
  CHECK(*unbound->find_value("unbound") == "8");
  CHECK(*unbound->find_value("device_nodes") == "absent");
  const triage::Finding* load = one(r, "driver-binding/load-failure");
  REQUIRE(load);
  CHECK(load->severity == triage::Severity::critical);
  CHECK(load->find_value("modules")->find("drv_pcie_host") != std::string::npos);
  CHECK_FALSE(load->evidence.empty());
}

TEST_CASE("samples: before and after together give one result per host") {
  auto r = analyze({"incident-910b-before-reboot", "incident-910b-after-reboot"});
  const triage::Finding* two = one(r, "module-provenance/two-sets");
  REQUIRE(two);
  CHECK(*two->find_value("resident_set") == "updates");  // the newest bundle's state
  CHECK(with_prefix(r, "module-provenance/two-sets").size() == 1);
  CHECK(with_prefix(r, "module-provenance/mixed-chain").size() == 1);
  CHECK(with_prefix(r, "driver-binding/unbound").size() == 1);
  CHECK(with_prefix(r, "driver-binding/load-failure").size() == 1);
}

TEST_CASE("samples: the healthy host shows nothing at warning or above") {
  auto r = analyze({"healthy-first-step-compile"});
  for (const auto* f : with_prefix(r, "module-provenance")) CHECK(f->severity == triage::Severity::info);
  for (const auto* f : with_prefix(r, "driver-binding")) CHECK(f->severity == triage::Severity::info);
  CHECK(with_prefix(r, "driver-binding").empty());
}
