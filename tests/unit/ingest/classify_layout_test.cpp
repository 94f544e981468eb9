#include <catch2/catch.hpp>

#include "ingest/classify.h"
#include "ingest/manifest_index.h"

using namespace triage;

namespace {
SourceKind layout_kind(std::string_view path) {
  auto m = match_layout(path);
  return m ? m->kind : SourceKind::count_;
}
}  // namespace

// Every path of bundle-layout-v1 with the kind it must get from its path alone.
TEST_CASE("every path of the bundle layout has its kind", "[classify][layout]") {
  struct Case {
    const char* path;
    SourceKind kind;
  };
  using K = SourceKind;
  const Case cases[] = {
      {"manifest.json", K::manifest_json},
      {"manifest.items.jsonl", K::manifest_items_jsonl},
      {"system/lspci.txt.err", K::step_stderr},
      {"env/collector-env", K::collector_env},
      {"system/uname.txt", K::uname},
      {"system/os-release", K::os_release},
      {"system/cmdline", K::kernel_cmdline},
      {"system/time.txt", K::time_txt},
      {"system/localtime.tzif", K::localtime_tzif},
      {"system/boot.txt", K::boot_txt},
      {"system/kernels.tsv", K::kernels_tsv},
      {"system/pci-devices.tsv", K::pci_devices_tsv},
      {"system/lspci.txt", K::lspci},
      {"system/devices.txt", K::devices_txt},
      {"kernel/journal-b0.jsonl", K::journal_json},
      {"kernel/journal-b-1.jsonl", K::journal_json},
      {"kernel/boots.txt", K::boots_txt},
      {"kernel/boots.json", K::boots_json},
      {"kernel/dmesg.txt", K::dmesg},
      {"kernel/syslog/messages-20250301", K::syslog},
      {"kernel/syslog/kern.log", K::syslog},
      {"kernel/tainted", K::tainted},
      {"kernel/secure-boot.txt", K::secure_boot},
      {"modules/ascend-names.txt", K::ascend_module_names},
      {"modules/lsmod.txt", K::lsmod},
      {"modules/proc-modules.txt", K::proc_modules},
      {"modules/sysfs.tsv", K::module_sysfs_tsv},
      {"modules/tree.tsv", K::module_tree_tsv},
      {"modules/modinfo/5.10.0-136.12.0.86.aarch64/drv_pcie_host.txt", K::modinfo},
      {"modules/modprobe-deps/5.10.0/drv_devmm_host.txt", K::modprobe_show_depends},
      {"modules/modprobe-dry-run/drv_pcie_host.txt", K::modprobe_dry_run},
      {"modules/modules.dep.txt", K::modules_dep},
      {"modules/config/etc/modprobe.d/ascend.conf", K::modprobe_config},
      {"modules/initramfs-5.10.0.txt", K::initramfs_list},
      {"modules/dkms-status.txt", K::dkms_status},
      {"modules/dkms-tree.txt", K::dkms_tree},
      {"ascend/driver-version.info", K::driver_version_info},
      {"ascend/firmware-version.info", K::firmware_version_info},
      {"ascend/ascend_install.info", K::ascend_install_info},
      {"ascend/cann/index.tsv", K::cann_index_tsv},
      {"ascend/cann/c1/ascend_toolkit_install.info", K::cann_install_info},
      {"ascend/cann/c2/aarch64-linux/ascend_toolkit_install.info", K::cann_install_info},
      {"ascend/cann/c1/version.cfg", K::cann_version_cfg},
      {"ascend/cann/c1/runtime/version.info", K::cann_version_info},
      {"ascend/paths.tsv", K::ascend_paths_tsv},
      {"ascend/seclog/ascend_install.log", K::ascend_seclog},
      {"ascend/npu-smi-info.txt", K::npu_smi_info},
      {"ascend/npu-smi-map.txt", K::npu_smi_map},
      {"ascend/npu-smi-health-0-0.txt", K::npu_smi_health},
      {"ascend/npu-smi-usages-0-0.1.txt", K::npu_smi_usages},
      {"ascend/hccn.conf", K::hccn_conf},
      {"ascend/hccn-link-0.txt", K::hccn_link},
      {"ascend/device-logs/2024-02-20-17-07-25/slog/dev-os-0/debug/device-os/device-os_1.log", K::device_log_export},
      {"processes/618/cmdline", K::proc_cmdline},
      {"processes/618/environ", K::proc_environ},
      {"processes/618/maps", K::proc_maps},
      {"processes/618/status", K::proc_status},
      {"processes/618/stat", K::proc_stat},
      {"processes/618/mountinfo", K::proc_mountinfo},
      {"processes/618/cgroup", K::proc_cgroup},
      {"processes/618/fd.tsv", K::proc_fd_tsv},
      {"processes/618/exe.txt", K::proc_exe},
      {"processes/618/root.txt", K::proc_root},
      {"processes/618/tz.txt", K::proc_tz_txt},
      {"processes/618/localtime.tzif", K::localtime_tzif},
      {"processes/618/packages.tsv", K::packages_tsv},
      {"processes/618/torch_npu-version.py", K::torch_npu_version_py},
      {"processes/618/threads.1.txt", K::thread_sample},
      {"processes/618/pip-list.json", K::pip_list_json},
      {"python/packages.tsv", K::packages_tsv},
      {"python/pip-list.json", K::pip_list_json},
      {"python/pip-show.txt", K::pip_show},
      {"mounts/mountinfo.txt", K::mountinfo},
      {"logs/index.tsv", K::logs_index_tsv},
      {"logs/host/root/ascend/log/debug/plog/plog-901649_20260613170033666.log", K::plog},
      {"logs/mnt-4026532281/root/ascend/log/run/plog/plog-1039509_20260613174157987.log", K::plog},
      {"logs/host/root/ascend/log/debug/device-0/device-6495_20251222194004973.log", K::device_log},
      {"logs/host/var/log/npu/slog/host-0/host-0_20200904.log", K::plog},
      {"probes/rand.json", K::probe_json},
      {"probes/rand.stdout", K::probe_stdout},
      {"probes/rand.stderr", K::probe_stderr},
      {"probes/rand.status", K::probe_status},
      {"probes/rand.threads.txt", K::probe_threads},
      {"probes/logs/plog/plog-7_20250101000000000.log", K::plog},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    CHECK(to_string(layout_kind(c.path)) == to_string(c.kind));
  }
}

TEST_CASE("areas of original names leave the kind to the content", "[classify][layout]") {
  for (const char* path : {"logs/host/var/log/npu/other.txt", "extra/home/user/job.log",
                           "extra/anything.err", "probes/logs/x/y.txt"}) {
    INFO(path);
    auto m = match_layout(path);
    REQUIRE(m);
    CHECK(m->kind == SourceKind::unknown);
  }
  CHECK_FALSE(match_layout("notes.txt"));
  CHECK_FALSE(match_layout("system/unexpected.txt"));
}

TEST_CASE("classification order: layout path, then manifest, then content", "[classify]") {
  const std::string plog = "[ERROR] RUNTIME(1,python3):2025-03-06-01:09:07.262.154 [driver.cc:65]1 X:y\n";
  SECTION("the layout path wins over content") {
    auto c = classify_entry("kernel/dmesg.txt", plog, true, nullptr);
    CHECK(c.kind == SourceKind::dmesg);
    CHECK(c.by == ClassifiedBy::layout_path);
    CHECK(c.reason == "kernel/dmesg.txt");
  }
  SECTION("the manifest decides outside the layout") {
    ManifestItem item;
    item.path = "extra/out.txt";
    item.exec = {"timeout", "10", "dmesg", "-T"};
    auto c = classify_entry("extra/out.txt", plog, true, &item);
    CHECK(c.kind == SourceKind::dmesg_human);
    CHECK(c.by == ClassifiedBy::manifest);
    CHECK_THAT(c.reason, Catch::Contains("dmesg -T"));
  }
  SECTION("then the content") {
    auto c = classify_entry("extra/out.txt", plog, true, nullptr);
    CHECK(c.kind == SourceKind::plog);
    CHECK(c.by == ClassifiedBy::content_sniff);
    CHECK_THAT(c.reason, Catch::StartsWith("in extra/**: "));
  }
  SECTION("nothing matched: the reason says what was tried") {
    auto c = classify_entry("notes.txt", "hello\nworld\n", true, nullptr);
    CHECK(c.kind == SourceKind::unknown);
    CHECK(c.by == ClassifiedBy::none);
    CHECK_THAT(c.reason, Catch::Contains("no known format"));
  }
}

TEST_CASE("manifest items imply kinds by command or source path", "[classify][manifest]") {
  auto kind = [](std::vector<std::string> exec, std::string source = {}) {
    ManifestItem item;
    item.exec = std::move(exec);
    item.source = std::move(source);
    std::string why;
    auto k = kind_from_manifest_item(item, &why);
    return k ? std::string(to_string(*k)) : std::string("none");
  };
  CHECK(kind({"journalctl", "-k", "-b", "0", "-o", "json", "--all"}) == "journal_json");
  CHECK(kind({"journalctl", "--list-boots", "--utc"}) == "boots_txt");
  CHECK(kind({"journalctl", "--list-boots", "-o", "json"}) == "boots_json");
  CHECK(kind({"dmesg"}) == "dmesg");
  CHECK(kind({"/usr/bin/timeout", "-k", "5", "30", "npu-smi", "info", "-t", "health", "-i", "0"}) == "npu_smi_health");
  CHECK(kind({"npu-smi", "info", "-m"}) == "npu_smi_map");
  CHECK(kind({"npu-smi", "info"}) == "npu_smi_info");
  CHECK(kind({"modprobe", "-S", "5.10", "--show-depends", "drv_pcie_host"}) == "modprobe_show_depends");
  CHECK(kind({"modprobe", "-n", "-v", "drv_pcie_host"}) == "modprobe_dry_run");
  CHECK(kind({"env", "PIP_NO_CACHE_DIR=1", "python3", "-m", "pip", "list", "--format=json"}) == "pip_list_json");
  CHECK(kind({"sleep", "1"}) == "none");
  CHECK(kind({}, "/var/log/messages-20250301.gz") == "syslog");
  CHECK(kind({}, "/usr/local/Ascend/driver/version.info") == "driver_version_info");
  CHECK(kind({}, "/usr/local/Ascend/cann-8.5.0/opp/version.info") == "cann_version_info");
  CHECK(kind({}, "/root/ascend/log/debug/plog/plog-1_2.log") == "plog");
  CHECK(kind({}, "/proc/618/maps") == "proc_maps");
  CHECK(kind({}, "/home/user/notes.txt") == "none");
}

TEST_CASE("manifest index reads items and maps \\u00XX back to bytes", "[classify][manifest]") {
  ManifestIndex index;
  std::string error;
  REQUIRE(index.load_json(R"({"format": "ascend-bundle", "items": [
      {"path": "kernel/dmesg.txt", "exec": ["dmesg"], "status": "ok", "bytes": 12, "sha256": "ab"},
      {"path": "extra/\u00d6\u00b2.log", "source": "/home/\u00d6\u00b2.log", "exec": null, "status": "ok"},
      {"path": "system/devices.txt", "status": "absent", "bytes": null}]})",
                          &error));
  REQUIRE(index.items().size() == 3);
  const ManifestItem* d = index.find("kernel/dmesg.txt");
  REQUIRE(d);
  CHECK(d->bytes == 12);
  CHECK(d->exec == std::optional<std::vector<std::string>>{{"dmesg"}});
  CHECK(index.find(std::string("extra/\xd6\xb2.log")));
  CHECK(index.find("system/devices.txt")->status == ItemStatus::absent);
  CHECK_FALSE(index.find("nothing"));
}

TEST_CASE("a cut manifest keeps the items read before the cut", "[classify][manifest]") {
  ManifestIndex index;
  std::string error;
  CHECK(index.load_json(R"({"items": [{"path": "a", "status": "ok"}, {"path": "b", "sta)", &error));
  CHECK(index.find("a"));
  ManifestIndex lines;
  CHECK(lines.load_jsonl("{\"path\": \"a\", \"status\": \"ok\"}\n{\"path\": \"b\"", &error));
  CHECK(lines.items().size() == 1);  // the partial last line is dropped
}
