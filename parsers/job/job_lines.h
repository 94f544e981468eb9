#pragma once
// Single lines of job output that name a failure without being a traceback or a CANN report:
// torch_npu's out-of-memory message, loader errors, c10's C++ trace, ACL sample output,
// npu-smi / DCMI errors and MindCluster component log lines. Pure functions of one line:
// every field views the line, nothing is allocated. Assembled by parsers/python_parser.cpp.
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/facts_python.h"

namespace triage::joblines {

struct JobLine {
  JobEventKind kind = JobEventKind::npu_out_of_memory;
  std::string_view code, library, symbol, call, source, operator_name;
  std::string_view loaded_by;  // `Fail to open library: <x> with error: ...`, `Load dynamic library: <x> failed.`
  std::string_view tried, capacity, allocated, free, reserved;
  std::optional<int> device;
};

// The failure a line names, if any: out of memory, loader, c10 `Exception raised from`,
// ACL sample `errorCode = N`, `dcmi ... ret is -N`, driver errors.
std::optional<JobLine> parse_job_line(std::string_view body);

// The first device a message names: `device 0`, `device is 0`, `device=1`, `deviceId=1`.
std::optional<int> device_named(std::string_view text);

// `frame #3: c10::... + 0x6b (0x7f... in /x/libc10.so)` of a c10 trace.
bool is_c10_frame(std::string_view body);
// The library file name of such a frame (`libc10.so`), "" when it names none.
std::string_view c10_frame_library(std::string_view body);

// glog's `I0708 15:01:14.136582 4321 init.cc:236] text`: the thread id it prints (the pid of
// a single-threaded start-up), nullopt when the line is not glog's.
std::optional<int64_t> glog_pid(std::string_view body);

// An ACL sample's own log line: `[INFO]  open device 0 success`, `[ERROR]  ...` (two blanks
// after the level, as the samples' INFO_LOG/ERROR_LOG macros print). The device it names.
struct AclSampleLine {
  std::string_view level, message;
  std::optional<int> device;
};
std::optional<AclSampleLine> parse_acl_sample_line(std::string_view body);

// A MindCluster component log line (npu-exporter, device-plugin, hwlog):
// `[ERROR]    2024/10/28 08:50:46.650662 10      devmanager/devmanager.go:91    text`.
struct HwlogLine {
  std::string_view level, time_text, goroutine, source, message;
};
std::optional<HwlogLine> parse_hwlog_line(std::string_view body);

// MindIE / ATB's log line: `[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132]
// text`: time, level (lower case), thread, source. Fields as HwlogLine (goroutine = thread).
std::optional<HwlogLine> parse_mindie_line(std::string_view body);

// MindSpore's own log line (its name field starts with a hex thread id, which no CANN plog
// line has): `[ERROR] KERNEL(1234,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.313 [x.cc:172] F] msg`.
struct MindSporeLine {
  std::string_view level, module, pid, tid, process, time_text, message;
};
std::optional<MindSporeLine> parse_mindspore_line(std::string_view body);

// An application's own logger record: `20250102-03:04:05.678 Trainer ERROR: text` (a
// compact date, a dash, the time with optional fraction, an optional logger name, a level
// word and a colon). A bare 8-digit number or a date without the level is not one.
struct AppLogLine {
  std::string_view time_text, logger, level, message;
};
std::optional<AppLogLine> parse_app_log_line(std::string_view body);
bool is_error_level(std::string_view level);  // ERROR, CRITICAL, FATAL

// key=value ids on an application's own line that also says what went wrong (an error word
// or an error code): `device fault reported: device_id=4 stream_id=46 task_id=0`. Only the
// ids that are there are set; nullopt when there is no id or no error word.
struct IdValues {
  std::optional<int> device, stream, task;
};
std::optional<IdValues> parse_id_values(std::string_view body);

}  // namespace triage::joblines
