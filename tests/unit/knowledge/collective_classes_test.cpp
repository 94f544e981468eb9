// knowledge/collective-classes.tsv: which collective/* finding a signature hit or an HCCL /
// HCCP message code feeds. The built-in table loads clean and passes knowledge check (every
// class catalogued, every signature known); a bad row is refused with its file and line.
#include <catch2/catch.hpp>

#include "ingest/knowledge_check.h"
#include "knowledge/collective_classes.h"
#include "knowledge/knowledge.h"

using namespace triage;

TEST_CASE("collective classes: the built-in table decides codes and signatures", "[collective-classes]") {
  const CollectiveClasses& c = collective_classes_for("");
  CHECK(c.of_code("EI0002") == "collective/wait-timeout");
  CHECK(c.of_code("EJ0001") == "collective/device-held");
  CHECK(c.of_signature("hccl/transport-init") == "collective/link-setup");
  CHECK(c.of_signature("hccl/task-timeout") == "collective/wait-timeout");
  CHECK(c.of_code("EZ1001").empty());  // an operator code is no collective class
  CHECK(c.of_signature("EI0002").empty());  // a code is not looked up as a signature
  for (const auto& f : builtin_knowledge_files()) {
    if (f.name != kCollectiveClassesFile) continue;
    KnowledgeCheck k = check_knowledge_file(f.content, f.name);
    for (const auto& p : k.problems) UNSCOPED_INFO(p);
    CHECK(k.ok());
  }
}

TEST_CASE("collective classes: bad rows name their file and line", "[collective-classes]") {
  std::string table =
      "match\ttext\tclass\twhy\n"
      "regex\tEI0002\tcollective/wait-timeout\tx\n"           // 2: unknown match
      "code\tEI0002\tdevice-exception/hbm-ecc\tx\n"           // 3: not a collective class
      "code\tEI0004\tcollective/rank-table\t\n"               // 4: no why
      "code\tEI0005\tcollective/mismatch\targuments differ\n"  // 5: good
      "code\tEI0005\tcollective/mismatch\tagain\n";           // 6: duplicate
  std::vector<std::string> errors;
  auto c = parse_collective_classes(table, "collective-classes.tsv", errors);
  REQUIRE(errors.size() == 4);
  CHECK(errors[0] == "collective-classes.tsv:2: match 'regex' is not signature or code");
  CHECK(errors[1] == "collective-classes.tsv:3: class 'device-exception/hbm-ecc' is not a collective/* finding id");
  CHECK(errors[2] == "collective-classes.tsv:4: text and why are required");
  CHECK(errors[3] == "collective-classes.tsv:6: duplicate code EI0005");
  REQUIRE(c.rows.size() == 1);
  CHECK(c.of_code("EI0005") == "collective/mismatch");
  // knowledge check also wants the class catalogued and the signature known.
  KnowledgeCheck k = check_knowledge_file(
      "match\ttext\tclass\twhy\nsignature\thccl/no-such\tcollective/no-such\tx\n", "collective-classes.tsv");
  REQUIRE(k.problems.size() == 2);
  CHECK(k.problems[0].find("class collective/no-such is not a catalogued finding id") != std::string::npos);
  CHECK(k.problems[1].find("no signature hccl/no-such") != std::string::npos);
}
