#pragma once
// knowledge/collective-classes.tsv: which collective/* finding a signature hit or a CANN
// message code of HCCL / HCCP feeds. Read by correlator/analyses/collective.cpp through its
// context. Format: docs/knowledge.md ("Collective classes").
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kCollectiveClassesFile = "collective-classes.tsv";

struct CollectiveClassRow {
  std::string match;  // signature | code
  std::string text;   // the signature id or the message code
  std::string klass;  // a collective/* finding id
  std::string why;
};

struct CollectiveClasses {
  std::vector<CollectiveClassRow> rows;
  // The class of a signature id or a message code; empty when none.
  std::string_view of_signature(std::string_view id) const { return find("signature", id); }
  std::string_view of_code(std::string_view code) const { return find("code", code); }

 private:
  std::string_view find(std::string_view match, std::string_view text) const;
};

// Columns match, text, class, why; problems as "file:line: message" (an unknown match, a
// class that is not collective/*, a row twice).
CollectiveClasses parse_collective_classes(std::string_view content, const std::string& name,
                                           std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/collective-classes.tsv replaces it).
const CollectiveClasses& collective_classes_for(const std::string& dir);

}  // namespace triage
