// `ascend-triage baseline` and `diff` (issue 24, docs/diff.md) on the samples: the baseline
// document against docs/schemas/baseline.schema.json and back, the incident against the host
// after its clean reinstall (the stale module set first, cited and breaking), and the control
// of a consistent upgrade (changes, none breaking).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "compare/baseline_read.h"
#include "compare/chain_build.h"
#include "compare/chain_diff.h"
#include "compare/chain_items.h"
#include "correlator/correlate.h"
#include "ingest/load.h"
#include "jsonschema/schema.h"
#include "knowledge/version_tables.h"
#include "reports/chain_render.h"
#include "samples_support.h"

using namespace triage;
using samples_test::sample_path;

namespace {

struct Loaded {
  Chain chain;
  std::vector<Finding> findings;
};

const Loaded& sample(const std::string& name) {
  static std::map<std::string, Loaded> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  AnalyzeOptions options;
  auto loaded = load_evidence({sample_path(name).string()}, options);
  REQUIRE(loaded.errors.empty());
  std::vector<std::string> errors;
  Loaded l{build_chain(loaded.evidence.bundles.front(), chain_selection_for("", errors)),
           correlate(loaded.evidence, options).findings};
  REQUIRE(errors.empty());
  return cache.emplace(name, std::move(l)).first->second;
}

std::string baseline_text(const Chain& c) {
  std::ostringstream out;
  render_baseline_json(c, out);
  return out.str();
}

std::vector<std::string> schema_violations(const std::string& json) {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/../docs/schemas/baseline.schema.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> errors;
  auto schema = jsonschema::Schema::compile(text, errors);
  for (const auto& e : errors) UNSCOPED_INFO(e);
  REQUIRE(schema);
  std::vector<std::string> out;
  for (const auto& v : schema->validate(json)) out.push_back(v.to_string());
  return out;
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<std::pair<std::string, std::string>> item_values(const Chain& c) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& i : chain_items(c)) out.emplace_back(i.item, i.value);
  return out;
}

ChainVersion* version(Chain& c, std::string_view component) {
  for (auto& v : c.versions)
    if (v.component == component) return &v;
  return nullptr;
}

}  // namespace

TEST_CASE("healthy-after-reinstall: analyze raises nothing at warning or above", "[diff][samples]") {
  for (const auto& f : sample("healthy-after-reinstall").findings) {
    INFO(f.id << ": " << f.title);
    CHECK(f.severity < Severity::warning);
  }
}

TEST_CASE("baseline: the samples' baselines are valid and read back to the same chain", "[diff]") {
  for (const char* name : {"healthy-after-reinstall", "incident-910b-before-reboot", "healthy-first-step-compile"}) {
    INFO(name);
    const Chain& c = sample(name).chain;
    std::string text = baseline_text(c);
    auto v = schema_violations(text);
    for (const auto& x : v) UNSCOPED_INFO(x);
    CHECK(v.empty());
    Chain back;
    std::string error;
    REQUIRE(read_baseline(write_temp(std::string(name) + ".baseline.json", text), back, error));
    CHECK(item_values(back) == item_values(c));
    CHECK(baseline_text(back).find("\"modules\"") != std::string::npos);
  }
}

TEST_CASE("baseline: the chain of healthy-after-reinstall holds one consistent module set", "[diff]") {
  const Chain& c = sample("healthy-after-reinstall").chain;
  CHECK(c.kernel_release == "5.15.0-119-generic");
  REQUIRE(c.modules.size() == 18);
  for (const auto& m : c.modules) {
    INFO(m.name);
    REQUIRE(m.files.size() == 1);
    CHECK(m.files[0].path.find("/updates/dkms/") == std::string::npos);
    CHECK(m.resident);
    CHECK(m.resident_build_id == m.files[0].build_id);
    CHECK(m.next_load == m.files[0].path);
  }
  REQUIRE(c.processes.size() == 1);
  CHECK(c.processes[0].key == "python3 train.py");
  CHECK_FALSE(c.processes[0].libraries.empty());
  bool has_home = false;
  for (const auto& [k, v] : c.processes[0].environment) has_home |= k == "ASCEND_HOME_PATH";
  CHECK(has_home);
}

TEST_CASE("baseline: a schema violation is found at its path", "[diff]") {
  std::string text = baseline_text(sample("healthy-after-reinstall").chain);
  std::string wrong = text;
  size_t at = wrong.find("\"pid\": ");
  REQUIRE(at != std::string::npos);
  wrong.replace(at, 7, "\"pid\": \"x\", \"_\": ");
  auto v = schema_violations(wrong);
  REQUIRE_FALSE(v.empty());
  CHECK(v[0].find("/processes/0") != std::string::npos);
}

TEST_CASE("baseline: unreadable or foreign files are errors naming the file", "[diff]") {
  Chain c;
  std::string error;
  std::string text = baseline_text(sample("healthy-after-reinstall").chain);
  std::string cut = write_temp("cut.baseline.json", text.substr(0, text.size() / 2));
  CHECK(looks_like_baseline(text.substr(0, 200)));
  CHECK_FALSE(read_baseline(cut, c, error));
  CHECK(error.starts_with(cut + ": not valid JSON"));
  std::string other = text;
  other.replace(other.find("ascend-triage-baseline/1"), 24, "ascend-triage-baseline/9");
  std::string path = write_temp("v9.baseline.json", other);
  CHECK_FALSE(read_baseline(path, c, error));
  CHECK(error == path + ": not a valid baseline: /schema: \"ascend-triage-baseline/9\" is not ascend-triage-baseline/1");
  std::string no_modules = text;
  no_modules.replace(no_modules.find("\"modules\""), 9, "\"modulez\"");
  path = write_temp("nomod.baseline.json", no_modules);
  CHECK_FALSE(read_baseline(path, c, error));
  CHECK(error == path + ": not a valid baseline: /: missing \"modules\"");
  CHECK_FALSE(read_baseline("/nonexistent/base.json", c, error));
  CHECK(error == "/nonexistent/base.json: cannot open");
  CHECK_FALSE(looks_like_baseline("[1, 2]"));
  CHECK_FALSE(looks_like_baseline("{\"schema\": \"ascend-triage-report\"}"));
}

TEST_CASE("diff: the incident against the reinstalled host puts the stale module set first", "[diff]") {
  const Loaded& base = sample("healthy-after-reinstall");
  const Loaded& cur = sample("incident-910b-before-reboot");
  ChainDiff d = diff_chains(base.chain, cur.chain, cur.findings, version_tables_for(""));
  REQUIRE(d.changes.size() > 20);
  // The first changes are the modules the findings cite: the dkms links, and the resident
  // copies whose build ids are the stale set's.
  size_t cited = 0;
  while (cited < d.changes.size() && !d.changes[cited].cited_by.empty()) ++cited;
  REQUIRE(cited >= 18);
  size_t links = 0, resident = 0, modules = 0;
  while (modules < cited && d.changes[modules].layer == ChainLayer::modules) ++modules;
  CHECK(modules == 48);  // 18 links, 18 resident copies, 12 next loads into updates/dkms
  for (size_t i = 0; i < modules; ++i) {
    const ChainChange& c = d.changes[i];
    INFO(c.item);
    CHECK(c.breaking);
    CHECK(c.why.starts_with("cited by finding module-provenance"));
    if (c.item.find("/updates/dkms/") != std::string::npos) {
      CHECK(c.before.empty());
      CHECK(c.after.starts_with("link -> /var/lib/dkms/davinci_ascend/1.0/"));
      ++links;
    }
    if (c.item.ends_with(" resident")) ++resident;
  }
  CHECK(links == 18);
  CHECK(resident >= 12);
  // Nothing after the cited part is cited, and the rest keeps chain order by layer.
  for (size_t i = cited + 1; i < d.changes.size(); ++i) CHECK(d.changes[i - 1].layer <= d.changes[i].layer);
  // CANN 8.5.0 is still installed on the incident host: a change, not cited.
  bool old_cann = false;
  for (size_t i = cited; i < d.changes.size(); ++i)
    old_cann |= d.changes[i].item == "CANN toolkit /usr/local/Ascend/cann-8.5.0";
  CHECK(old_cann);
  CHECK(d.process_matching.find("never by pid") != std::string::npos);
}

TEST_CASE("diff: a chain against itself or its own baseline has no change", "[diff]") {
  const Loaded& s = sample("incident-910b-before-reboot");
  CHECK(diff_chains(s.chain, s.chain, s.findings, version_tables_for("")).changes.empty());
  Chain back;
  std::string error;
  REQUIRE(read_baseline(write_temp("self.baseline.json", baseline_text(s.chain)), back, error));
  CHECK(diff_chains(back, s.chain, s.findings, version_tables_for("")).changes.empty());
}

TEST_CASE("diff: processes are paired by script, not pid; the options are a change", "[diff]") {
  const Loaded& base = sample("healthy-after-reinstall");
  const Loaded& cur = sample("incident-910b-before-reboot");
  REQUIRE(base.chain.processes.size() == 1);
  REQUIRE(cur.chain.processes.size() == 1);
  CHECK(base.chain.processes[0].pid != cur.chain.processes[0].pid);
  CHECK(base.chain.processes[0].key == "python3 train.py");
  ChainDiff d = diff_chains(base.chain, cur.chain, cur.findings, version_tables_for(""));
  std::vector<const ChainChange*> procs;
  for (const auto& c : d.changes)
    if (c.layer == ChainLayer::processes) procs.push_back(&c);
  // Same libraries, environment and mounts: only the command line (the reduced experiment).
  REQUIRE(procs.size() == 1);
  CHECK(procs[0]->item == "process python3 train.py");
  CHECK(procs[0]->before == "python3 train.py --config configs/retina_r50_coco.yaml --device npu:0");
  CHECK(procs[0]->after.find("--amp False") != std::string::npos);
}

TEST_CASE("diff: a consistent upgrade changes versions and breaks nothing (control)", "[diff]") {
  // BASELINE: the reinstalled host as it was before, on driver 25.5.1, firmware 7.8.0.6.201
  // and CANN 8.5.0 (the incident's first, working combination); CURRENT: the host now.
  const Loaded& cur = sample("healthy-after-reinstall");
  Chain old = cur.chain;
  ChainVersion* drv = version(old, "driver");
  ChainVersion* fw = version(old, "firmware");
  REQUIRE(drv);
  REQUIRE(fw);
  drv->version = "25.5.1";
  fw->version = "7.8.0.6.201";
  for (auto& v : old.versions)
    if (v.component.starts_with("cann:")) v.version = "8.5.0";
  ChainDiff d = diff_chains(old, cur.chain, cur.findings, version_tables_for(""));
  CHECK(d.changes.size() >= 3);
  for (const auto& c : d.changes) {
    INFO(c.item << ": " << c.before << " -> " << c.after << " " << c.why);
    CHECK(c.layer == ChainLayer::versions);
    CHECK_FALSE(c.breaking);
    // version-matrix's info findings ("compatible") may cite them: cited is not breaking.
    for (const auto& id : c.cited_by) CHECK(id.starts_with("version-matrix/"));
  }
  // A torch the tables do not pair with CURRENT's torch_npu is breaking, without any finding.
  Chain bad = cur.chain;
  bool moved = false;
  for (auto& w : bad.wheels)
    if (w.name == "torch" && w.scope == "process python3 train.py") w.version = "2.1.0", moved = true;
  REQUIRE(moved);
  ChainDiff b = diff_chains(cur.chain, bad, {}, version_tables_for(""));
  REQUIRE(b.changes.size() == 1);
  INFO(b.changes[0].item << " " << b.changes[0].why);
  CHECK(b.changes[0].item == "wheel torch (process python3 train.py)");
  CHECK(b.changes[0].breaking);
  CHECK(b.changes[0].why.starts_with("version tables: table 1.1 pairs torch_npu 2.9.0.post6 with PyTorch 2.9.0"));
}
