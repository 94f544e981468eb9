// Issue 36, facts anywhere: the plog reader offers its error lines (and lines of another
// shape at an error level) to the fact scanner (knowledge/fact-forms.tsv), so a code
// no plog form takes, as in the callback line below, is still among the entry's facts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "model/host_facts.h"
#include "parsers/common/entry_fact_scan.h"
#include "parsers/plog/plog_parser.h"

#include "bundle_test_util.h"

using namespace triage;

namespace {

std::vector<std::string> scanned(const std::string& entry) {
  std::vector<std::string> out;
  for (const auto& f : scanned_facts(entry)) out.push_back(f.key + "=" + f.value + "@" + std::to_string(f.evidence.line));
  return out;
}

}  // namespace

TEST_CASE("plog fact scan: error lines are scanned, warning, info and debug lines are not", "[plog][line-facts]") {
  // Line 2: tests/data/real/cann-docs-troubleshooting-memcpy-async-copy-failed-plog/plog.txt:7.
  // Line 5: corpus vllm-ascend-16683-glm52-d-node-plog-507015-aicore-exception (torch_npu's
  // own error line in a plog file: not the plog grammar, an error level of error-levels.tsv).
  const std::string text =
      "[INFO] RUNTIME(420723,msame):2022-08-17-04:49:06.339.000 [device.cc:10]420723 open: retcode:507099\n"
      "[ERROR] RUNTIME(420723,msame):2022-08-17-04:49:06.339.091 [callback.cc:91]420723 Notify:notify "
      "[_DEFAULT_MODEL_NAME_] task fail start.notify taskid:2 streamid:3 retcode:507011\n"
      "[DEBUG] RUNTIME(420723,msame):2022-08-17-04:49:06.339.100 [device.cc:10]420723 dev_id=6\n"
      "[WARNING] RUNTIME(420723,msame):2022-08-17-04:49:06.339.200 [device.cc:10]420723 chip_id=7\n"
      "[ERROR] 2026-09-10-08:52:41 (PID:289610, Device:1, RankID:-1) ERR00100 PTA call acl api failed\n";
  const std::string path = "plog-fact-scan-test/plog/plog-420723_20220817044906339.log";
  BundleFacts facts;
  testing::parse_into(facts, parse_plog, path, text);
  std::vector<std::string> got = scanned(path);
  auto has = [&](const std::string& s) { return std::find(got.begin(), got.end(), s) != got.end(); };
  for (const auto& g : got) INFO(g);
  CHECK(has("code=507011@2"));
  CHECK(has("code=ERR00100@5"));
  CHECK_FALSE(has("code=507099@1"));  // an INFO line: not scanned
  CHECK_FALSE(has("device=6@3"));     // a DEBUG line: not scanned
  CHECK_FALSE(has("chip=7@4"));       // a WARNING line: not scanned (a flood would pay a set pass a line)
}
