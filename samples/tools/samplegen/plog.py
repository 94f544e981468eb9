"""CANN host application logs (plog) and device logs, in the line shapes of
real-log-excerpts.md (Format notes A/B). Message texts that are not quoted there are
invented but follow the same module styles."""
from . import timeutil
from .bundle import intid


class LogWriter:
    """Collects lines of one log file with their time; renders them in time order."""

    def __init__(self, pid, pname):
        self.pid, self.pname = pid, pname
        self.lines = []  # (epoch, seq, text)
        self._seq = 0

    def raw(self, t, text):
        self._seq += 1
        self.lines.append((t, self._seq, text))

    def _head(self, level, module, t, pid=None, pname=None):
        return "[%s] %s(%d,%s):%s" % (level, module, self.pid if pid is None else pid,
                                      self.pname if pname is None else pname, timeutil.plog_ts(t))

    # RUNTIME / GE / ASCENDCL / APP: [file:line]TID Function:message
    def rt(self, t, level, module, src, tid, func, msg):
        self.raw(t, "%s [%s]%d %s:%s" % (self._head(level, module, t), src, tid, func, msg))

    # HCCL: [file:line] [TID][Stage][Sub]message
    def hccl(self, t, level, src, tid, tags, msg):
        self.raw(t, "%s [%s] [%d]%s%s" % (self._head(level, "HCCL", t), src, tid,
                                          "".join("[%s]" % x for x in tags), msg))

    # TDT / IDEDD / AICPU: [file:line][Function][tid:TID] message
    def tdt(self, t, level, src, func, tid, msg, module="TDT"):
        self.raw(t, "%s [%s][%s][tid:%d] %s" % (self._head(level, module, t), src, func, tid, msg))

    # PROFILING: [file:line] >>> (tid:TID) message (EVENT) / [file:line] (tid:TID) message
    def prof(self, t, level, src, tid, msg, arrows=True):
        self.raw(t, "%s [%s] %s(tid:%d) %s" % (self._head(level, "PROFILING", t), src,
                                               ">>> " if arrows else "", tid, msg))

    # DRV user-space HAL, 2025 style
    def drv(self, t, level, tid, sub, func, line, msg, src="drv_log_user.c:621"):
        self.raw(t, "%s [%s][ascend][curpid:%d,%d][drv][%s][%s %d]%s" % (
            self._head(level, "DRV", t), src, self.pid, tid, sub, func, line, msg))

    def atrace(self, t, level, src, tid, msg):
        self.raw(t, "%s [%s](tid:%d) %s" % (self._head(level, "ATRACE", t), src, tid, msg))

    def text(self):
        return "".join(line + "\n" for _, _, line in sorted(self.lines))

    def count(self):
        return len(self.lines)

    def first_time(self):
        return min(t for t, _, _ in self.lines)


# ---- building blocks ---------------------------------------------------------------------

def init_lines(w, t0, main, cann_root, device, rank_info=None, extra_errors=True):
    """import torch_npu, aclInit, set device, TDT open: returns the time after init."""
    pid = w.pid
    t = t0
    cb = [("ctrl", 336), ("hash id", 343), ("enable host freq", 350), ("reporter", 357), ("report data", 364)]
    for i, (what, line) in enumerate(cb):
        w.prof(t, "EVENT", "msprof_callback_impl.cpp:%d" % line, main, "Started to register profiling %s callback." % what)
        w.prof(t + 0.00009, "INFO", "prof_atls_plugin.cpp:117", main, "RegisterProfileCallback, callback type is %d" % (7 + i), arrows=False)
        t += 0.00021
    w.atrace(t, "INFO", "trace_driver_api.c:71", main, "get platform info success, platform=1.")
    w.rt(t + 0.0031, "INFO", "RUNTIME", "task_fail_callback_manager.cc:52", main, "TaskFailCallBackManager", " Constructor.")
    t += 0.0041
    w.hccl(t + 0.08, "INFO", "adapter_rts.cc:2646", main, ["adapter_rts.cc", "CallBackInitRts"],
           " g_deviceType [6] g_deviceLogicId [-1] g_devicePhyId [-1]")
    t += 0.12
    w.rt(t, "INFO", "ASCENDCL", "acl.cpp:128", main, "aclInit", "start to execute aclInit")
    w.rt(t + 0.0002, "INFO", "ASCENDCL", "acl.cpp:161", main, "aclInit", "acl config file path is empty, use default config")
    w.rt(t + 0.0019, "INFO", "RUNTIME", "runtime.cc:1302", main, "Init", "runtime init begin, chipType=5, socVersion=Ascend910B3.")
    w.rt(t + 0.0031, "INFO", "RUNTIME", "runtime.cc:1879", main, "CheckHaveDevice", "device count=8.")
    if extra_errors:
        w.rt(t + 0.0034, "ERROR", "RUNTIME", "runtime.cc:2417", main, "GetSocSpecInfo",
             "Call halGetDeviceInfo failed: drvRetCode=65534, module type=0, info type=39.")
        w.drv(t + 0.0035, "ERROR", main, "dmp", "dms_get_feature_support", 214,
              "Feature not support. (dev_id=0; feature=0x1d; ret=65534)")
    w.rt(t + 0.0046, "INFO", "RUNTIME", "runtime.cc:1345", main, "Init", "runtime init success.")
    w.drv(t + 0.0102, "INFO", main, "devmm", "devmm_svm_init", 302, "Svm init success. (devid=%d; va_start=0x100000000000; va_len=0x40000000000)" % device)
    t += 0.0131
    w.rt(t, "INFO", "ASCENDCL", "acl.cpp:236", main, "aclInit", "successfully execute aclInit")
    # GE initialise with its options
    w.rt(t + 0.021, "INFO", "GE", "ge_api.cc:312", main, "GEInitialize", "[INIT][DEFAULT]GEInitialize start, options num=23.")
    opts = [("ge.exec.deviceId", str(device)), ("ge.graphRunMode", "0"), ("ge.exec.precision_mode", "allow_fp32_to_fp16"),
            ("ge.socVersion", "Ascend910B3"), ("ge.exec.opDebugLevel", "0"), ("ge.jobType", "1"),
            ("ge.enableDump", "0"), ("ge.exec.enableDumpDebug", "0"), ("ge.deterministic", "0"),
            ("ge.opSelectImplmode", "high_precision"), ("ge.exec.modify_mixlist", ""),
            ("ge.autoTuneMode", ""), ("ge.exec.op_compiler_cache_mode", "enable"),
            ("ge.exec.op_compiler_cache_dir", ""),
            ("ge.exec.hcclFlag", "1"), ("ge.topoSortingMode", "1"), ("ge.exec.memoryOptimizationPolicy", ""),
            ("ge.exec.staticMemoryPolicy", "0"), ("ge.opsProtoLibPath", cann_root + "/opp/built-in/op_proto"),
            ("ge.bufferOptimize", "l2_optimize"), ("ge.exec.isUseHcom", "0" if rank_info is None else "1"),
            ("ge.exec.rankId", "0" if rank_info is None else str(rank_info[0])),
            ("ge.exec.rankTableFile", "")]
    for i, (k, v) in enumerate(opts):
        w.rt(t + 0.0213 + i * 0.00002, "INFO", "GE", "ge_api.cc:229", main, "CheckOptionsValid", "[INIT][DEFAULT]option %s=%s" % (k, v))
    if extra_errors:
        w.rt(t + 0.0222, "ERROR", "GE", "ge_local_context.cc:74", main, "GetOption",
             " ErrorNo: 4294967295(failed) [INIT][DEFAULT]option ge.exec.opWaitTimeout not found, use default.")
    w.rt(t + 0.3312, "INFO", "GE", "ge_api.cc:337", main, "GEInitialize", "[INIT][DEFAULT]GEInitialize success.")
    t += 0.34
    # set device, TDT opens the device-side process
    w.rt(t, "INFO", "ASCENDCL", "device.cpp:62", main, "aclrtSetDevice", "start to execute aclrtSetDevice, deviceId=%d" % device)
    w.drv(t + 0.0020, "INFO", main, "devmng", "halDeviceOpen", 438, "Device open success. (devid=%d; pid=%d)" % (device, pid))
    w.prof(t + 0.0031, "EVENT", "msprof_callback_impl.cpp:79", main, "MsprofCtrlCallback called, type: 255")
    w.prof(t + 0.0033, "EVENT", "ai_drv_dev_api.cpp:333", main, "Succeeded to DrvGetApiVersion version: 0x72305")
    w.tdt(t + 0.0040, "EVENT", "process_mode_manager.cpp:103", "OpenProcess", main,
          "[ProcessModeManager] enter into open process deviceId[%d] rankSize[%d]" % (device, 0 if rank_info is None else rank_info[1]))
    w.tdt(t + 0.0179, "EVENT", "process_mode_manager.cpp:371", "InitTsdClient", main,
          "[TsdClient] deviceId[%d] begin to init hdc client" % device)
    w.tdt(t + 0.0181, "EVENT", "version_verify.cpp:34", "SetVersionInfo", main, "VersionVerify: send client version to server")
    w.tdt(t + 0.1207, "INFO", "process_mode_manager.cpp:2219", "LoadPackageConfigInfoToDevice", main,
          "Receive load package config response result:0")
    w.tdt(t + 0.1208, "INFO", "process_mode_manager.cpp:231", "IsSupportCommonSink", main,
          "mutexFile[/usr/local/Ascend/driver/lib64/driver/sink_file_mutex_%d.cfg] found means supporting common sink" % device)
    w.tdt(t + 0.4241, "WARNING", "process_mode_manager.cpp:2318", "LoadPackageToDeviceByConfig", main,
          "cannot find package:Ascend310P-aicpu_legacy.tar.gz, optional is true skip")
    for i, pkg in enumerate(["aicpu_hccl.tar.gz", "aicpu_kernels.tar.gz", "aicpu_extend_syskernels.tar.gz"]):
        w.tdt(t + 0.4243 + i * 0.0001, "INFO", "package_process_config.cpp:337", "GetPkgHostAndDeviceDstPath", main,
              "get orgFile:%s/opp/built-in/op_impl/aicpu/kernel/%s, dstFile:/home/HwHiAiUser/hdcd/device%d/aicpu/%d_%s"
              % (cann_root, pkg, device, pid, pkg))
    w.tdt(t + 0.4631, "INFO", "process_mode_manager.cpp:2277", "SupportLoadPkg", main,
          "current device chip:5 does not support package:cann-hcomm-compat.tar.gz")
    w.tdt(t + 0.8812, "EVENT", "process_mode_manager.cpp:412", "OpenProcess", main,
          "[ProcessModeManager] open process success deviceId[%d] pid[%d]" % (device, intid("devpid%d" % pid, 2000, 9000)))
    w.rt(t + 0.8861, "INFO", "RUNTIME", "device.cc:512", main, "Init", "device init success, device_id=%d, tsId=0." % device)
    w.rt(t + 0.8870, "INFO", "ASCENDCL", "device.cpp:95", main, "aclrtSetDevice", "successfully execute aclrtSetDevice, deviceId=%d" % device)
    w.rt(t + 0.8902, "INFO", "APP", "log_inner.cpp:76", main, "build/CMakeFiles/torch_npu.dir/compiler_depend.ts",
         "Initialize:188: \"[PTA]:\"Device %d init success, soc version Ascend910B3\"\"" % device)
    return t + 0.95


def stream_setup(w, t, tid, streams):
    for sid, sq in streams:
        w.rt(t, "INFO", "RUNTIME", "stream.cc:352", tid, "Setup",
             "Alloc stream success, stream_id=%d, sq_id=%d, cq_id=%d, priority=0, flags=0x0." % (sid, sq, sq))
        t += 0.0004
    return t


OPS = ["Conv2D", "BNTrainingReduce", "BNTrainingUpdate", "Relu", "MaxPoolWithArgmaxV1", "Add",
       "MatMulV2", "Mul", "Cast", "ReduceSum", "Sigmoid", "ConcatD", "TransData", "Transpose",
       "SoftmaxV2", "Log", "Sub", "RealDiv", "Exp", "GatherV2", "StridedSliceD", "Tile",
       "DropOutGenMaskV3", "DropOutDoMask", "LayerNorm", "Gelu", "FlashAttentionScore", "Index"]


def kernel_name(op, i):
    return "te_%s_%s_%d" % (op.lower(), "%016x" % intid("k%s%d" % (op, i % 7), 0, 2 ** 63), i % 7)


def compile_ops(w, t, tid, cache_hit):
    """First use of each op: tiling, kernel registration, op cache."""
    for i, op in enumerate(OPS):
        w.rt(t, "INFO", "ASCENDCL", "op_api_common.cpp:214", tid, "GetWorkspaceSize",
             "aclnn%s get workspace start, cache %s" % (op, "hit" if cache_hit else "miss"))
        w.rt(t + 0.0004, "INFO", "GE", "op_tiling_rt2.cc:1023", tid, "DoOpTiling",
             "op[%s] tiling success, tiling_key=%d, block_dim=%d." % (op, intid("tk" + op, 0, 9999), 20 + i % 5))
        w.rt(t + 0.0011, "INFO", "RUNTIME", "program.cc:402", tid, "Register",
             "register kernel success, stubName=%s, kernelNum=1." % kernel_name(op, 0))
        t += 0.012 if cache_hit else 1.7
    return t


def launches(w, t, tid, stream, first_task, count, step_s, special=None, chatter=True):
    """Launch lines on one stream (`special` maps task id -> op name). With `chatter`, the
    aclnn execution, device memory and tiling lines that accompany them."""
    for k in range(count):
        task = first_task + k
        op = (special or {}).get(task) or OPS[(task * 7 + 3) % len(OPS)]
        if op == "MemcpyAsync":
            w.rt(t, "INFO", "RUNTIME", "memcpy_task.cc:188", tid, "MemcpyAsync",
                 "device_id=0, stream_id=%d, task_id=%d, kind=1, size=%d." % (stream, task, 4096 * (1 + task % 50)))
        else:
            if chatter and task % 11 == 0:
                w.rt(t - 0.00031, "INFO", "ASCENDCL", "op_api_common.cpp:301", tid, "ExecuteOpApi",
                     "aclnn%s execute, workspaceSize=%d, stream_id=%d" % (op, 512 * (task % 64), stream))
            if chatter and task % 17 == 5:
                size = 2097152 * (1 + task % 9)
                w.drv(t - 0.00022, "INFO", tid, "devmm", "halMemAlloc", 1297,
                      "Mem alloc success. (size=%d; devid=0; va=0x12c0%08x; flag=0x1)" % (size, (task * 2654435761) % 2 ** 32))
                w.rt(t - 0.00019, "INFO", "RUNTIME", "npu_driver.cc:1893", tid, "DevMemAlloc",
                     "device_id=0, size=%d, type=2, memory policy=0x1." % size)
            if chatter and task % 89 == 13:
                w.rt(t - 0.00011, "WARNING", "GE", "op_tiling_rt2.cc:1187", tid, "DoOpTiling",
                     "op[%s] tiling cache miss for new input shape, retiling." % op)
            if chatter and task % 211 == 3:
                w.rt(t - 0.00009, "WARNING", "RUNTIME", "davinci_kernel_task.cc:366", tid, "KernelLaunch",
                     "kernel %s args size %d exceeds the preferred size 1024, use the big args pool."
                     % (kernel_name(op, task), 1024 + 64 * (task % 13)))
            w.rt(t, "INFO", "RUNTIME", "davinci_kernel_task.cc:402", tid, "KernelLaunch",
                 "device_id=0, stream_id=%d, task_id=%d, kernel_name=%s, block_dim=%d."
                 % (stream, task, kernel_name(op, task), 20 + task % 5))
        t += step_s
    return t


def three_minute_report(w, t, tid, stream, sq, task, head, pending):
    w.rt(t, "EVENT", "RUNTIME", "stream.cc:1402", tid, "SynchronizeExecutedTask",
         "report three minutes timeout! stream_id=%d, sq_id=%d, task_id=%d, sqHead=%d, flip_num=0, pendingNum=%d."
         % (stream, sq, task, head, pending))


def device_log(pid, dev, t0, t_end, devpid, aicpu_tids):
    """device-<pid>_<ts>.log: AICPU scheduler lines returned to the host."""
    w = LogWriter(devpid, "aicpu_scheduler")
    t = t0
    w.tdt(t, "EVENT", "aicpu_sd_main.cpp:295", "main", devpid,
          "Aicpu scheduler start, deviceId=%d, hostPid=%d, profilingMode=0, aicpuSchedMode=0." % (dev, pid), module="AICPU")
    for i, tid in enumerate(aicpu_tids):
        w.tdt(t + 0.01 + i * 0.0003, "INFO", "aicpu_sd_thread.cpp:141", "Work", tid,
              "aicpu thread %d start, bind cpu %d." % (i, i + 1), module="AICPU")
    t += 2.2
    k = 0
    while t < t_end:
        tid = aicpu_tids[k % len(aicpu_tids)]
        w.tdt(t, "INFO", "aicpu_event_process.cpp:412", "ProcessAicpuTask", tid,
              "[AICPU_PROCESSER] run kernel success, kernelName=%s, streamId=%d, taskId=%d."
              % (["RandomUniform", "GatherV2", "NonZero", "DropOutGenMaskV3"][k % 4], 47, 100 + k * 9), module="AICPU")
        k += 1
        t += 1.9 + (k % 5) * 0.37
    return w
