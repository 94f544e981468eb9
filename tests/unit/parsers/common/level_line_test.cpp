// The level reader (parsers/common/level_line.h): the level of a line whose logger prefix the
// prefix recogniser split off, and the codes a message names (issue 36).
#include <catch2/catch.hpp>

#include <string>

#include "parsers/common/level_line.h"
#include "parsers/common/line_prefix.h"

using namespace triage;

TEST_CASE("level line: the level is read from the logger prefix split off the body", "[level_line]") {
  LevelReader reader("");
  // tests/data/real/vllm-omni-2898-stage-prefixed-rtgetdevmsg-null-context/output.txt, line 1
  std::string line =
      "[Stage-1] ERROR 04-18 15:43:35 [multiproc_executor.py:800]         The argument is invalid.Reason: "
      "rtGetDevMsg execution failed, the context is a null pointer.";
  LinePrefix p = split_line_prefix(line);
  REQUIRE(p.logger_prefix);
  CHECK(p.logger == "ERROR 04-18 15:43:35 [multiproc_executor.py:800] ");
  LevelLine lv;
  REQUIRE(reader.read(p.logger, p.body, lv));
  CHECK(lv.form->id == "vllm");
  CHECK(lv.time == "04-18 15:43:35");
  CHECK(lv.where == "multiproc_executor.py:800");
  CHECK(lv.message == "The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.");
  // The body alone has no level: the level is the prefix's.
  CHECK_FALSE(reader.read("", p.body, lv));
  // A body that is not right after the prefix (colour codes removed into a scratch copy):
  // the level comes from the prefix, the message is the body.
  std::string copy(p.body);
  REQUIRE(reader.read(p.logger, copy, lv));
  CHECK(lv.message == "The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.");
  // An INFO prefix with an ERROR record quoted in its body: no error level.
  LinePrefix info = split_line_prefix("INFO 04-18 15:43:36 [api_server.py:12] [ERROR] TBE Subprocess failed");
  CHECK_FALSE(reader.read(info.logger, info.body, lv));
  // A blank ERROR logger line has a level and no message.
  LinePrefix blank = split_line_prefix("[Stage-1] ERROR 04-18 15:43:35 [multiproc_executor.py:800] ");
  REQUIRE(reader.read(blank.logger, blank.body, lv));
  CHECK(lv.message.empty());
}

TEST_CASE("level line: pid of the form, and none where the form has none", "[level_line]") {
  LevelReader reader("");
  LevelLine lv;
  REQUIRE(reader.read("", "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.722.000 "
                          "[mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']", lv));
  CHECK(lv.pid == 162078);
  CHECK(lv.module == "ME");
  REQUIRE(reader.read("", "[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!", lv));
  CHECK_FALSE(lv.pid);
}

TEST_CASE("level line: the codes a message names", "[level_line]") {
  LevelReader reader("");
  // catalogue message codes, wherever they are
  CHECK(reader.code("Stream synchronize failed, EE1002: The stream sync timed out") == "EE1002");
  CHECK(reader.code("wait failed (EI0002)") == "EI0002");
  CHECK(reader.code("EZ1234 is not a catalogue code") == "");
  // `error code is N`, any number
  CHECK(reader.code("NPU function error: at_npu::native::AclSetCompileopt(...), error code is 500001") == "500001");
  // six-digit catalogue results after an error word
  CHECK(reader.code("Malloc device memory failed, size[32212254720], ret[207001]") == "207001");
  CHECK(reader.code("epoch 0 iter 0 failed: ACL error: 107020 (rtStreamSynchronize execution failed)") == "107020");
  CHECK(reader.code("open device 4 failed, error code 107001") == "107001");
  // a bare six-digit number (a pid, a step, a size) is no code
  CHECK(reader.code("Scheduler process 162146 exit with exception.") == "");
  CHECK(reader.code("step 100000 done, loss 0.1") == "");
  CHECK(reader.code("ERRORS: 0") == "");
}
