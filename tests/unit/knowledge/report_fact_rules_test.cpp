// knowledge/report-facts.tsv: the built-in rules load clean and each gives its sample's value;
// a broken row is refused with its file and line (no group, two groups, a sample it does not
// match or that gives another value), and the rows after it still load.
#include <catch2/catch.hpp>

#include <re2/re2.h>

#include "correlator/summaries/report_facts.h"
#include "knowledge/report_fact_rules.h"

using namespace triage;

TEST_CASE("report facts: the built-in rules load and give their samples' values", "[report-facts]") {
  const auto& rules = builtin_report_fact_rules();
  REQUIRE(rules.size() >= 14);
  for (const auto& r : rules) {
    INFO(r.where);
    ReportFacts facts;
    add_report_facts(r.sample, facts);
    // The sample's own key comes out with its value unless an earlier row of that key
    // matched the sample first (then the earlier row wins, by design).
    bool earlier_same_key = false;
    for (const auto& q : rules) {
      if (&q == &r) break;
      if (q.key == r.key && RE2::PartialMatch(r.sample, *q.pattern)) earlier_same_key = true;
    }
    if (earlier_same_key) continue;
    bool found = false;
    for (const auto& [k, v] : facts)
      if (k == r.key) found = (v == r.value);
    CHECK(found);
  }
}

TEST_CASE("report facts: a broken row names its file and line, the others still load", "[report-facts]") {
  std::string table =
      "# test\n"
      "key\tpattern\tsample\tvalue\n"
      "stream_id\t\\bstream_id[=: ]\\s*\\d+\tstream_id:4\t4\n"          // line 3: no capture group
      "task_id\t\\b(task)_id[=: ]\\s*(\\d+)\ttask_id:5\t5\n"            // line 4: two groups
      "chip\tdevice\\(chipId:(\\d+)\tno chip here\t0\n"                  // line 5: sample not matched
      "die\tdieId:(\\d+)\tdevice(chipId:0, dieId:1)\t0\n"                // line 6: gives 1, not 0
      "rank\t\\brank[=:]\\s*(\\d+)\trank:1, rankSize:4\t1\n";            // line 7: good
  std::vector<std::string> errors;
  auto rules = parse_report_fact_rules(table, "report-facts.tsv", errors);
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].starts_with("report-facts.tsv:3: pattern needs exactly one capture group"));
  CHECK(errors[1].starts_with("report-facts.tsv:4: pattern needs exactly one capture group"));
  CHECK(errors[2] == "report-facts.tsv:5: pattern does not match its sample");
  CHECK(errors[3] == "report-facts.tsv:6: sample gives '1', not '0'");
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].key == "rank");
  CHECK(rules[0].where == "report-facts.tsv:7");
}
