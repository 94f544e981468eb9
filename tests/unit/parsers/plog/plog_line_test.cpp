// Hand-written expected fields for one line of each plog shape of Format notes A
// (real-log-excerpts.md), and malformed / hostile lines.
#include <catch2/catch.hpp>
#include <deque>
#include <random>
#include <string>

#include "parsers/plog/plog_line.h"

using namespace triage;

namespace {

struct Expected {
  std::string level, module, pid, name, time, file, line, tid, function, message;
};

// The views point into the text: keep every test line alive for the whole run.
PlogLine parse_ok(const std::string& line) {
  static std::deque<std::string> keep;
  const std::string& text = keep.emplace_back(line);
  PlogLine p;
  INFO(text);
  REQUIRE(parse_plog_line(text, p) == PlogResult::parsed);
  return p;
}

void check(const PlogLine& p, const Expected& e) {
  CHECK(p.level == e.level);
  CHECK(p.module == e.module);
  CHECK(p.pid == e.pid);
  CHECK(p.process_name == e.name);
  CHECK(p.time_text == e.time);
  CHECK(p.file == e.file);
  CHECK(p.line == e.line);
  CHECK(p.tid == e.tid);
  CHECK(p.function == e.function);
  CHECK(p.message == e.message);
}

}  // namespace

TEST_CASE("plog: RUNTIME with the thread id glued to the file marker, behind a grep -n prefix", "[plog_line]") {
  // 1.2
  auto p = parse_ok(
      "/root/ascend/log/debug/plog/plog-901649_20260613170033666.log:11:[ERROR] "
      "RUNTIME(901649,aiv_aicpu_bench):2026-06-13-17:00:33.666.168 [api_c_stream.cc:161]901649 "
      "rtStreamSynchronize:ErrCode=507018, desc=[aicpu exception], InnerCode=0x715002a");
  check(p, {"ERROR", "RUNTIME", "901649", "aiv_aicpu_bench", "2026-06-13-17:00:33.666.168",
            "api_c_stream.cc", "161", "901649", "rtStreamSynchronize",
            "ErrCode=507018, desc=[aicpu exception], InnerCode=0x715002a"});
  CHECK(p.shape == PlogShape::tid_glued);
  CHECK(p.prefix_style == PlogPrefix::grep_n);
  CHECK(p.prefix == "/root/ascend/log/debug/plog/plog-901649_20260613170033666.log:11:");
  CHECK(p.level_id == PlogLevel::error);
  CHECK(p.pid_value == 901649);
  CHECK(p.tid_value == 901649);
  CHECK(p.line_value == 161);
  CHECK(p.time.year == 2026);
  CHECK(p.time.month == 6);
  CHECK(p.time.day == 13);
  CHECK(p.time.hour == 17);
  CHECK(p.time.minute == 0);
  CHECK(p.time.second == 33);
  CHECK(p.time.micros == 666168);
}

TEST_CASE("plog: RUNTIME with a blank before the thread id (doc sample)", "[plog_line]") {
  // 1.1
  auto p = parse_ok(
      "[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.526 [device_error_proc.cc:1421] 3813 "
      "ProcessStarsCoreErrorInfo: report error module_type=5, module_name=EZ9999");
  check(p, {"ERROR", "RUNTIME", "3813", "python3", "2025-01-10-17:53:52.846.526",
            "device_error_proc.cc", "1421", "3813", "ProcessStarsCoreErrorInfo",
            "report error module_type=5, module_name=EZ9999"});
  CHECK(p.shape == PlogShape::tid_spaced);
}

TEST_CASE("plog: GE with ErrorNo and a truncated vLLM process name", "[plog_line]") {
  // 1.17
  auto p = parse_ok(
      "[ERROR] GE(1254,ker_DP25_EP25):2025-12-19-15:50:06.805.807 [error_tracking.cc:113]1254 "
      "ErrorTrackingCallback: ErrorNo: 4294967295(failed) Error happened, origin_op_name "
      "[MoeDistributeCombineV2_48], op_name [MoeDistributeCombineV2_48], task_id 804, stream_id 1634.");
  check(p, {"ERROR", "GE", "1254", "ker_DP25_EP25", "2025-12-19-15:50:06.805.807",
            "error_tracking.cc", "113", "1254", "ErrorTrackingCallback",
            "ErrorNo: 4294967295(failed) Error happened, origin_op_name [MoeDistributeCombineV2_48], "
            "op_name [MoeDistributeCombineV2_48], task_id 804, stream_id 1634."});
}

TEST_CASE("plog: ASCENDCL line", "[plog_line]") {
  // 1.6
  auto p = parse_ok(
      "[ERROR] ASCENDCL(618,python3):2025-03-06-01:09:07.262.594 [device.cpp:342]618 "
      "aclrtGetDeviceCount: get device count failed, runtime result = 507899.");
  check(p, {"ERROR", "ASCENDCL", "618", "python3", "2025-03-06-01:09:07.262.594", "device.cpp",
            "342", "618", "aclrtGetDeviceCount", "get device count failed, runtime result = 507899."});
}

TEST_CASE("plog: APP (torch_npu) line names its source function after the path", "[plog_line]") {
  // 1.6
  auto p = parse_ok(
      "[ERROR] APP(618,python3):2025-03-06-01:09:07.262.746 [log_inner.cpp:76]618 "
      "build/CMakeFiles/torch_npu.dir/compiler_depend.ts:device_count:25: \"[PTA]:\"get device "
      "count of NPU failed\"\"");
  check(p, {"ERROR", "APP", "618", "python3", "2025-03-06-01:09:07.262.746", "log_inner.cpp", "76",
            "618", "device_count", "\"[PTA]:\"get device count of NPU failed\"\""});
  CHECK(p.tags == "build/CMakeFiles/torch_npu.dir/compiler_depend.ts");
}

TEST_CASE("plog: HCCL with an empty process name and [TID][Func]", "[plog_line]") {
  // 1.7
  auto p = parse_ok(
      "[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] "
      "[60570][HcclSocket][Listen] socket type[0], listen on ip[192.2.2.195] and specific "
      "port[16666] fail. Please check the port status and whether the port is being used by other process.");
  check(p, {"ERROR", "HCCL", "60570", "", "2025-12-04-14:46:07.911.312", "hccl_socket.cc", "106",
            "60570", "HcclSocket",
            "[Listen] socket type[0], listen on ip[192.2.2.195] and specific port[16666] fail. "
            "Please check the port status and whether the port is being used by other process."});
  CHECK(p.shape == PlogShape::hccl);
}

TEST_CASE("plog: HCCL INFO with a file tag before the function", "[plog_line]") {
  // 1.6
  auto p = parse_ok(
      "[INFO] HCCL(618,python3):2025-03-06-01:09:07.071.734 [adapter_rts.cc:2646][618]"
      "[adapter_rts.cc][CallBackInitRts] g_deviceType [6] g_deviceLogicId [-1] g_devicePhyId [-1]");
  check(p, {"INFO", "HCCL", "618", "python3", "2025-03-06-01:09:07.071.734", "adapter_rts.cc",
            "2646", "618", "CallBackInitRts",
            "g_deviceType [6] g_deviceLogicId [-1] g_devicePhyId [-1]"});
}

TEST_CASE("plog: 2022 HCCL with group tags and no thread id", "[plog_line]") {
  // 1.12
  auto p = parse_ok(
      "[ERROR] HCCL(17381,python):2022-12-01-03:02:29.001.054 [network_manager.cc:64]"
      "[hccl-17381-0-1669834948-hccl_world_group][0]call trace: ret -> 7");
  check(p, {"ERROR", "HCCL", "17381", "python", "2022-12-01-03:02:29.001.054", "network_manager.cc",
            "64", "", "", "call trace: ret -> 7"});
  CHECK(p.shape == PlogShape::tagged);
  CHECK(p.tags == "[hccl-17381-0-1669834948-hccl_world_group][0]");
}

TEST_CASE("plog: HCCP tid:N,func : message", "[plog_line]") {
  // 1.7
  auto p = parse_ok(
      "[ERROR] HCCP(60570,):2025-12-04-14:46:07.911.348 [ra_peer.c:879]tid:60570,ra_peer_get_ifnum : "
      "[get][ra_peer_ifnum]rs_peer_get_ifnum failed(-22)");
  check(p, {"ERROR", "HCCP", "60570", "", "2025-12-04-14:46:07.911.348", "ra_peer.c", "879",
            "60570", "ra_peer_get_ifnum", "[get][ra_peer_ifnum]rs_peer_get_ifnum failed(-22)"});
  CHECK(p.shape == PlogShape::hccp);
}

TEST_CASE("plog: TDT [Func][tid:N]", "[plog_line]") {
  // 1.2 (run plog)
  auto p = parse_ok(
      "/root/ascend/log/run/plog/plog-1039509_20260613174157987.log:58:[WARNING] "
      "TDT(1039509,aiv_aicpu_bench):2026-06-13-17:41:58.389.948 [process_mode_manager.cpp:2318]"
      "[LoadPackageToDeviceByConfig][tid:1039509] cannot find package:Ascend310P-aicpu_legacy.tar.gz, "
      "optional is true skip");
  check(p, {"WARNING", "TDT", "1039509", "aiv_aicpu_bench", "2026-06-13-17:41:58.389.948",
            "process_mode_manager.cpp", "2318", "1039509", "LoadPackageToDeviceByConfig",
            "cannot find package:Ascend310P-aicpu_legacy.tar.gz, optional is true skip"});
  CHECK(p.level_id == PlogLevel::warning);
  CHECK(p.shape == PlogShape::func_tid);
}

TEST_CASE("plog: IDEDD [tid:N] without a function tag", "[plog_line]") {
  // 1.5
  auto p = parse_ok(
      "[ERROR] IDEDD(4028848,aicore_error_locate):2026-09-22-14:54:51.636.331 [kernel_pc_fixer.cpp:102]"
      "[tid:4028877] [Dump][Exception] Fix PC with module=CUBE, originalPC=0x124000000500, "
      "fixedPC=0x1240000004ec.");
  check(p, {"ERROR", "IDEDD", "4028848", "aicore_error_locate", "2026-09-22-14:54:51.636.331",
            "kernel_pc_fixer.cpp", "102", "4028877", "",
            "[Dump][Exception] Fix PC with module=CUBE, originalPC=0x124000000500, fixedPC=0x1240000004ec."});
}

TEST_CASE("plog: AICPU with a module tag before the function", "[plog_line]") {
  // 1.29
  auto p = parse_ok(
      "debug/device-0/device-1927_20230406202333033.log:147:[ERROR] AICPU(3480,aicpu_scheduler):"
      "2023-04-06-20:24:34.559.758 [kernel_util.cc:101][AICPU][operator():101][tid:3543]:device_id:0, "
      "queue_name:12658048656348665736");
  check(p, {"ERROR", "AICPU", "3480", "aicpu_scheduler", "2023-04-06-20:24:34.559.758",
            "kernel_util.cc", "101", "3543", "operator():101",
            "device_id:0, queue_name:12658048656348665736"});
  CHECK(p.tags == "[AICPU]");
}

TEST_CASE("plog: CCECPU device log with a sub-tag after the thread id", "[plog_line]") {
  // 1.18
  auto p = parse_ok(
      "[ERROR] CCECPU(5670,aicpu_scheduler):2025-12-22-19:40:01.899.541 "
      "[ae_kernel_lib_aicpu_kfc.cpp:105][CallKernelApi][tid:5680][AICPU_PROCESSER] Get KFC DynTileFwkKe");
  check(p, {"ERROR", "CCECPU", "5670", "aicpu_scheduler", "2025-12-22-19:40:01.899.541",
            "ae_kernel_lib_aicpu_kfc.cpp", "105", "5680", "CallKernelApi",
            "[AICPU_PROCESSER] Get KFC DynTileFwkKe"});
}

TEST_CASE("plog: PROFILING EVENT with >>> (tid:N)", "[plog_line]") {
  // 1.6
  auto p = parse_ok(
      "[EVENT] PROFILING(618,python3):2025-03-06-01:09:06.978.203 [msprof_callback_impl.cpp:336] >>> "
      "(tid:618) Started to register profiling ctrl callback.");
  check(p, {"EVENT", "PROFILING", "618", "python3", "2025-03-06-01:09:06.978.203",
            "msprof_callback_impl.cpp", "336", "618", "", "Started to register profiling ctrl callback."});
  CHECK(p.level_id == PlogLevel::event);
  CHECK(p.shape == PlogShape::profiling);
}

TEST_CASE("plog: ATRACE with (tid:N) glued to the marker", "[plog_line]") {
  auto p = parse_ok(
      "[ERROR] ATRACE(618,python3):2025-03-06-01:09:06.981.451 [trace_driver_api.c:56](tid:618) get "
      "platform info failed, drvErr=87.");
  check(p, {"ERROR", "ATRACE", "618", "python3", "2025-03-06-01:09:06.981.451", "trace_driver_api.c",
            "56", "618", "", "get platform info failed, drvErr=87."});
}

TEST_CASE("plog: DRV 2023 form [ascend][curpid: PID, TID]...[func LINE]", "[plog_line]") {
  // 1.3
  auto p = parse_ok(
      "[ERROR] DRV(69072,python3):2025-03-18-14:35:48.599.331 [ascend][curpid: 69072, 69072][drv]"
      "[devmm][_devmm_mem_remote_map 1888]<errno:22, 8> Mem_remote_map ioctl error. "
      "(src_va=0x124080000000; size=4194304; devid=0; ret=8)");
  check(p, {"ERROR", "DRV", "69072", "python3", "2025-03-18-14:35:48.599.331", "", "1888", "69072",
            "_devmm_mem_remote_map",
            "<errno:22, 8> Mem_remote_map ioctl error. (src_va=0x124080000000; size=4194304; devid=0; ret=8)"});
  CHECK(p.tags == "[drv][devmm]");
  CHECK(p.shape == PlogShape::drv);
}

TEST_CASE("plog: DRV 2025 form with a file marker and [curpid:PID,TID]", "[plog_line]") {
  // Format notes A (no verbatim sample in the excerpts; shape as documented)
  auto p = parse_ok(
      "[ERROR] DRV(1234,python3):2025-06-01-10:00:00.000.001 [drv_log_user.c:621][ascend]"
      "[curpid:1234,1240][drv][devmm][devmm_ioctl_alloc]Alloc failed. (ret=6)");
  check(p, {"ERROR", "DRV", "1234", "python3", "2025-06-01-10:00:00.000.001", "drv_log_user.c", "621",
            "1240", "devmm_ioctl_alloc", "Alloc failed. (ret=6)"});
  CHECK(p.tags == "[drv][devmm]");
}

TEST_CASE("plog: DRV dmp form and a process name with a blank", "[plog_line]") {
  // 1.31
  auto p = parse_ok(
      "[ERROR] DRV(9,npu-smi):2025-03-29-11:21:16.865.482 [dm_udp.c:91][dmp] [__dm_send_msg 91] "
      "sendmsg fail:2.");
  check(p, {"ERROR", "DRV", "9", "npu-smi", "2025-03-29-11:21:16.865.482", "dm_udp.c", "91", "",
            "__dm_send_msg", "sendmsg fail:2."});
  CHECK(p.shape == PlogShape::drv_tagged);
  auto q = parse_ok(
      "  [ERROR] DRV(28499, hccp_service.bin):2026-02-09-11:36:23.530.484 [devdrv_pcie.c:1064][devmng]"
      "[drvGetDeviceDevIDByHostDevID 1064] invalid host device id 65535");
  check(q, {"ERROR", "DRV", "28499", "hccp_service.bin", "2026-02-09-11:36:23.530.484",
            "devdrv_pcie.c", "1064", "", "drvGetDeviceDevIDByHostDevID", "invalid host device id 65535"});
  CHECK(q.prefix_style == PlogPrefix::whitespace);
}

TEST_CASE("plog: 2021 TDT with the real source at the end", "[plog_line]") {
  // 1.26
  auto p = parse_ok(
      "[EVENT] TDT(14534,image_classification_demo):2021-12-17-13:12:31.408.884 [log.cpp:148]"
      "VersionVerify: previous type[7], supported,[version_verify.cpp:106:SpecialFeatureCheck]14534");
  check(p, {"EVENT", "TDT", "14534", "image_classification_demo", "2021-12-17-13:12:31.408.884",
            "version_verify.cpp", "106", "14534", "SpecialFeatureCheck",
            "VersionVerify: previous type[7], supported"});
  CHECK(p.shape == PlogShape::tdt_trailing);
}

TEST_CASE("plog: TSCH firmware lines with (-1,null)", "[plog_line]") {
  // 1.24
  auto p = parse_ok(
      "[ERROR] TSCH(-1,null):2023-01-01-02:53:45.850.781 1 (dieid:0,cpuid:0) "
      "device_management_plat.c:563 suspend_ack: suspend pre check fail, hwts is busy");
  check(p, {"ERROR", "TSCH", "-1", "null", "2023-01-01-02:53:45.850.781", "device_management_plat.c",
            "563", "", "suspend_ack", "suspend pre check fail, hwts is busy"});
  CHECK(p.pid_value == -1);
  CHECK(p.sequence == "1");
  CHECK(p.tags == "(dieid:0,cpuid:0)");
  CHECK(p.shape == PlogShape::tsch);
  // 2020 form without dieid
  auto q = parse_ok(
      "[ERROR] TSCH(-1,null):2020-09-04-21:51:13.452.762 63696 (cpuid:0) task_scheduler_engine.c:707 "
      "proc_model_stream_unbind: unbind model stream failed, stream is running. stream->model_id=512, "
      "model_id=512, task.sq_id=514, task.task_id=3");
  CHECK(q.function == "proc_model_stream_unbind");
  CHECK(q.sequence == "63696");
  CHECK(q.file == "task_scheduler_engine.c");
}

TEST_CASE("plog: device KERNEL line re-logged by sklogd", "[plog_line]") {
  // 1.19
  auto p = parse_ok(
      "[ERROR] KERNEL(5044,sklogd):2024-07-29-10:33:22.646.284 [klogd.c:247][257382.266124] [ascend] "
      "[ERROR] [devmm] [devmm_svm_device_fault 468] <kworker/u16:2:14887,14887> Vm fault failed. "
      "(hostpid=2131021; devid=0; vfid=0; ret=64; fault_addr=0x12c700300000; start=0x12c700300000)");
  check(p, {"ERROR", "KERNEL", "5044", "sklogd", "2024-07-29-10:33:22.646.284", "klogd.c", "247", "",
            "",
            "[ascend] [ERROR] [devmm] [devmm_svm_device_fault 468] <kworker/u16:2:14887,14887> Vm fault "
            "failed. (hostpid=2131021; devid=0; vfid=0; ret=64; fault_addr=0x12c700300000; start=0x12c700300000)"});
  CHECK(p.sequence == "257382.266124");
  CHECK(p.shape == PlogShape::klogd);
}

TEST_CASE("plog: path-style file markers and [file: line]", "[plog_line]") {
  // 1.21 and 1.14
  auto p = parse_ok(
      "[ERROR] RUNTIME(8953,None):2020-12-24-01:10:54.177.528 [../../../../../../runtime/feature/src/"
      "task.cc:544]8958 PrintErrorInfo:execute failed, fault kernel_name=-1_0_1_trans_TransData_0, ");
  check(p, {"ERROR", "RUNTIME", "8953", "None", "2020-12-24-01:10:54.177.528",
            "../../../../../../runtime/feature/src/task.cc", "544", "8958", "PrintErrorInfo",
            "execute failed, fault kernel_name=-1_0_1_trans_TransData_0,"});
  auto q = parse_ok(
      "[ERROR] RUNTIME(13489,rtstest_host):2020-10-29-05:26:01.002.050 [runtime/feature/src/"
      "npu_driver.cc: 102]13489 StreamIdAlloc:drvStreamIdAlloc failed: errorcode=17, device_id=0, tsId=0, strategy=0");
  check(q, {"ERROR", "RUNTIME", "13489", "rtstest_host", "2020-10-29-05:26:01.002.050",
            "runtime/feature/src/npu_driver.cc", "102", "13489", "StreamIdAlloc",
            "drvStreamIdAlloc failed: errorcode=17, device_id=0, tsId=0, strategy=0"});
}

TEST_CASE("plog: a blank instead of the dash between date and time", "[plog_line]") {
  // Format notes A: "2025-12-13 12:15:25.025.554" (CANN 8.5-era samples)
  auto p = parse_ok(
      "[INFO] HCCL(2001,python3):2025-12-13 12:15:25.025.554 [hccl_comm.cc:88] [2001][InitGroup]"
      "group created");
  CHECK(p.time_text == "2025-12-13 12:15:25.025.554");
  CHECK(p.time_separator == ' ');
  CHECK(p.time.hour == 12);
  CHECK(p.time.micros == 25554);
  CHECK(p.function == "InitGroup");
}

TEST_CASE("plog: awatchdog header", "[plog_line]") {
  // Format notes A
  auto p = parse_ok(
      "[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) watchdog timeout, dogId 65584, timeout : 3s");
  check(p, {"INFO", "", "2241703", "", "", "awatchdog_monitor.c", "145", "2245407", "",
            "watchdog timeout, dogId 65584, timeout : 3s"});
  CHECK(p.shape == PlogShape::awatchdog);
  CHECK_FALSE(p.has_time);
}

TEST_CASE("plog: old runtime line without a timestamp", "[plog_line]") {
  // 1.21 (quoted inline)
  auto p = parse_ok("[ERROR] RUNTIME(8532)kernel task happen error, retCode=0x26, [aicore exception].");
  CHECK(p.shape == PlogShape::no_time);
  CHECK(p.pid == "8532");
  CHECK(p.message == "kernel task happen error, retCode=0x26, [aicore exception].");
  CHECK_FALSE(p.has_time);
}

TEST_CASE("plog: grep -H prefix and a plog line inside another program's stdout", "[plog_line]") {
  auto p = parse_ok(
      "run/plog/plog-1_2.log:[INFO] RUNTIME(1,python3):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:m");
  CHECK(p.prefix_style == PlogPrefix::grep_h);
  CHECK(p.function == "F");
  auto q = parse_ok(
      "(Worker pid=7) [ERROR] RUNTIME(7,python3):2025-01-01-00:00:00.000.001 [a.cc:1]7 F:stuck");
  CHECK(q.prefix_style == PlogPrefix::embedded);
  CHECK(q.prefix == "(Worker pid=7) ");
  CHECK(q.message == "stuck");
}

TEST_CASE("plog: a byte-order mark before the first header is no prefix", "[plog_line]") {
  auto p = parse_ok("\xEF\xBB\xBF[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:m");
  CHECK(p.prefix_style == PlogPrefix::none);
  CHECK(p.level == "INFO");
}

TEST_CASE("plog: other programs' bracketed levels are not plog lines", "[plog_line]") {
  PlogLine p;
  for (const char* s : {
           "[INFO]  acl init success",
           "[ERROR] Exception Type: exception invalid error",
           "[ERROR]Dkms install failed, details in : var/log/ascend_seclog/ascend_install.log",
           "[CRITICAL] DEVICE(17381,ffff890145d0,python):2022-12-01-03:02:29.011.280 "
           "[mindspore/ccsrc/runtime/device/kernel_runtime.cc:124] LockRuntime] The pointer[stream] is null.",
           "[ERROR] DEVICE(17381,ffff890145d0,python):2022-12-01-03:02:29.011.608 "
           "[mindspore/ccsrc/runtime/device/kernel_runtime_manager.cc:138] WaitTaskFinishOnDevice] x",
           "", "plain text", "[", "[]", "[ERROR]", "Traceback (most recent call last):"}) {
    INFO(s);
    CHECK(parse_plog_line(s, p) == PlogResult::not_plog);
  }
}

TEST_CASE("plog: broken headers are malformed", "[plog_line]") {
  PlogLine p;
  const char* cases[] = {
      "[ERROR] RUNTIME(4176881,python3.7):YYYY\xe2\x80\x91MM\xe2\x80\x91""DD\xe2\x80\x91HH:MM:SS.fff.uuu "
      "[error_message_manage.cc:53]4176881 FuncErrorReason:x",
      "[ERROR] AICPU(pid,pName):DateTimeMS [dvpp_timeout_manager.cc:33][OnPulse][tid:2581] x",
      "[ERROR] RUNTIME(1,python3):2024-01-29-19:2856.519.920 [a.cc:1]1 F:x",
      "[ERROR] RUNTIME(1,python3):2024-13-29-19:28:56.519.920 [a.cc:1]1 F:x",
      "[ERROR] RUNTIME(1,python3):2024-01-29-19:28:56.519.920",
      "[ERROR] RUNTIME(1,python3):2024-01-29-19:28:56.519.920 [a.cc",
      "[ERROR] RUNTIME(1,python3):2024-01-29-19:28:56.519.920 message without marker",
      "[ERROR] RUNTIME(1,python3",
      "[ERROR] RUNTIME(",
  };
  for (const char* s : cases) {
    INFO(s);
    CHECK(parse_plog_line(s, p) == PlogResult::malformed);
    CHECK(std::string(p.malformed_reason) != "");
  }
}

TEST_CASE("plog: every prefix of a real line is handled without crashing", "[plog_line]") {
  std::string lines[] = {
      "[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.403 [device_error_proc.cc:1409] 3813 "
      "ProcessStarsCoreErrorInfo:[INIT][DEFAULT]report error module_type=5, module_name=EZ9999",
      "[ERROR] DRV(69072,python3):2025-03-18-14:35:48.599.331 [ascend][curpid: 69072, 69072][drv][devmm]"
      "[_devmm_mem_remote_map 1888]<errno:22, 8> Mem_remote_map ioctl error. (src_va=0x1; ret=8)",
      "[EVENT] TDT(14534,d):2021-12-17-13:12:31.408.845 [log.cpp:148][TsdClient] Close,[tsd_client.cpp:1002:Close]14534",
      "[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012 f: x",
      "[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) watchdog timeout"};
  PlogLine p;
  size_t parsed = 0, malformed = 0, other = 0;
  for (const auto& l : lines) {
    for (size_t n = 0; n <= l.size(); ++n) {
      switch (parse_plog_line(std::string_view(l).substr(0, n), p)) {
        case PlogResult::parsed: ++parsed; break;
        case PlogResult::malformed: ++malformed; break;
        case PlogResult::not_plog: ++other; break;
      }
    }
  }
  CHECK(parsed + malformed + other == [&] {
    size_t t = 0;
    for (const auto& l : lines) t += l.size() + 1;
    return t;
  }());
  CHECK(malformed > 100);  // a header cut anywhere after "[LEVEL] MODULE(" is malformed
  CHECK(parsed > 100);     // a line cut inside its message still parses
}

TEST_CASE("plog: random bytes and NULs never crash the line parser", "[plog_line]") {
  std::mt19937 rng(42);
  std::string base =
      "[ERROR] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:report three minutes timeout!";
  PlogLine p;
  for (int i = 0; i < 20000; ++i) {
    std::string s = base;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    (void)parse_plog_line(s, p);
  }
  SUCCEED();
}

TEST_CASE("plog: a file's dialect locks onto its first parsed line", "[plog_line]") {
  PlogDialect d;
  PlogLine p;
  std::string a = "x.log:1:[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:m";
  std::string b = "x.log:2:[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.002 [a.cc:1]1 F:m";
  std::string c = "[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.003 [a.cc:1]1 F:m";
  CHECK(d.parse(a, p) == PlogResult::parsed);
  CHECK(d.locked());
  CHECK(d.prefix() == PlogPrefix::grep_n);
  CHECK(d.parse(b, p) == PlogResult::parsed);
  CHECK(d.off_variant_lines() == 0);
  CHECK(d.parse(c, p) == PlogResult::parsed);  // still read, counted as off-variant
  CHECK(d.off_variant_lines() == 1);
  CHECK(d.parse("random stdout text", p) == PlogResult::not_plog);
}

TEST_CASE("plog: HCCL time with a colon before the milliseconds (vllm-ascend #2618)", "[plog_line]") {
  auto p = parse_ok(
      "[ERROR] HCCL(164818,python):2025-08-27-20:10:17:012.780 [topoinfo_ranktableConcise.cc:169][166173]"
      "[Parse][ClusterInfo]ranktable config devId[1], but local devId[3]");
  CHECK(p.module == "HCCL");
  CHECK(p.pid == "164818");
  CHECK(p.time_text == "2025-08-27-20:10:17:012.780");
  CHECK(p.time.second == 17);
  CHECK(p.time.micros == 12780);
  CHECK(p.file == "topoinfo_ranktableConcise.cc");
  // Near misses: a colon group without the microsecond group, or too short, is not a time.
  PlogLine q;
  std::string a = "[ERROR] HCCL(164818,python):2025-08-27-20:10:17:012 [x.cc:1][1]m";
  CHECK(parse_plog_line(a, q) != PlogResult::parsed);
  std::string b = "[ERROR] HCCL(164818,python):2025-08-27-20:10:17:01.780 [x.cc:1][1]m";
  CHECK(parse_plog_line(b, q) != PlogResult::parsed);
}

TEST_CASE("plog line: device-side IMP record, a blank before the time and no source file",
          "[plog][line]") {
  // MindCluster faultdiag testdata, hisi_logs device-1 lockup
  PlogLine p;
  REQUIRE(parse_plog_line("[EVENT] IMP(-2,IMP): 2024-12-04-08:21:54.994.714 70 (device_id:1 die_id:0) "
                          "[IMP] present 1, mac_link 1, pcs_link 1, rf_lf 1, pcs_err_cnt 5, pcs_64_66b 4681",
                          p) == PlogResult::parsed);
  CHECK(p.module == "IMP");
  CHECK(p.pid_value == -2);
  CHECK(p.time_text == "2024-12-04-08:21:54.994.714");
  CHECK(p.tags == "(device_id:1 die_id:0)");
  CHECK(p.message.starts_with("[IMP] present 1"));
  // near misses: two blanks before the time, and a firmware body with neither file nor tags
  CHECK(parse_plog_line("[EVENT] IMP(-2,IMP):  2024-12-04-08:21:54.994.714 70 x", p) == PlogResult::malformed);
  CHECK(parse_plog_line("[EVENT] IMP(-2,IMP): 2024-12-04-08:21:54.994.714 70 [IMP] present 1", p) ==
        PlogResult::malformed);
}

TEST_CASE("plog: a documentation page's elided time is read as a line without a time", "[plog_line]") {
  // mind-cluster-docs-ray-head-drvgetdevnum-507899: the page printed `...` for the time
  auto p = parse_ok("[ERROR] RUNTIME(38734,python3): ... [driver.cc:64]38734 GetDeviceCount:Call drvGetDevNum, drvRetCode=7.");
  CHECK_FALSE(p.has_time);
  CHECK(p.time_text.empty());
  CHECK(p.module == "RUNTIME");
  CHECK(p.pid == "38734");
  CHECK(p.file == "driver.cc");
  CHECK(p.function == "GetDeviceCount");
  CHECK(p.message == "Call drvGetDevNum, drvRetCode=7.");
  // ... and the file marker with it: the rest is the message
  auto q = parse_ok("[ERROR] ASCENDCL(38734,python3): ... aclrtGetDeviceCountImpl:get device count failed, runtime result = 507899.");
  CHECK_FALSE(q.has_time);
  CHECK(q.shape == PlogShape::plain);
  CHECK(q.function == "aclrtGetDeviceCountImpl");
  CHECK(q.message == "get device count failed, runtime result = 507899.");
  // Near misses: dots glued to the header or to the text, or any other word, are still a bad time;
  // without the elision a missing file marker stays malformed.
  PlogLine m;
  for (const char* s : {"[ERROR] RUNTIME(38734,python3):... [driver.cc:64]38734 F:x",
                        "[ERROR] RUNTIME(38734,python3): ...[driver.cc:64]38734 F:x",
                        "[ERROR] RUNTIME(38734,python3): xxx [driver.cc:64]38734 F:x",
                        "[ERROR] ASCENDCL(38734,python3):2025-03-06-01:09:07.262.594 get device count failed"}) {
    INFO(s);
    CHECK(parse_plog_line(s, m) == PlogResult::malformed);
  }
}
