// collective/settings-differ: a setting both ends of a link must share, stated by two devices
// or ranks with different values; one value, or values in different scopes, is no finding.
// Lines verbatim from HCCL's fault-diagnosis guide (tests/data/real/hccl-docs-grep-*).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/correlate.h"
#include "ingest/load.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

Report analyze_files(const std::vector<std::pair<std::string, std::string>>& files) {
  testing::TempDir dir;
  for (const auto& [name, text] : files) testing::write_file(dir / name, text);
  auto loaded = load_evidence({dir.path()}, AnalyzeOptions{});
  return correlate(loaded.evidence, AnalyzeOptions{});
}

const Finding* find(const Report& r, std::string_view id) { return testing::find_finding(r.findings, id); }

std::string value(const Finding& f, std::string_view key) { return testing::finding_value(f, key); }

const std::string kTlsOn =
    "run/device-0/device-2849330_20251024153927364.log:[INFO] HCCP(2988,hccp_service.bin):2025-10-24-15:39:26.133.826 "
    "[rs_ssl.c:1529]tid:2988,rs_ssl_init(1529) : TLS SWITCH (1)\n";
const std::string kTlsOff =
    "run/device-1/device-2849331_20251024153928174.log:[INFO] HCCP(30877,hccp_service.bin):2025-10-24-15:39:25.142.466 "
    "[rs_ssl.c:1529]tid:30877,rs_ssl_init(1529) : TLS SWITCH (0)\n";

std::string superpod(const std::string& pid, const std::string& logic, const std::string& phy) {
  return "[ERROR] HCCL(" + pid + ",scatter_test):2026-02-05-18:44:26.379.547 [transport_manager.cc:885] [3003959]"
         "[TransportManager][PrintErrorInfo]local rank information: nicType[VNIC_TYPE], logicSuperPodId[" + logic +
         "], phySuperPodId[" + phy + "]. Note: Do not configure ranks belonging to different physical superpod ID "
         "info a single logical superpod ID\n";
}

}  // namespace

TEST_CASE("settings-differ: two devices' TLS switches differ in INFO lines alone", "[collective]") {
  Report r = analyze_files({{"grep.txt", kTlsOn + kTlsOff}});
  const Finding* f = find(r, "collective/settings-differ");
  REQUIRE(f);
  CHECK(f->severity == Severity::error);
  CHECK(value(*f, "setting") == "hccp/tls-switch");
  CHECK(value(*f, "values") == "0 (pid 30877); 1 (pid 2988)");
  CHECK(value(*f, "collective_failure_seen") == "no");
  CHECK(f->evidence.size() == 2);
  REQUIRE_FALSE(r.verdict.ranked.empty());
  CHECK(r.verdict.ranked.front().id == "collective-communication");
  // A stated setting is not a collective failure of its own.
  CHECK_FALSE(find(r, "collective/link-setup"));
}

TEST_CASE("settings-differ: near misses, one value twice, a switch that is not a digit", "[collective]") {
  std::string on_again = kTlsOff;
  on_again.replace(on_again.find("TLS SWITCH (0)"), 14, "TLS SWITCH (1)");
  Report same = analyze_files({{"grep.txt", kTlsOn + on_again}});
  CHECK_FALSE(find(same, "collective/settings-differ"));
  std::string word = kTlsOff;
  word.replace(word.find("TLS SWITCH (0)"), 14, "TLS SWITCH (x)");
  CHECK_FALSE(find(analyze_files({{"grep.txt", kTlsOn + word}}), "collective/settings-differ"));
}

TEST_CASE("settings-differ: two physical SuperPoDs under one logical id, compared within it", "[collective]") {
  Report r = analyze_files({{"grep-local.txt", superpod("3003627", "logic_1", "0")},
                            {"grep-remote.txt", superpod("3003628", "logic_1", "1")}});
  const Finding* f = find(r, "collective/settings-differ");
  REQUIRE(f);
  CHECK(value(*f, "setting") == "hccl/superpod-ids within logic_1");
  CHECK(value(*f, "values") == "0 (pid 3003627); 1 (pid 3003628)");
  REQUIRE_FALSE(r.verdict.ranked.empty());
  CHECK(r.verdict.ranked.front().id == "collective-communication");
  // Near miss: each physical SuperPoD has its own logical id, as it should.
  Report apart = analyze_files({{"grep-local.txt", superpod("3003627", "logic_1", "0")},
                                {"grep-remote.txt", superpod("3003628", "logic_2", "1")}});
  CHECK_FALSE(find(apart, "collective/settings-differ"));
}

TEST_CASE("settings-differ: two files given side by side are two bundles, compared together", "[collective]") {
  testing::TempDir dir;
  testing::write_file(dir / "grep-local.txt", superpod("3003627", "logic_1", "0"));
  testing::write_file(dir / "grep-remote.txt", superpod("3003628", "logic_1", "1"));
  auto loaded = load_evidence({dir / "grep-local.txt", dir / "grep-remote.txt"}, AnalyzeOptions{});
  REQUIRE(loaded.evidence.bundles.size() == 2);
  Report r = correlate(loaded.evidence, AnalyzeOptions{});
  const Finding* f = find(r, "collective/settings-differ");
  REQUIRE(f);
  CHECK(f->host.empty());  // the input as a whole, not one of the bundles
  CHECK(value(*f, "values") == "0 (pid 3003627); 1 (pid 3003628)");
}

TEST_CASE("settings-differ: hccn_tool -tls -g for every device joins the comparison", "[collective]") {
  // The guide's answer for two devices, with device 1's switch on.
  const std::string answer =
      "dev_id:0, tls switch[0](0:disable, 1:enable), tls alarm time threshold[60]days\n"
      "dev_id:0, [pub cert] info:\n"
      "         issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n"
      "         start_time[Wed Feb 19 03:19:21 2020 GMT]\n"
      "         end_time[Sat Feb 16 03:19:21 2030 GMT]\n"
      "dev_id:1, tls switch[1](0:disable, 1:enable), tls alarm time threshold[60]days\n"
      "dev_id:1, [pub cert] info:\n"
      "         issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n";
  Report r = analyze_files({{"hccn-tool.txt", answer}});
  const Finding* f = find(r, "collective/settings-differ");
  REQUIRE(f);
  CHECK(value(*f, "values") == "0 (device 0); 1 (device 1)");
  // The same answer with both switches off is a healthy listing.
  std::string off = answer;
  off.replace(off.find("tls switch[1]"), 13, "tls switch[0]");
  Report healthy = analyze_files({{"hccn-tool.txt", off}});
  CHECK_FALSE(find(healthy, "collective/settings-differ"));
  for (const auto& g : healthy.findings) CHECK(g.severity < Severity::warning);
}

namespace {
// HCCL's task-execution timeout report (tests/data/real/hccl-docs-task-exec-*), with the pid
// and the operator of its tag as parameters.
std::string task_timeout(const std::string& pid, const std::string& op) {
  return "[ERROR] HCCL(" + pid + ",all_reduce_test):2025-10-24-11:18:29.513.755 [task_exception_handler.cc:908] [" +
         pid + "][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[" +
         op + "_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n";
}
}  // namespace

TEST_CASE("compared values: ranks of one group timing out in different operators are a mismatch", "[collective]") {
  Report r = analyze_files({{"plog.txt", task_timeout("2111665", "AllReduce") + task_timeout("2111666", "AllGather")}});
  const Finding* f = find(r, "collective/mismatch");
  REQUIRE(f);
  CHECK(value(*f, "values") == "AllGather (pid 2111666); AllReduce (pid 2111665)");
  CHECK(find(r, "collective/wait-timeout"));  // the same lines are wait timeouts too
  CHECK_FALSE(find(r, "collective/settings-differ"));
  // Near misses: the same operator on both ranks; one rank that timed out in both operators.
  Report same = analyze_files({{"plog.txt", task_timeout("2111665", "AllReduce") + task_timeout("2111666", "AllReduce")}});
  CHECK_FALSE(find(same, "collective/mismatch"));
  CHECK(find(same, "collective/wait-timeout"));
  Report one = analyze_files({{"plog.txt", task_timeout("2111665", "AllReduce") + task_timeout("2111665", "AllGather")}});
  CHECK_FALSE(find(one, "collective/mismatch"));
}

