// The verdict end to end on the samples (load_evidence + correlate), as their descriptions
// say, and perturbations of the incident's facts (issue 13).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "ingest/load.h"
#include "correlator/correlate.h"

using namespace triage;

namespace {

EvidenceSet load(const std::vector<std::string>& samples) {
  std::vector<std::string> paths;
  for (const auto& s : samples) paths.push_back(std::string(SAMPLES_DIR) + "/" + s);
  return load_evidence(paths, AnalyzeOptions{}).evidence;
}

Report analyze(const EvidenceSet& e) { return correlate(e, AnalyzeOptions{}); }

std::vector<std::string> order(const Verdict& v) {
  std::vector<std::string> ids;
  for (const auto& h : v.ranked) ids.push_back(h.id);
  return ids;
}

const Hypothesis* ranked(const Verdict& v, std::string_view id) {
  for (const auto& h : v.ranked)
    if (h.id == id) return &h;
  return nullptr;
}

bool links_to(const std::vector<FindingLink>& links, std::string_view id) {
  return std::any_of(links.begin(), links.end(), [&](const FindingLink& l) { return l.id == id; });
}

bool mentions_dkms(std::string_view path) { return path.find("/updates/dkms/") != std::string_view::npos; }

// The host as if the old install had left nothing: no module links into a DKMS tree, no
// index entry or modprobe step through them, no DKMS state, no failed loads.
void remove_driver_residue(BundleFacts& b) {
  auto& m = b.modules;
  std::erase_if(m.files, [](const ModuleFile& f) { return f.is_link || mentions_dkms(f.path); });
  std::erase_if(m.dep_lines, [](const ModulesDepLine& d) { return mentions_dkms(d.path); });
  for (auto& r : m.resolutions)
    std::erase_if(r.steps, [](const ModprobeStep& s) { return mentions_dkms(s.path); });
  m.dkms.clear();
  m.dkms_tree_lines.clear();
  std::erase_if(b.logs.kernel_events, [](const KernelEvent& e) { return e.module_failure.has_value(); });
}

std::string why(const Verdict& v) {
  std::string s = v.summary + "\n";
  for (const auto& h : v.ranked) s += h.id + " " + std::to_string(h.score) + ": " + h.rationale + "\n";
  return s;
}

}  // namespace

TEST_CASE("verdict on the incident before the reboot: driver residue leads", "[verdict][samples]") {
  Report r = analyze(load({"incident-910b-before-reboot"}));
  const Verdict& v = r.verdict;
  INFO(why(v));
  REQUIRE(!v.ranked.empty());
  const Hypothesis& top = v.ranked.front();
  CHECK(top.id == "host-driver-installation");
  CHECK(top.confidence != Confidence::low);
  CHECK(links_to(top.supporting, "module-provenance/two-sets"));
  CHECK(links_to(top.consequences, "stream-stall"));
  CHECK(links_to(top.consequences, "observation-point"));
  CHECK(!links_to(top.supporting, "stream-stall"));  // a symptom, never support
  // The probes ran: the application is contradicted, and the summary says so.
  const Hypothesis* app = ranked(v, "application-code");
  REQUIRE(app);
  CHECK(app->score < 0);
  CHECK(links_to(app->contradicting, "probe-results/reproduces-outside-model"));
  CHECK(v.summary.find("application-code (contradicted by probe-results/reproduces-outside-model)") != std::string::npos);
  // Declared-compatible versions and firmware numbering are no mismatch.
  const Hypothesis* wheels = ranked(v, "cann-wheel-mismatch");
  CHECK((!wheels || (wheels->score < 0 && wheels->supporting.empty())));
  CHECK(!ranked(v, "mount-shadowing"));  // no mount: nothing bears on it
  CHECK(v.next_check.separates.rfind("host-driver-installation", 0) == 0);
  CHECK(!v.next_check.command.empty());
  CHECK(v.collect_more.empty());
}

TEST_CASE("verdict on the incident after the reboot: driver residue, high confidence, no hardware", "[verdict][samples]") {
  Report r = analyze(load({"incident-910b-after-reboot"}));
  const Verdict& v = r.verdict;
  INFO(why(v));
  const Hypothesis& top = v.ranked.front();
  CHECK(top.id == "host-driver-installation");
  CHECK(top.confidence == Confidence::high);
  CHECK(links_to(top.supporting, "driver-binding/load-failure"));
  // The 507033 probes follow from the missing device: a consequence, not evidence about RNG.
  CHECK(links_to(top.consequences, "probe-results/no-usable-device"));
  const Hypothesis* dev = ranked(v, "device-hardware");
  CHECK((!dev || dev->score <= 0));
}

TEST_CASE("verdict on both incident bundles of the host together", "[verdict][samples]") {
  Report r = analyze(load({"incident-910b-before-reboot", "incident-910b-after-reboot"}));
  INFO(why(r.verdict));
  CHECK(r.verdict.ranked.front().id == "host-driver-installation");
  CHECK(r.verdict.ranked.front().confidence == Confidence::high);
}

TEST_CASE("verdict on the healthy sample: no fault", "[verdict][samples]") {
  Report r = analyze(load({"healthy-first-step-compile"}));
  INFO(why(r.verdict));
  // "No fault found" stands alone: nothing ranked beside it, no collector command, and it
  // says what was read and what was not (this bundle has no probes).
  CHECK(r.verdict.ranked.empty());
  CHECK(r.verdict.summary.rfind("No fault found", 0) == 0);
  CHECK(r.verdict.summary.find("Read: a collector bundle, module state") != std::string::npos);
  CHECK(r.verdict.summary.find("Not in the input, so not known healthy: device probes.") != std::string::npos);
  CHECK(r.verdict.collect_more.empty());
  CHECK(r.verdict.next_check.command.empty());
  CHECK(r.verdict.reply == "No fault found: nothing in what was read is at warning or above.");
}

TEST_CASE("verdict on loose files: insufficient evidence, collect a bundle", "[verdict][samples]") {
  Report r = analyze(load({"incident-loose-files"}));
  const Verdict& v = r.verdict;
  INFO(why(v));
  CHECK(order(v) == std::vector<std::string>{"insufficient-evidence"});
  CHECK(links_to(v.ranked.front().supporting, "stream-stall"));
  REQUIRE(!v.collect_more.empty());
  CHECK(v.collect_more.front() == "sudo bash ascend-collect.sh --boots 3 --probes");
  CHECK(v.summary.find("Collect a bundle: sudo bash ascend-collect.sh --boots 3 --probes") != std::string::npos);
}

TEST_CASE("perturbation: the incident without stale links and Unknown symbol does not blame the driver", "[verdict][samples]") {
  for (auto samples : {std::vector<std::string>{"incident-910b-before-reboot"},
                       std::vector<std::string>{"incident-910b-after-reboot"},
                       std::vector<std::string>{"incident-910b-before-reboot", "incident-910b-after-reboot"}}) {
    EvidenceSet e = load(samples);
    for (auto& b : e.bundles) remove_driver_residue(b);
    Report r = analyze(e);
    INFO(samples.size() << " bundle(s), first " << samples.front() << "\n" << why(r.verdict));
    CHECK(r.verdict.ranked.front().id != "host-driver-installation");
    CHECK(!r.verdict.ranked.empty());
  }
}

TEST_CASE("perturbation: without probes, application code is not called unlikely", "[verdict][samples]") {
  EvidenceSet e = load({"incident-910b-before-reboot"});
  for (auto& b : e.bundles) b.devices.probes.clear();
  Report r = analyze(e);
  const Verdict& v = r.verdict;
  INFO(why(v));
  const Hypothesis* app = ranked(v, "application-code");
  CHECK((!app || (app->score >= 0 && app->contradicting.empty())));
  CHECK(v.summary.find("application-code") == std::string::npos);
  // Module residue still leads; the missing probes are named as a gap.
  CHECK(v.ranked.front().id == "host-driver-installation");
  const Hypothesis* gaps = ranked(v, "insufficient-evidence");
  REQUIRE(gaps);
  CHECK(gaps->rationale.find("no minimal probes") != std::string::npos);
}
