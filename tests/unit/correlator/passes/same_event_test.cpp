// One finding per event (correlator/passes/same_event, knowledge/same-event.tsv): two readings
// of one evidence event become one finding that names the other; near misses stay apart.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/passes/same_event.h"
#include "knowledge/same_event.h"
#include "reports/also_read_as.h"

using namespace triage;

namespace {

Finding reading(std::string id, Severity sev, std::string host, std::vector<std::pair<std::string, int>> lines) {
  Finding f;
  f.id = std::move(id);
  f.severity = sev;
  f.host = std::move(host);
  f.title = "title of " + f.id;
  f.observed = "code 507048 in " + f.id;
  for (const auto& [entry, line] : lines) f.evidence.push_back(EvidenceRef{entry, uint64_t(line), 0, "x"});
  return f;
}

struct Run {
  std::vector<Finding> findings;
  Verdict verdict;
  Timeline timeline;
  void fold() { fold_same_event(AnalyzeOptions{}, findings, verdict, timeline); }
};

}  // namespace

TEST_CASE("same event: an undefined symbol read twice is one finding", "[same-event]") {
  Run r;
  r.findings = {reading("library-load/failed", Severity::error, "h", {{"output.txt", 2}}),
                reading("log-signature", Severity::error, "h", {{"output.txt", 2}})};
  Hypothesis h;
  h.id = "cann-wheel-mismatch";
  h.supporting = {{"library-load/failed", 0, "a"}, {"log-signature", 1, "b"}};
  h.contradicting = {{"log-signature", 1, "c"}};
  r.verdict.ranked.push_back(h);
  TimelineEvent e;
  e.host = "h";
  e.evidence = EvidenceRef{"output.txt", 2, 0, "x"};
  e.finding_ids = {"log-signature"};
  r.timeline.events.push_back(e);
  r.fold();
  REQUIRE(r.findings.size() == 1);
  const Finding& kept = r.findings[0];
  CHECK(kept.id == "library-load/failed");  // equal severity: the table's keep, the specific one
  auto also = also_read_as_by_id(kept);
  REQUIRE(also.size() == 1);
  CHECK(also[0].id == "log-signature");
  CHECK(also[0].title == "title of log-signature");
  CHECK(also_read_as_text(also[0]) == "log-signature: title of log-signature");
  // JSON keeps the folded reading's observed text: its facts (a code, a pid) are not lost
  auto parsed = parse_also_read_as(*kept.find_value(kAlsoReadAsValue));
  CHECK(parsed.id == "log-signature");
  CHECK(parsed.observed == "code 507048 in log-signature");
  CHECK(kept.explains.empty());  // the one line is cited already
  // the verdict's links follow: one link per finding and list, the first one's why
  REQUIRE(r.verdict.ranked[0].supporting.size() == 1);
  CHECK(r.verdict.ranked[0].supporting[0].why == "a");
  REQUIRE(r.verdict.ranked[0].contradicting.size() == 1);
  CHECK(r.verdict.ranked[0].contradicting[0].id == "library-load/failed");
  CHECK(r.verdict.ranked[0].contradicting[0].index == 0);
  CHECK(r.timeline.events[0].finding_ids == std::vector<std::string>{"library-load/failed"});
}

TEST_CASE("same event: the higher severity is kept whatever the table's keep", "[same-event]") {
  Run r;
  r.findings = {reading("log-signature", Severity::error, "h", {{"out", 6}, {"out", 8}}),
                reading("device-memory/exhausted", Severity::warning, "h", {{"out", 6}, {"out", 9}})};
  r.fold();
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].id == "log-signature");
  CHECK(also_read_as_by_id(r.findings[0])[0].id == "device-memory/exhausted");
  REQUIRE(r.findings[0].explains.size() == 1);  // its other line: explained, not lost
  CHECK(r.findings[0].explains[0].line == 9);
}

TEST_CASE("same event: one reading per process folds into the finding citing every process", "[same-event]") {
  Run r;
  r.findings = {reading("collective/wait-timeout", Severity::error, "h", {{"plog-1", 3}, {"plog-2", 3}, {"plog-3", 3}}),
                reading("device-exception/hccl-timeout", Severity::error, "h", {{"plog-1", 3}}),
                reading("device-exception/hccl-timeout", Severity::error, "h", {{"plog-2", 3}}),
                reading("device-exception/hccl-timeout", Severity::error, "h", {{"plog-9", 3}})};  // not cited
  r.fold();
  REQUIRE(r.findings.size() == 2);
  auto also = also_read_as_by_id(r.findings[0]);
  REQUIRE(also.size() == 1);  // one id, named once with its count
  CHECK(also[0].count == 2);
  CHECK(also_read_as_text(also[0]) ==
        "device-exception/hccl-timeout (2 findings, e.g. title of device-exception/hccl-timeout)");
  CHECK(r.findings[1].evidence[0].entry == "plog-9");
}

TEST_CASE("same event: near misses stay apart", "[same-event]") {
  SECTION("a pair the table does not list, though the lines are the same") {
    Run r;
    r.findings = {reading("device-exception/aicore-exception", Severity::error, "h", {{"out", 6}}),
                  reading("observation-point", Severity::warning, "h", {{"out", 6}, {"out", 7}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
  SECTION("a listed pair on another host") {
    Run r;
    r.findings = {reading("library-load/failed", Severity::error, "h1", {{"out", 2}}),
                  reading("log-signature", Severity::error, "h2", {{"out", 2}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
  SECTION("a listed pair sharing a line that is not the folded one's leading line") {
    Run r;
    r.findings = {reading("library-load/failed", Severity::error, "h", {{"out", 2}}),
                  reading("log-signature", Severity::error, "h", {{"out", 5}, {"out", 2}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
  SECTION("the same line number of another file") {
    Run r;
    r.findings = {reading("library-load/failed", Severity::error, "h", {{"a.txt", 2}}),
                  reading("log-signature", Severity::error, "h", {{"b.txt", 2}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
  SECTION("a whole-file citation (line 0) is no event") {
    Run r;
    r.findings = {reading("library-load/failed", Severity::error, "h", {{"a.txt", 0}}),
                  reading("log-signature", Severity::error, "h", {{"a.txt", 0}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
  SECTION("the specific reading ranked lower by severity is not the one kept, nor folded the wrong way") {
    Run r;  // keep side at info, fold side at error: the error reading stays first, the info folds into it
    r.findings = {reading("log-signature", Severity::error, "h", {{"out", 2}}),
                  reading("library-load/failed", Severity::info, "h", {{"out", 2}, {"out", 3}})};
    r.fold();
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].id == "log-signature");
  }
  SECTION("two readings of one id are not folded into each other") {
    Run r;
    r.findings = {reading("log-signature", Severity::error, "h", {{"out", 2}}),
                  reading("log-signature", Severity::error, "h", {{"out", 2}})};
    r.fold();
    CHECK(r.findings.size() == 2);
  }
}

TEST_CASE("same event: the pair table is checked", "[same-event][knowledge]") {
  std::vector<std::string> errors;
  auto rules = parse_same_event_rules(
      "keep\tfold\twhy\n"
      "a\tb\tone event\n"
      "b\ta\tthe same pair the other way round\n"
      "c\tc\tself\n"
      "d\t\tno fold\n",
      "same-event.tsv", errors);
  CHECK(rules.size() == 1);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] == "same-event.tsv:3: duplicate pair b / a");
  CHECK(errors[1] == "same-event.tsv:4: keep and fold are the same id c");
  CHECK(errors[2] == "same-event.tsv:5: keep, fold and why are required");
}

TEST_CASE("same event: the built-in pairs load (knowledge check checks their ids)", "[same-event][knowledge]") {
  CHECK(same_event_rules_for("").size() >= 5);
}
