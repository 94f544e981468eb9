// kernel/boots.txt (`journalctl --list-boots --utc`, both shapes: an em dash between first
// and last entry before systemd 253, a header and spaces after) read into EventFacts::boots:
// index, boot id with dashes, UTC span; what does not fit is counted, never dropped.
#include <catch2/catch.hpp>

#include "model/time.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("boots parser: --list-boots rows become boots with ids and UTC spans", "[boots]") {
  // The last two rows of samples/incident-910b-after-reboot/kernel/boots.txt.
  const std::string text =
      " -1 c69ba5291b6d440fa2ad985fff78b465 Tue 2026-09-01 00:12:08 UTC\xE2\x80\x94"
      "Fri 2026-09-04 02:12:39 UTC\n"
      "  0 596ee2d3f59b49cda5d4642c5fb09f18 Fri 2026-09-04 02:14:29 UTC\xE2\x80\x94"
      "Fri 2026-09-04 02:22:24 UTC\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::boots_txt, "kernel/boots.txt", text, facts);
  REQUIRE(facts.events.boots.size() == 2);
  const BootRecord& before = facts.events.boots[0];
  CHECK(before.index == -1);
  CHECK(before.boot_id == "c69ba529-1b6d-440f-a2ad-985fff78b465");
  REQUIRE(before.first_utc_us);
  CHECK(format_utc(*before.first_utc_us) == "2026-09-01T00:12:08Z");
  REQUIRE(before.last_utc_us);
  CHECK(format_utc(*before.last_utc_us) == "2026-09-04T02:12:39Z");
  CHECK(before.evidence.line == 1);
  CHECK(facts.events.boots[1].index == 0);
  CHECK(stats.lines == 2);
}

TEST_CASE("boots parser: the header form; a bad row and another zone are counted", "[boots]") {
  const std::string text =
      "IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY\n"
      " -1 c69ba5291b6d440fa2ad985fff78b465 Tue 2026-09-01 00:12:08 UTC Fri 2026-09-04 02:12:39 UTC\n"
      "  0 not-a-boot-id                    Fri 2026-09-04 02:14:29 UTC Fri 2026-09-04 02:22:24 UTC\n"
      "  1 596ee2d3f59b49cda5d4642c5fb09f18 Fri 2026-09-04 10:14:29 CST Fri 2026-09-04 10:22:24 CST\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::boots_txt, "kernel/boots.txt", text, facts);
  REQUIRE(facts.events.boots.size() == 2);
  CHECK(facts.events.boots[0].boot_id == "c69ba529-1b6d-440f-a2ad-985fff78b465");
  CHECK(format_utc(*facts.events.boots[0].last_utc_us) == "2026-09-04T02:12:39Z");
  // Another zone than UTC: the boot is kept without times and the line counted as not read.
  CHECK(facts.events.boots[1].index == 1);
  CHECK_FALSE(facts.events.boots[1].first_utc_us);
  CHECK(stats.unrecognised == 1);
  CHECK(stats.malformed == 1);  // the row whose id is not a boot id
}
