// fleet/: ranking nodes cause first then by skew-corrected time, the skew estimate from shared
// collectives, majority differences, the summary reader's errors, knowledge/fleet-roles.tsv.
#include <algorithm>
#include <catch2/catch.hpp>

#include "fleet/fleet_report.h"
#include "knowledge/fleet_roles.h"

using namespace triage;
using namespace triage::fleet;

namespace {

constexpr int64_t kS = 1000000;  // one second in microseconds

NodeFinding finding(std::string id, std::string klass, std::string role, int64_t t) {
  NodeFinding f;
  f.id = std::move(id);
  f.severity = "error";
  f.klass = std::move(klass);
  f.role = std::move(role);
  f.first_utc_us = f.last_utc_us = t;
  f.clock = "plog";
  return f;
}

LoadedNode node(std::string host, std::vector<NodeFinding> findings, int64_t marker_t,
                std::string firmware = "9.0.0.0.205") {
  LoadedNode n;
  n.node.host = host;
  n.source = host + ".json";
  n.node.findings = std::move(findings);
  n.node.collectives.push_back({"hccl-fftsplus-timeout:hccl fftsplus task timeout", marker_t, "plog", 2});
  n.node.versions.push_back({"firmware", std::move(firmware)});
  return n;
}

std::vector<LoadedNode> fleet_of_four(int64_t skew_s) {
  const int64_t fault = 1000 * kS, timeout = fault + 1836 * kS;
  std::vector<LoadedNode> v;
  v.push_back(node("n0", {finding("device-exception/hccl-timeout", "collective-wait", "waiter", timeout)}, timeout));
  v.push_back(node("n1", {finding("device-exception/hccl-timeout", "collective-wait", "waiter", timeout + kS)},
                   timeout + kS, "9.0.0.0.201"));
  v.push_back(node("n2", {finding("device-exception/hccl-timeout", "collective-wait", "waiter", timeout - kS)},
                   timeout - kS));
  v.push_back(node("n3",
                   {finding("device-exception/aicore-exception", "device-error", "origin", fault + skew_s * kS),
                    finding("device-exception/hccl-timeout", "collective-wait", "waiter", timeout + skew_s * kS)},
                   timeout + skew_s * kS));
  return v;
}

std::vector<std::string> order(const FleetReport& r) {
  std::vector<std::string> out;
  for (const auto& n : r.ranked) out.push_back(n.name + ":" + n.role);
  return out;
}

}  // namespace

TEST_CASE("fleet: the origin comes first, then waiters by corrected time, whatever the input order",
          "[fleet]") {
  auto nodes = fleet_of_four(0);
  // The waiters' timeouts are the shared collective itself: corrected, they coincide and fall
  // back to name order.
  const std::vector<std::string> want = {"n3:origin", "n0:waiter", "n1:waiter", "n2:waiter"};
  std::sort(nodes.begin(), nodes.end(), [](auto& a, auto& b) { return a.node.host < b.node.host; });
  do {
    FleetReport r = correlate_fleet(nodes);
    REQUIRE(order(r) == want);
    REQUIRE(r.ranked.front().first->id == "device-exception/aicore-exception");
  } while (std::next_permutation(nodes.begin(), nodes.end(),
                                 [](auto& a, auto& b) { return a.node.host < b.node.host; }));
}

TEST_CASE("fleet: a node whose clock runs 5 minutes ahead is measured and corrected", "[fleet]") {
  FleetReport r = correlate_fleet(fleet_of_four(300));
  REQUIRE(r.shared_markers == 1);
  const RankedNode& first = r.ranked.front();
  REQUIRE(first.name == "n3");
  REQUIRE(first.skew);
  CHECK(first.skew->offset_ms == 300000);
  CHECK(*first.corrected_first_us == 1000 * kS);  // the fault at the fleet's time
  for (const auto& n : r.ranked)
    if (n.name != "n3") CHECK(std::abs(n.skew->offset_ms) <= 1000);
}

TEST_CASE("fleet: a waiter with an early clock does not become the origin", "[fleet]") {
  auto nodes = fleet_of_four(0);
  // n0's clock runs an hour behind: its timeout reads earlier than n3's fault.
  nodes[0].node.findings[0].first_utc_us = *nodes[0].node.findings[0].first_utc_us - 3600 * kS;
  nodes[0].node.collectives[0].first_utc_us -= 3600 * kS;
  FleetReport r = correlate_fleet(nodes);
  REQUIRE(order(r).front() == "n3:origin");
  auto n0 = std::find_if(r.ranked.begin(), r.ranked.end(), [](auto& n) { return n.name == "n0"; });
  REQUIRE(n0->skew);
  CHECK(n0->skew->offset_ms <= -3599000);
}

TEST_CASE("fleet: nodes that differ from the majority, and a split without one", "[fleet]") {
  FleetReport r = correlate_fleet(fleet_of_four(0));
  REQUIRE(r.deviations.size() == 1);
  const Deviation& d = r.deviations[0];
  CHECK(d.component == "firmware");
  CHECK(d.majority == "9.0.0.0.205");
  CHECK(d.majority_nodes == 3);
  REQUIRE(d.others.size() == 1);
  CHECK(d.others[0] == std::pair<std::string, std::string>{"n1", "9.0.0.0.201"});

  auto nodes = fleet_of_four(0);
  nodes[0].node.versions[0].version = "9.0.0.0.201";
  FleetReport split = correlate_fleet(nodes);
  REQUIRE(split.deviations.size() == 1);
  CHECK(split.deviations[0].majority.empty());
  CHECK(split.deviations[0].others.size() == 4);
}

TEST_CASE("fleet: no origin: the first waiter leads, and clean nodes come last", "[fleet]") {
  auto nodes = fleet_of_four(0);
  nodes[3].node.findings.erase(nodes[3].node.findings.begin());
  nodes[1].node.findings.clear();
  FleetReport r = correlate_fleet(nodes);
  CHECK(order(r) == std::vector<std::string>{"n0:waiter", "n2:waiter", "n3:waiter", "n1:clean"});
  CHECK(r.has_findings());
}

TEST_CASE("fleet: the summary reader names the file and the bad value", "[fleet]") {
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  CHECK_FALSE(reader.read_text("{\"schema\": \"ascend-triage-report\"}", "a.json", out, error));
  CHECK(error.find("a.json: /schema: 'ascend-triage-report' is not ascend-triage-summary/1") == 0);
  CHECK_FALSE(reader.read_text("{\"schema\": \"ascend-triage-summary/1\", \"nodes\": [{\"host\": 3}]}", "b.json",
                               out, error));
  CHECK(error == "b.json: /nodes/0/host: expected a string");
  CHECK_FALSE(reader.read_text("[1,", "c.json", out, error));
  CHECK(error.starts_with("c.json: not JSON"));
  CHECK(out.empty());
  const std::string empty_node =
      R"({"schema":"ascend-triage-summary/1","generator":"ascend-triage 0.1.0","nodes":[{"host":"h","inputs":[],)"
      R"("boots":[],"ranks":[],"devices":[],"pids":[],"findings":[],"skews":[],"versions":[],"fingerprints":[],)"
      R"("collectives":[]}]})";
  REQUIRE(reader.read_text(empty_node, "d.json", out, error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].node.host == "h");
  CHECK(out[0].source == "d.json");
}

// Issue 33: times at the int64 limits printed impossible dates, and two nodes centuries apart
// showed a zero skew (the difference overflowed). Such a summary is refused, by its pointer.
TEST_CASE("fleet: the summary reader refuses times outside 1970-2200", "[fleet]") {
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  auto with = [](std::string findings, std::string skews, std::string collectives) {
    return R"({"schema":"ascend-triage-summary/1","generator":"ascend-triage 0.1.0","nodes":[{"host":"h",)"
           R"("inputs":[],"boots":[],"ranks":[],"devices":[],"pids":[],"findings":[)" + findings +
           R"(],"skews":[)" + skews + R"(],"versions":[],"fingerprints":[],"collectives":[)" + collectives + "]}]}";
  };
  auto finding = [](std::string first, std::string last) {
    return R"({"id":"x/y","severity":"error","class":"c","role":"origin","title":"t","first_utc_us":)" + first +
           R"(,"last_utc_us":)" + last + R"(,"clock":"plog","pid":null,"device":null,"rank":""})";
  };
  CHECK_FALSE(reader.read_text(with(finding("9223372036854775807", "null"), "", ""), "a.json", out, error));
  CHECK(error == "a.json: /nodes/0/findings/0/first_utc_us: 9223372036854775807 is outside the times the "
                 "analyzer reads (1970-01-01 to 2200-12-31)");
  CHECK_FALSE(reader.read_text(with(finding("1000", "-9223372036854775808"), "", ""), "b.json", out, error));
  CHECK(error.starts_with("b.json: /nodes/0/findings/0/last_utc_us: -9223372036854775808 is outside"));
  CHECK_FALSE(reader.read_text(
      with("", R"({"source_a":"plog","source_b":"journal","method":"m","b_minus_a_ms":9223372036854775807})", ""),
      "c.json", out, error));
  CHECK(error.starts_with("c.json: /nodes/0/skews/0/b_minus_a_ms: 9223372036854775807 ms is more than"));
  CHECK_FALSE(reader.read_text(
      with("", "", R"({"key":"k","first_utc_us":-1,"first_utc":"x","clock":"plog","count":1})"), "d.json", out,
      error));
  CHECK(error.starts_with("d.json: /nodes/0/collectives/0/first_utc_us: -1 is outside"));
  CHECK(out.empty());
  // The limits themselves are times like any other.
  REQUIRE(reader.read_text(with(finding("0", "7289654399999999"), "", ""), "e.json", out, error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].node.findings.at(0).last_utc_us == 7289654399999999);
}

TEST_CASE("fleet-roles.tsv: exact ids win over prefixes; bad rows are named", "[fleet][knowledge]") {
  const FleetRoles& roles = fleet_roles_for("");
  REQUIRE(roles.of_finding("device-exception/hccl-timeout"));
  CHECK(roles.of_finding("device-exception/hccl-timeout")->role == "waiter");
  CHECK(roles.of_finding("device-exception/aicore-exception")->klass == "device-error");
  CHECK(roles.of_finding("collective/peer-lost")->klass == "peer-loss");
  CHECK(roles.of_finding("device-memory/exhausted")->klass == "oom");
  CHECK(roles.of_finding("version-matrix/cann-driver") == nullptr);
  std::vector<std::string> errors;
  parse_fleet_roles("match\ttext\tclass\trole\tmeaning\n"
                    "finding\tx\toom\twaiter\tm\n"
                    "marker\tno group\tm\tmarker\tm\n"
                    "finding\ty\tnope\torigin\tm\n",
                    "t.tsv", errors);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] == "t.tsv:2: class oom has role origin");
  CHECK(errors[1] == "t.tsv:3: a marker pattern needs a group");
  CHECK(errors[2] == "t.tsv:4: unknown class 'nope'");
}
