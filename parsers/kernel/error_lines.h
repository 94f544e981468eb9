#pragma once
// The kernel family's error lines, for unexplained-errors (model/error_lines.h): kernel
// events at error priority or worse, failed module loads, fault-manager and Ascend `[ERROR]`
// printks, and daemons' error lines in journal or syslog text.
#include "model/error_lines.h"
#include "model/host_facts.h"

namespace triage {

void kernel_error_lines(const BundleFacts& b, ErrorLineSink& out);

}  // namespace triage
