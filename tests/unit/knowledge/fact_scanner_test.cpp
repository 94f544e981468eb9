// knowledge/fact-forms.tsv (issue 36, "facts anywhere"): the built-in forms load clean, each
// gives its sample's value and not its near miss's; the scanner finds codes, pids, devices,
// ranks and peers in lines of every kind, prefixed or not, and nothing in lines without one;
// a broken row names its file and line.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "knowledge/fact_scanner.h"

using namespace triage;

namespace {

using Facts = std::vector<std::pair<std::string, std::string>>;

Facts scan(std::string_view line) {
  Facts out;
  builtin_fact_scanner().each(line, [&](std::string_view k, std::string_view v) {
    out.emplace_back(std::string(k), std::string(v));
  });
  return out;
}

bool has(const Facts& f, const std::string& k, const std::string& v) {
  for (const auto& [a, b] : f)
    if (a == k && b == v) return true;
  return false;
}

}  // namespace

TEST_CASE("fact forms: the built-in rows load and give their samples' values", "[fact-scanner]") {
  const auto& s = builtin_fact_scanner();
  REQUIRE(s.forms().size() >= 15);
  for (const auto& f : s.forms()) {
    INFO(f.where << ": " << f.sample);
    CHECK(has(scan(f.sample), f.key, f.value));
    CHECK_FALSE(RE2::PartialMatch(f.near_miss, *f.pattern));
  }
}

TEST_CASE("fact forms: values in lines of any kind, prefixed or not", "[fact-scanner]") {
  // launcher-prefixed runtime lines (vLLM's EngineCore)
  auto a = scan("(EngineCore pid=118)         drv devId is invalid, drv devId=0, retCode=0x7020010[FUNC:SetDefaultDeviceId]");
  CHECK(has(a, "pid", "118"));
  CHECK(has(a, "device", "0"));
  CHECK(has(a, "code", "0x7020010"));
  // the device task daemon's exception header and its error code
  auto b = scan("DEVICE[0] PID[358]: ");
  CHECK(has(b, "device", "0"));
  CHECK(has(b, "pid", "358"));
  CHECK(has(scan("    Other info[0]:time=2024-05-10-10:44:52.267.860, function=int_process_hwts_task_exception, line=296, error code=0x26"),
            "code", "0x26"));
  // a CANN report header and its frames
  auto c = scan("E39999: 2024-10-20-22:34:40.965.193  The error from device(chipId:0, dieId:0), serial number is 3, "
                "an exception occurred during AICPU execution, stream_id:2, task_id:19016, errcode:21008");
  CHECK(has(c, "code", "E39999"));
  CHECK(has(c, "chip", "0"));
  CHECK(has(scan("        AICPU Kernel task happen error, retCode=0x2a.[FUNC:GetError][FILE:stream.cc]"), "code", "0x2a"));
  // a plog header of any module, pids in prose forms
  CHECK(has(scan("[ERROR] RUNTIME(38734,python3):2024-03-05-11:02:13.563.131 [stream.cc:1062]"), "pid", "38734"));
  CHECK(has(scan("worker exited: [pid=358] signal 9"), "pid", "358"));
  CHECK(has(scan("killed process (pid=358)"), "pid", "358"));
  CHECK(has(scan("PID: 358 exited with code 1"), "pid", "358"));
  // ids in their several spellings
  CHECK(has(scan("set device 4 failed"), "device", "4"));
  CHECK(has(scan("deviceId=4, result=507033"), "device", "4"));
  CHECK(has(scan("dev_id:4 not ready"), "device", "4"));
  CHECK(has(scan("chip 1 is abnormal"), "chip", "1"));
  CHECK(has(scan("rank 7 timed out"), "rank", "7"));
  CHECK(has(scan("rank_id=7, localRank 3"), "rank", "7"));
  CHECK(has(scan("localRank 3 failed"), "rank", "3"));
  CHECK(has(scan("connect to 10.0.0.2:60001 failed"), "peer", "10.0.0.2:60001"));
  CHECK(has(scan("EI0006: Getting socket times out. Reason: Remote Rank did not send the data in time."), "code", "EI0006"));
  CHECK(has(scan("NPU function error: call aclnnAdd failed, error code is 561103"), "code", "561103"));
  CHECK(has(scan("torch_npu 2.1.0.post3 with CANN 8.0.RC2"), "version", "8.0.RC2"));
}

TEST_CASE("fact forms: lines without a fact give nothing", "[fact-scanner]") {
  for (const char* l : {"steps: 110 loss: 1.9161 iter time (s): 0.580 samples/sec: 441.545",
                        "INFO 11-26 22:57:04 selector.py:183] Using ASCEND backend.", "8 devices found",
                        "rankSize:4", "step 507011 of 600000 done", "NPU 910B3 detected", "core dumped", ""}) {
    INFO(l);
    CHECK_FALSE(builtin_fact_scanner().any(l));
    CHECK(scan(l).empty());
  }
}

TEST_CASE("fact forms: a broken row names its file and line, the others still load", "[fact-scanner]") {
  std::string table =
      "# test\n"
      "key\tpattern\tsample\tvalue\tnear_miss\tsource\n"
      "pid\t\\bpid=\\d+\tpid=3\t3\tno\tx\n"              // line 3: no group
      "pid\t\\bpid=(\\d+)\tpid=3\t4\tno\tx\n"            // line 4: gives 3, not 4
      "pid\t\\bpid=(\\d+)\tpid=3\t3\tpid=5\tx\n"         // line 5: near miss matches
      "pid\t\\bpid=(\\d+)\tpid=3\t3\tpids=5\tx\n";       // line 6: good
  std::vector<std::string> errors;
  auto forms = parse_fact_forms(table, "fact-forms.tsv", errors);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].starts_with("fact-forms.tsv:3: pattern needs exactly one capture group"));
  CHECK(errors[1] == "fact-forms.tsv:4: sample gives '3', not '4'");
  CHECK(errors[2] == "fact-forms.tsv:5: pattern matches its near miss");
  REQUIRE(forms.size() == 1);
  CHECK(forms[0].where == "fact-forms.tsv:6");
}
