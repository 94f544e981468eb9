#include "knowledge/source_links.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "knowledge/finding_catalogue.h"
#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "knowledge/verdict_rules.h"

namespace triage {

namespace {

bool every(std::string_view s, bool (*ok)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ok);
}
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }
bool path_char(char c) { return name_char(c) || c == '/'; }
bool hex_char(char c) { return std::isxdigit(static_cast<unsigned char>(c)); }

// `owner/repo@<hex> path[ (note)]` -> the GitHub blob URL, "" when the part is not one.
std::string github_url(std::string_view part) {
  size_t blank = part.find(' ');
  if (blank == std::string_view::npos) return "";  // no path: a repository is not a page
  std::string_view repo = part.substr(0, blank), rest = trim(part.substr(blank + 1));
  std::string_view path = rest.substr(0, rest.find(' '));
  size_t slash = repo.find('/'), at = repo.find('@');
  if (slash == std::string_view::npos || at == std::string_view::npos || at < slash) return "";
  std::string_view owner = repo.substr(0, slash), name = repo.substr(slash + 1, at - slash - 1),
                   commit = repo.substr(at + 1);
  if (!every(owner, name_char) || !every(name, name_char) || !every(commit, hex_char) || commit.size() < 7 ||
      commit.size() > 40 || !every(path, path_char) || path.front() == '/' || path.find("..") != std::string_view::npos)
    return "";
  return "https://github.com/" + std::string(owner) + "/" + std::string(name) + "/blob/" + std::string(commit) +
         "/" + std::string(path);
}

}  // namespace

std::vector<Link> source_links(std::string_view source) {
  std::vector<Link> out;
  while (!source.empty()) {
    size_t semi = source.find(';');
    std::string_view part = trim(source.substr(0, semi));
    source = semi == std::string_view::npos ? std::string_view{} : source.substr(semi + 1);
    std::string url = part.starts_with("https://") ? std::string(part.substr(0, part.find(' '))) : github_url(part);
    if (url.empty() || url == "https://") continue;
    if (std::none_of(out.begin(), out.end(), [&](const Link& l) { return l.url == url; }))
      out.push_back({url, std::string(part)});
  }
  return out;
}

std::vector<FindingSource> parse_finding_sources(std::string_view content, const std::string& name,
                                                 std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"id", "url", "what"};
  std::vector<FindingSource> out;
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    FindingSource r{std::string(f[0]), std::string(f[1]), std::string(f[2]), where};
    if (r.id.empty() || r.what.empty()) return errors.push_back(where + ": id and what are required");
    // A link is a public page: https, no blank inside (a blank would end it in Markdown).
    if (!r.url.starts_with("https://") || r.url.size() <= 8 || r.url.find_first_of(" \"<>") != std::string::npos)
      return errors.push_back(where + ": url '" + r.url + "' is not an https:// address");
    if (!seen.insert({r.id, r.url}).second) return errors.push_back(where + ": duplicate row " + r.id + " " + r.url);
    out.push_back(std::move(r));
  });
  return out;
}

std::vector<std::string> check_finding_sources(std::string_view content, const std::string& name,
                                               const std::vector<std::string>& known_ids,
                                               const std::vector<std::string>& must_cover,
                                               std::vector<std::string>& problems) {
  std::set<std::string> known(known_ids.begin(), known_ids.end()), covered;
  for (const auto& r : parse_finding_sources(content, name, problems)) {
    if (!known.count(r.id))
      problems.push_back(r.where + ": " + r.id + " is neither a catalogued finding id nor a verdict hypothesis id");
    covered.insert(r.id);
  }
  std::vector<std::string> uncovered;
  for (const auto& id : must_cover)
    if (!covered.count(id)) uncovered.push_back(id);
  return uncovered;
}

std::vector<std::string> check_finding_sources(std::string_view content, const std::string& name,
                                               std::vector<std::string>& problems) {
  std::vector<std::string> known, must_cover;
  for (const auto& e : finding_catalogue_for("")) {
    known.push_back(e.id);
    // The range's top: "info..warning" reaches warning, "info" does not.
    std::string_view top = e.severity;
    if (size_t dots = top.rfind(".."); dots != std::string_view::npos) top.remove_prefix(dots + 2);
    if (top == "warning" || top == "error" || top == "critical") must_cover.push_back(e.id);
  }
  for (const auto& h : verdict_rules_for("").hypotheses) known.push_back(h.id);
  return check_finding_sources(content, name, known, must_cover, problems);
}

const std::vector<FindingSource>& finding_sources_for(const std::string& dir) {
  return cached_table<std::vector<FindingSource>>(
      kFindingSourcesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_finding_sources(c, n, e);
      });
}

std::vector<Link> finding_links(const std::string& knowledge_dir, std::string_view id) {
  std::vector<Link> out;
  for (const auto& r : finding_sources_for(knowledge_dir))
    if (r.id == id) out.push_back({r.url, r.what});
  if (!out.empty()) return out;
  for (const auto& c : knowledge_for(knowledge_dir).error_codes) {
    if (c.code != id) continue;
    for (auto& l : source_links(c.source))
      if (std::none_of(out.begin(), out.end(), [&](const Link& o) { return o.url == l.url; }))
        out.push_back(std::move(l));
  }
  return out;
}

}  // namespace triage
