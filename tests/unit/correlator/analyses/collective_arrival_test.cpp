// collective/late-arrival: ranks entering communicator creation further apart than the
// connect timeout, compared over the whole input; within the timeout, or one rank entering
// twice, is no finding. Lines verbatim from HCCL's fault-diagnosis guide
// (tests/data/real/hccl-docs-cluster-nego-*), pid, rank and time as parameters.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/correlate.h"
#include "ingest/load.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

Report analyze_plog(const std::string& text) {
  testing::TempDir dir;
  testing::write_file(dir / "plog.txt", text);
  auto loaded = load_evidence({dir.path()}, AnalyzeOptions{});
  return correlate(loaded.evidence, AnalyzeOptions{});
}

const Finding* find(const Report& r, std::string_view id) { return testing::find_finding(r.findings, id); }

std::string value(const Finding& f, std::string_view key) { return testing::finding_value(f, key); }

// HCCL's INFO record of a rank entering communicator creation (tests/data/real/hccl-docs-cluster-
// nego-*), with the pid, rank and time as parameters.
std::string init_entry(const std::string& pid, const std::string& rank, const std::string& time) {
  return "[INFO] HCCL(" + pid + ",all_reduce_test):2025-11-20-" + time + " [op_base.cc:1293] [" + pid +
         "]Entry-HcclCommInitRootInfoInner:ranks[2], rank[" + rank +
         "], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1763610996711234], "
         "deviceLogicId[" + rank + "]\n";
}
}  // namespace

TEST_CASE("late arrival: a rank entering communicator creation later than the connect timeout", "[collective]") {
  Report r = analyze_plog(init_entry("3079952", "0", "11:56:36.711.546") +
                          init_entry("3079955", "1", "11:59:56.716.583"));
  const Finding* f = find(r, "collective/late-arrival");
  REQUIRE(f);
  CHECK(value(*f, "late") == "pid 3079955 (rank 1)");
  CHECK(value(*f, "gap_s") == "200");
  CHECK(value(*f, "connect_timeout_s") == "120");
  CHECK(value(*f, "connect_timeout_from") == "default");
  REQUIRE_FALSE(r.verdict.ranked.empty());
  CHECK(r.verdict.ranked.front().id == "collective-communication");
  CHECK_FALSE(find(r, "collective/link-setup"));  // an entry is no failure of its own
  // Near misses: within the timeout; one rank entering twice.
  Report soon = analyze_plog(init_entry("3079952", "0", "11:56:36.711.546") +
                             init_entry("3079955", "1", "11:58:30.716.583"));
  CHECK_FALSE(find(soon, "collective/late-arrival"));
  Report one = analyze_plog(init_entry("3079952", "0", "11:56:36.711.546") +
                            init_entry("3079952", "0", "11:59:56.716.583"));
  CHECK_FALSE(find(one, "collective/late-arrival"));
}
