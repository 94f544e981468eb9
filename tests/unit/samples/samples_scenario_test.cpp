// What each sample's description (samples/<name>.md) promises is really in its bytes: the
// stall that does not move, the slow step that does, the two module sets and which one is
// resident, the driver-binding failure, the clock skew, the pasted copies.
#include <catch2/catch.hpp>

#include <cmath>

#include "samples_support.h"

using namespace samples_test;

namespace {

// Integer after `key` (e.g. "sqHead=") up to the next non-digit; -1 when absent.
long long number_after(std::string_view line, std::string_view key) {
  auto pos = line.find(key);
  if (pos == std::string_view::npos) return -1;
  pos += key.size();
  long long v = 0;
  bool any = false;
  while (pos < line.size() && line[pos] >= '0' && line[pos] <= '9') {
    v = v * 10 + (line[pos++] - '0');
    any = true;
  }
  return any ? v : -1;
}

// Seconds of the day of a plog stamp "YYYY-MM-DD-HH:MM:SS.mmm.uuu" found in the line.
double plog_seconds(std::string_view line) {
  auto colon = line.find("):");
  REQUIRE(colon != std::string_view::npos);
  std::string_view ts = line.substr(colon + 2 + 11, 15);  // HH:MM:SS.mmm.uu
  int h = std::stoi(std::string(ts.substr(0, 2))), m = std::stoi(std::string(ts.substr(3, 2))),
      s = std::stoi(std::string(ts.substr(6, 2))), ms = std::stoi(std::string(ts.substr(9, 3)));
  return h * 3600.0 + m * 60.0 + s + ms / 1000.0;
}

std::vector<std::string> grep(const std::string& text, std::string_view needle) {
  std::vector<std::string> out;
  for (auto& l : lines_of(text))
    if (l.find(needle) != std::string::npos) out.push_back(l);
  return out;
}

std::string only_file(const fs::path& dir, std::string_view prefix) {
  std::string found;
  for (const auto& f : list_files(dir))
    if (starts_with(f, prefix)) {
      REQUIRE(found.empty());
      found = f;
    }
  REQUIRE_FALSE(found.empty());
  return found;
}

const char* kReport = "report three minutes timeout!";

}  // namespace

TEST_CASE("before-reboot: stream 47 reports the same position seven times, stream 51 moves", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-before-reboot");
  fs::path logs = dir / "logs/host/root/ascend/log";
  std::string debug = read_file(logs / "debug/plog" / only_file(logs / "debug/plog", "plog-48213_"));
  CHECK(lines_of(debug).size() > 4000);
  auto reports = grep(debug, kReport);
  std::vector<std::string> stalled;
  for (auto& l : reports)
    if (l.find("stream_id=47,") != std::string::npos) stalled.push_back(l);
  REQUIRE(stalled.size() == 7);
  for (const auto& l : stalled) {
    CHECK(l.find(kReport) != std::string::npos);
    CHECK(starts_with(l, "[EVENT] RUNTIME(48213,python3):"));
    CHECK(number_after(l, "task_id=") == 1280);
    CHECK(number_after(l, "sqHead=") == 500);
    CHECK(number_after(l, "pendingNum=") == 781);
  }
  for (size_t i = 1; i < stalled.size(); ++i)
    CHECK(std::fabs(plog_seconds(stalled[i]) - plog_seconds(stalled[i - 1]) - 180.0) < 1.0);
  auto side = grep(debug, "stream_id=51, sq_id=12, task_id");
  std::vector<std::string> side_reports;
  for (auto& l : side)
    if (l.find(kReport) != std::string::npos) side_reports.push_back(l);
  REQUIRE(side_reports.size() == 2);
  CHECK(number_after(side_reports[1], "sqHead=") > number_after(side_reports[0], "sqHead="));
  CHECK(number_after(side_reports[1], "pendingNum=") < number_after(side_reports[0], "pendingNum="));
  CHECK(reports.size() == 9);
  // the run log repeats the EVENT lines of the debug log
  std::string run = read_file(logs / "run/plog" / only_file(logs / "run/plog", "plog-48213_"));
  CHECK(grep(run, kReport) == reports);
  // unrelated errors and the real mix of modules and levels
  for (const char* m : {"RUNTIME(", "GE(", "ASCENDCL(", "HCCL(", "DRV(", "TDT(", "PROFILING(", "APP(", "ATRACE("})
    CHECK_FALSE(grep(debug, m).empty());
  for (const char* lv : {"[INFO] ", "[WARNING] ", "[ERROR] ", "[EVENT] "}) CHECK(grep(debug, lv).size() >= 5);
  auto errors = grep(debug, "[ERROR] ");
  CHECK(std::count_if(errors.begin(), errors.end(), [](const std::string& l) {
          return l.find("107020") == std::string::npos && l.find("task timeout") == std::string::npos &&
                 l.find("Task execute failed") == std::string::npos;
        }) >= 4);
}

TEST_CASE("before-reboot: the job log holds the 107020 traceback at a tensor creation in the loss", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-before-reboot");
  std::string log = read_file(dir / "extra/root/work/det/train_0904.log");
  CHECK(log.find("Traceback (most recent call last):") != std::string::npos);
  CHECK(log.find("error code is 107020") != std::string::npos);
  CHECK(log.find("(PID:48213, Device:0, RankID:-1) ERR00100 PTA call acl api failed") != std::string::npos);
  CHECK(log.find("EE9999: Inner Error!") != std::string::npos);
  CHECK(log.find("rtStreamSynchronize execution failed, reason=task timeout") != std::string::npos);
  auto frames = grep(log, "  File \"");
  REQUIRE_FALSE(frames.empty());
  CHECK(frames.back().find("losses/retina_loss.py") != std::string::npos);
  CHECK(log.find("    scale = torch.tensor([w, h, w, h]") != std::string::npos);
  // the loose copy is the same bytes
  CHECK(read_file(sample_path("incident-loose-files") / "output.txt") == log);
}

TEST_CASE("before-reboot: the stale set in updates/dkms is resident, the fresh set in updates/ is not", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-before-reboot");
  Tsv tree = read_tsv(dir / "modules/tree.tsv");
  Tsv sysfs = read_tsv(dir / "modules/sysfs.tsv");
  std::map<std::string, std::string> fresh, stale;
  for (const auto& r : tree.rows) {
    const std::string& path = r[*tree.column("path")];
    if (path.find("/updates/dkms/") != std::string::npos) {
      CHECK(r[*tree.column("type")] == "l");
      CHECK(starts_with(r[*tree.column("link_target")], "/var/lib/dkms/davinci_ascend/1.0/"));
      stale[r[*tree.column("module")]] = r[*tree.column("build_id")];
    } else {
      CHECK(r[*tree.column("type")] == "f");
      fresh[r[*tree.column("module")]] = r[*tree.column("build_id")];
    }
    CHECK(r[*tree.column("vermagic")] == "5.15.0-119-generic SMP mod_unload modversions aarch64");
  }
  REQUIRE(fresh.size() == 18);
  REQUIRE(stale.size() == 18);
  REQUIRE(sysfs.rows.size() == 18);
  for (const auto& r : sysfs.rows) {
    INFO(r[0]);
    CHECK(r[*sysfs.column("build_id")] == stale[r[0]]);
    CHECK(r[*sysfs.column("build_id")] != fresh[r[0]]);
  }
  std::string modinfo = read_file(dir / "modules/modinfo/5.15.0-119-generic/drv_pcie_host.txt");
  CHECK(starts_with(modinfo, "filename:       /lib/modules/5.15.0-119-generic/updates/dkms/drv_pcie_host.ko\n"));
  CHECK(read_file(dir / "ascend/firmware-version.info").find("Version=9.0.0.0.205\n") != std::string::npos);
  std::string drv = read_file(dir / "ascend/driver-version.info");
  CHECK(drv.find("Version=26.0.rc1\n") != std::string::npos);
  CHECK(drv.find("compatible_version_fw=[7.0.0,9.9.99]\n") != std::string::npos);
}

TEST_CASE("before-reboot: probes pass for copies and matmul, RNG probes time out and are killed", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-before-reboot");
  Manifest m = read_manifest(dir);
  std::map<std::string, ManifestItem> items;
  for (const auto& it : m.items) items[it.path] = it;
  for (const char* p : {"ones_copyback", "cpu_rand_h2d", "matmul"}) CHECK(items[std::string("probes/") + p + ".json"].status == "ok");
  for (const char* p : {"rand", "randn", "randint"}) {
    INFO(p);
    CHECK(items[std::string("probes/") + p + ".json"].status == "timed_out");
    CHECK(items[std::string("probes/") + p + ".json"].reason == "deadline");
    CHECK(read_file(dir / "probes" / (std::string(p) + ".json")).find("\"timed_out\":true") != std::string::npos);
  }
  for (const auto& it : m.items) CHECK(it.reason != "device_unresponsive");
}

TEST_CASE("after-reboot: PCI functions without a driver, no device nodes, Unknown symbol at boot", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-after-reboot");
  Tsv pci = read_tsv(dir / "system/pci-devices.tsv");
  int npus = 0;
  for (const auto& r : pci.rows)
    if (r[*pci.column("vendor")] == "19e5" && r[*pci.column("device")] == "d802") {
      ++npus;
      CHECK(r[*pci.column("driver")].empty());
    }
  CHECK(npus == 8);
  CHECK_FALSE(fs::exists(dir / "system/devices.txt"));
  CHECK_FALSE(fs::exists(dir / "processes"));
  std::string journal = read_file(dir / "kernel/journal-b0.jsonl");
  CHECK(grep(journal, "drv_devmm_host: Unknown symbol ").size() >= 3);
  CHECK(grep(journal, "drv_pcie_host: Unknown symbol ").size() >= 9);
  CHECK(grep(read_file(dir / "kernel/dmesg.txt"), "Unknown symbol").size() == grep(journal, "Unknown symbol").size());
  CHECK(fs::exists(dir / "kernel/journal-b-1.jsonl"));
  std::string deps = read_file(dir / "modules/modprobe-deps/5.15.0-119-generic/drv_pcie_host.txt");
  CHECK(deps.find("insmod /lib/modules/5.15.0-119-generic/updates/dkms/drv_pcie_host.ko") != std::string::npos);
  // the new providers loaded; nothing that depends on drv_pcie_host did
  Tsv sysfs = read_tsv(dir / "modules/sysfs.tsv");
  std::set<std::string> loaded;
  for (const auto& r : sysfs.rows) loaded.insert(r[0]);
  CHECK(loaded.count("drv_seclib_host") == 1);
  CHECK(loaded.count("drv_pcie_host") == 0);
  CHECK(loaded.count("drv_devmm_host") == 0);
  // the probes fail fast on device open
  for (const char* p : {"ones_copyback", "rand"}) {
    std::string err = read_file(dir / "probes" / (std::string(p) + ".stderr"));
    CHECK(err.find("error code is 507033") != std::string::npos);
    std::string info = read_file(dir / "probes" / (std::string(p) + ".json"));
    CHECK(info.find("\"timed_out\":false") != std::string::npos);
  }
}

TEST_CASE("after-reboot: the journal runs 37 s behind dmesg + btime (the documented skew)", "[samples][scenario]") {
  fs::path dir = sample_path("incident-910b-after-reboot");
  double btime = std::stod(read_kv(dir / "system/boot.txt")["btime"]);
  simdjson::ondemand::parser parser;
  int checked = 0;
  for (const auto& line : lines_of(read_file(dir / "kernel/journal-b0.jsonl"))) {
    if (line.find("Unknown symbol") == std::string::npos) continue;
    simdjson::padded_string padded(line);
    simdjson::ondemand::document doc = parser.iterate(padded);
    double real = std::stod(std::string(std::string_view(doc["__REALTIME_TIMESTAMP"].get_string()))) / 1e6;
    double source = std::stod(std::string(std::string_view(doc["_SOURCE_MONOTONIC_TIMESTAMP"].get_string()))) / 1e6;
    double skew = real - (btime + source);
    CHECK(skew > -38.0);
    CHECK(skew < -36.0);
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("healthy: every rank's reports move forward, one module set, supported versions", "[samples][scenario]") {
  fs::path dir = sample_path("healthy-first-step-compile");
  fs::path plogs = dir / "logs/host/home/ma-user/ascend/log/debug/plog";
  int ranks = 0;
  for (const auto& f : list_files(plogs)) {
    INFO(f);
    auto reports = grep(read_file(plogs / f), kReport);
    REQUIRE(reports.size() == 3);
    for (size_t i = 1; i < reports.size(); ++i) {
      CHECK(number_after(reports[i], "sqHead=") > number_after(reports[i - 1], "sqHead="));
      CHECK(number_after(reports[i], "pendingNum=") < number_after(reports[i - 1], "pendingNum="));
      CHECK(number_after(reports[i], "task_id=") > number_after(reports[i - 1], "task_id="));
    }
    ++ranks;
  }
  CHECK(ranks == 8);
  Tsv tree = read_tsv(dir / "modules/tree.tsv");
  CHECK(tree.rows.size() == 18);
  for (const auto& r : tree.rows) CHECK(r[*tree.column("type")] == "f");
  Tsv sysfs = read_tsv(dir / "modules/sysfs.tsv");
  std::map<std::string, std::string> ids;
  for (const auto& r : tree.rows) ids[r[*tree.column("module")]] = r[*tree.column("build_id")];
  for (const auto& r : sysfs.rows) CHECK(r[*sysfs.column("build_id")] == ids[r[0]]);
  std::string steps = read_file(dir / "extra/home/ma-user/jobs/sft/logs/run_0910.log");
  CHECK(grep(steps, "step_time=0.6").size() > 100);
}

TEST_CASE("healthy: the capped journal is head + one cut line + tail, as its kept_ranges say", "[samples][scenario]") {
  fs::path dir = sample_path("healthy-first-step-compile");
  Manifest m = read_manifest(dir);
  const ManifestItem* item = nullptr;
  for (const auto& it : m.items)
    if (it.path == "kernel/journal-b0.jsonl") item = &it;
  REQUIRE(item != nullptr);
  CHECK(item->truncated);
  // [[0,H],[S,E]]: H head bytes, E-S tail bytes of journalctl's output
  std::vector<long long> n;
  long long v = -1;
  for (char c : item->kept_ranges_json) {
    if (c >= '0' && c <= '9') v = (v < 0 ? 0 : v * 10) + (c - '0');
    else if (v >= 0) n.push_back(v), v = -1;
  }
  REQUIRE(n.size() == 4);
  std::string text = read_file(dir / "kernel/journal-b0.jsonl");
  size_t cut = text.find("{\"__ascend_collect_cut__\"");
  REQUIRE(cut != std::string::npos);
  CHECK((long long)cut == n[1] - n[0]);
  size_t cut_end = text.find('\n', cut) + 1;
  CHECK((long long)(text.size() - cut_end) == n[3] - n[2]);
  CHECK(number_after(text.substr(cut), "\"dropped_bytes\": ") == n[2] - n[1]);
}

TEST_CASE("loose files: the pasted plog and dmesg are copies of the hung host's", "[samples][scenario]") {
  fs::path loose = sample_path("incident-loose-files");
  fs::path logs = sample_path("incident-910b-before-reboot") / "logs/host/root/ascend/log/debug/plog";
  CHECK(read_file(loose / "log1.txt") == read_file(logs / only_file(logs, "plog-48213_")));
  auto kern = lines_of(read_file(loose / "kern.txt"));
  REQUIRE(kern.size() > 100);
  for (const auto& l : kern) CHECK(starts_with(l, "["));
  CHECK(list_files(loose) == std::vector<std::string>{"kern.txt", "log1.txt", "output.txt"});
}
