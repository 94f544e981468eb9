#pragma once
// Device logs exported by msnpureport and sent as they are (a `hisi_logs/` or `device-N/`
// tree zipped from a host, a `slog/dev-os-N/` folder) sit outside the bundle layout: their
// paths say what they are, their content says that they are text.
#include <optional>
#include <string>
#include <string_view>

#include "ingest/classify.h"

namespace triage {

// device_log_export for a text entry on such a path; nullopt otherwise.
std::optional<Classification> classify_export_path(std::string_view path, std::string_view head);

}  // namespace triage
