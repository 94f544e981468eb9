// Issue 36, facts anywhere: what a finding's values.facts says (correlator/summaries/line_facts.h)
// and what the job-output reader's scan keeps (parsers/common/entry_fact_scan.h).
#include <catch2/catch.hpp>

#include "correlator/summaries/line_facts.h"
#include "parsers/common/entry_fact_scan.h"

using namespace triage;

TEST_CASE("line facts: keys in order, values once, what the finding says left out", "[line-facts]") {
  LineFacts f;
  f.add("        Call rtModelCheckCompatibility(...) fail, ret: 0x7BC80[FUNC:CheckModelCompatibility]", nullptr);
  f.add("[ACL ERROR] EE1001: [PID: 106] 2025-10-30-08:21:08.817.477 The argument is invalid.", nullptr);
  f.add("[INFO] open device 0 success", nullptr);
  f.add("        Call rtModelCheckCompatibility(...) fail, ret: 0x7BC80", nullptr);  // once
  CHECK(f.text() == "code 0x7BC80, EE1001; pid 106; device 0");
  // said already: a code as a whole token, a short id only next to its key
  CHECK(f.text("EE1001 The argument is invalid; pid 106") == "code 0x7BC80; device 0");
  CHECK(f.text("score 0 of 100; EE1001") == "code 0x7BC80; pid 106; device 0");
  CHECK(f.text("device_id=0, EE10010") == "code 0x7BC80, EE1001; pid 106");
}

TEST_CASE("line facts: operators, symbols, libraries, streams and tasks in their places", "[line-facts]") {
  LineFacts f;
  // A plog record a web page wrapped over lines: the third line names the stream and task.
  f.add("Task run failed, base information is streamID:[1740], taskID[23], tag[AllReduce_1], "
        "AlgType(level 0-1-2):[fullmesh-ring-NHR].", nullptr);
  f.add("RuntimeError: call aclnnCast failed, detail:EZ1001: [PID: 3121044] self not implemented", nullptr);
  f.add("[W AclInterface.cpp:181] Warning: 0Failed to find function aclrtCreateEventExWithFlag (function operator())",
        nullptr);
  f.add("frame #2: <unknown function> + 0xffd5f8 (0xfffdcf87d5f8 in /usr/lib/python3/site-packages/torch_npu/lib/"
        "libtorch_npu.so)", nullptr);
  f.add("[PID: 920] 2026-05-08-03:20:31.847.821 Invalid_Argument(EL0003): The argument is invalid.", nullptr);
  CHECK(f.text() ==
        "code EZ1001, EL0003; operator aclnnCast; symbol aclrtCreateEventExWithFlag; library libtorch_npu.so; "
        "pid 3121044, 920; stream 1740; task 23");
  // near misses: no id after the key, a function that is not an identifier, a frame in no library
  LineFacts none;
  none.add("the stream id of each task is logged; taskIDs are assigned per stream", nullptr);
  none.add("Failed to find function in the table", nullptr);
  none.add("frame #9: <unknown function> + 0x2c1 (0x55d0 in python3)", nullptr);
  none.add("see (EL00031) for details", nullptr);
  CHECK(none.text() == "");
}

TEST_CASE("line facts: names_fact tells a short id by its key", "[line-facts]") {
  CHECK(names_fact("device 3 failed", "device", "3"));
  CHECK(names_fact("device_id=3", "device", "3"));
  CHECK_FALSE(names_fact("device 31 failed", "device", "3"));
  CHECK_FALSE(names_fact("3 devices", "device", "3"));
  CHECK(names_fact("retCode=0x2a.", "code", "0x2a"));
  CHECK_FALSE(names_fact("retCode=0x2ab", "code", "0x2a"));
}

TEST_CASE("entry fact scan: first line of each value, a repeated template read once", "[line-facts]") {
  const std::string entry = "line-facts-test/output.txt";
  {
    EntryFactScan scan(entry);
    scan.line("DEVICE[0] PID[358]: ", 1, 0);
    scan.line("  Other info[0]:time=2024-05-10-10:44:52.267.860, function=f, line=296, error code=0x26", 5, 100);
    scan.line("rank 0 step 1 loss 2.5", 6, 200);
    scan.line("rank 1 step 2 loss 2.4", 7, 300);  // the template of line 6: not read again
    scan.line("steps: 110 loss: 1.9161", 8, 400);  // no fact
  }
  auto facts = scanned_facts(entry);
  std::vector<std::string> got;
  for (const auto& f : facts) got.push_back(f.key + "=" + f.value + "@" + std::to_string(f.evidence.line));
  CHECK(got == std::vector<std::string>{"device=0@1", "pid=358@1", "code=0x26@5", "rank=0@6"});
  CHECK(scanned_facts("no-such-entry").empty());
}
