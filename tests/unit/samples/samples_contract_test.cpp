// The bundle samples against the bundle contract (docs/bundle-layout, v1): manifest items,
// bytes and sha256, contract paths, TSV headers, encodings; and expected-kinds.tsv against
// every file of every sample.
#include <catch2/catch.hpp>

#include "model/source_kind.h"
#include "samples_support.h"

using namespace samples_test;

namespace {

const std::set<std::string> kItemKeys = {"path", "source", "exec", "status", "reason", "rc",
                                         "started_utc", "duration_ms", "bytes", "sha256",
                                         "source_mtime_utc", "truncated", "kept_ranges", "error"};
const std::set<std::string> kManifestKeys = {
    "format", "format_version", "collector_version", "host", "collected_at_utc", "finished_utc", "args",
    "uid", "groups", "sudo_user", "locale", "in_container", "redaction", "items"};
const std::set<std::string> kStatuses = {"ok", "absent", "denied", "skipped", "failed", "timed_out", "abandoned"};
const std::set<std::string> kReasons = {"tool_missing", "source_missing", "permission", "option", "deadline",
                                        "device_unresponsive"};

bool is_utc_iso(const std::string& s) {
  // 2026-09-04T01:55:02Z or 2026-09-04T01:55:02.118Z
  return s.size() >= 20 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' &&
         s.back() == 'Z';
}

bool pure_ascii_json(std::string_view text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n') || c > 0x7e) return false;
  return true;
}

bool hex_lower(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

}  // namespace

TEST_CASE("bundle samples: manifest.json head and items follow the contract", "[samples]") {
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    CHECK(pure_ascii_json(read_file(dir / "manifest.json")));
    CHECK(pure_ascii_json(read_file(dir / "manifest.items.jsonl")));
    Manifest m = read_manifest(dir);
    CHECK(m.keys == kManifestKeys);
    CHECK(m.format == "ascend-bundle");
    CHECK(m.format_version == 1);
    CHECK_FALSE(m.host.empty());
    CHECK_FALSE(m.collector_version.empty());
    CHECK(is_utc_iso(m.collected_at_utc));
    CHECK(is_utc_iso(m.finished_utc));
    CHECK(m.collected_at_utc <= m.finished_utc);
    REQUIRE_FALSE(m.items.empty());
    for (const auto& it : m.items) {
      INFO("item " << it.path);
      CHECK(it.keys == kItemKeys);
      CHECK(kStatuses.count(it.status) == 1);
      if (!it.reason.empty()) CHECK(kReasons.count(it.reason) == 1);
      if (it.status == "absent" || it.status == "denied" || it.status == "skipped" || it.status == "timed_out")
        CHECK_FALSE(it.reason.empty());
      CHECK(is_utc_iso(it.started_utc));
      CHECK((it.exec_json == "null" || starts_with(it.exec_json, "[")));
      if (it.truncated) CHECK(starts_with(it.kept_ranges_json, "[["));
      else CHECK(it.kept_ranges_json == "null");
      if (it.bytes) CHECK((it.sha256.size() == 64 && hex_lower(it.sha256)));
      else CHECK(it.sha256.empty());
    }
  }
}

TEST_CASE("bundle samples: manifest.items.jsonl holds the same items in the same order", "[samples]") {
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    Manifest m = read_manifest(sample_path(name));
    std::vector<ManifestItem> jsonl = read_items_jsonl(sample_path(name));
    REQUIRE(jsonl.size() == m.items.size());
    for (size_t i = 0; i < jsonl.size(); ++i) {
      INFO("item " << i << " " << m.items[i].path);
      CHECK(jsonl[i] == m.items[i]);
    }
    CHECK(ends_with(read_file(sample_path(name) / "manifest.items.jsonl"), "\n"));
  }
}

TEST_CASE("bundle samples: one manifest item per file, with its bytes and sha256", "[samples]") {
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    Manifest m = read_manifest(dir);
    std::map<std::string, int> paths;
    for (const auto& it : m.items) ++paths[it.path];
    for (const auto& [p, n] : paths) {
      INFO("path " << p);
      CHECK(n == 1);
    }
    std::map<std::string, const ManifestItem*> by_path;
    for (const auto& it : m.items) by_path[it.path] = &it;
    std::vector<std::string> files = list_files(dir);
    for (const auto& f : files) {
      if (f == "manifest.json" || f == "manifest.items.jsonl") continue;
      INFO("file " << f);
      auto found = by_path.find(f);
      REQUIRE(found != by_path.end());
      const ManifestItem& it = *found->second;
      CHECK(status_has_file(it.status));
      REQUIRE(it.bytes.has_value());
      std::string data = read_file(dir / f);
      CHECK(*it.bytes == data.size());
      CHECK(it.sha256 == sha256_hex(data));
    }
    std::set<std::string> file_set(files.begin(), files.end());
    for (const auto& it : m.items) {
      INFO("item " << it.path << " status " << it.status);
      if (file_set.count(it.path)) continue;
      CHECK(status_explains_absence(it.status));
      CHECK_FALSE(it.bytes.has_value());
      if (it.status != "failed") CHECK_FALSE(it.reason.empty());
    }
  }
}

TEST_CASE("bundle samples: every contract path is present or explained by a manifest status", "[samples]") {
  const std::vector<std::string> always = {
      "system/uname.txt", "system/os-release", "system/cmdline", "system/time.txt", "system/localtime.tzif",
      "system/boot.txt", "system/kernels.tsv", "system/pci-devices.tsv", "system/lspci.txt",
      "system/devices.txt", "kernel/journal-b0.jsonl", "kernel/boots.txt", "kernel/boots.json",
      "kernel/dmesg.txt", "kernel/tainted", "kernel/secure-boot.txt", "modules/ascend-names.txt",
      "modules/lsmod.txt", "modules/proc-modules.txt", "modules/sysfs.tsv", "modules/tree.tsv",
      "modules/modules.dep.txt", "modules/dkms-status.txt", "modules/dkms-tree.txt",
      "ascend/driver-version.info", "ascend/firmware-version.info", "ascend/ascend_install.info",
      "ascend/cann/index.tsv", "ascend/paths.tsv", "ascend/npu-smi-info.txt", "ascend/npu-smi-map.txt",
      "python/packages.tsv", "env/collector-env", "mounts/mountinfo.txt", "logs/index.tsv",
      "probes/ones_copyback.json", "probes/cpu_rand_h2d.json", "probes/matmul.json", "probes/rand.json",
      "probes/randn.json", "probes/randint.json"};
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    Manifest m = read_manifest(dir);
    std::map<std::string, std::string> status;
    for (const auto& it : m.items) status[it.path] = it.status;
    for (const auto& p : always) {
      INFO("path " << p);
      bool present = fs::is_regular_file(dir / p);
      bool explained = status.count(p) && status_explains_absence(status[p]);
      CHECK((present || explained));
    }
    // a processes/ tree, or a statement that no NPU process was found
    bool processes = fs::is_directory(dir / "processes");
    CHECK((processes || (status.count("processes") && status["processes"] == "absent")));
    // every collected process has the contract's files
    if (processes)
      for (const auto& e : fs::directory_iterator(dir / "processes")) {
        INFO("process " << e.path().filename().string());
        for (const char* f : {"cmdline", "environ", "maps", "status", "stat", "mountinfo", "cgroup", "fd.tsv",
                              "exe.txt", "root.txt", "tz.txt", "localtime.tzif", "packages.tsv",
                              "torch_npu-version.py", "threads.1.txt", "threads.2.txt"})
          CHECK(fs::is_regular_file(e.path() / f));
      }
    // each probe has its output files, and timed-out probes their state
    for (const char* probe : {"ones_copyback", "cpu_rand_h2d", "matmul", "rand", "randn", "randint"}) {
      std::string base = std::string("probes/") + probe;
      if (!fs::is_regular_file(dir / (base + ".json"))) continue;
      INFO("probe " << probe);
      CHECK(fs::is_regular_file(dir / (base + ".stdout")));
      CHECK(fs::is_regular_file(dir / (base + ".stderr")));
      if (status[base + ".json"] == "timed_out") {
        CHECK(fs::is_regular_file(dir / (base + ".status")));
        CHECK(fs::is_regular_file(dir / (base + ".threads.txt")));
      }
    }
  }
}

TEST_CASE("bundle samples: every TSV the contract names has its columns", "[samples]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> tsvs = {
      {"system/kernels.tsv", {"kver", "running", "boot_default", "initramfs_mtime", "modules_dep_mtime"}},
      {"system/pci-devices.tsv", {"address", "vendor", "device", "class", "driver", "link_width"}},
      {"modules/sysfs.tsv", {"name", "version", "srcversion", "build_id", "initstate", "taint", "refcnt", "holders"}},
      {"modules/tree.tsv", {"kver", "module", "path", "type", "link_target", "resolved_path", "target_exists",
                            "compression", "size", "link_mtime", "target_mtime", "target_ctime", "sha256",
                            "srcversion", "build_id", "vermagic"}},
      {"ascend/cann/index.tsv", {"id", "install_dir", "kind", "version", "resolved_dir", "seen_from"}},
      {"ascend/paths.tsv", {"path", "exists", "type", "resolved_path", "seen_from"}},
      {"python/packages.tsv", {"name", "version", "location", "kind"}},
      {"logs/index.tsv", {"path", "original_path", "origin", "pids", "truncated", "kept_ranges"}},
      {"processes/*/fd.tsv", {"fd", "target"}},
      {"processes/*/packages.tsv", {"name", "version", "location", "kind"}},
  };
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    std::vector<std::string> files = list_files(dir);
    for (const auto& [pattern, columns] : tsvs) {
      std::vector<std::string> matches;
      if (pattern.find('*') == std::string::npos) {
        matches.push_back(pattern);
      } else {
        auto suffix = pattern.substr(pattern.find('*') + 1);
        for (const auto& f : files)
          if (starts_with(f, "processes/") && ends_with(f, suffix) && split(f, '/').size() == 3) matches.push_back(f);
      }
      for (const auto& f : matches) {
        INFO("tsv " << f);
        REQUIRE(fs::is_regular_file(dir / f));
        Tsv t = read_tsv(dir / f);
        for (const auto& c : columns) {
          INFO("column " << c);
          CHECK(t.column(c).has_value());
        }
        CHECK(t.problems.empty());
        CHECK_FALSE(t.rows.empty());
      }
    }
  }
}

TEST_CASE("bundle samples: TSV values use the contract's forms", "[samples]") {
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    Tsv tree = read_tsv(dir / "modules/tree.tsv");
    for (const auto& r : tree.rows) {
      CHECK((r[*tree.column("type")] == "f" || r[*tree.column("type")] == "l"));
      CHECK((r[*tree.column("target_exists")] == "1" || r[*tree.column("target_exists")] == "0"));
      CHECK(hex_lower(r[*tree.column("build_id")]));
      CHECK(hex_lower(r[*tree.column("sha256")]));
    }
    Tsv pci = read_tsv(dir / "system/pci-devices.tsv");
    for (const auto& r : pci.rows) {
      CHECK(hex_lower(r[*pci.column("vendor")]));
      CHECK(hex_lower(r[*pci.column("device")]));
    }
    Tsv kernels = read_tsv(dir / "system/kernels.tsv");
    int running = 0;
    for (const auto& r : kernels.rows) running += r[*kernels.column("running")] == "1";
    CHECK(running == 1);
    // logs/index.tsv lists exactly the files under logs/
    Tsv index = read_tsv(dir / "logs/index.tsv");
    std::set<std::string> listed, stored;
    for (const auto& r : index.rows) listed.insert(r[*index.column("path")]);
    for (const auto& f : list_files(dir))
      if (starts_with(f, "logs/") && f != "logs/index.tsv") stored.insert(f);
    CHECK(listed == stored);
    // each CANN install of the index has its files under ascend/cann/<id>/
    Tsv cann = read_tsv(dir / "ascend/cann/index.tsv");
    for (const auto& r : cann.rows) {
      INFO("cann " << r[0]);
      CHECK(fs::is_directory(dir / "ascend/cann" / r[*cann.column("id")]));
    }
  }
}

TEST_CASE("bundle samples: time, boot and key=value files", "[samples]") {
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    auto time = read_kv(dir / "system/time.txt");
    for (const char* k : {"epoch", "utc", "local", "utc_offset", "timezone", "tz_posix", "clk_tck"}) {
      INFO("time.txt key " << k);
      CHECK(time.count(k) == 1);
    }
    CHECK(ends_with(time["utc"], "Z"));
    CHECK(ends_with(time["local"], time["utc_offset"].substr(0, 3) + ":" + time["utc_offset"].substr(3)));
    std::string tzif = read_file(dir / "system/localtime.tzif");
    CHECK(starts_with(tzif, "TZif"));
    CHECK(ends_with(tzif, "\n" + time["tz_posix"] + "\n"));
    auto boot = read_kv(dir / "system/boot.txt");
    REQUIRE(boot.count("boot_id") == 1);
    CHECK(boot["boot_id"].size() == 36);
    CHECK(split(boot["boot_id"], '-').size() == 5);
    CHECK(boot.count("btime") == 1);
    CHECK(boot.count("uptime_s") == 1);
    // the epoch is the collection instant; boot + uptime must land near it (btime is truncated)
    double btime = std::stod(boot["btime"]), uptime = std::stod(boot["uptime_s"]), epoch = std::stod(time["epoch"]);
    CHECK(btime + uptime + 1 >= epoch);
    CHECK(btime + uptime < epoch + 600);
  }
}

TEST_CASE("bundle samples: kernel journals are journalctl JSON with string values", "[samples]") {
  simdjson::ondemand::parser parser;
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    std::string boot_id = read_kv(dir / "system/boot.txt")["boot_id"];
    boot_id.erase(std::remove(boot_id.begin(), boot_id.end(), '-'), boot_id.end());
    for (const auto& f : list_files(dir / "kernel")) {
      if (!starts_with(f, "journal-b")) continue;
      INFO("journal " << f);
      std::string text = read_file(dir / "kernel" / f);
      CHECK(ends_with(text, "\n"));
      size_t n = 0, cuts = 0;
      std::set<std::string> boots;
      for (const auto& line : lines_of(text)) {
        simdjson::padded_string padded(line);
        simdjson::ondemand::document doc = parser.iterate(padded);
        std::set<std::string> keys;
        bool all_strings = true;
        for (auto field : doc.get_object()) {
          std::string key(std::string_view(field.unescaped_key()));
          keys.insert(key);
          if (key == "__ascend_collect_cut__") continue;
          if (field.value().type() != simdjson::ondemand::json_type::string) all_strings = false;
          else if (key == "_BOOT_ID") boots.insert(std::string(std::string_view(field.value().get_string())));
        }
        if (keys.count("__ascend_collect_cut__")) {
          ++cuts;
          continue;
        }
        ++n;
        CHECK(all_strings);
        for (const char* k : {"__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "_BOOT_ID",
                              "_SOURCE_MONOTONIC_TIMESTAMP", "SYSLOG_IDENTIFIER", "PRIORITY", "MESSAGE"})
          CHECK(keys.count(k) == 1);
      }
      CHECK(n > 100);
      REQUIRE(boots.size() == 1);
      CHECK(boots.begin()->size() == 32);
      if (f == "journal-b0.jsonl") CHECK(*boots.begin() == boot_id);
      else CHECK(*boots.begin() != boot_id);
      CHECK(cuts <= 1);
    }
  }
}

TEST_CASE("bundle samples: NUL-separated copies, samples with a first line, probe results", "[samples]") {
  simdjson::ondemand::parser parser;
  for (const auto& name : bundle_samples()) {
    INFO("sample " << name);
    fs::path dir = sample_path(name);
    std::string env = read_file(dir / "env/collector-env");
    CHECK(ends_with(env, std::string(1, '\0')));
    for (const auto& f : list_files(dir)) {
      INFO("file " << f);
      if (starts_with(f, "processes/") && (ends_with(f, "/cmdline") || ends_with(f, "/environ"))) {
        std::string data = read_file(dir / f);
        CHECK(ends_with(data, std::string(1, '\0')));
        CHECK(data.find('\n') == std::string::npos);
      }
      if (starts_with(f, "ascend/npu-smi-usages-")) CHECK(starts_with(read_file(dir / f), "sampled_utc="));
      if (starts_with(f, "processes/") && f.find("/threads.") != std::string::npos)
        CHECK(starts_with(read_file(dir / f), "sampled_uptime="));
      if (starts_with(f, "probes/") && ends_with(f, ".json")) {
        std::string text = read_file(dir / f);
        CHECK(pure_ascii_json(text));
        simdjson::padded_string padded(text);
        simdjson::ondemand::document doc = parser.iterate(padded);
        std::set<std::string> keys;
        for (auto field : doc.get_object()) keys.insert(std::string(std::string_view(field.unescaped_key())));
        CHECK(keys == std::set<std::string>{"name", "argv", "device", "python", "torch_npu_version", "started_utc",
                                            "rc", "timed_out", "duration_ms", "stdout_file", "stderr_file"});
      }
    }
  }
}

TEST_CASE("expected-kinds.tsv names a known kind for every file of every sample", "[samples]") {
  std::vector<ExpectedKind> expected = read_expected_kinds();
  std::map<std::string, std::set<std::string>> listed;
  for (const auto& e : expected) {
    INFO(e.sample << " " << e.path << " " << e.kind);
    auto kind = triage::parse_source_kind(e.kind);
    REQUIRE(kind.has_value());
    CHECK(*kind != triage::SourceKind::unknown);
    CHECK(listed[e.sample].insert(e.path).second);
  }
  std::set<std::string> samples;
  for (const auto& e : fs::directory_iterator(SAMPLES_DIR))
    if (e.is_directory() && e.path().filename() != "tools") samples.insert(e.path().filename().string());
  std::set<std::string> expected_samples(bundle_samples().begin(), bundle_samples().end());
  expected_samples.insert(kLooseSample);
  expected_samples.insert(fleet_samples().begin(), fleet_samples().end());
  CHECK(samples == expected_samples);
  for (const auto& s : samples) {
    INFO("sample " << s);
    auto files = list_files(sample_path(s));
    CHECK(std::set<std::string>(files.begin(), files.end()) == listed[s]);
  }
}
