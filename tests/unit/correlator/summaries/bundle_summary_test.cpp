// The bundle summary on tests/data/summary-bundle, whose manifest holds every status: what
// `analyze` prints first, in text and JSON. The bundle is read here file by file with the
// kinds its layout paths name (the input stage's classifier is tested on its own).
#include <nettle/sha2.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "correlator/summaries/bundle_summary.h"
#include "model_test_support.h"
#include "ingest/finalize.h"
#include "reports/render.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

const std::map<std::string, SourceKind> kLayout = {
    {"manifest.json", SourceKind::manifest_json},
    {"manifest.items.jsonl", SourceKind::manifest_items_jsonl},
    {"system/uname.txt", SourceKind::uname},
    {"system/os-release", SourceKind::os_release},
    {"system/cmdline", SourceKind::kernel_cmdline},
    {"system/time.txt", SourceKind::time_txt},
    {"system/localtime.tzif", SourceKind::localtime_tzif},
    {"system/boot.txt", SourceKind::boot_txt},
    {"kernel/syslog/messages", SourceKind::syslog},
    {"processes/4242/cmdline", SourceKind::proc_cmdline},
    {"processes/4242/environ", SourceKind::proc_environ},
    {"processes/4242/stat", SourceKind::proc_stat},
    {"processes/4242/tz.txt", SourceKind::proc_tz_txt},
    {"processes/4242/fd.tsv", SourceKind::proc_fd_tsv},
};

std::string sha256_hex(const std::string& data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) out += kHex[b >> 4], out += kHex[b & 15];
  return out;
}

// Reads the test bundle as the input stage would: inventory entries with size and sha256,
// each parsed by its kind's parser, then finalized.
BundleFacts load_summary_bundle(const AnalyzeOptions& options) {
  const fs::path root = fs::path(TEST_DATA_DIR) / "data" / "summary-bundle";
  BundleFacts facts;
  facts.input = "tests/data/summary-bundle";
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    InventoryEntry& e = facts.inventory.entries.emplace_back();
    e.info.input = facts.input;
    e.info.path = fs::relative(f, root).generic_string();
    e.info.display = e.info.path;
    e.info.size = data.size();
    e.sha256 = sha256_hex(data);
    auto kind = kLayout.find(e.info.path);
    REQUIRE(kind != kLayout.end());
    e.kind = kind->second;
    if (ParseFn fn = parser_for(e.kind)) {
      ParseContext ctx{e.info, facts, e.stats, options};
      StringSource src(data);
      fn(ctx, src);
    }
  }
  finalize_facts(facts, options);
  return facts;
}

// A report with only what correlate() puts there for every bundle: its summary.
Report summaries_only(const EvidenceSet& set) {
  Report r;
  for (const auto& b : set.bundles) r.bundles.push_back(summarize_bundle(b));
  return r;
}

}  // namespace

TEST_CASE("summary: host, time, zone, collector and every manifest status", "[summary]") {
  AnalyzeOptions options;
  BundleFacts facts = load_summary_bundle(options);
  CHECK(facts.input_findings.empty());  // every size and sha256 matches the manifest
  BundleSummary s = summarize_bundle(facts);

  CHECK(s.host == "node-07");
  CHECK(s.host_origin == "manifest.json host");
  CHECK(s.os == "openEuler 22.03 (LTS-SP1)");
  CHECK(s.kernel_release == "5.10.0-136.12.0.86.oe2203sp1.aarch64");
  CHECK(s.boot_id == "3f1c2a9e-8b7d-4c6e-9f01-23456789abcd");
  REQUIRE(s.collected_at_us);
  CHECK(format_utc(*s.collected_at_us) == "2026-03-01T12:00:00Z");
  CHECK(s.collected_at_origin == "manifest.json collected_at_utc");
  CHECK(s.local_offset == 8 * 3600);
  CHECK(s.zone == "CST-8");
  CHECK(s.zone_origin == "system/time.txt tz_posix (Asia/Shanghai)");

  CHECK(s.has_manifest);
  CHECK(s.collector_version == "0.3.0");
  CHECK(s.collector_args ==
        std::vector<std::string>{"--timeout", "20", "--deadline", "600", "--out", "/var/tmp/\xe4\xb8\xad"});
  CHECK(s.uid == 0);
  CHECK(s.sudo_user == "alice");
  CHECK(s.in_container == false);
  CHECK(s.items_origin == "manifest.json");
  CHECK(s.items == 19);
  CHECK(s.count(ItemStatus::ok) == 12);
  CHECK(s.count(ItemStatus::absent) == 1);
  CHECK(s.count(ItemStatus::denied) == 1);
  CHECK(s.count(ItemStatus::skipped) == 2);
  CHECK(s.count(ItemStatus::failed) == 1);
  CHECK(s.count(ItemStatus::timed_out) == 1);
  CHECK(s.count(ItemStatus::abandoned) == 1);
  CHECK(s.count(ItemStatus::other) == 0);
  CHECK(s.truncated_count == 1);
  CHECK(status_counts_text(s) == "12 ok, 1 absent, 1 denied, 2 skipped, 1 failed, 1 timed_out, 1 abandoned");

  REQUIRE(s.not_collected.size() == 7);
  CHECK(s.not_collected[0].path == "system/lspci.txt");
  CHECK(s.not_collected[0].status == ItemStatus::absent);
  CHECK(s.not_collected[0].reason == "tool_missing");
  CHECK(s.not_collected[1].status == ItemStatus::denied);
  CHECK(s.not_collected[1].rc == 1);
  CHECK(s.not_collected[2].path == "modules/dkms-status.txt");
  CHECK(s.not_collected[2].error == "nonzero_exit");
  CHECK(s.not_collected[3].status == ItemStatus::timed_out);
  CHECK(s.not_collected[3].duration_ms == 20000);
  CHECK(s.not_collected[4].status == ItemStatus::abandoned);
  CHECK(s.not_collected[5].reason == "device_unresponsive");
  CHECK(s.not_collected[6].reason == "option");
  REQUIRE(s.truncated.size() == 1);
  CHECK(s.truncated[0].path == "kernel/syslog/messages");
  CHECK(s.truncated[0].kept_ranges.size() == 2);
  // The environ holds a permission message although its step reported ok.
  REQUIRE(s.tool_errors.size() == 1);
  CHECK(s.tool_errors[0].path == "processes/4242/environ");
  CHECK(s.tool_errors[0].reason == "permission: cat: /proc/4242/environ: Permission denied");
  CHECK(s.notes.empty());

  // The process facts of the same bundle.
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  CHECK(p.argv == std::vector<std::string>{"python3", "train.py", "--amp", "False", "--workers", "0"});
  CHECK(p.zone_origin == "processes/4242/tz.txt tz_posix");
  CHECK(format_utc(p.start_time->utc_us) == "2026-03-01T11:43:52.100000Z");
  CHECK(p.fds.size() == 4);
}

TEST_CASE("summary: text report shows it before the findings", "[summary]") {
  AnalyzeOptions options;
  EvidenceSet set;
  set.bundles.push_back(load_summary_bundle(options));
  std::ostringstream out;
  render_text(summaries_only(set), set, RenderOptions{}, out);
  std::string text = out.str();
  INFO(text);
  for (const char* line : {
           "Bundle tests/data/summary-bundle\n",
           "  Host:       node-07 (manifest.json host)\n",
           "  System:     openEuler 22.03 (LTS-SP1), kernel 5.10.0-136.12.0.86.oe2203sp1.aarch64\n",
           // The text report wraps at 100 columns under the value column.
           "  Collected:  2026-03-01T12:00:00Z UTC = 2026-03-01T20:00:00+08:00 host local (manifest.json\n"
           "              collected_at_utc)\n",
           "  Zone:       CST-8, from system/time.txt tz_posix (Asia/Shanghai)\n",
           "  Collector:  version 0.3.0, uid 0 via sudo from alice, on the host\n",
           "  Arguments:  --timeout 20 --deadline 600 --out /var/tmp/\xe4\xb8\xad\n",
           "  Manifest:   19 items (manifest.json): 12 ok, 1 absent, 1 denied, 2 skipped, 1 failed, 1 timed_out,\n"
           "              1 abandoned; 1 truncated\n",
           "    absent     system/lspci.txt: tool_missing\n",
           "    denied     kernel/dmesg.txt: permission, rc 1, after 4 ms\n",
           "    failed     modules/dkms-status.txt: error nonzero_exit, rc 2, after 310 ms\n",
           "    timed_out  ascend/npu-smi-info.txt: deadline, rc 124, after 20.0 s\n",
           "    abandoned  ascend/npu-smi-health-0-0.txt: deadline, after 25.0 s\n",
           "    skipped    ascend/npu-smi-map.txt: device_unresponsive\n",
           "    skipped    python/pip-list.json: option\n",
           "    kernel/syslog/messages: kept bytes 0-1048576, 52428800-53477376\n",
           "    processes/4242/environ: permission: cat: /proc/4242/environ: Permission denied\n",
           "0 finding(s)\n"}) {
    CHECK(text.find(line) != std::string::npos);
  }
  CHECK(text.find("Bundle ") < text.find("finding(s)"));
}

TEST_CASE("summary: JSON report carries it per bundle", "[summary]") {
  AnalyzeOptions options;
  EvidenceSet set;
  set.bundles.push_back(load_summary_bundle(options));
  std::ostringstream out;
  render_json(summaries_only(set), set, RenderOptions{}, out);
  simdjson::padded_string json(out.str());
  simdjson::ondemand::parser parser;
  auto doc = parser.iterate(json);
  auto summary = doc["bundles"].at(0)["summary"];
  CHECK(std::string_view(summary["host"]) == "node-07");
  CHECK(std::string_view(summary["collected_at_utc"]) == "2026-03-01T12:00:00Z");
  CHECK(std::string_view(summary["collected_at_local"]) == "2026-03-01T20:00:00+08:00");
  CHECK(std::string_view(summary["zone"]) == "CST-8");
  auto manifest = summary["manifest"];
  CHECK(std::string_view(manifest["collector_version"]) == "0.3.0");
  CHECK(uint64_t(manifest["items"]) == 19);
  auto counts = manifest["status_counts"];
  CHECK(uint64_t(counts["ok"]) == 12);
  CHECK(uint64_t(counts["skipped"]) == 2);
  CHECK(uint64_t(counts["abandoned"]) == 1);
  CHECK(uint64_t(counts["other"]) == 0);
  size_t n = 0;
  for (auto item : summary["not_collected"]) {
    if (n == 3) {
      CHECK(std::string_view(item["status"]) == "timed_out");
      CHECK(int64_t(item["rc"]) == 124);
    }
    ++n;
  }
  CHECK(n == 7);
  auto kept = summary["truncated"].at(0)["kept_ranges"].at(1);
  CHECK(uint64_t(kept.at(0)) == 52428800);
}

TEST_CASE("summary: a bundle without manifest or zone says what is unknown", "[summary]") {
  BundleFacts facts;
  facts.input = "loose-logs/";
  test::run_kind(SourceKind::uname, "uname.txt", "Linux loose 5.10 #1 SMP x86_64 GNU/Linux\n", facts);
  finalize_facts(facts, AnalyzeOptions{});
  BundleSummary s = summarize_bundle(facts);
  CHECK(s.host == "loose");
  CHECK(s.host_origin == "system/uname.txt");
  CHECK_FALSE(s.has_manifest);
  CHECK(s.zone.empty());
  EvidenceSet set;
  set.bundles.push_back(std::move(facts));
  std::ostringstream out;
  render_text(summaries_only(set), set, RenderOptions{}, out);
  CHECK(out.str().find("  Collected:  unknown (no manifest collected_at_utc, no system/time.txt epoch)\n") !=
        std::string::npos);
  CHECK(out.str().find("  Zone:       unknown (no system/time.txt or localtime.tzif)") != std::string::npos);
  CHECK(out.str().find("  Manifest:   none: what was not collected, and why, is unknown\n") != std::string::npos);
}

TEST_CASE("summary: a file changed after collection raises input-damaged/checksum", "[summary]") {
  AnalyzeOptions options;
  BundleFacts facts = load_summary_bundle(options);
  facts.input_findings.clear();
  for (auto& e : facts.inventory.entries)
    if (e.info.path == "system/time.txt") e.sha256 = std::string(64, '0');
  facts.inventory.entries.erase(
      std::remove_if(facts.inventory.entries.begin(), facts.inventory.entries.end(),
                     [](const InventoryEntry& e) { return e.info.path == "processes/4242/stat"; }),
      facts.inventory.entries.end());
  finalize_facts(facts, options);
  REQUIRE(facts.input_findings.size() == 2);
  CHECK(facts.input_findings[0].id == "input-damaged/checksum");
  CHECK(facts.input_findings[0].observed.find("system/time.txt: sha256 ") != std::string::npos);
  CHECK(facts.input_findings[1].id == "bundle/missing-entry");
  CHECK(facts.input_findings[1].observed ==
        "Status ok in the manifest, absent from the bundle: processes/4242/stat.");
  CHECK(facts.input_findings[1].host == "node-07");
}

// A timed-out probe writes five files from one step: one not-collected line, not five.
TEST_CASE("summary: not-collected items of one step form one outcome", "[summary]") {
  BundleFacts facts;
  auto item = [](std::string path, std::vector<std::string> exec, int64_t start, int64_t ms) {
    ManifestItem i;
    i.path = std::move(path);
    if (!exec.empty()) i.exec = std::move(exec);
    i.status = ItemStatus::timed_out;
    i.reason = "deadline";
    i.rc = 124;
    i.started_utc_us = start;
    i.duration_ms = ms;
    return i;
  };
  std::vector<std::string> rand = {"timeout", "60", "python3", "probe.py", "rand"};
  std::vector<std::string> randn = {"timeout", "60", "python3", "probe.py", "randn"};
  auto& items = facts.manifest.items;
  items.push_back(item("probes/rand.json", rand, 100, 60012));
  items.push_back(item("probes/rand.stdout", rand, 100, 0));
  items.push_back(item("probes/rand.threads.txt", rand, 100, 1));
  items.push_back(item("probes/randn.json", randn, 200, 60009));  // another step: its own line
  items.push_back(item("probes/randn.stdout", randn, 200, 0));
  items.back().rc = 137;  // same step, another outcome: its own line
  items.push_back(item("kernel/a.txt", {}, 300, 3));  // file copies are steps of their own
  items.push_back(item("kernel/b.txt", {}, 300, 3));
  ManifestItem ok = item("probes/ok.json", rand, 100, 5);
  ok.status = ItemStatus::ok;
  items.insert(items.begin(), ok);

  BundleSummary s = summarize_bundle(facts);
  REQUIRE(s.not_collected.size() == 5);
  CHECK(s.not_collected[0].files ==
        std::vector<std::string>{"probes/rand.json", "probes/rand.stdout", "probes/rand.threads.txt"});
  CHECK(s.not_collected[0].path == "probes/rand.json");
  CHECK(s.not_collected[0].duration_ms == 60012);
  CHECK(step_files_text(s.not_collected[0]) == "probes/rand.{json,stdout,threads.txt}");
  CHECK(step_files_text(s.not_collected[1]) == "probes/randn.json");
  CHECK(s.not_collected[2].rc == 137);
  CHECK(step_files_text(s.not_collected[3]) == "kernel/a.txt");
  CHECK(step_files_text(s.not_collected[4]) == "kernel/b.txt");

  ItemOutcome mixed;
  mixed.path = "probes/x.json";
  mixed.files = {"probes/x.json", "other/x.stdout"};
  CHECK(step_files_text(mixed) == "probes/x.json, other/x.stdout");
  mixed.files = {"probes/x.json", "probes/x."};  // nothing after the dot: no braces
  CHECK(step_files_text(mixed) == "probes/x.json, probes/x.");
}
