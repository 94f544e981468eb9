// The "In short" paragraph (correlator/passes/verdict_reply.h): plain words from the verdict.
#include <catch2/catch.hpp>

#include "correlator/passes/verdict_reply.h"

using namespace triage;

TEST_CASE("reply: the leading cause, what points to it, what it explains, next check, limits", "[verdict][reply]") {
  std::vector<Finding> findings(3);
  findings[0].id = "module-provenance/two-sets";
  findings[0].title = "Two module sets";
  findings[1].id = "stream-stall";
  findings[1].title = "Stream 47 of pid 48213 made no progress for 1080 s (7 reports)";
  findings[2].id = "stream-stall";
  findings[2].title = "Stream 45 of pid 31544 made no progress for 720 s (5 reports)";
  Verdict v;
  Hypothesis h;
  h.id = "host-driver-installation";
  h.title = "Host driver installation residue";
  h.host = "node07";
  h.confidence = Confidence::medium;
  h.supporting = {{"module-provenance/two-sets", 0, "two module sets for one kernel"},
                  {"module-provenance/two-sets", 0, "two module sets for one kernel"}};
  h.consequences = {{"stream-stall", 1, "x"}, {"stream-stall", 2, "x"}, {"stream-stall", 1, "x"}};
  h.does_not_prove = "that the stale set caused every timeout.";
  v.ranked.push_back(h);
  v.next_check = {"a vs b", "Compare the modules.", "modinfo -n drv_pcie_host"};
  CHECK(verdict_reply(v, findings) ==
        "Most likely cause on node07: Host driver installation residue (medium confidence). What points to it: two "
        "module sets for one kernel. It also accounts for what the job showed: Stream 47 of pid 48213 made no "
        "progress for 1080 s (7 reports); Stream 45 of pid 31544 made no progress for 720 s (5 reports); and more. "
        "Next check: Compare the modules (`modinfo -n drv_pcie_host`). Not proven: That the stale set caused every "
        "timeout.");
}

TEST_CASE("reply: insufficient evidence names what was seen and the one collection; no fault says so",
          "[verdict][reply]") {
  std::vector<Finding> findings(2);
  findings[0].severity = Severity::info;
  findings[0].title = "chip";
  findings[1].severity = Severity::error;
  findings[1].title = "Stream 47 stalled";
  Verdict v;
  Hypothesis h;
  h.id = "insufficient-evidence";
  v.ranked.push_back(h);
  v.collect_more = {"sudo bash ascend-collect.sh --probes"};
  CHECK(verdict_reply(v, findings) ==
        "The evidence does not name a cause yet. Seen: Stream 47 stalled. To decide, collect: `sudo bash "
        "ascend-collect.sh --probes`.");
  findings.pop_back();
  CHECK(verdict_reply(v, findings) == "No fault found: nothing in what was read is at warning or above.");
  // Nothing ranked (no fault found stands alone): the reply says so, unless a warning is there.
  CHECK(verdict_reply(Verdict{}, findings) == "No fault found: nothing in what was read is at warning or above.");
  findings[0].severity = Severity::warning;
  CHECK(verdict_reply(Verdict{}, findings).empty());
}
