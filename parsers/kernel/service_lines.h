#pragma once
// Daemon lines in journal and syslog text (kubelet, containerd, ascend-docker-runtime): the
// kernel reader skips other idents, but keeps their error lines as facts of their own, which
// a pod that never starts is often all a journal paste shows.
#include <string_view>

#include "model/facts_logs.h"
#include "parsers/kernel/kernel_line.h"

namespace triage {

// A daemon message that marks itself an error: glog `E0817 16:52:02.414082  1234 x.go:90] `
// (also F), logrus `level=error` / `level=fatal`, or a leading `[ERROR]`. No allocation.
bool is_service_error(std::string_view message);

// Keeps the line when it is an error (bounded by LogFacts::kMaxServiceErrors).
void keep_service_error(LogFacts& logs, std::string_view entry, const KernelLine& k,
                        uint64_t line_no, uint64_t offset, std::string_view text);

}  // namespace triage
