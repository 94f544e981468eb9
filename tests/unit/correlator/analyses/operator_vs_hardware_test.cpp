// Operator vs hardware (issue 36) on in-memory facts: the side an errorStr makes visible comes
// from knowledge/error-str-sides.tsv (verbatim runtime texts of the corpus decide, near misses
// name no side), and the spread of one compute fault over chips and nodes is a value of the
// finding (several within 60 s, not one chip twice, not an hour apart, not without a time).
#include <catch2/catch.hpp>

#include "correlator/analyses/device_exception.h"
#include "knowledge/error_str_sides.h"
#include "model/time.h"

#include "analysis_test_support.h"

using namespace triage;

namespace {

const ErrorStrSides& table() { return error_str_sides_for(""); }

std::string side_of(std::string_view text) {
  const ErrorStrSide* s = table().of(text);
  return s ? s->side : "none";
}

// One AI Core exception line of process `pid` on `chip` at `utc_us` (0 = no time).
void add_exception(BundleFacts& b, int64_t pid, int64_t chip, int64_t utc_us, std::string error_str = "") {
  SignatureHit h;
  h.id = "device-exception/aicore-error";
  h.pid = pid;
  h.captures = {{"chip", std::to_string(chip)}, {"unit2", "aicore"}};
  h.evidence = make_evidence("plog-" + std::to_string(pid) + ".log", 3, 0, "the error is aicore error");
  if (utc_us) {
    h.time.civil = civil_from_utc_us(utc_us);
    h.time.valid = true;
    h.time.time = Timestamp{utc_us, TimeBasis::utc_in_source, ""};
  }
  b.logs.signature_hits.push_back(h);
  if (error_str.empty()) return;
  SignatureHit e;
  e.id = "device-exception/error-str";
  e.pid = pid;
  e.captures = {{"error_str", std::move(error_str)}};
  e.evidence = make_evidence("plog-" + std::to_string(pid) + ".log", 4, 0, "errorStr");
  b.logs.signature_hits.push_back(e);
}

std::vector<Finding> run_set(const std::vector<BundleFacts>& bundles) {
  EvidenceSet set;
  for (const auto& b : bundles) set.bundles.push_back(b);
  std::vector<Finding> out;
  analyze_device_exception(testing::context_for(set), out);
  return out;
}

std::string value(const Finding& f, std::string_view key) {
  const std::string* v = f.find_value(key);
  return v ? *v : "(none)";
}

constexpr int64_t kT0 = 1789000000LL * 1000000;  // 2026-09-09, any instant

}  // namespace

TEST_CASE("error-str sides: verbatim runtime texts of the corpus and near misses", "[operator_vs_hardware]") {
  // ptoas-372, ptoas-426 (tests/data/real), the shared reference excerpts.
  CHECK(side_of("VEC instruction error: the ub address out of bounds") == "software");
  CHECK(side_of("The DDR address of the MTE instruction is out of range") == "software");
  CHECK(side_of("VEC supports illegal configurations in commands") == "software");
  CHECK(side_of("The CUBE instruction parameter is invalid") == "software");
  CHECK(side_of("Illegal instruction, which is usually caused by unaligned UUB addresses, fixp_error0") == "software");
  CHECK(side_of("open so failed") == "software");
  // Texts that name no side stay neither, whatever general phrase they also hold.
  CHECK(side_of("timeout or trap error") == "neither");
  CHECK(side_of("When the D-cache reads and writes data to the UB, the response value returned by the bus is a "
                "non-zero value") == "neither");
  CHECK(side_of("An exception occurs on the BIU, for example, tag_id error or FIFO overflow.") == "neither");
  // The device's own memories and checks.
  CHECK(side_of("A 2-bit ECC error occurs in the VEC issue queue.") == "hardware");
  CHECK(side_of("The data read from the MTE internal FIFO is incorrect.") == "hardware");
  CHECK(side_of("stress detect feature abnormal") == "hardware");
  // Near misses: case, other words, register names that are not the decoded text.
  CHECK(side_of("OUT OF RANGE") == "none");
  CHECK(side_of("ecc en: 0x0, mte ccu ecc 1bit error: 0x0") == "none");
  CHECK(side_of("NPU out of memory. Tried to allocate 386.00 MiB") == "none");
  CHECK(side_of("") == "none");
}

TEST_CASE("error-str sides: the loader refuses a sample its own row does not classify", "[operator_vs_hardware]") {
  std::vector<std::string> errors;
  const std::string head = "phrase\tside\tmeaning\tsample\tsource\n";
  auto t = parse_error_str_sides(head + "out of\tsoftware\tm\tout of bounds\ts\nout of bounds\tsoftware\tm\tub out of bounds\ts\n",
                                 "t.tsv", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("t.tsv:3: sample 'ub out of bounds' is classified by the earlier phrase 'out of'") == 0);
  errors.clear();
  parse_error_str_sides(head + "x\tfirmware\tm\tx\ts\ny\tsoftware\tm\tz\ts\n", "t.tsv", errors);
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].find("t.tsv:2: side 'firmware'") == 0);
  CHECK(errors[1].find("t.tsv:3: sample 'z' is classified by no row") == 0);
}

TEST_CASE("device-exception: the errorStr's side sets points_at and the words", "[operator_vs_hardware]") {
  BundleFacts op, hw, neither;
  add_exception(op, 7, 0, kT0, "The DDR address of the MTE instruction is out of range");
  add_exception(hw, 7, 0, kT0, "A 2-bit ECC error occurs in the VEC issue queue");
  add_exception(neither, 7, 0, kT0, "timeout or trap error");
  auto o = testing::run_analysis(analyze_device_exception, op);
  auto h = testing::run_analysis(analyze_device_exception, hw);
  auto n = testing::run_analysis(analyze_device_exception, neither);
  REQUIRE((o.size() == 1 && h.size() == 1 && n.size() == 1));
  CHECK(value(o[0], "points_at") == "operator");
  CHECK(value(o[0], "error_str_side") == "software");
  CHECK(value(o[0], "device") == "0");
  CHECK(o[0].does_not_prove.find("That the kernel's source is wrong") == 0);
  CHECK(o[0].does_not_prove.find("an ECC or RAS event") != std::string::npos);
  CHECK(value(h[0], "points_at") == "device");
  CHECK(h[0].supports.find("multi-bit ECC, parity or CRC") != std::string::npos);
  CHECK(value(n[0], "points_at") == "");
  CHECK(value(n[0], "error_str_side") == "neither");
  CHECK(n[0].observed.find("names neither the operator nor the device") != std::string::npos);
}

TEST_CASE("device-exception: the spread of one fault over chips and nodes", "[operator_vs_hardware]") {
  SECTION("two chips of one host within seconds") {
    BundleFacts b;
    add_exception(b, 7, 0, kT0);
    add_exception(b, 8, 1, kT0 + 2'000'000);
    auto out = run_set({b});
    REQUIRE(out.size() == 2);
    for (const auto& f : out) {
      CHECK(value(f, "spread") == "several-chips");
      CHECK(value(f, "spread_places") == "2");
    }
    CHECK(out[0].observed.find("hit 1 other place(s) within 60 s: device 1") != std::string::npos);
  }
  SECTION("near miss: the same two chips an hour apart") {
    BundleFacts b;
    add_exception(b, 7, 0, kT0);
    add_exception(b, 8, 1, kT0 + 3600'000'000LL);
    for (const auto& f : run_set({b})) CHECK(value(f, "spread") == "one-chip");
  }
  SECTION("near miss: one process reported twice is one chip, not two") {
    BundleFacts b;
    add_exception(b, 7, 0, kT0);
    ErrorCodeFact e;  // the same process's AI Core timeout without a chip: placed on its chip
    e.code = "507014";
    e.origin.pid = 7;
    e.time.civil = civil_from_utc_us(kT0 + 1000);
    e.time.valid = true;
    e.time.time = Timestamp{kT0 + 1000, TimeBasis::utc_in_source, ""};
    e.evidence = make_evidence("plog-7.log", 5, 0, "ErrCode=507014");
    b.logs.error_codes.push_back(e);
    auto out = run_set({b});
    REQUIRE(out.size() == 2);
    for (const auto& f : out) CHECK(value(f, "spread") == "one-chip");
  }
  SECTION("two nodes within seconds") {
    BundleFacts a, c;
    a.host = "node0";
    c.host = "node3";
    add_exception(a, 7, 0, kT0);
    add_exception(c, 9, 0, kT0 + 5'000'000);
    auto out = run_set({a, c});
    REQUIRE(out.size() == 2);
    for (const auto& f : out) CHECK(value(f, "spread") == "several-nodes");
  }
  SECTION("near miss: no time, no claim") {
    BundleFacts b;
    add_exception(b, 7, 0, 0);
    add_exception(b, 8, 1, 0);
    for (const auto& f : run_set({b})) {
      CHECK(value(f, "spread") == "");
      CHECK(value(f, "spread_places") == "");
    }
  }
}
