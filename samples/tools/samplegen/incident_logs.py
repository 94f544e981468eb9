"""Logs of the incident host: the training job's plogs and job log, an earlier attempt's
plog, probe plogs and outputs. Times are Asia/Shanghai wall clock."""
from . import timeutil
from .plog import (LogWriter, compile_ops, device_log, init_lines, kernel_name, launches,
                   stream_setup, three_minute_report)

T = timeutil.local_epoch
CANN91 = "/usr/local/Ascend/cann-9.1.0"
CANN85 = "/usr/local/Ascend/cann-8.5.0"
SITE = "/usr/local/lib/python3.10/dist-packages"

JOB_PID = 48213
JOB_PLOG_T0 = T(2026, 9, 4, 9, 20, 31, 548211)
JOB_SYNC_T = T(2026, 9, 4, 9, 22, 58, 412093)        # the loss's H2D copy starts waiting on stream 47
JOB_ERR_T = T(2026, 9, 4, 9, 45, 3, 511902)          # 107020
STALL = dict(stream=47, sq=9, task=1280, head=500, pending=781)
REPORTS = 7
SIDE = dict(stream=51, sq=12)                         # the prefetch copy stream: slow, but moving
SIDE_SYNC_T = T(2026, 9, 4, 9, 23, 11, 207554)
SIDE_REPORTS = [(222, 222, 418), (497, 497, 143)]     # task_id, sqHead, pendingNum
SIDE_DONE_T = T(2026, 9, 4, 9, 31, 2, 811402)
TQ_TID, MON_TID, SIDE_TID = 48262, 48231, 48297
STUCK_KERNEL = kernel_name("DropOutGenMaskV3", STALL["task"])

OLD_PID = 31544
OLD_PLOG_T0 = T(2026, 9, 2, 15, 33, 7, 775302)
OLD_SYNC_T = T(2026, 9, 2, 15, 35, 31, 90412)
OLD_KILLED_T = T(2026, 9, 2, 15, 52, 41, 0)
OLD_STALL = dict(stream=45, sq=7, task=1187, head=463, pending=805)


def benign_training_errors(w, t, tid, n):
    for k in range(n):
        w.rt(t + k * 7.31, "ERROR", "RUNTIME", "api_impl.cc:1883", tid, "GetDeviceCapability",
             "feature=12 not support on chip type 5, return default value.")


def job_plogs():
    """debug/plog (every level) and run/plog (EVENT lines) of the hung training process."""
    w = LogWriter(JOB_PID, "python3")
    main = JOB_PID
    t = init_lines(w, JOB_PLOG_T0, main, CANN91, 0)
    t = stream_setup(w, t + 2.31, main, [(2, 1), (47, 9), (51, 12), (52, 13)])
    w.rt(t + 0.5, "INFO", "APP", "log_inner.cpp:76", main, "build/CMakeFiles/torch_npu.dir/compiler_depend.ts",
         "SetDevice:60: \"[PTA]:\"task queue enabled, level=2\"\"")
    t = compile_ops(w, t + 4.1, TQ_TID, cache_hit=False)
    benign_training_errors(w, t - 40.0, TQ_TID, 4)
    # forward + backward of the first batch: 2061 tasks on stream 47, the 1281st is a dropout mask
    step = (JOB_SYNC_T - 0.9 - t) / 2061
    launches(w, t, TQ_TID, STALL["stream"], 0, 2061, step,
             special={STALL["task"]: "DropOutGenMaskV3", STALL["task"] + 1: "DropOutDoMask"})
    # the data loader's copies of the first batch on the default stream, the optimizer's stream
    launches(w, t - 3.2, main, 2, 0, 612, 3.0 / 612, special={k: "MemcpyAsync" for k in range(612)})
    launches(w, t + 40.0, TQ_TID, 52, 0, 380, (JOB_SYNC_T - 2.0 - t - 40.0) / 380)
    # the prefetch thread copies the next batch on stream 51 and later waits for it
    launches(w, t + 9.7, SIDE_TID, SIDE["stream"], 0, 640, (SIDE_SYNC_T - t - 10.0) / 640,
             special={k: "MemcpyAsync" for k in range(640)})
    for i, (task, head, pending) in enumerate(SIDE_REPORTS):
        three_minute_report(w, SIDE_SYNC_T + 180.0 * (i + 1) + 0.0871 + i * 0.0009, SIDE_TID,
                            SIDE["stream"], SIDE["sq"], task, head, pending)
    w.rt(SIDE_DONE_T, "INFO", "RUNTIME", "stream.cc:1389", SIDE_TID, "SynchronizeExecutedTask",
         "stream synchronize finished, stream_id=51, sq_id=12, task_id=639.")
    # the stalled stream: same position every 180 s
    for k in range(1, REPORTS + 1):
        three_minute_report(w, JOB_SYNC_T + 180.0 * k + 0.2011 + k * 0.0013, main, STALL["stream"],
                            STALL["sq"], STALL["task"], STALL["head"], STALL["pending"])
    # a monitor thread keeps writing while the stream is stuck
    tm = JOB_PLOG_T0 + 30.0
    while tm < JOB_ERR_T + 590:
        w.rt(tm, "INFO", "RUNTIME", "device_monitor.cc:118", MON_TID, "MonitorRun",
             "device_id=0, heartbeat ok, status=0.")
        tm += 30.0
    # the task timeout surfaces at the synchronisation
    e = JOB_ERR_T
    w.rt(e, "ERROR", "RUNTIME", "stream.cc:1475", main, "GetError",
         "Task execute failed, device_id=0, stream_id=47, task_id=1280, flip_num=0, task_type=0(KERNEL_AICORE), "
         "fault kernel_name=%s." % STUCK_KERNEL)
    w.rt(e + 0.000058, "ERROR", "RUNTIME", "api_c_stream.cc:161", main, "rtStreamSynchronize",
         "ErrCode=107020, desc=[task timeout], InnerCode=0x703001c")
    w.rt(e + 0.000071, "ERROR", "RUNTIME", "error_message_manage.cc:65", main, "FuncErrorReason",
         "rtStreamSynchronize execution failed, reason=task timeout")
    w.rt(e + 0.000512, "ERROR", "ASCENDCL", "stream.cpp:139", main, "aclrtSynchronizeStreamImpl",
         "synchronize stream failed, runtime result = 107020")
    w.rt(e + 0.000790, "ERROR", "APP", "log_inner.cpp:76", main, "build/CMakeFiles/torch_npu.dir/compiler_depend.ts",
         "copy_between_host_and_device_opapi:331: \"[PTA]:\"synchronize stream failed, error code is 107020\"\"")
    w.rt(e + 1.2031, "INFO", "APP", "log_inner.cpp:76", main, "build/CMakeFiles/torch_npu.dir/compiler_depend.ts",
         "Finalize:241: \"[PTA]:\"NpuSysCtrl finalize start\"\"")
    w.rt(e + 1.2044, "INFO", "ASCENDCL", "device.cpp:171", main, "aclrtResetDevice",
         "start to execute aclrtResetDevice, deviceId=0")
    run = LogWriter(JOB_PID, "python3")
    for tt, seq, line in w.lines:
        if line.startswith("[EVENT]"):
            run.raw(tt, line)
    return w, run


def job_device_log():
    return device_log(JOB_PID, 0, JOB_PLOG_T0 + 1.51, JOB_SYNC_T, 3125, [3141, 3142, 3143, 3144])


def old_attempt_plog():
    """2026-09-02: torch_npu 2.8.0.post4 with CANN 8.5.0, same host, same hang, killed by hand."""
    w = LogWriter(OLD_PID, "python3")
    main = OLD_PID
    t = init_lines(w, OLD_PLOG_T0, main, CANN85, 0)
    t = stream_setup(w, t + 2.02, main, [(2, 1), (45, 7), (49, 10)])
    t = compile_ops(w, t + 3.3, 31590, cache_hit=True)
    launches(w, t, 31590, OLD_STALL["stream"], 0, 1992, (OLD_SYNC_T - 0.7 - t) / 1992,
             special={OLD_STALL["task"]: "DropOutGenMaskV3"})
    k = 1
    while OLD_SYNC_T + 180.0 * k < OLD_KILLED_T:
        three_minute_report(w, OLD_SYNC_T + 180.0 * k + 0.1873 + k * 0.0011, main, OLD_STALL["stream"],
                            OLD_STALL["sq"], OLD_STALL["task"], OLD_STALL["head"], OLD_STALL["pending"])
        k += 1
    return w


# ---- the job's own log (stdout and stderr of nohup) ----------------------------------------
def job_log():
    lines = []
    add = lambda t, s: lines.append(s)
    t0 = T(2026, 9, 4, 9, 20, 29, 884310)
    add(t0, "%s - det - INFO - Namespace(config='configs/retina_r50_coco.yaml', workers=0, batch_size=1, "
             "amp=True, pin_memory=False, cache=False, augment=False, epochs=12, lr=0.01, device='npu:0', "
             "seed=42, output='work_dirs/retina_r50_0904')" % timeutil.pylog_ts(t0))
    add(t0, "%s - det - INFO - torch 2.9.0, torch_npu 2.9.0.post6, device npu:0 (Ascend910B3)"
        % timeutil.pylog_ts(t0 + 3.61))
    add(t0, "%s - det - INFO - ASCEND_LAUNCH_BLOCKING=None TASK_QUEUE_ENABLE=2" % timeutil.pylog_ts(t0 + 3.62))
    add(t0, "%s - det - INFO - loading annotations into memory..." % timeutil.pylog_ts(t0 + 4.02))
    add(t0, "Done (t=13.42s)")
    add(t0, "creating index...")
    add(t0, "index created!")
    add(t0, "%s - det - INFO - dataset coco_train2017: 117266 images" % timeutil.pylog_ts(t0 + 19.3))
    add(t0, "%s - det - INFO - building model retinanet_r50_fpn (pretrained backbone: torchvision resnet50)"
        % timeutil.pylog_ts(t0 + 19.4))
    add(t0, "[%s compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype cast "
            "repalce with float. (function operator())" % timeutil.c10_warn_ts(t0 + 31.7))
    add(t0, "%s - det - INFO - model params: 37.97M, optimizer SGD(lr=0.01, momentum=0.9, weight_decay=0.0001)"
        % timeutil.pylog_ts(t0 + 33.1))
    add(t0, "%s - det - INFO - Start training: 12 epochs, 117266 iters/epoch" % timeutil.pylog_ts(t0 + 59.8))
    add(t0, "%s - det - INFO - Epoch [0/12] begin" % timeutil.pylog_ts(t0 + 59.9))
    e = JOB_ERR_T
    # the training script logs the failure, then re-raises it
    add(e, "%s - det - ERROR - epoch 0 iter 0 failed: ACL error: 107020 (rtStreamSynchronize execution failed, "
           "reason=task timeout)" % timeutil.pylog_ts(e + 0.0921))
    tb = [
        "Traceback (most recent call last):",
        '  File "/root/work/det/train.py", line 238, in <module>',
        "    main()",
        '  File "/root/work/det/train.py", line 231, in main',
        "    train_one_epoch(model, criterion, loader, optimizer, epoch, args, logger)",
        '  File "/root/work/det/train.py", line 164, in train_one_epoch',
        "    losses = criterion(outputs, targets)",
        '  File "%s/torch/nn/modules/module.py", line 1775, in _wrapped_call_impl' % SITE,
        "    return self._call_impl(*args, **kwargs)",
        '  File "%s/torch/nn/modules/module.py", line 1786, in _call_impl' % SITE,
        "    return forward_call(*args, **kwargs)",
        '  File "/root/work/det/det_toolkit/losses/retina_loss.py", line 96, in forward',
        "    anchors = self.anchor_gen(feats)",
        '  File "/root/work/det/det_toolkit/losses/retina_loss.py", line 41, in anchor_gen',
        "    scale = torch.tensor([w, h, w, h], dtype=torch.float32, device=f.device)",
        "RuntimeError: copy_between_host_and_device_opapi:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:331 "
        "NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream), error code is 107020",
        "[ERROR] %s (PID:%d, Device:0, RankID:-1) ERR00100 PTA call acl api failed" % (timeutil.err_ts(e), JOB_PID),
        "EE9999: Inner Error!",
        "EE9999[PID: %d] %s (EE9999):  Task execute failed, device_id=0, stream_id=47, task_id=1280, flip_num=0, "
        "task_type=0(KERNEL_AICORE), fault kernel_name=%s.[FUNC:GetError][FILE:stream.cc][LINE:1475]"
        % (JOB_PID, timeutil.plog_ts(e + 0.000863), STUCK_KERNEL),
        "        TraceBack (most recent call last):",
        "       rtStreamSynchronize execution failed, reason=task timeout[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]",
        "       synchronize stream failed, runtime result = 107020[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]",
        "",
    ]
    for s in tb:
        add(e, s)
    return "\n".join(lines) + "\n"


# ---- probes ---------------------------------------------------------------------------------
PROBE_NAMES = ["ones_copyback", "cpu_rand_h2d", "matmul", "rand", "randn", "randint"]
PROBE_OPS = {"ones_copyback": ["Fill", "MemcpyAsync"], "cpu_rand_h2d": ["MemcpyAsync", "Mul"],
             "matmul": ["Fill", "MatMulV2"], "rand": ["StatelessRandomUniformV2"],
             "randn": ["StatelessRandomNormalV2"], "randint": ["StatelessRandomUniformInt"]}


def probe_plog(name, pid, t0, device, outcome, cann_root=CANN91):
    """The probe's own plog: init, a few launches, then either a clean exit, nothing
    (killed at the deadline), or the device-open failure (507033)."""
    w = LogWriter(pid, "python3")
    if outcome == "open_failed":
        init_fail_lines(w, t0, pid, device, cann_root)
        return w
    t = init_lines(w, t0, pid, cann_root, device, extra_errors=False)
    t = stream_setup(w, t + 0.8, pid, [(2, 1), (3, 2)])
    for i, op in enumerate(PROBE_OPS[name]):
        if op == "MemcpyAsync":
            w.rt(t, "INFO", "RUNTIME", "memcpy_task.cc:188", pid, "MemcpyAsync",
                 "device_id=%d, stream_id=2, task_id=%d, kind=1, size=262144." % (device, i))
        else:
            w.rt(t, "INFO", "RUNTIME", "davinci_kernel_task.cc:402", pid, "KernelLaunch",
                 "device_id=%d, stream_id=2, task_id=%d, kernel_name=%s, block_dim=1." % (device, i, kernel_name(op, i)))
        t += 0.0031
    if outcome == "pass":
        w.rt(t + 0.012, "INFO", "ASCENDCL", "device.cpp:171", pid, "aclrtResetDevice", "start to execute aclrtResetDevice, deviceId=%d" % device)
        w.rt(t + 0.151, "INFO", "ASCENDCL", "device.cpp:198", pid, "aclrtResetDevice", "successfully execute aclrtResetDevice, deviceId=%d" % device)
        w.rt(t + 0.163, "INFO", "ASCENDCL", "acl.cpp:412", pid, "aclFinalize", "successfully execute aclFinalize")
    return w


def init_fail_lines(w, t, pid, device, cann_root):
    """aclrtSetDevice when the driver is not bound (shapes of real-log-excerpts §2.18)."""
    w.prof(t, "EVENT", "msprof_callback_impl.cpp:336", pid, "Started to register profiling ctrl callback.")
    w.rt(t + 0.0031, "INFO", "RUNTIME", "task_fail_callback_manager.cc:52", pid, "TaskFailCallBackManager", " Constructor.")
    w.rt(t + 0.1213, "INFO", "ASCENDCL", "acl.cpp:128", pid, "aclInit", "start to execute aclInit")
    w.rt(t + 0.1392, "INFO", "ASCENDCL", "acl.cpp:236", pid, "aclInit", "successfully execute aclInit")
    t += 0.62
    w.rt(t, "INFO", "ASCENDCL", "device.cpp:62", pid, "aclrtSetDevice", "start to execute aclrtSetDevice, deviceId=%d" % device)
    w.drv(t + 0.0009, "ERROR", pid, "devmng", "drvDeviceOpen", 212,
          "<errno:2, 2> Open device manager failed. (path=/dev/davinci_manager)")
    w.rt(t + 0.0011, "ERROR", "RUNTIME", "npu_driver.cc:438", pid, "DeviceOpen",
         "[drv api] halDeviceOpen failed. device_id=%d, drvRetCode=7." % device)
    w.rt(t + 0.0012, "ERROR", "RUNTIME", "raw_device.cc:213", pid, "InitRawDriver",
         "Failed to open device, retCode=0x7020010, deviceId=%d." % device)
    w.rt(t + 0.0013, "ERROR", "RUNTIME", "raw_device.cc:511", pid, "Init",
         "Failed to init RawDriver, device_id=%d, retCode=0x7020010" % device)
    w.rt(t + 0.0014, "ERROR", "RUNTIME", "runtime.cc:3536", pid, "DeviceRetain", "Check param failed, dev can not be NULL!")
    w.rt(t + 0.0015, "ERROR", "RUNTIME", "error_message_manage.cc:65", pid, "FuncErrorReason",
         "rtSetDevice execution failed, reason=device retain error")
    w.rt(t + 0.0019, "ERROR", "ASCENDCL", "device.cpp:80", pid, "aclrtSetDevice",
         "open device %d failed, runtime result = 507033." % device)
    w.rt(t + 0.0023, "ERROR", "APP", "log_inner.cpp:76", pid, "build/CMakeFiles/torch_npu.dir/compiler_depend.ts",
         "SetDevice:60: \"[PTA]:\"set device %d failed, error code is 507033\"\"" % device)


def probe_stderr_507033(script, pid, t, device, line_no, code_line):
    return "\n".join([
        "Traceback (most recent call last):",
        '  File "%s", line %d, in <module>' % (script, line_no),
        "    %s" % code_line,
        "RuntimeError: SetDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:60 NPU function error: "
        "c10_npu::acl::AclrtSetDevice(device), error code is 507033",
        "[ERROR] %s (PID:%d, Device:%d, RankID:-1) ERR00100 PTA call acl api failed" % (timeutil.err_ts(t), pid, device),
        "[Error]: Failed to start the device. ",
        "        Rectify the fault based on the error information in the ascend log.",
        "[PID: %d] %s Invalid_Argument(EE1001): The argument is invalid.Reason: rtGetDevMsg execution failed, "
        "the context is a null pointer." % (pid, timeutil.plog_ts(t - 0.0104)),
        "        Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.",
        "        TraceBack (most recent call last):",
        "        [drv api] halDeviceOpen failed. device_id=%d, drvRetCode=7.[FUNC:DeviceOpen][FILE:npu_driver.cc][LINE:438]" % device,
        "        Failed to open device, retCode=0x7020010, deviceId=%d.[FUNC:InitRawDriver][FILE:raw_device.cc][LINE:213]" % device,
        "        Failed to init RawDriver, device_id=%d, retCode=0x7020010[FUNC:Init][FILE:raw_device.cc][LINE:511]" % device,
        "        Check param failed, dev can not be NULL![FUNC:DeviceRetain][FILE:runtime.cc][LINE:3536]",
        "        rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:65]",
        "        open device %d failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]" % device,
        "",
    ]) + "\n"


PROBE_CODE = {  # line of probe.py that touches the device first, and its text
    "ones_copyback": (24, "x = torch.ones((1024,), device=dev)"),
    "cpu_rand_h2d": (28, "x = torch.rand((1024,), generator=g).to(dev)"),
    "matmul": (32, "x = torch.ones((256, 256), device=dev)"),
    "rand": (36, "x = torch.rand((1024,), device=dev)"),
    "randn": (39, "x = torch.randn((1024,), device=dev)"),
    "randint": (42, "x = torch.randint(0, 100, (1024,), device=dev)"),
}
PROBE_STDOUT = {"ones_copyback": "1.0\n", "cpu_rand_h2d": "0.49625658988952637\n", "matmul": "256.0\n"}


def user_retry_plog(pid, t0):
    """After the reboot someone tried the device by hand; it failed with 507033."""
    w = LogWriter(pid, "python3")
    init_fail_lines(w, t0, pid, 0, CANN91)
    return w

