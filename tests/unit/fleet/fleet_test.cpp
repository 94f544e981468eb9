// fleet/: ranking nodes cause first then by skew-corrected time, the skew estimate from shared
// collectives, majority differences, the summary reader's errors, knowledge/fleet-roles.tsv.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

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

// ---- the fleet's wait graph (issue 37) ----------------------------------------------------

namespace {

NodeWaitEdge wait_edge(std::string waiter_rank, std::string target_rank, std::string target_address, int64_t t) {
  NodeWaitEdge e;
  e.signature = "hccl/transport-init";
  e.waiter_rank = std::move(waiter_rank);
  e.target_rank = std::move(target_rank);
  e.target_address = std::move(target_address);
  e.first_utc_us = t;
  e.clock = "plog";
  e.count = 1;
  return e;
}

// A node running one rank on device 0 (pid 100 + rank), with a marker for the skew estimate.
LoadedNode rank_node(std::string host, std::string rank, int64_t marker_t) {
  LoadedNode n = node(std::move(host), {}, marker_t);
  n.node.ranks.push_back({rank, 100 + std::stoll(rank), 0});
  return n;
}

const FleetWaitRoot& root_of(const FleetReport& r) {
  REQUIRE(r.waits.root);
  return *r.waits.root;
}

}  // namespace

TEST_CASE("fleet wait graph: a chain roots at its end, whatever the input order", "[fleet][wait-graph]") {
  // rank 0 waits on 1, 1 on 2, 2 on 3: rank 3 is waited on by three ranks and waits on none.
  std::vector<LoadedNode> nodes;
  for (int i = 0; i < 4; ++i) nodes.push_back(rank_node("n" + std::to_string(i), std::to_string(i), 5000 * kS));
  for (int i = 0; i < 3; ++i) nodes[i].node.waits.push_back(wait_edge(std::to_string(i), std::to_string(i + 1), "", 2000 * kS));
  std::sort(nodes.begin(), nodes.end(), [](auto& a, auto& b) { return a.node.host < b.node.host; });
  do {
    FleetReport r = correlate_fleet(nodes);
    const FleetWaitRoot& w = root_of(r);
    CHECK(w.node == "n3");
    CHECK(w.rank == "3");
    CHECK(w.waiters == 3);
    CHECK_FALSE(w.in_cycle);
    CHECK(w.chain == std::vector<std::string>{"rank 0 dev 0 on n0", "rank 1 dev 0 on n1", "rank 2 dev 0 on n2",
                                              "rank 3 dev 0 on n3"});
    CHECK(w.text == "rank 3 dev 0 on n3: 3 ranks waited on it (chain: rank 0 dev 0 on n0 -> rank 1 dev 0 on n1 -> "
                    "rank 2 dev 0 on n2 -> rank 3 dev 0 on n3)");
    CHECK(r.waits.edges == 3);
    CHECK(r.waits.ranks == 4);
    CHECK_FALSE(w.compared);  // no node has a finding: nothing to agree or disagree with
    CHECK(w.chain_length == 4);
    std::ostringstream text;
    render_fleet(r, FleetFormat::text, text);
    CHECK(text.str().find("-> rank 3 dev 0 on n3). No node has a finding of its own to compare it with.") !=
          std::string::npos);
    std::ostringstream json;
    render_fleet(r, FleetFormat::json, json);
    CHECK(json.str().find(R"("agrees_with_cause_first_order": null)") != std::string::npos);
  } while (std::next_permutation(nodes.begin(), nodes.end(), [](auto& a, auto& b) { return a.node.host < b.node.host; }));
}

TEST_CASE("fleet wait graph: a star resolved by address, and a node that disagrees with the cause-first order",
          "[fleet][wait-graph]") {
  // Five ranks wait on 10.0.0.9/0: no rank number, only the address node n9 lists as its own.
  std::vector<LoadedNode> nodes;
  for (int i = 0; i < 5; ++i) {
    nodes.push_back(rank_node("n" + std::to_string(i), std::to_string(i), 5000 * kS));
    nodes.back().node.waits.push_back(wait_edge(std::to_string(i), "", "10.0.0.9/0", 2000 * kS));
    nodes.back().node.findings.push_back(finding("collective/peer-lost", "peer-loss", "waiter", 2000 * kS));
  }
  nodes.push_back(rank_node("n9", "9", 5000 * kS));
  nodes.back().node.addresses.push_back({"10.0.0.9", 0, "", "hccn"});
  FleetReport r = correlate_fleet(nodes);
  const FleetWaitRoot& w = root_of(r);
  CHECK(w.node == "n9");
  CHECK(w.rank == "9");
  CHECK(w.address == "10.0.0.9/0");
  CHECK(w.waiters == 5);
  CHECK(w.text == "rank 9 dev 0 on n9: 5 ranks waited on it");
  // n9 logged nothing of its own: by cause and time the first waiter leads, and the report
  // says the two disagree instead of dropping either.
  CHECK_FALSE(w.agrees);
  CHECK(w.disagreement == "the wait graph roots at rank 9 dev 0 on n9, but by cause and first error n0 failed first "
                          "(waiter: collective/peer-lost)");
  std::ostringstream text;
  render_fleet(r, FleetFormat::text, text);
  CHECK(text.str().find("They disagree: the wait graph roots at rank 9 dev 0 on n9") != std::string::npos);
  CHECK(text.str().find("n0 failed first (no node failed by itself: the first waiter)") != std::string::npos);

  // The waited-on node's own device fault: both name n9.
  nodes.back().node.findings.push_back(finding("device-exception/aicore-exception", "device-error", "origin", 1000 * kS));
  nodes.back().node.findings.back().pid = 109;
  FleetReport agreed = correlate_fleet(nodes);
  CHECK(root_of(agreed).agrees);
  CHECK(root_of(agreed).first_error_us == 1000 * kS);
  std::ostringstream json;
  render_fleet(agreed, FleetFormat::json, json);
  CHECK(json.str().find(R"("wait_graph": {)") != std::string::npos);
  CHECK(json.str().find(R"("agrees_with_cause_first_order": true)") != std::string::npos);
}

TEST_CASE("fleet wait graph: a target no summary holds", "[fleet][wait-graph]") {
  std::vector<LoadedNode> nodes;
  for (int i = 0; i < 2; ++i) {
    nodes.push_back(rank_node("n" + std::to_string(i), std::to_string(i), 5000 * kS));
    nodes.back().node.waits.push_back(wait_edge(std::to_string(i), "15", "80.5.5.67/7", 2000 * kS));
  }
  FleetReport r = correlate_fleet(nodes);
  const FleetWaitRoot& w = root_of(r);
  CHECK(w.node.empty());
  CHECK(w.text == "rank 15 dev 7 at 80.5.5.67: 2 ranks waited on it");
  CHECK_FALSE(w.agrees);  // the report says that nothing of the root's own was read
  CHECK(w.disagreement ==
        "the wait graph roots at rank 15 dev 7 at 80.5.5.67, a rank no summary holds; no node has a finding of its own");
}

TEST_CASE("fleet wait graph: a cycle roots at the skew-corrected first error", "[fleet][wait-graph]") {
  // Ranks 0 and 1 wait on each other; n1's wait line comes 100 s before n0's in true time.
  auto make = [](int64_t n1_skew_s) {
    std::vector<LoadedNode> nodes;
    nodes.push_back(rank_node("n0", "0", 5000 * kS));
    nodes.push_back(rank_node("n1", "1", 5000 * kS + n1_skew_s * kS));
    nodes.push_back(rank_node("n2", "2", 5000 * kS));  // a third clock for the median
    nodes[0].node.waits.push_back(wait_edge("0", "1", "", 2000 * kS));
    nodes[1].node.waits.push_back(wait_edge("1", "0", "", 1900 * kS + n1_skew_s * kS));
    return nodes;
  };
  FleetReport same_clock = correlate_fleet(make(0));
  CHECK(root_of(same_clock).in_cycle);
  CHECK(root_of(same_clock).node == "n1");  // 1900 s before 2000 s
  // n1's clock 300 s behind: its line reads 1600 s; 300 s ahead: it reads 2200 s, after n0's
  // 2000 s, and only the correction (measured on the shared marker) keeps n1 the root.
  for (int64_t skew : {-300, 300}) {
    FleetReport r = correlate_fleet(make(skew));
    INFO(skew);
    const FleetWaitRoot& w = root_of(r);
    CHECK(w.in_cycle);
    CHECK(w.node == "n1");
    CHECK(w.first_error_us == (1900 + skew) * kS);
    CHECK(w.corrected_first_error_us == 1900 * kS);
    CHECK(w.text.find("(the first error in a cycle of waits)") != std::string::npos);
  }
}

TEST_CASE("fleet wait graph: no edges, and waits on oneself", "[fleet][wait-graph]") {
  FleetReport r = correlate_fleet(fleet_of_four(0));
  CHECK(r.waits.edges == 0);
  CHECK_FALSE(r.waits.root);
  std::ostringstream text;
  render_fleet(r, FleetFormat::text, text);
  CHECK(text.str().find("Wait graph: no node's lines name a rank they wait on.") != std::string::npos);
  auto nodes = fleet_of_four(0);
  nodes[0].node.ranks.push_back({"0", 42, 0});
  nodes[0].node.waits.push_back(wait_edge("0", "0", "", 2000 * kS));
  FleetReport self = correlate_fleet(nodes);
  CHECK(self.waits.edges == 1);
  CHECK_FALSE(self.waits.root);
}

TEST_CASE("fleet wait graph: a device address resolves through the node's hccn_tool -ip", "[fleet][wait-graph]") {
  // Two ranks' LINK_ERROR_INFO rows name 192.0.2.199 without a rank or device; n2 says that is
  // its device 1's address (hccn_tool -ip), and its rank 5 runs on device 1.
  std::vector<LoadedNode> nodes;
  for (int i = 0; i < 2; ++i) {
    nodes.push_back(rank_node("n" + std::to_string(i), std::to_string(i), 5000 * kS));
    NodeWaitEdge e = wait_edge(std::to_string(i), "", "192.0.2.199", 2000 * kS);
    e.signature = "hccl/link-error-row";
    nodes.back().node.waits.push_back(e);
  }
  nodes.push_back(rank_node("n2", "4", 5000 * kS));
  nodes.back().node.ranks.push_back({"5", 105, 1});
  nodes.back().node.addresses.push_back({"192.0.2.198", 0, "4", "hccn"});
  nodes.back().node.addresses.push_back({"192.0.2.199", 1, "5", "hccn"});
  FleetReport r = correlate_fleet(nodes);
  const FleetWaitRoot& w = root_of(r);
  CHECK(w.node == "n2");
  CHECK(w.rank == "5");
  CHECK(w.text == "rank 5 dev 1 on n2: 2 ranks waited on it");
}
