// kernel-driver-error on in-memory kernel events.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "correlator/analyses/kernel_driver_error.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

KernelEvent printk(std::string module, std::string function, std::string message, double uptime,
                   bool error_tag = false) {
  KernelEvent e;
  AscendPrintk a;
  a.module = std::move(module);
  a.function = std::move(function);
  a.message = message;
  a.error_tag = error_tag;
  e.ascend = a;
  e.message = message;
  e.uptime_s = uptime;
  e.evidence = make_evidence("kernel/dmesg.txt", static_cast<uint64_t>(uptime), 0, message);
  return e;
}

std::vector<Finding> run(const BundleFacts& b) { return testing::run_analysis(analyze_kernel_driver_error, b); }

}  // namespace

TEST_CASE("kernel-driver-error: grouped by module and function with counts and times", "[kernel_driver]") {
  BundleFacts b;
  b.logs.kernel_events.push_back(printk("drv_pcie", "devdrv_sync_non_trans_msg_send",
                                        "Device is abnormal.", 456.343559));
  b.logs.kernel_events.push_back(printk("devdrv", "devdrv_refresh_aicore_info_work",
                                        "devdrv_manager_send_msg unsuccessful.", 456.365571));
  b.logs.kernel_events.push_back(printk("drv_pcie", "devdrv_sync_non_trans_msg_send",
                                        "Device is abnormal.", 460.0));
  b.logs.kernel_events.push_back(printk("devmm", "devmm_pin_user_pages_fast",
                                        "Get_user_pages_fast fail.", 470.0, true));
  KernelEvent fm;
  fm.fault_manager = true;
  fm.message = "[fault_manager] event_id: [0x80C98001]";
  fm.evidence = make_evidence("kernel/dmesg.txt", 500, 0, fm.message);
  b.logs.kernel_events.push_back(fm);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  const Finding& f = out[0];
  CHECK(f.id == "kernel-driver-error");
  CHECK(f.severity == Severity::error);  // device abnormal
  CHECK(*f.find_value("lines") == "5");
  CHECK(*f.find_value("groups") == "4");
  CHECK(f.observed.find("[drv_pcie] devdrv_sync_non_trans_msg_send: 2 line(s), first 456.344 s after boot, "
                        "last 460.000 s after boot") != std::string::npos);
  CHECK(f.evidence.size() == 5);
}

TEST_CASE("kernel-driver-error: success lines, module load failures and non-Ascend lines are not errors",
          "[kernel_driver]") {
  BundleFacts b;
  b.logs.kernel_events.push_back(printk("devdrv", "devdrv_device_startup_work", "Device startup success.", 10));
  b.logs.kernel_events.push_back(printk("davinci_intf", "drv_davinci_intf_sub_call_release",
                                        "Release module success.", 11));
  KernelEvent load;
  load.message = "drv_pcie_host: Unknown symbol soc_platform_get_chip_info (err -2)";
  load.module_failure = ModuleLoadFailure{};
  b.logs.kernel_events.push_back(load);
  KernelEvent other;
  other.message = "usb 1-1: device descriptor read error";
  b.logs.kernel_events.push_back(other);
  CHECK(run(b).empty());
}

TEST_CASE("kernel-driver-error: an [ERROR] tag alone makes a warning", "[kernel_driver]") {
  BundleFacts b;
  b.logs.kernel_events.push_back(printk("devmm", "devmm_ioctl_alloc", "Alloc page.", 3, true));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].severity == Severity::warning);
}

TEST_CASE("kernel-driver-error: a heartbeat loss names its device and the device's check", "[kernel_driver]") {
  // mind-cluster-faultdiag-testdata-messages-heartbeat-lost (drv_soft_fault heart_beat_judge)
  BundleFacts b;
  KernelEvent e = printk("drv_soft_fault", "heart_beat_judge", "Heartbeat lost!", 1197.584409, true);
  e.ascend->values = {{"device", "1"}, {"old_count", "1104"}, {"new_count", "1104"}, {"lost_count", "4"}};
  b.logs.kernel_events.push_back(e);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].severity == Severity::error);
  CHECK(*out[0].find_value("devices") == "1");
  CHECK(out[0].observed.find("Device(s) the driver lost or found abnormal: 1.") != std::string::npos);
  bool named = false;
  for (const auto& c : out[0].next_checks) named = named || c.find("<npu of device 1>") != std::string::npos;
  CHECK(named);
  // Near miss: a non-severe error line with a device value names no device.
  BundleFacts quiet;
  KernelEvent q = printk("devmm", "devmm_pin_user_pages_fast", "Get_user_pages_fast fail.", 470.0, true);
  q.ascend->values = {{"device", "2"}};
  quiet.logs.kernel_events.push_back(q);
  auto none = run(quiet);
  REQUIRE(none.size() == 1);
  CHECK(none[0].find_value("devices") == nullptr);
}

TEST_CASE("kernel-driver-error: lines with no absolute time keep the order they were read in", "[kernel_driver]") {
  // tests/data/real/mind-cluster-faultdiag-testdata-messages-heartbeat-lost/messages.txt: syslog
  // lines with no year and one uptime. First and last were taken in the dedupe's message-hash
  // order (last: the device 1000 line; devices "1, 10000, 1000").
  std::string text;
  int day = 1;
  for (const char* device : {"1", "1000", "10000"})
    text += fmt::format("Aug  {} 08:38:31 localhost kernel: [ 1197.584409] [ascend] [ERROR] [drv_soft_fault] "
                        "[heart_beat_judge 318] <kworker/5:1H:39365> Heartbeat lost! (device={}; old_count=1104; "
                        "new_count=1104; lost_count=4; total_lost_count=4; total_10s_count=0; total_15s_count 0).\n",
                        day++, device);
  Report r = triage::testing::analyze_one("messages.txt", text);
  const Finding* f = triage::testing::find_finding(r.findings, "kernel-driver-error");
  REQUIRE(f);
  CHECK(*f->find_value("devices") == "1, 1000, 10000");
  REQUIRE(f->evidence.size() == 2);
  CHECK(f->evidence[0].line == 1);
  CHECK(f->evidence[1].line == 3);
}
