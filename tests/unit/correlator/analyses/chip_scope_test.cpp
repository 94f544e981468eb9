// chip-scope on in-memory facts: the product from NPU PCI ids (knowledge/pci-ids.tsv) and
// npu-smi chip names, one product or a mix, and nothing from a Kunpeng on-board function.
#include <catch2/catch.hpp>

#include "analysis_test_support.h"
#include "correlator/analyses/chip_scope.h"

using namespace triage;
using triage::testing::find_finding;
using triage::testing::run_analysis;

namespace {

PciFunction pci(std::string device, std::string address) {
  PciFunction f;
  f.address = std::move(address);
  f.vendor = "19e5";
  f.device = std::move(device);
  f.evidence = {"system/pci-devices.tsv", 2, 0, f.address};
  return f;
}

NpuChipRow chip(std::string name, int64_t npu) {
  NpuChipRow c;
  c.npu = npu;
  c.chip = 0;
  c.name = std::move(name);
  c.evidence = {"ascend/npu-smi-info.txt", 7, 0, c.name};
  return c;
}

}  // namespace

TEST_CASE("chip-scope: the product from NPU PCI ids, with high confidence", "[chip_scope]") {
  BundleFacts b;
  b.modules.pci = {pci("d802", "0000:c1:00.0"), pci("d802", "0000:01:00.0")};
  auto out = run_analysis(analyze_chip_scope, b);
  const Finding* f = find_finding(out, "chip-scope/product");
  REQUIRE(f);
  CHECK(f->severity == Severity::info);
  CHECK(f->confidence == Confidence::high);
  CHECK(*f->find_value("products") == "910B");
  CHECK(f->evidence.size() == 1);  // the same id seen twice is cited once
  CHECK_FALSE(f->does_not_prove.empty());
}

TEST_CASE("chip-scope: npu-smi names alone give medium confidence; Ascend910 defers to a PCI id",
          "[chip_scope]") {
  BundleFacts b;
  b.devices.info = NpuSmiInfo{};
  b.devices.info->chips = {chip("910B3", 0), chip("910B3", 1)};
  auto out = run_analysis(analyze_chip_scope, b);
  const Finding* f = find_finding(out, "chip-scope/product");
  REQUIRE(f);
  CHECK(f->confidence == Confidence::medium);
  CHECK(*f->find_value("products") == "910B");

  // A3 hosts print "Ascend910": with a d803 PCI id the name adds nothing, so no mix.
  BundleFacts a3;
  a3.modules.pci = {pci("d803", "0000:9d:00.0")};
  a3.devices.info = NpuSmiInfo{};
  a3.devices.info->chips = {chip("Ascend910", 0)};
  auto out3 = run_analysis(analyze_chip_scope, a3);
  REQUIRE(find_finding(out3, "chip-scope/product"));
  CHECK(find_finding(out3, "chip-scope/mixed") == nullptr);
  CHECK(*find_finding(out3, "chip-scope/product")->find_value("products") == "910_93 (A3)");
}

TEST_CASE("chip-scope: two products are a warning; Kunpeng functions are not NPUs", "[chip_scope]") {
  BundleFacts mixed;
  mixed.modules.pci = {pci("d802", "0000:c1:00.0"), pci("d100", "0000:01:00.0")};
  auto out = run_analysis(analyze_chip_scope, mixed);
  const Finding* f = find_finding(out, "chip-scope/mixed");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(*f->find_value("products") == "310,910B");

  BundleFacts kunpeng;  // a Kunpeng root port and NIC share vendor 19e5
  kunpeng.modules.pci = {pci("a120", "0000:00:08.0"), pci("a222", "0000:7d:00.0")};
  CHECK(run_analysis(analyze_chip_scope, kunpeng).empty());
}
