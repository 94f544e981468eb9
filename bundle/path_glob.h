#pragma once
// Path patterns of the classification tables: '*' and '?' match within one path component,
// a "**" component matches any number of components (also none).
#include <string_view>

namespace triage {

bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace triage
