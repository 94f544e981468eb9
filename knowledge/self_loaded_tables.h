#pragma once
// The top-level knowledge tables that their own module reads (each beside its reader, e.g.
// knowledge/port_health.h). build_knowledge() skips them; every other top-level `*.tsv` is an
// error-code table (docs/knowledge.md). A new table is one row of self_loaded_tables.cpp.
#include <string_view>

namespace triage {

bool is_self_loaded_table(std::string_view name);

}  // namespace triage
