// detect_tool_error: a tool's error text is recognised, real content never is.
#include <catch2/catch.hpp>

#include "parsers/common/tool_error.h"

using namespace triage;

TEST_CASE("tool error text is recognised with its reason", "[tool_error]") {
  struct Case {
    const char* text;
    const char* reason;
  } cases[] = {
      {"bash: npu-smi: command not found\n", "tool_missing"},
      {"sh: 1: lspci: not found\n", "tool_missing"},
      {"npu-smi: not found\n", "tool_missing"},
      {"not found\n", "tool_missing"},
      {"/usr/bin/python3: No module named pip\n", "tool_missing"},
      {"cat: /proc/1234/environ: Permission denied\n", "permission"},
      {"dmesg: read kernel buffer failed: Operation not permitted\n", "permission"},
      {"mokutil: must be root\n", "permission"},
      {"cat: /etc/ascend_install.info: No such file or directory", "source_missing"},
      {"ls: cannot access '/dev/davinci*': No such file or directory\n", "source_missing"},
      {"No journal files were found.\n", "source_missing"},
      {"modinfo: ERROR: Module drv_pcie_host not found.\n", "source_missing"},
      {"ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n", "tool_failed"},
      {"\n  cat: x: Permission denied  \r\n\n", "permission"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto e = detect_tool_error(c.text);
    REQUIRE(e);
    CHECK(e->reason == c.reason);
  }
  auto e = detect_tool_error("cat: /proc/1/environ: Permission denied\n");
  REQUIRE(e);
  CHECK(e->message == "cat: /proc/1/environ: Permission denied");
  CHECK(e->describe() == "permission: cat: /proc/1/environ: Permission denied");
}

TEST_CASE("real content is not a tool error", "[tool_error]") {
  const char* texts[] = {
      "",
      "\n\n",
      "Linux node1 5.10.0 #1 SMP aarch64 GNU/Linux\n",
      "epoch=1772366400\nutc=2026-03-01T12:00:00Z\n",
      // A log line mentioning an error among data.
      "[ERROR] RUNTIME(1234,python):2026-03-01-12:00:00.000.000 open failed: Permission denied\n"
      "[INFO] RUNTIME(1234,python):2026-03-01-12:00:01.000.000 retry ok\n",
      "Usage: npu-smi info [options]\n",  // a hint alone is no error
      "fd\ttarget\n3\t/dev/davinci0\n",
  };
  for (const char* t : texts) {
    INFO(t);
    CHECK_FALSE(detect_tool_error(t));
  }
  // Long outputs are data even when every line complains.
  std::string many;
  for (int i = 0; i < 9; ++i) many += "cat: f" + std::to_string(i) + ": Permission denied\n";
  CHECK_FALSE(detect_tool_error(many));
  std::string big = "cat: x: Permission denied\n" + std::string(5000, 'a');
  CHECK_FALSE(detect_tool_error(big));
  // NUL bytes mean binary or /proc records, never an error message.
  CHECK_FALSE(detect_tool_error(std::string("Permission denied\0x", 19)));
}

TEST_CASE("note_tool_error fills not_collected", "[tool_error]") {
  ParseStats s;
  CHECK(note_tool_error("bash: hccn_tool: command not found\n", s));
  CHECK(s.not_collected == "tool_missing: bash: hccn_tool: command not found");
  ParseStats t;
  CHECK_FALSE(note_tool_error("boot_id=1\n", t));
  CHECK(t.not_collected.empty());
}
