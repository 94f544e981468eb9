#include "parsers/kernel/error_lines.h"

namespace triage {
namespace {

bool kernel_error(const KernelEvent& e) {
  // Taint notices (out-of-tree, unsigned "- tainting kernel") are printed on every load of
  // the Ascend modules on a kernel that does not enforce signatures: the module loads.
  if (e.module_failure)
    return e.module_failure->problem != ModuleLoadProblem::out_of_tree_taint &&
           e.module_failure->problem != ModuleLoadProblem::verification_failed;
  if (e.fault_manager) return true;
  if (e.priority.size() == 1 && e.priority[0] >= '0' && e.priority[0] <= '3') return true;
  return e.ascend && e.ascend->error_tag;
}

}  // namespace

void kernel_error_lines(const BundleFacts& b, ErrorLineSink& out) {
  for (const auto& e : b.logs.kernel_events) {
    if (!kernel_error(e)) continue;
    ErrorLine* l = out.add("kernel", e.evidence);
    if (!l) continue;
    l->module = e.ascend ? e.ascend->module : e.fault_manager ? "fault_manager" : "kernel";
    l->message = e.ascend ? e.ascend->message : e.message;
    l->first = l->last = error_time_text(e.time);
    l->count += e.repeats.lines;
    if (e.repeats.lines && e.repeats.last.known()) l->last = error_time_text(e.repeats.last);
    if (e.ascend) l->pid = e.ascend->pid;
  }
  // Daemons' error lines in journal or syslog text (kubelet, containerd, ...).
  for (const auto& e : b.logs.service_errors) {
    ErrorLine* l = out.add("service", e.evidence);
    if (!l) continue;
    l->module = e.ident;
    l->message = e.message;
    l->first = l->last = e.time_text;
    l->pid = e.pid;
  }
}

}  // namespace triage
