// The names of the log-fact enums (model/facts_logs.h), defined beside them so that model/
// links without the readers.
#include "model/facts_logs.h"

namespace triage {

std::string_view to_string(PlogLevel l) {
  switch (l) {
    case PlogLevel::debug: return "DEBUG";
    case PlogLevel::info: return "INFO";
    case PlogLevel::warning: return "WARNING";
    case PlogLevel::error: return "ERROR";
    case PlogLevel::event: return "EVENT";
    case PlogLevel::other: return "other";
    case PlogLevel::count_: break;
  }
  return "other";
}

std::string_view to_string(DeviceIdSource s) {
  switch (s) {
    case DeviceIdSource::none: return "none";
    case DeviceIdSource::path: return "path";
    case DeviceIdSource::message: return "message";
    case DeviceIdSource::same_stream: return "same_stream";
  }
  return "none";
}

std::string_view to_string(ErrorCodeForm f) {
  switch (f) {
    case ErrorCodeForm::err_code: return "err_code";
    case ErrorCodeForm::runtime_result: return "runtime_result";
    case ErrorCodeForm::ret_code: return "ret_code";
    case ErrorCodeForm::error_code_is: return "error_code_is";
    case ErrorCodeForm::message_code: return "message_code";
  }
  return "err_code";
}

std::string_view to_string(ModuleLoadProblem p) {
  switch (p) {
    case ModuleLoadProblem::unknown_symbol: return "unknown_symbol";
    case ModuleLoadProblem::symbol_version: return "symbol_version";
    case ModuleLoadProblem::version_magic: return "version_magic";
    case ModuleLoadProblem::verification_failed: return "verification_failed";
    case ModuleLoadProblem::key_rejected: return "key_rejected";
    case ModuleLoadProblem::out_of_tree_taint: return "out_of_tree_taint";
  }
  return "unknown";
}

std::string_view to_string(KernelLogForm f) {
  switch (f) {
    case KernelLogForm::journal_json: return "journal_json";
    case KernelLogForm::journal_text: return "journal_text";
    case KernelLogForm::dmesg_raw: return "dmesg_raw";
    case KernelLogForm::dmesg_human: return "dmesg_human";
    case KernelLogForm::syslog: return "syslog";
    case KernelLogForm::device_kernel: return "device_kernel";
  }
  return "unknown";
}

}  // namespace triage
