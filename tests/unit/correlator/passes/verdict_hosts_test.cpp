// Several hosts: a host whose collective timed out waiting on another host's failed device
// does not rank "insufficient evidence" above that device's fault
// (correlator/passes/verdict.cpp cause_elsewhere; docs/verdict.md "Several hosts").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/passes/verdict.h"

using namespace triage;

namespace {

Finding at(std::string id, std::string host, std::string first_utc, int line) {
  Finding f;
  f.id = std::move(id);
  f.host = std::move(host);
  f.severity = Severity::error;
  f.confidence = Confidence::medium;
  f.value("first_utc", std::move(first_utc));
  f.evidence.push_back(EvidenceRef{.entry = f.host + "/plog.log", .line = static_cast<uint64_t>(line), .offset = 0, .excerpt = ""});
  return f;
}

Finding timeout(std::string host, std::string first_utc, int line) {
  Finding f = at("device-exception/hccl-timeout", std::move(host), std::move(first_utc), line);
  f.value("observed_in_barrier", "no");
  f.value("seen_as", "task-report");  // the device's report of the stuck task, not a bare code
  return f;
}

// A compute exception whose errorStr is hardware-visible (an ECC text): the device's own
// evidence. A bare exception names no cause (issue 36: where it ran, not which side failed).
Finding device_fault(std::string host, std::string first_utc, int line) {
  Finding f = at("device-exception/aicore-exception", std::move(host), std::move(first_utc), line);
  f.value("points_at", "device");
  return f;
}

Verdict judge(std::vector<Finding> findings, const std::vector<std::string>& hosts) {
  sort_findings(findings);
  EvidenceSet e;
  for (const auto& h : hosts) {
    BundleFacts b;
    b.host = h;
    e.bundles.push_back(std::move(b));
  }
  return build_verdict(findings, e, AnalyzeOptions{});
}

const Hypothesis* of(const Verdict& v, std::string_view id, std::string_view host) {
  for (const auto& h : v.ranked)
    if (h.id == id && h.host == host) return &h;
  return nullptr;
}

}  // namespace

TEST_CASE("several hosts: the host whose device failed first leads; the waiters wait on it", "[verdict]") {
  Verdict v = judge({timeout("a", "2026-03-02T06:33:45.818000Z", 2), timeout("b", "2026-03-02T06:33:45.928000Z", 2),
                     device_fault("c", "2026-03-02T06:03:10.418000Z", 5)},
                    {"a", "b", "c"});
  REQUIRE(!v.ranked.empty());
  CHECK(v.ranked.front().id == "device-hardware");
  CHECK(v.ranked.front().host == "c");
  CHECK(v.ranked.front().consequences.size() == 2);
  // The waiters' own gaps (no bundle, no modules...) do not rank them beside it.
  CHECK(!of(v, "insufficient-evidence", "a"));
  CHECK(!of(v, "insufficient-evidence", "b"));
  // Nor do c's: its device fault explains everything at warning or above there.
  CHECK(!of(v, "insufficient-evidence", "c"));
}

TEST_CASE("several hosts, near misses: a timeout before the device fault, a host nothing explains", "[verdict]") {
  // The timeout came first: it is no consequence of the later fault, and its host is not a waiter.
  Verdict early = judge({timeout("a", "2026-03-02T06:00:00.000000Z", 2),
                         at("device-exception/aicore-exception", "c", "2026-03-02T06:03:10.418000Z", 5)},
                        {"a", "c"});
  REQUIRE(!early.ranked.empty());
  const Hypothesis* own = of(early, "collective-communication", "a");
  REQUIRE(own);
  CHECK(own->score == 40);
  CHECK(own->consequences.empty());
  // c's bare exception explains nothing by itself (issue 36): c ranks its missing evidence.
  CHECK(of(early, "insufficient-evidence", "c"));
  // A host with nothing to explain is no waiter, and does not lead with its gaps either.
  Verdict apart = judge({timeout("a", "2026-03-02T06:33:45.818000Z", 2),
                         device_fault("c", "2026-03-02T06:03:10.418000Z", 5)},
                        {"a", "b", "c"});
  REQUIRE(!apart.ranked.empty());
  CHECK(apart.ranked.front().id == "device-hardware");
  CHECK(!of(apart, "insufficient-evidence", "b"));
  CHECK(!of(apart, "insufficient-evidence", "a"));
  // Alone, a timeout with no device fault on any host reads as a collective fault, as before.
  Verdict alone = judge({timeout("a", "2026-03-02T06:33:45.818000Z", 2)}, {"a"});
  REQUIRE(!alone.ranked.empty());
  CHECK(alone.ranked.front().id == "collective-communication");
}

// Issue 36: the same hosts when the first failure is the operator's (software-visible errorStr):
// application code leads on its host and the waiters' timeouts are its consequences; the same
// exception on two nodes within seconds (spread) ranks application code above device hardware.
TEST_CASE("several hosts: an operator's fault leads with the waiters' timeouts as consequences", "[verdict]") {
  Finding op = at("device-exception/aicore-exception", "c", "2026-03-02T06:03:10.418000Z", 5);
  op.value("points_at", "operator");
  Verdict v = judge({timeout("a", "2026-03-02T06:33:45.818000Z", 2), timeout("b", "2026-03-02T06:33:45.928000Z", 2), op},
                    {"a", "b", "c"});
  REQUIRE(!v.ranked.empty());
  CHECK(v.ranked.front().id == "application-code");
  CHECK(v.ranked.front().host == "c");
  CHECK(v.ranked.front().consequences.size() == 2);
  CHECK(!of(v, "insufficient-evidence", "a"));
  const Hypothesis* hw = of(v, "device-hardware", "c");
  REQUIRE(hw);
  CHECK(hw->score < v.ranked.front().score);

  Finding x = at("device-exception/aicore-exception", "a", "2026-03-02T06:03:10.418000Z", 5);
  Finding y = at("device-exception/aicore-exception", "b", "2026-03-02T06:03:12.002000Z", 5);
  x.value("spread", "several-nodes");
  y.value("spread", "several-nodes");
  Verdict s = judge({x, y}, {"a", "b"});
  REQUIRE(!s.ranked.empty());
  CHECK(s.ranked.front().id == "application-code");
  // Near miss: the same two exceptions, each alone on its chip an hour apart, no longer point
  // at the operator; with nothing from the device itself they name no cause either.
  Finding x1 = at("device-exception/aicore-exception", "a", "2026-03-02T06:03:10.418000Z", 5);
  Finding y1 = at("device-exception/aicore-exception", "b", "2026-03-02T07:03:12.002000Z", 5);
  x1.value("spread", "one-chip");
  y1.value("spread", "one-chip");
  Verdict n = judge({x1, y1}, {"a", "b"});
  REQUIRE(!n.ranked.empty());
  CHECK(n.ranked.front().id == "insufficient-evidence");
  x1.value("points_at", "device");
  Verdict d = judge({x1, y1}, {"a", "b"});
  const Hypothesis* hw_a = of(d, "device-hardware", "a");
  REQUIRE(hw_a);
  CHECK(hw_a->score == 50);
  CHECK(!of(d, "insufficient-evidence", "a"));
}

// Issue 36: the origin's exception alone (no errorStr, no device-side evidence) names no
// cause on its host; the waiters still do not rank their own gaps above it.
TEST_CASE("several hosts: a bare exception at the origin leads to insufficient evidence there", "[verdict]") {
  Verdict v = judge({timeout("a", "2026-03-02T06:33:45.818000Z", 2), timeout("b", "2026-03-02T06:33:45.928000Z", 2),
                     at("device-exception/aicore-exception", "c", "2026-03-02T06:03:10.418000Z", 5)},
                    {"a", "b", "c"});
  REQUIRE(!v.ranked.empty());
  CHECK(v.ranked.front().id == "insufficient-evidence");
  CHECK(v.ranked.front().host == "c");
  const Hypothesis* hw = of(v, "device-hardware", "c");
  REQUIRE(hw);
  CHECK(hw->score == 20);
}
