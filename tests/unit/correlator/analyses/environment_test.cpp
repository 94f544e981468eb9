#include <catch2/catch.hpp>

#include "correlator/analyses/container.h"
#include "correlator/analyses/environment.h"
#include "correlator/analyses/mount_shadowing.h"

#include "analysis_test_support.h"
#include "library_facts_util.h"

using namespace triage;
using namespace libtest;

namespace {
std::vector<Finding> run(const BundleFacts& b, AnalysisFn fn) { return testing::run_analysis(fn, b); }
void path(BundleFacts& b, std::string p, bool exists, std::string seen) {
  b.libraries.paths.push_back(PathCheck{p, exists, exists ? "d" : "-", "", seen, ev("ascend/paths.tsv")});
}
MountEntry mount(std::string root, std::string mp, std::string src = "/dev/sda1") {
  return MountEntry{root, mp, "ext4", src, ev("mountinfo")};
}
}  // namespace

TEST_CASE("environment: a variable naming a directory missing in the process's view") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(b, 100, "ASCEND_OPP_PATH", "/usr/local/Ascend/ascend-toolkit/latest/opp");
  set_env(b, 100, "LD_LIBRARY_PATH", "/usr/local/Ascend/cann-9.1.0/lib64::/gone/lib");
  path(b, "/usr/local/Ascend/ascend-toolkit/latest/opp", false, "pid:100");
  path(b, "/usr/local/Ascend/cann-9.1.0/lib64", true, "pid:100");
  path(b, "/gone/lib", false, "pid:100");
  auto f = run(std::move(b), analyze_environment);
  auto e = with_id(f, "environment/missing-path");
  REQUIRE(e.size() == 1);
  CHECK(*e[0]->find_value("missing") == "2");
  CHECK(e[0]->severity == Severity::warning);
}

TEST_CASE("environment: the host's view or an unchecked path is not the process's") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(b, 100, "ASCEND_HOME_PATH", "/usr/local/Ascend/ascend-toolkit/latest");
  path(b, "/usr/local/Ascend/ascend-toolkit/latest", false, "host");
  set_env(b, 100, "ASCEND_OPP_PATH", "/never/checked");
  CHECK(run(std::move(b), analyze_environment).empty());
}

TEST_CASE("environment: the host's row counts for a process that shares the host's mounts") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(b, 100, "ASCEND_OPP_PATH", "/usr/local/Ascend/ascend-toolkit/latest/opp");
  path(b, "/usr/local/Ascend/ascend-toolkit/latest/opp", false, "host");
  b.libraries.host_mounts.present = true;
  b.libraries.host_mounts.entries = {mount("/", "/"), mount("/", "/boot", "/dev/sda2")};
  auto& mine = b.libraries.by_pid[100].mounts;
  mine = b.libraries.host_mounts;  // the same namespace
  REQUIRE(with_id(run(b, analyze_environment), "environment/missing-path").size() == 1);
  // Perturbation: the process's root is another file system (a container): the host's row says nothing.
  b.libraries.by_pid[100].mounts.entries[0] = mount("/", "/", "overlay");
  CHECK(with_id(run(b, analyze_environment), "environment/missing-path").empty());
  // Without the process's mountinfo the namespace is unknown: nothing either.
  b.libraries.by_pid[100].mounts.present = false;
  CHECK(with_id(run(b, analyze_environment), "environment/missing-path").empty());
}

TEST_CASE("mount-shadowing: a mount over the toolkit, not over the driver") {
  CHECK(is_cann_mount_point("/usr/local/Ascend/cann"));
  CHECK(is_cann_mount_point("/usr/local/Ascend/ascend-toolkit/latest"));
  CHECK(is_cann_mount_point("/usr/local/Ascend"));
  CHECK_FALSE(is_cann_mount_point("/usr/local/Ascend/driver"));
  CHECK_FALSE(is_cann_mount_point("/usr/local/Ascendx"));
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  b.libraries.process(100).mounts.entries.push_back(mount("/data/empty", "/usr/local/Ascend/cann"));
  b.libraries.process(100).mounts.entries.push_back(mount("/usr/local/Ascend/driver", "/usr/local/Ascend/driver"));
  auto f = run(std::move(b), analyze_mount_shadowing);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "mount-shadowing");
  CHECK(f[0].severity == Severity::warning);
  CHECK(f[0].does_not_prove.find("device timeout") != std::string::npos);
  BundleFacts clean = job("2.9.0", "2.9.0.post6", "9.1.0");
  clean.libraries.host_mounts.entries.push_back(mount("/", "/usr/local/Ascend/driver"));
  CHECK(run(std::move(clean), analyze_mount_shadowing).empty());
}

TEST_CASE("container: runtimes from cgroup and mountinfo; the collector in a container") {
  CHECK(container_runtime_of("/kubepods/burstable/pod1/abc") == "kubernetes");
  CHECK(container_runtime_of("/system.slice/docker-0123abcd.scope") == "docker");
  CHECK(container_runtime_of("/system.slice/cri-containerd-0123.scope") == "containerd");
  CHECK(container_runtime_of("/isulad/0123") == "isula");
  CHECK(container_runtime_of("/user.slice/user-0.slice/session-214.scope") == "");

  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  b.libraries.process(100).cgroup_paths = {"/docker/0123abcd"};
  b.libraries.process(100).cgroup_evidence = ev("processes/100/cgroup");
  auto f = run(std::move(b), analyze_container);
  REQUIRE(f.size() == 1);
  CHECK(*f[0].find_value("runtime") == "docker");
  CHECK(f[0].supports.find("cannot be changed from an image") != std::string::npos);

  BundleFacts m = job("2.9.0", "2.9.0.post6", "9.1.0");
  m.libraries.process(100).mounts.entries.push_back(
      mount("/var/lib/isulad/engines/x", "/etc/hosts"));
  m.manifest.in_container = true;
  auto g = run(std::move(m), analyze_container);
  REQUIRE(g.size() == 2);
  CHECK(with_id(g, "container/collector-in-container").at(0)->severity == Severity::warning);
  CHECK(*with_id(g, "container/process").at(0)->find_value("runtime") == "isula");

  BundleFacts host = job("2.9.0", "2.9.0.post6", "9.1.0");
  host.libraries.process(100).cgroup_paths = {"/user.slice/user-0.slice/session-214.scope"};
  host.manifest.in_container = false;
  CHECK(run(std::move(host), analyze_container).empty());
}
