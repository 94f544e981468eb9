// The verdict on in-memory findings: the perturbations of issue 13 that need no bundle, and
// the checks `knowledge check` runs on the rules file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "correlator/passes/verdict.h"
#include "knowledge/finding_catalogue.h"
#include "knowledge/verdict_rules.h"
#include "ingest/knowledge_check.h"
#include "knowledge/knowledge.h"

using namespace triage;

namespace {

Finding make(std::string id, Severity s, std::string host = "node-a",
             std::vector<std::pair<std::string, std::string>> values = {}) {
  Finding f;
  f.id = std::move(id);
  f.severity = s;
  f.confidence = Confidence::high;
  f.host = std::move(host);
  f.title = f.id;
  f.values = std::move(values);
  return f;
}

// A bundle of `host` with every kind of evidence present except what `without` names.
EvidenceSet full_bundle(const std::string& host, const std::vector<std::string>& without = {}) {
  auto has = [&](std::string_view k) { return std::find(without.begin(), without.end(), k) == without.end(); };
  BundleFacts b;
  b.host = host;
  b.manifest.has_manifest_json = has("bundle");
  if (has("modules")) b.modules.files.push_back(ModuleFile{});
  if (has("versions")) b.libraries.driver_version = VersionFile{};
  if (has("processes")) b.processes.by_pid[1];
  if (has("probes")) b.devices.probes.push_back(ProbeResult{});
  if (has("kernel_log")) b.logs.kernel_events.push_back(KernelEvent{});
  EvidenceSet e;
  e.bundles.push_back(std::move(b));
  return e;
}

Verdict verdict_of(std::vector<Finding> findings, const EvidenceSet& e) {
  sort_findings(findings);
  return build_verdict(findings, e, AnalyzeOptions{});
}

const Hypothesis* ranked(const Verdict& v, std::string_view id) {
  for (const auto& h : v.ranked)
    if (h.id == id) return &h;
  return nullptr;
}

bool links_to(const std::vector<FindingLink>& links, std::string_view id) {
  return std::any_of(links.begin(), links.end(), [&](const FindingLink& l) { return l.id == id; });
}

std::vector<Finding> ranks_with_device_error(const std::string& device_time, const std::string& hccl_time,
                                             bool device_evidence = true) {
  std::vector<Finding> f = {
      // The exception's errorStr is hardware-visible (points_at=device): the device has its
      // own evidence; a bare exception alone names no cause (issue 36, below).
      make("device-exception/aicore-exception", Severity::error, "node-a",
           {{"kind", "aicore-exception"}, {"pid", "101"}, {"first_utc", device_time}, {"points_at", "device"}}),
      make("device-exception/hccl-timeout", Severity::error, "node-a",
           {{"kind", "hccl-timeout"}, {"pid", "102"}, {"first_utc", hccl_time}, {"observed_in_barrier", "no"},
            {"seen_as", "task-report"}}),
      make("device-exception/hccl-timeout", Severity::error, "node-b",
           {{"kind", "hccl-timeout"}, {"pid", "201"}, {"first_utc", hccl_time}, {"observed_in_barrier", "no"},
            {"seen_as", "task-report"}}),
      make("stream-stall", Severity::error, "node-b", {{"pid", "201"}, {"first_utc", hccl_time}}),
  };
  if (!device_evidence) f.front().values.pop_back();
  return f;
}

}  // namespace

TEST_CASE("verdict: one rank's device exception before HCCL timeouts ranks the device first", "[verdict]") {
  EvidenceSet e = full_bundle("node-a");
  e.bundles.push_back(full_bundle("node-b").bundles.front());
  Verdict v = verdict_of(ranks_with_device_error("2026-01-01T10:00:00.000000Z", "2026-01-01T10:00:30.000000Z"), e);
  REQUIRE(!v.ranked.empty());
  const Hypothesis& top = v.ranked.front();
  CHECK(top.id == "device-hardware");
  CHECK(top.host == "node-a");
  CHECK(links_to(top.supporting, "device-exception/aicore-exception"));
  // Both ranks' timeouts, including the other host's, are its consequences.
  size_t hccl = 0;
  for (const auto& l : top.consequences) hccl += l.id == "device-exception/hccl-timeout";
  CHECK(hccl == 2);
  CHECK(links_to(top.consequences, "stream-stall"));
  const Hypothesis* comm = ranked(v, "collective-communication");
  REQUIRE(comm);
  CHECK(comm->score < 0);
  CHECK(links_to(comm->contradicting, "device-exception/hccl-timeout"));
  CHECK(v.summary.find("Leading hypothesis on node-a") == 0);
}

TEST_CASE("verdict: HCCL timeouts with no earlier device error rank collective communication", "[verdict]") {
  EvidenceSet e = full_bundle("node-a");
  e.bundles.push_back(full_bundle("node-b").bundles.front());
  SECTION("the device error came after the timeouts") {
    Verdict v = verdict_of(ranks_with_device_error("2026-01-01T10:05:00.000000Z", "2026-01-01T10:00:30.000000Z", false), e);
    CHECK(v.ranked.front().id == "collective-communication");
    const Hypothesis* dev = ranked(v, "device-hardware");
    REQUIRE(dev);
    CHECK(!links_to(dev->consequences, "device-exception/hccl-timeout"));
  }
  SECTION("no device error at all") {
    auto f = ranks_with_device_error("", "2026-01-01T10:00:30.000000Z");
    f.erase(f.begin());
    Verdict v = verdict_of(f, e);
    CHECK(v.ranked.front().id == "collective-communication");
    CHECK(!ranked(v, "device-hardware"));
  }
  SECTION("timeouts that surfaced in a barrier: a late rank, not shown to be the communication") {
    auto f = ranks_with_device_error("", "2026-01-01T10:00:30.000000Z");
    f.erase(f.begin());
    for (auto& x : f)
      for (auto& [k, val] : x.values)
        if (k == "observed_in_barrier") val = "yes";
    Verdict v = verdict_of(f, e);
    CHECK(v.ranked.front().id == "insufficient-evidence");
    const Hypothesis* comm = ranked(v, "collective-communication");
    REQUIRE(comm);
    CHECK(comm->score == 10);
  }
  SECTION("a device error of unknown time may have come first: no claim either way") {
    Verdict v = verdict_of(ranks_with_device_error("", "2026-01-01T10:00:30.000000Z"), e);
    const Hypothesis* comm = ranked(v, "collective-communication");
    CHECK((!comm || comm->supporting.empty()));
    CHECK(v.ranked.front().id == "device-hardware");
    CHECK(!links_to(v.ranked.front().consequences, "device-exception/hccl-timeout"));
  }
}

// Issue 36: a symptom alone names no cause. One rank's collective timeout known only by its
// result code, or one compute exception without device-side evidence, ranks insufficient
// evidence first; the deciding evidence (the device's report of the stuck task; a
// hardware-visible errorStr or a lost heartbeat) makes the class lead again.
TEST_CASE("verdict: a symptom alone leads to insufficient evidence, its deciding evidence to the class", "[verdict]") {
  EvidenceSet e = full_bundle("node-a");
  SECTION("a collective timeout known only by its code (507048, EI0002)") {
    std::vector<Finding> f = {make("device-exception/hccl-timeout", Severity::error, "node-a",
                                   {{"kind", "hccl-timeout"}, {"observed_in_barrier", "no"}, {"seen_as", "code-only"}})};
    Verdict v = verdict_of(f, e);
    CHECK(v.ranked.front().id == "insufficient-evidence");
    const Hypothesis* comm = ranked(v, "collective-communication");
    REQUIRE(comm);
    CHECK(comm->score == 15);
    f.front().values.back().second = "task-report";
    CHECK(verdict_of(f, e).ranked.front().id == "collective-communication");
  }
  SECTION("a socket timeout by its message code (EI0006) against a failed set-up call") {
    std::vector<Finding> f = {make("collective/link-setup", Severity::error, "node-a", {{"seen_as", "code-only"}})};
    CHECK(verdict_of(f, e).ranked.front().id == "insufficient-evidence");
    f.front().values.front().second = "lines";
    CHECK(verdict_of(f, e).ranked.front().id == "collective-communication");
    f.front().values.emplace_back("connect_detect", "no-abnormal-period");
    CHECK(verdict_of(f, e).ranked.front().id == "insufficient-evidence");
  }
  SECTION("one compute exception without device-side evidence") {
    std::vector<Finding> f = {make("device-exception/aicore-timeout", Severity::error, "node-a",
                                   {{"kind", "aicore-timeout"}, {"points_at", ""}})};
    Verdict v = verdict_of(f, e);
    CHECK(v.ranked.front().id == "insufficient-evidence");
    const Hypothesis* dev = ranked(v, "device-hardware");
    REQUIRE(dev);
    CHECK(dev->score == 20);
    CHECK(v.next_check.separates.find("device-hardware") != std::string::npos);
    CHECK(v.next_check.command.find("npu-smi info -t health") != std::string::npos);
    f.push_back(make("device-exception/heartbeat-lost", Severity::critical, "node-a", {{"kind", "heartbeat-lost"}}));
    CHECK(verdict_of(f, e).ranked.front().id == "device-hardware");
  }
}

TEST_CASE("verdict: an unsupported wheel pair on a clean host ranks the mismatch first", "[verdict]") {
  std::vector<Finding> f = {
      make("version-matrix/torch-npu-cann", Severity::error, "node-a",
           {{"verdict", "incompatible"}, {"torch_npu", "2.8.0.post4"}, {"cann", "8.5.0"}}),
      make("stream-stall", Severity::error, "node-a", {{"first_utc", "2026-01-01T10:00:00.000000Z"}}),
      make("observation-point", Severity::warning, "node-a"),
  };
  Verdict v = verdict_of(f, full_bundle("node-a"));
  const Hypothesis& top = v.ranked.front();
  CHECK(top.id == "cann-wheel-mismatch");
  CHECK(links_to(top.supporting, "version-matrix/torch-npu-cann"));
  CHECK(links_to(top.consequences, "stream-stall"));
  CHECK(!ranked(v, "host-driver-installation"));
  // A declared-compatible pair contradicts it instead.
  f[0].values[0].second = "compatible";
  f[0].severity = Severity::info;
  Verdict ok = verdict_of(f, full_bundle("node-a"));
  CHECK(ok.ranked.front().id != "cann-wheel-mismatch");
}

TEST_CASE("verdict: a bind mount alone on a healthy job is a configuration warning", "[verdict]") {
  std::vector<Finding> f = {
      make("mount-shadowing", Severity::warning, "node-a", {{"mount_point", "/usr/local/Ascend/ascend-toolkit"}}),
      make("library-provenance", Severity::info, "node-a", {{"cann_installs", "1"}}),
      make("stream-stall/progressing", Severity::info, "node-a"),
  };
  Verdict v = verdict_of(f, full_bundle("node-a"));
  CHECK(v.ranked.front().id == "insufficient-evidence");
  const Hypothesis* m = ranked(v, "mount-shadowing");
  REQUIRE(m);
  CHECK(m->score > 0);
  CHECK(m->confidence == Confidence::low);  // the mapped CANN contradicts it as a cause
  CHECK(v.summary.find("not shown to cause the fault): mount-shadowing") != std::string::npos);
  CHECK(v.summary.find("Leading hypothesis") == std::string::npos);
}

TEST_CASE("verdict: a lone traceback is insufficient evidence and names the collector command", "[verdict]") {
  EvidenceSet e = full_bundle("", {"bundle", "modules", "versions", "processes", "probes", "kernel_log"});
  Verdict v = verdict_of({make("observation-point", Severity::warning, "")}, e);
  REQUIRE(v.ranked.size() == 1);
  CHECK(v.ranked.front().id == "insufficient-evidence");
  CHECK(links_to(v.ranked.front().supporting, "observation-point"));
  REQUIRE(!v.collect_more.empty());
  CHECK(v.collect_more.front() == "sudo bash ascend-collect.sh --boots 3 --probes");
  CHECK(v.next_check.command == "sudo bash ascend-collect.sh --boots 3 --probes");
  CHECK(v.summary.find("Insufficient evidence") == 0);
}

TEST_CASE("verdict: nothing at warning or above is no fault, not a cause", "[verdict]") {
  Verdict v = verdict_of({make("stream-stall/progressing", Severity::info)}, full_bundle("node-a"));
  CHECK(v.ranked.empty());  // it stands alone: no hypothesis, no collector command beside it
  CHECK(v.collect_more.empty());
  CHECK(v.summary.find("No fault found") == 0);
  CHECK(v.summary.find(" Read: a collector bundle") != std::string::npos);
}

TEST_CASE("verdict: links carry the sorted index of their finding", "[verdict]") {
  std::vector<Finding> f = {make("probe-results/all-pass", Severity::info), make("driver-binding/load-failure", Severity::critical),
                            make("module-provenance/two-sets", Severity::error)};
  sort_findings(f);
  Verdict v = build_verdict(f, full_bundle("node-a"), AnalyzeOptions{});
  for (const auto& h : v.ranked)
    for (const auto* links : {&h.supporting, &h.contradicting, &h.consequences})
      for (const auto& l : *links) {
        REQUIRE(l.index < f.size());
        CHECK(f[l.index].id == l.id);
        CHECK(!l.why.empty());
      }
  CHECK(v.ranked.front().id == "host-driver-installation");
  CHECK(v.ranked.front().confidence == Confidence::low);  // all-pass contradicts it
}

TEST_CASE("verdict rules: knowledge check rejects unknown ids and bad weights", "[verdict][knowledge]") {
  std::string bad = R"({"format": "ascend-triage-verdict", "hypotheses": [
      {"id": "gremlins", "title": "t", "does_not_prove": "d", "confirm": {"description": "x"}}],
    "rules": [
      {"hypothesis": "gremlins", "effect": "supports", "finding": "no-such-finding", "weight": 10, "why": "w"},
      {"hypothesis": "device-hardware", "effect": "supports", "finding": "stream-stall", "weight": "ten", "why": "w"},
      {"hypothesis": "device-hardware", "effect": "supports", "finding": "stream-stall", "weight": -5, "why": "w"},
      {"hypothesis": "device-hardware", "effect": "maybe", "finding": "stream-stall", "weight": 5, "why": "w"},
      {"hypothesis": "device-hardware", "effect": "supports", "missing": "crystal-ball", "weight": 5, "why": "w"}]})";
  KnowledgeCheck c = check_knowledge_file(bad, "verdict/hypotheses.json");
  auto has = [&](std::string_view text) {
    return std::any_of(c.problems.begin(), c.problems.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  CHECK(has("unknown hypothesis id gremlins"));
  CHECK(has("unknown finding id no-such-finding"));
  CHECK(has("weight has the wrong type or range"));  // "ten"
  CHECK(has("weight must be 0..100"));               // -5
  CHECK(has("effect must be"));
  CHECK(has("unknown coverage key crystal-ball"));
  CHECK(has("hypothesis host-driver-installation is not described"));
}

TEST_CASE("verdict rules: the built-in file and the finding texts pass their checks", "[verdict][knowledge]") {
  for (const auto& f : builtin_knowledge_files()) {
    if (f.name != kVerdictRulesFile && !f.name.starts_with("findings/")) continue;
    KnowledgeCheck c = check_knowledge_file(f.content, f.name);
    INFO(f.name);
    for (const auto& p : c.problems) UNSCOPED_INFO(p);
    CHECK(c.ok());
  }
  const VerdictRules& r = verdict_rules_for("");
  CHECK(r.errors.empty());
  std::vector<std::string> ids;
  for (const auto& h : r.hypotheses) ids.push_back(h.id);
  // Issue 21 added device-access and device-memory to the nine earlier causes.
  CHECK(ids == std::vector<std::string>{"host-driver-installation", "cann-wheel-mismatch", "environment-paths",
                                        "mount-shadowing", "stale-process-mappings", "device-hardware",
                                        "collective-communication", "device-access", "application-code",
                                        "device-memory", "insufficient-evidence"});
  CHECK(finding_catalogue_for("").size() >= 50);
}

TEST_CASE("verdict rules are data: --knowledge DIR replaces them", "[verdict][knowledge]") {
  std::string content;
  for (const auto& f : builtin_knowledge_files())
    if (f.name == kVerdictRulesFile) content = f.content;
  const std::string key = "\"leading_min_score\": 30";
  REQUIRE(content.find(key) != std::string::npos);
  content.replace(content.find(key), key.size(), "\"leading_min_score\": 1000");
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "ascend-triage-verdict-rules-test";
  fs::create_directories(dir / "verdict");
  std::ofstream(dir / "verdict" / "hypotheses.json") << content;
  std::vector<Finding> f = {make("driver-binding/load-failure", Severity::critical),
                            make("module-provenance/two-sets", Severity::error)};
  sort_findings(f);
  CHECK(build_verdict(f, full_bundle("node-a"), AnalyzeOptions{}).ranked.front().id == "host-driver-installation");
  AnalyzeOptions options;
  options.knowledge_dir = dir.string();
  Verdict v = build_verdict(f, full_bundle("node-a"), options);
  CHECK(v.ranked.front().id == "insufficient-evidence");  // nothing reaches 1000
  CHECK(v.ranked.front().rationale.find("leading score 1000") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("verdict summary: an unlikely hypothesis is named once, with its host count", "[verdict]") {
  // Six nodes, each with a declared torch/torch_npu/CANN pair (contradicts cann-wheel-mismatch)
  // and the same module residue: the summary said "cann-wheel-mismatch (contradicted by ...)" six times.
  std::vector<Finding> f;
  EvidenceSet e;
  for (int i = 1; i <= 6; ++i) {
    std::string host = "node-" + std::to_string(i);
    f.push_back(make("module-provenance/two-sets", Severity::error, host));
    f.push_back(make("version-matrix/torch-npu-cann", Severity::info, host, {{"verdict", "compatible"}}));
    EvidenceSet one = full_bundle(host);
    e.bundles.push_back(std::move(one.bundles.front()));
  }
  Verdict v = verdict_of(f, e);
  INFO(v.summary);
  size_t first = v.summary.find("cann-wheel-mismatch (contradicted by");
  if (first != std::string::npos) {
    CHECK(v.summary.find("cann-wheel-mismatch (contradicted by", first + 1) == std::string::npos);
    CHECK(v.summary.find(", on 6 hosts)") != std::string::npos);
  } else {
    FAIL_CHECK("cann-wheel-mismatch is not named as unlikely: the rule's values changed?");
  }
}
