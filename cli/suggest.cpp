#include "cli/suggest.h"

#include <algorithm>
#include <iostream>
#include <set>

namespace triage::cli {
namespace {

// Damerau-Levenshtein (optimal string alignment): a swapped pair (`anlayze`) costs one.
size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

void add_names(const CLI::App& app, std::set<std::string>& subcommands, std::set<std::string>& options) {
  for (const CLI::Option* o : app.get_options())
    for (const auto& l : o->get_lnames()) options.insert("--" + l);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    subcommands.insert(sub->get_name());
    add_names(*sub, subcommands, options);
  }
}

}  // namespace

std::string nearest_name(std::string_view typed, const std::vector<std::string>& names) {
  if (typed.size() > 64) return {};  // the table is quadratic: a pasted line is no name
  size_t limit = std::max<size_t>(1, typed.size() / 3), best = limit + 1;
  std::string out;
  for (const auto& n : names) {
    size_t d = distance(typed, n);
    if (d < best) {
      best = d;
      out = n;
    }
  }
  return out;
}

void suggest_after_parse_error(const CLI::App& app, int argc, const char* const* argv) {
  std::set<std::string> subcommands, options;
  add_names(app, subcommands, options);
  const std::vector<std::string> subs(subcommands.begin(), subcommands.end()),
      opts(options.begin(), options.end());
  bool subcommand_seen = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--")) {
      std::string_view name = a.substr(0, a.find('='));
      if (options.count(std::string(name))) continue;
      if (auto n = nearest_name(name, opts); !n.empty())
        std::cerr << "ascend-triage: unknown option '" << name << "': did you mean '" << n << "'?\n";
    } else if (!a.starts_with("-") && !subcommand_seen) {
      subcommand_seen = true;  // the first word is the subcommand; later ones are paths or values
      if (subcommands.count(std::string(a))) continue;
      if (auto n = nearest_name(a, subs); !n.empty())
        std::cerr << "ascend-triage: unknown subcommand '" << a << "': did you mean '" << n << "'?\n";
    }
  }
}

}  // namespace triage::cli
