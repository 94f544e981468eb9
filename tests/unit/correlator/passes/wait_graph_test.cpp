// The wait graph's root (correlator/passes/wait_graph.h): the rank nobody waits on that others
// wait on, the first error of a cycle, and the near misses that name no root.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/passes/wait_graph.h"

using namespace triage;

namespace {

WaitRank rank(std::string host, std::string r, std::string dev, std::string ip = "", std::string first = "") {
  return WaitRank{std::move(host), RankRef{std::move(r), std::move(ip), std::move(dev)}, std::move(first), "", ""};
}

WaitEdge waits(size_t waiter, RankRef target, uint64_t line) {
  return WaitEdge{waiter, std::move(target), EvidenceRef{"plog.log", line, 0, ""}};
}

RankRef on_rank(std::string r) { return RankRef{std::move(r), "", ""}; }

}  // namespace

TEST_CASE("wait graph: the rank others wait on, directly or through a chain", "[wait-graph]") {
  // Ranks 0-6 on node-a and node-b; rank 3 dev 3 on node-c. 0,1,2,4,5 wait on 3; 6 waits on 5.
  std::vector<WaitRank> ranks;
  for (int r : {0, 1, 2, 4, 5, 6}) ranks.push_back(rank(r < 4 ? "node-a" : "node-b", std::to_string(r), std::to_string(r)));
  ranks.push_back(rank("node-c", "3", "3"));
  std::vector<WaitEdge> edges;
  for (size_t i = 0; i < 5; ++i) edges.push_back(waits(i, on_rank("3"), 10 + i));
  edges.push_back(waits(5, on_rank("5"), 20));
  auto root = find_wait_root(ranks, edges);
  REQUIRE(root);
  CHECK(root->rank == 6);
  CHECK(root->waiters == 6);
  CHECK(!root->in_cycle);
  CHECK(root->text == "rank 3 dev 3 on node-c: 6 ranks waited on it (chain: rank 6 dev 6 on node-b -> rank 5 dev 5 "
                      "on node-b -> rank 3 dev 3 on node-c)");
  REQUIRE(root->evidence.size() == 6);
  CHECK(root->evidence.front().line == 10);  // the waits into the root first
  CHECK(root->evidence.back().line == 20);
}

TEST_CASE("wait graph: a target known only by address, and one with no log of its own", "[wait-graph]") {
  std::vector<WaitRank> ranks{rank("node-a", "0", "0", "80.5.5.39"), rank("node-b", "8", "1", "80.5.5.67")};
  // A heartbeat names address and device: it resolves to rank 8 on node-b.
  auto root = find_wait_root(ranks, {waits(0, RankRef{"", "80.5.5.67", "1"}, 4)});
  REQUIRE(root);
  CHECK(root->text == "rank 8 dev 1 on node-b: 1 rank waited on it");
  // Near miss: the same address, another device, is another rank, of which no log was read.
  std::vector<WaitRank> two{rank("node-a", "0", "0", "80.5.5.39"), rank("node-b", "8", "1", "80.5.5.67")};
  auto other = find_wait_root(two, {waits(0, RankRef{"", "80.5.5.67", "2"}, 4)});
  REQUIRE(other);
  CHECK(other->rank == 2);
  CHECK(other->text == "80.5.5.67/2: 1 rank waited on it");
}

TEST_CASE("wait graph: a cycle of waits roots at its first error", "[wait-graph]") {
  std::vector<WaitRank> ranks{rank("a", "0", "0", "", "2026-03-02T06:33:45Z"), rank("b", "1", "0", "", "2026-03-02T06:03:10Z"),
                              rank("c", "2", "0", "", "")};
  // 0 -> 1 -> 0 and 2 -> 0: no rank is waited on without waiting itself.
  auto root = find_wait_root(ranks, {waits(0, on_rank("1"), 1), waits(1, on_rank("0"), 2), waits(2, on_rank("0"), 3)});
  REQUIRE(root);
  CHECK(root->in_cycle);
  CHECK(root->rank == 1);
  CHECK(root->text.starts_with("rank 1 dev 0 on b: 2 ranks waited on it (the first error in a cycle of waits)"));
  // With no time known, the first rank of the cycle in the given order.
  std::vector<WaitRank> untimed{rank("a", "0", "0"), rank("b", "1", "0")};
  auto first = find_wait_root(untimed, {waits(0, on_rank("1"), 1), waits(1, on_rank("0"), 2)});
  REQUIRE(first);
  CHECK(first->rank == 0);
}

TEST_CASE("wait graph, near misses: no edge, a rank that names itself", "[wait-graph]") {
  std::vector<WaitRank> ranks{rank("a", "0", "0")};
  CHECK(!find_wait_root(ranks, {}));
  CHECK(!find_wait_root(ranks, {waits(0, on_rank("0"), 1)}));
  CHECK(ranks.size() == 1);
}

TEST_CASE("wait graph: a chain of thousands of ranks and a cycle through all of them", "[wait-graph]") {
  // Rank k waits on rank k-1: the root is rank 0 with 2999 waiters; the text shows the chain's
  // ends, not 3000 labels. Closing the cycle (0 waits on 2999) roots at the first error.
  std::vector<WaitRank> ranks;
  std::vector<WaitArc> arcs;
  for (int k = 0; k < 3000; ++k) ranks.push_back(rank("h", std::to_string(k), "0"));
  for (size_t k = 1; k < 3000; ++k) arcs.push_back(WaitArc{k, k - 1, {}});
  auto root = find_wait_root(ranks, arcs);
  REQUIRE(root);
  CHECK(root->rank == 0);
  CHECK(root->waiters == 2999);
  CHECK(root->chain.size() == 3000);
  CHECK(root->text == "rank 0 dev 0 on h: 2999 ranks waited on it (chain of 3000 ranks: rank 2999 dev 0 on h -> rank "
                      "2998 dev 0 on h -> ... 2993 more ... -> rank 4 dev 0 on h -> rank 3 dev 0 on h -> rank 2 dev 0 "
                      "on h -> rank 1 dev 0 on h -> rank 0 dev 0 on h)");
  arcs.push_back(WaitArc{0, 2999, {}});
  ranks[1700].first_error_utc = "2026-01-01T00:00:00.000000Z";
  auto cycle = find_wait_root(ranks, arcs);
  REQUIRE(cycle);
  CHECK(cycle->in_cycle);
  CHECK(cycle->rank == 1700);
  CHECK(cycle->waiters == 2999);
  // A rank outside the cycle that waits on it is no part of it.
  ranks.push_back(rank("h", "x", "1"));
  arcs.push_back(WaitArc{3000, 5, {}});
  ranks[3000].first_error_utc = "2025-01-01T00:00:00.000000Z";  // earlier, but not in the cycle
  auto outside = find_wait_root(ranks, arcs);
  REQUIRE(outside);
  CHECK(outside->rank == 1700);
  CHECK(outside->waiters == 3000);
}
