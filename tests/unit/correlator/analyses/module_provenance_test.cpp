// module-provenance and driver-binding on in-memory facts (positive and negative cases).
#include <catch2/catch.hpp>

#include "correlator/analyses/driver_binding.h"
#include "correlator/analyses/module_provenance.h"

#include "analysis_test_support.h"

using namespace triage;

namespace {

ModuleFile file(std::string kver, std::string set, std::string mod, std::string build_id,
                int64_t mtime, std::string ext = ".ko") {
  ModuleFile f;
  f.kver = kver;
  f.module = mod;
  f.path = "/lib/modules/" + kver + "/" + set + "/" + mod + ext;
  f.build_id = std::move(build_id);
  f.target_mtime = mtime;
  f.compression = ext == ".ko" ? "none" : "xz";
  f.evidence.entry = "modules/tree.tsv";
  return f;
}

ModuleFile link(std::string kver, std::string mod, std::string build_id, int64_t mtime, bool exists) {
  ModuleFile f = file(kver, "updates/dkms", mod, std::move(build_id), mtime);
  f.is_link = true;
  f.link_target = "/var/lib/dkms/davinci_ascend/1.0/" + kver + "/aarch64/module/" + mod + ".ko";
  f.resolved_path = f.link_target;
  f.target_exists = exists;
  f.link_mtime = mtime;
  return f;
}

ResidentModule resident(std::string name, std::string build_id, std::string srcversion = "") {
  ResidentModule r;
  r.name = std::move(name);
  r.build_id = std::move(build_id);
  r.srcversion = std::move(srcversion);
  return r;
}

KernelDir kernel(std::string kver, bool running, bool boot) {
  KernelDir k;
  k.kver = kver;
  k.running = running;
  k.boot_default = boot;
  return k;
}

ModprobeResolution chain(std::string kver, std::string mod, std::vector<std::string> paths,
                         bool dry_run = false) {
  ModprobeResolution r;
  r.kver = dry_run ? "" : kver;
  r.module = mod;
  r.dry_run = dry_run;
  for (auto& p : paths) {
    ModprobeStep s;
    s.path = p;
    s.name = p.substr(p.rfind('/') + 1, p.find(".ko") - p.rfind('/') - 1);
    r.steps.push_back(s);
  }
  return r;
}

std::vector<Finding> provenance(const BundleFacts& b) { return testing::run_analysis(analyze_module_provenance, b); }

const Finding* find(const std::vector<Finding>& fs, std::string_view id) {
  for (const auto& f : fs)
    if (f.id == id) return &f;
  return nullptr;
}

const std::string K = "5.15.0-119-generic";

BundleFacts two_set_host() {
  BundleFacts b;
  b.host = "node";
  b.modules.kernels = {kernel(K, true, true)};
  b.modules.have_tree = b.modules.have_sysfs = true;
  for (std::string m : {"drv_pcie_host", "drv_seclib_host"}) {
    b.modules.files.push_back(file(K, "updates", m, "fresh_" + m, 2000));
    b.modules.files.push_back(link(K, m, "old_" + m, 1000, true));
  }
  return b;
}

}  // namespace

TEST_CASE("provenance: two sets, the older one resident by build id even without srcversion") {
  BundleFacts b = two_set_host();
  b.modules.resident = {resident("drv_pcie_host", "old_drv_pcie_host"),
                        resident("drv_seclib_host", "old_drv_seclib_host")};
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/two-sets");
  REQUIRE(f);
  CHECK(f->severity == Severity::error);
  CHECK(*f->find_value("resident_set") == "updates/dkms");
  CHECK(*f->find_value("newest_set") == "updates");
  CHECK(f->does_not_prove.find("vermagic") != std::string::npos);
  CHECK(f->find_value("module.drv_pcie_host")->find("resident=updates/dkms") == 0);
  CHECK_FALSE(find(fs, "module-provenance/resident-unmatched"));
}

TEST_CASE("provenance: resident from the newest set is a warning, not an error") {
  BundleFacts b = two_set_host();
  b.modules.resident = {resident("drv_pcie_host", "fresh_drv_pcie_host")};
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/two-sets");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(*f->find_value("resident_set") == "updates");
}

TEST_CASE("provenance: neither build id nor srcversion on one side is unknown, never a mismatch") {
  BundleFacts b = two_set_host();
  for (auto& f : b.modules.files) f.build_id.clear();
  b.modules.resident = {resident("drv_pcie_host", "abc", "")};
  auto fs = provenance(b);
  CHECK_FALSE(find(fs, "module-provenance/resident-unmatched"));
  CHECK(find(fs, "module-provenance/two-sets")->find_value("module.drv_pcie_host")->find("unknown") !=
        std::string::npos);
}

TEST_CASE("provenance: srcversion decides only where both sides have it") {
  BundleFacts b = two_set_host();
  for (auto& f : b.modules.files) {
    f.build_id.clear();
    f.srcversion = f.is_link ? "OLDSRC" : "NEWSRC";
  }
  b.modules.resident = {resident("drv_pcie_host", "", "OLDSRC")};
  auto fs = provenance(b);
  CHECK(*find(fs, "module-provenance/two-sets")->find_value("resident_set") == "updates/dkms");
}

TEST_CASE("provenance: a resident module matching no file is reported") {
  BundleFacts b = two_set_host();
  b.modules.resident = {resident("drv_pcie_host", "deadbeef")};
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/resident-unmatched");
  REQUIRE(f);
  CHECK(*f->find_value("module.drv_pcie_host") == "deadbeef");
}

TEST_CASE("provenance: .ko.xz candidates match by build id; one set gives no two-sets finding") {
  BundleFacts b;
  b.host = "node";
  b.modules.kernels = {kernel("6.1.0", true, true)};
  b.modules.have_tree = true;
  b.modules.files = {file("6.1.0", "extra", "drv_pcie_host", "aa11", 100, ".ko.xz")};
  b.modules.resident = {resident("drv_pcie_host", "aa11")};
  auto fs = provenance(b);
  CHECK(fs.empty());
}

TEST_CASE("provenance: a chain mixing sets, resolved for the boot kernel that differs from the running one") {
  BundleFacts b = two_set_host();
  const std::string old_k = "5.15.0-105-generic";
  b.modules.kernels = {kernel(K, false, true), kernel(old_k, true, false)};
  b.modules.resolutions = {chain(K, "drv_pcie_host",
                                 {"/lib/modules/" + K + "/updates/drv_seclib_host.ko",
                                  "/lib/modules/" + K + "/updates/dkms/drv_pcie_host.ko"}),
                           // a chain of the running kernel is not the next boot's
                           chain(old_k, "drv_pcie_host", {"/lib/modules/" + old_k + "/updates/drv_seclib_host.ko",
                                                          "/lib/modules/" + old_k + "/updates/dkms/drv_pcie_host.ko"})};
  auto fs = provenance(b);
  const Finding* mixed = find(fs, "module-provenance/mixed-chain");
  REQUIRE(mixed);
  CHECK(*mixed->find_value("kver") == K);
  const Finding* two = find(fs, "module-provenance/two-sets");
  REQUIRE(two);
  CHECK(*two->find_value("boot_kernel") == K);
  CHECK(*two->find_value("running_kernel") == old_k);
  CHECK(two->find_value("module.drv_pcie_host")->find("next_boot=updates/dkms") != std::string::npos);
  CHECK(*two->find_value("resident_set") == "");  // nothing resident is of the boot kernel
}

TEST_CASE("provenance: an empty modprobe -n -v of a loaded module is 'loaded', not a next-load path") {
  BundleFacts b = two_set_host();
  b.modules.resident = {resident("drv_pcie_host", "fresh_drv_pcie_host")};
  b.modules.resolutions = {chain(K, "drv_pcie_host", {}, true)};
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/two-sets");
  REQUIRE(f);
  CHECK(*f->find_value("next_boot_set") == "");
  CHECK(f->find_value("module.drv_pcie_host")->find("next_boot") == std::string::npos);
}

TEST_CASE("provenance: a dangling link; modprobe resolving it makes it an error") {
  BundleFacts b;
  b.host = "node";
  b.modules.kernels = {kernel(K, true, true)};
  b.modules.have_tree = true;
  b.modules.files = {link(K, "drv_pcie_host", "", 100, false)};
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/dangling-link");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  ModinfoFacts mi;
  mi.kver = K;
  mi.module = "drv_pcie_host";
  mi.filename = b.modules.files[0].path;
  b.modules.modinfo = {mi};
  fs = provenance(b);
  CHECK(find(fs, "module-provenance/dangling-link")->severity == Severity::error);
  b.modules.files[0].target_exists = true;
  CHECK(provenance(b).empty());
}

TEST_CASE("provenance: stale depmod and DKMS state without DKMS files") {
  BundleFacts b;
  b.host = "node";
  auto k = kernel(K, true, true);
  k.modules_dep_mtime = 1500;
  b.modules.kernels = {k};
  b.modules.files = {file(K, "updates", "drv_pcie_host", "", 2000)};
  DkmsStatusLine d;
  d.name = "davinci_ascend";
  d.version = "1.0";
  d.kver = K;
  d.state = "installed";
  b.modules.dkms = {d};
  auto fs = provenance(b);
  CHECK(find(fs, "module-provenance/stale-depmod"));
  CHECK(find(fs, "module-provenance/dkms-disagrees"));
  b.modules.kernels[0].modules_dep_mtime = 2500;
  b.modules.files.push_back(link(K, "drv_pcie_host", "", 1000, true));
  fs = provenance(b);
  CHECK_FALSE(find(fs, "module-provenance/stale-depmod"));
  CHECK_FALSE(find(fs, "module-provenance/dkms-disagrees"));
}

TEST_CASE("driver-binding: Kunpeng 19e5 devices are not NPUs") {
  CHECK(npu_model("19e5", "d802") == "910B");
  CHECK(npu_model("19e5", "d803") != "");
  CHECK(npu_model("19e5", "a120") == "");  // root port
  CHECK(npu_model("19e5", "1711") == "");  // iBMC VGA
  CHECK(npu_model("19e5", "a222") == "");  // on-board NIC
  CHECK(npu_model("8086", "d802") == "");

  BundleFacts b;
  b.host = "node";
  PciFunction port;
  port.address = "0000:00:00.0";
  port.vendor = "19e5";
  port.device = "a120";
  PciFunction nic = port;
  nic.address = "0000:7d:00.0";
  nic.device = "a222";
  b.modules.pci = {port, nic};  // no driver bound to either: still nothing to report
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  analyze_driver_binding(testing::context_for(set), out);
  CHECK(out.empty());

  PciFunction npu = port;
  npu.address = "0000:01:00.0";
  npu.device = "d802";
  set.bundles[0].modules.pci.push_back(npu);
  analyze_driver_binding(testing::context_for(set), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "driver-binding/unbound");
  CHECK(out[0].severity == Severity::critical);
  CHECK(*out[0].find_value("npu_functions") == "1");
  CHECK(out[0].next_checks[0] == "modinfo -n drv_pcie_host");
}

TEST_CASE("driver-binding: load failures counted once across bundles; taint lines ignored") {
  BundleFacts a;
  a.host = "node";
  KernelEvent e;
  e.boot_id = "b1";
  e.message = "drv_pcie_host: Unknown symbol soc_platform_get_chip_info (err -2)";
  e.module_failure = ModuleLoadFailure{ModuleLoadProblem::unknown_symbol, "drv_pcie_host",
                                       "soc_platform_get_chip_info", "-2"};
  KernelEvent taint;
  taint.message = "drv_x: loading out-of-tree module taints kernel.";
  taint.module_failure = ModuleLoadFailure{ModuleLoadProblem::out_of_tree_taint, "drv_x", "", ""};
  a.logs.kernel_events = {e, taint};
  BundleFacts b = a;
  EvidenceSet set;
  set.bundles = {a, b};
  std::vector<Finding> out;
  analyze_driver_binding(testing::context_for(set), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "driver-binding/load-failure");
  CHECK(out[0].severity == Severity::critical);
  CHECK(*out[0].find_value("lines") == "1");

  set.bundles[0].logs.kernel_events = {taint};
  set.bundles[1].logs.kernel_events = {taint};
  out.clear();
  analyze_driver_binding(testing::context_for(set), out);
  CHECK(out.empty());
}

TEST_CASE("driver-binding: an unsigned module loaded with a taint is not a failure; a rejected key is") {
  BundleFacts a;
  a.host = "node";
  KernelEvent e;
  e.message = "drv_seclib_host: module verification failed: signature and/or required key missing - tainting kernel";
  e.module_failure = ModuleLoadFailure{ModuleLoadProblem::verification_failed, "drv_seclib_host", "", ""};
  a.logs.kernel_events = {e};
  EvidenceSet set;
  set.bundles = {a};
  std::vector<Finding> out;
  analyze_driver_binding(testing::context_for(set), out);
  CHECK(out.empty());
  e.message = "Loading of module with unavailable key is rejected";
  e.module_failure = ModuleLoadFailure{ModuleLoadProblem::key_rejected, "", "", ""};
  set.bundles[0].logs.kernel_events = {e};
  analyze_driver_binding(testing::context_for(set), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].severity == Severity::error);
}

TEST_CASE("provenance: links into a DKMS version that dkms status does not list are stale") {
  BundleFacts b;
  b.host = "node";
  b.modules.kernels = {kernel(K, true, true)};
  b.modules.files = {link(K, "drv_pcie_host", "", 100, true)};
  CHECK(provenance(b).empty());  // dkms status not collected: nothing to compare
  b.modules.have_dkms_status = true;
  auto fs = provenance(b);
  const Finding* f = find(fs, "module-provenance/stale-link");
  REQUIRE(f);
  CHECK(*f->find_value("dkms_tree") == "/var/lib/dkms/davinci_ascend/1.0");
  DkmsStatusLine d;
  d.name = "davinci_ascend";
  d.version = "1.0";
  d.kver = K;
  d.state = "installed";
  b.modules.dkms = {d};
  CHECK_FALSE(find(provenance(b), "module-provenance/stale-link"));
}
