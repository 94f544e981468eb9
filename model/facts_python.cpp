#include "model/facts_python.h"

namespace triage {

std::string_view to_string(PyAnchorKind k) {
  switch (k) {
    case PyAnchorKind::none: return "none";
    case PyAnchorKind::err_line: return "err_line";
    case PyAnchorKind::error_report: return "error_report";
  }
  return "none";
}

std::string_view to_string(PyChainLink l) {
  switch (l) {
    case PyChainLink::none: return "none";
    case PyChainLink::during_handling: return "during_handling";
    case PyChainLink::direct_cause: return "direct_cause";
  }
  return "none";
}

std::string_view to_string(JobEventKind k) {
  switch (k) {
    case JobEventKind::npu_out_of_memory: return "npu_out_of_memory";
    case JobEventKind::undefined_symbol: return "undefined_symbol";
    case JobEventKind::library_missing: return "library_missing";
    case JobEventKind::c10_raised_from: return "c10_raised_from";
    case JobEventKind::acl_call_failed: return "acl_call_failed";
    case JobEventKind::dcmi_error: return "dcmi_error";
    case JobEventKind::driver_error: return "driver_error";
    case JobEventKind::acl_device: return "acl_device";
    case JobEventKind::component_error: return "component_error";
    case JobEventKind::log_origin: return "log_origin";
    case JobEventKind::report_line: return "report_line";
    case JobEventKind::framework_log: return "framework_log";
    case JobEventKind::app_log: return "app_log";
    case JobEventKind::level_line: return "level_line";
    case JobEventKind::id_values: return "id_values";
    case JobEventKind::repl_input: return "repl_input";
  }
  return "?";
}

std::string_view to_string(TorchErrorKind k) {
  switch (k) {
    case TorchErrorKind::npu_function_error: return "npu_function_error";
    case TorchErrorKind::hccl_function_error: return "hccl_function_error";
    case TorchErrorKind::ops_function_error: return "ops_function_error";
    case TorchErrorKind::acl_stream_sync: return "acl_stream_sync";
    case TorchErrorKind::npu_error_legacy: return "npu_error_legacy";
    case TorchErrorKind::hccl_error_in: return "hccl_error_in";
    case TorchErrorKind::acl_error: return "acl_error";
    case TorchErrorKind::runtime_call_failed: return "runtime_call_failed";
    case TorchErrorKind::acl_call_failed: return "acl_call_failed";
  }
  return "npu_function_error";
}

std::string_view to_string(ReportHeaderStyle s) {
  switch (s) {
    case ReportHeaderStyle::code_only: return "code_only";
    case ReportHeaderStyle::pid_bracket: return "pid_bracket";
    case ReportHeaderStyle::pid_colon: return "pid_colon";
    case ReportHeaderStyle::time_only: return "time_only";
    case ReportHeaderStyle::named: return "named";
    case ReportHeaderStyle::inline_text: return "inline_text";
  }
  return "code_only";
}

}  // namespace triage
