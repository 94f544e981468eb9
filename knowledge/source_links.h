#pragma once
// Links to the public pages a finding, hypothesis or error code rests on (issue 38).
// Error codes: their `source` column turned into URLs (source_urls). Findings and verdict
// hypotheses: knowledge/finding-sources.tsv, columns id, url, what (docs/knowledge.md).
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct Link {
  std::string url;   // https://...
  std::string what;  // one line: what the page says that the id rests on
};

// The links of a knowledge `source` text, in order, without repeats, `what` being the part as
// written: each `;`-separated part `owner/repo@<hex> path` is
// https://github.com/owner/repo/blob/<hex>/path, an `https://` part is kept (up to its first
// blank); anything else (ascend-facts.md §..., a part without a commit or a path) gives none.
std::vector<Link> source_links(std::string_view source);

constexpr std::string_view kFindingSourcesFile = "finding-sources.tsv";

struct FindingSource {
  std::string id, url, what;
  std::string where;  // "file:line", for the errors of knowledge check
};

// Header id, url, what; a row needs an https:// url and a what. Whether the id is known is
// `knowledge check`'s (check_finding_sources).
std::vector<FindingSource> parse_finding_sources(std::string_view content, const std::string& name,
                                                 std::vector<std::string>& errors);

// parse_finding_sources plus: every id is one of `known_ids` (finding and hypothesis ids), and
// no (id, url) pair twice. Returns the ids of `must_cover` without a row (a warning, not a
// problem: a finding may rest on nothing public yet).
std::vector<std::string> check_finding_sources(std::string_view content, const std::string& name,
                                               const std::vector<std::string>& known_ids,
                                               const std::vector<std::string>& must_cover,
                                               std::vector<std::string>& problems);

// The same against the built-in catalogue and hypotheses; must_cover = the findings raised at
// warning or above (their severity range reaches warning).
std::vector<std::string> check_finding_sources(std::string_view content, const std::string& name,
                                               std::vector<std::string>& problems);

// The rows for a --knowledge value ("" = built-in; DIR/finding-sources.tsv replaces them).
const std::vector<FindingSource>& finding_sources_for(const std::string& dir);

// The links of a finding id or hypothesis id (the table's rows), else of an error code (its
// sources, every kind that has the code); empty when there are none.
std::vector<Link> finding_links(const std::string& knowledge_dir, std::string_view id);

}  // namespace triage
