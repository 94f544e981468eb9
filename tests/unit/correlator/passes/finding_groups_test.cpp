// One finding per cause (correlator/finding_groups, knowledge/finding-groups.tsv).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/passes/finding_groups.h"
#include "knowledge/finding_groups.h"

using namespace triage;

namespace {

Finding progressing(std::string host, int pid, int stream, std::string first_utc, int line) {
  Finding f;
  f.id = "stream-stall/progressing";
  f.host = std::move(host);
  f.title = "Stream " + std::to_string(stream) + " of pid " + std::to_string(pid) + " was slow";
  f.observed = "reports";
  f.does_not_prove = "that the job finished";
  f.evidence = {EvidenceRef{"plog-" + std::to_string(pid) + ".log", size_t(line), 0, "a"},
                EvidenceRef{"plog-" + std::to_string(pid) + ".log", size_t(line + 10), 0, "b"}};
  f.value("pid", std::to_string(pid))
      .value("stream_id", std::to_string(stream))
      .value("samples", "3")
      .value("first_utc", first_utc);
  return f;
}

std::vector<const Finding*> with_id(const std::vector<Finding>& v, std::string_view id) {
  std::vector<const Finding*> out;
  for (const auto& f : v)
    if (f.id == id) out.push_back(&f);
  return out;
}

}  // namespace

TEST_CASE("finding groups: same stream at the same time on one host is one finding", "[groups]") {
  std::vector<Finding> v = {
      progressing("h1", 102, 13, "2026-09-10T06:06:30.500000Z", 5),
      progressing("h1", 101, 13, "2026-09-10T06:06:30.400000Z", 7),
      progressing("h1", 103, 13, "2026-09-10T06:07:20.000000Z", 9),   // +49.6 s: same step
      progressing("h1", 104, 13, "2026-09-10T06:12:30.000000Z", 11),  // six minutes on: another
      progressing("h1", 105, 14, "2026-09-10T06:06:30.400000Z", 13),  // another stream
      progressing("h2", 106, 13, "2026-09-10T06:06:30.400000Z", 15),  // another host
  };
  group_findings_by_cause(AnalyzeOptions{}, v);
  auto moving = with_id(v, "stream-stall/progressing");
  REQUIRE(moving.size() == 4);
  const Finding* grouped = nullptr;
  for (const auto* f : moving)
    if (f->find_value("pids")) grouped = f;
  REQUIRE(grouped);
  CHECK(*grouped->find_value("pids") == "101,102,103");  // earliest first
  CHECK(*grouped->find_value("processes") == "3");
  CHECK(*grouped->find_value("pid") == "101");
  CHECK(grouped->title == "Stream 13 of 3 processes (pid 101 and 2 more) was slow");
  CHECK(grouped->observed.find("pid 102 (+0.100 s), pid 103 (+49.600 s)") != std::string::npos);
  CHECK(grouped->does_not_prove.find("not that one of them caused it") != std::string::npos);
  // the base's two lines, then the first line of each other process; the rest explained
  REQUIRE(grouped->evidence.size() == 4);
  CHECK(grouped->evidence[2].entry == "plog-102.log");
  CHECK(grouped->evidence[3].entry == "plog-103.log");
  CHECK(grouped->explains.size() == 2);
  for (const auto* f : moving)
    if (f != grouped) CHECK(f->find_value("pids") == nullptr);
}

TEST_CASE("finding groups: a finding without the values a rule needs stays alone", "[groups]") {
  std::vector<Finding> v = {progressing("h1", 101, 13, "unknown", 5),
                            progressing("h1", 102, 13, "unknown", 7)};
  group_findings_by_cause(AnalyzeOptions{}, v);
  CHECK(v.size() == 2);  // no time to compare: not grouped
}

TEST_CASE("finding groups: the rule table is checked", "[groups][knowledge]") {
  std::vector<std::string> errors;
  auto rules = parse_finding_groups(
      "id\tsame\twithin\tseconds\twhy\n"
      "stream-stall/progressing\tstream_id\tfirst_utc\t60\tone step\n"
      "x\t\t-\t0\tno keys\n"
      "y\tstream_id\t-\tsoon\tbad seconds\n"
      "stream-stall/progressing\tstream_id\t-\t0\tduplicate\n",
      "finding-groups.tsv", errors);
  CHECK(rules.size() == 1);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] == "finding-groups.tsv:3: a rule needs same keys or a within time");
  CHECK(errors[1].find("seconds 'soon'") != std::string::npos);
  CHECK(errors[2] == "finding-groups.tsv:5: duplicate id stream-stall/progressing");
}
