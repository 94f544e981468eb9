// reports/summary_report.cpp and fleet/summary_reader.cpp: the per-node summary's wait edges
// and addresses (issue 37) are written by `analyze --format summary` and read back by `fleet`;
// a summary written before them (no `waits`, no `addresses`) still loads; bad values are named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bundle_test_util.h"
#include "fleet/summary_reader.h"

using namespace triage;
using namespace triage::fleet;
using namespace triage::testing;

namespace {

std::string sample(const char* name) { return std::string(SAMPLES_DIR) + "/" + name; }

std::vector<LoadedNode> summary_of(const char* bundle, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--quiet", "analyze", "--format", "summary"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(sample(bundle));
  CliRun run = run_cli(args);
  REQUIRE(run.exit_code == 1);
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  INFO(error);
  REQUIRE(reader.read_text(run.out, bundle, out, error));
  REQUIRE(out.size() == 1);
  return out;
}

const std::string kOld =
    R"({"schema":"ascend-triage-summary/1","generator":"ascend-triage 0.1.0","nodes":[{"host":"h","inputs":[],)"
    R"("boots":[],"ranks":[{"rank":"3","pid":42,"device":1}],"devices":[1],"pids":[42],"findings":[],"skews":[],)"
    R"("versions":[],"fingerprints":[],"collectives":[]}]})";

std::string with_waits(const std::string& waits, const std::string& addresses = "[]") {
  std::string s = kOld;
  s.insert(s.rfind("}]}"), R"(,"waits":)" + waits + R"(,"addresses":)" + addresses);
  return s;
}

}  // namespace

TEST_CASE("summary: the wait edges and addresses a node writes are read back", "[fleet][summary]") {
  // node0's two ranks each report node3's device 1 lost, naming their own address as the
  // discoverer (samples/fleet-4node, samplegen/fleet.py).
  auto nodes = summary_of("fleet-4node/node0");
  const NodeSummary& n = nodes[0].node;
  REQUIRE(n.waits.size() == 2);
  for (const auto& e : n.waits) {
    CHECK(e.signature == "hccl/peer-heartbeat-lost");
    CHECK(e.target_address == "10.20.7.14/1");
    CHECK(e.target_rank.empty());
    CHECK(e.waiter_address.starts_with("10.20.7.11/"));
    CHECK((e.waiter_rank == "0" || e.waiter_rank == "1"));
    CHECK(e.waiter_pid);
    CHECK(e.first_utc_us);
    CHECK(e.clock == "plog");
    CHECK(e.count == 1);
    REQUIRE(e.waiter_first_error_utc_us);
    CHECK(*e.waiter_first_error_utc_us <= *e.first_utc_us);
  }
  // Deduplicated and in time order: rank 0 (device 0) reports first.
  CHECK(n.waits[0].waiter_rank == "0");
  CHECK(n.waits[0].waiter_device == 0);
  REQUIRE(n.addresses.size() == 2);
  CHECK(n.addresses[0].ip == "10.20.7.11");
  CHECK(n.addresses[0].source == "log");
  CHECK((n.addresses[0].rank == "0" && n.addresses[0].device == 0));
  CHECK((n.addresses[1].rank == "1" && n.addresses[1].device == 1));

  // The faulty node's other rank waits on its neighbour: same address, another device.
  auto node3 = summary_of("fleet-4node/node3");
  REQUIRE(node3[0].node.waits.size() == 1);
  CHECK(node3[0].node.waits[0].waiter_rank == "6");
  CHECK(node3[0].node.waits[0].target_address == "10.20.7.14/1");
}

TEST_CASE("summary: --redact gives the wait edges' addresses pseudonyms", "[fleet][summary][redact]") {
  auto nodes = summary_of("fleet-4node/node0", {"--redact"});
  const NodeSummary& n = nodes[0].node;
  REQUIRE(n.waits.size() == 2);
  for (const auto& e : n.waits) {
    CHECK(e.target_address.find("10.20.7") == std::string::npos);
    CHECK(e.waiter_address.find("10.20.7") == std::string::npos);
    CHECK(e.target_address.ends_with("/1"));  // the device stays
  }
  for (const auto& a : n.addresses) CHECK(a.ip.find("10.20.7") == std::string::npos);
}

TEST_CASE("summary: one written before the wait edges loads with none", "[fleet][summary]") {
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  REQUIRE(reader.read_text(kOld, "old.json", out, error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].node.waits.empty());
  CHECK(out[0].node.addresses.empty());
  CHECK(out[0].node.ranks.size() == 1);

  // With them: read field by field.
  const std::string edge =
      R"([{"signature":"hccl/task-timeout","waiter_rank":"3","waiter_pid":42,"waiter_device":1,"waiter_address":"",)"
      R"("target_rank":"0","target_address":"","first_utc_us":1000000,"first_utc":"1970-01-01T00:00:01.000000Z",)"
      R"("clock":"plog","waiter_first_error_utc_us":null,"waiter_first_error_utc":null,"count":2}])";
  out.clear();
  REQUIRE(reader.read_text(with_waits(edge, R"([{"ip":"10.0.0.1","device":1,"rank":"3","source":"hccn"}])"), "new.json",
                           out, error));
  REQUIRE(out[0].node.waits.size() == 1);
  const NodeWaitEdge& e = out[0].node.waits[0];
  CHECK((e.signature == "hccl/task-timeout" && e.waiter_rank == "3" && e.waiter_pid == 42 && e.waiter_device == 1));
  CHECK((e.target_rank == "0" && e.first_utc_us == 1000000 && e.count == 2 && !e.waiter_first_error_utc_us));
  REQUIRE(out[0].node.addresses.size() == 1);
  CHECK((out[0].node.addresses[0].ip == "10.0.0.1" && out[0].node.addresses[0].source == "hccn"));
}

TEST_CASE("summary: a bad wait edge is named by its pointer", "[fleet][summary]") {
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  CHECK_FALSE(reader.read_text(with_waits("{}"), "a.json", out, error));
  CHECK(error == "a.json: /nodes/0/waits: expected an array");
  CHECK_FALSE(reader.read_text(with_waits(R"([{"signature":"x"}])"), "b.json", out, error));
  CHECK(error == "b.json: /nodes/0/waits/0/waiter_rank: missing");
  const std::string no_target =
      R"([{"signature":"x","waiter_rank":"","waiter_pid":null,"waiter_device":null,"waiter_address":"",)"
      R"("target_rank":"","target_address":"","first_utc_us":null,"clock":"","waiter_first_error_utc_us":null,"count":1}])";
  CHECK_FALSE(reader.read_text(with_waits(no_target), "c.json", out, error));
  CHECK(error == "c.json: /nodes/0/waits/0: names neither target_rank nor target_address");
  std::string far = no_target;
  far.replace(far.find(R"("target_rank":"")"), 16, R"("target_rank":"1")");
  far.replace(far.find(R"("first_utc_us":null)"), 19, R"("first_utc_us":-5)");
  CHECK_FALSE(reader.read_text(with_waits(far), "d.json", out, error));
  CHECK(error.starts_with("d.json: /nodes/0/waits/0/first_utc_us: -5 is outside"));
  CHECK_FALSE(reader.read_text(with_waits("[]", R"([{"ip":1}])"), "e.json", out, error));
  CHECK(error == "e.json: /nodes/0/addresses/0/ip: expected a string");
  CHECK(out.empty());
}

TEST_CASE("summary: a node's addresses from its ranks' rank-table entries and hccn_tool -ip", "[fleet][summary]") {
  // Process 4242 is rank 1 on device 1; the rank table (every server's ranks) gives its device
  // address and its server's; hccn_tool -ip gives device 0's. The other rank's entry is not
  // this node's.
  TempDir dir;
  write_file(dir / "processes/4242/environ", std::string("RANK=1\0DEVICE_ID=1\0", 20));
  write_file(dir / "processes/4242/rank-table.json", R"({
  "version": "1.0", "server_count": "2", "status": "completed",
  "server_list": [{"server_id": "10.0.0.10", "device": [
    {"device_id": "0", "device_ip": "192.168.10.10", "rank_id": "0"},
    {"device_id": "1", "device_ip": "192.168.10.11", "rank_id": "1"}]},
    {"server_id": "10.0.0.11", "device": [{"device_id": "0", "device_ip": "192.168.10.20", "rank_id": "2"}]}]
})");
  write_file(dir / "ascend/hccn-ip-0.txt", "ipaddr:192.168.10.10\nnetmask:255.255.255.0\n");
  CliRun run = run_cli({"--quiet", "analyze", "--format", "summary", dir.path()});
  REQUIRE(run.exit_code <= 1);
  SummaryReader reader;
  std::vector<LoadedNode> out;
  std::string error;
  REQUIRE(reader.read_text(run.out, "s.json", out, error));
  REQUIRE(out.size() == 1);
  std::vector<std::string> got;
  for (const auto& a : out[0].node.addresses)
    got.push_back(a.ip + " " + (a.device ? std::to_string(*a.device) : "-") + " " + a.rank + " " + a.source);
  CHECK(got == std::vector<std::string>{"192.168.10.11 1 1 rank-table", "10.0.0.10 -  rank-table",
                                        "192.168.10.10 0  hccn"});
}
