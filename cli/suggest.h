#pragma once
// "Did you mean": the known name nearest to what was typed, for unknown subcommands, options,
// format names and explain ids.
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace triage::cli {

// The name within a small edit distance of `typed` (about one in three characters, at least
// one), the nearest first; "" when none is that near.
std::string nearest_name(std::string_view typed, const std::vector<std::string>& names);

// After a parse error: one line on stderr per unknown subcommand or option in argv that a known
// one is near to (`did you mean 'analyze'?`).
void suggest_after_parse_error(const CLI::App& app, int argc, const char* const* argv);

}  // namespace triage::cli
