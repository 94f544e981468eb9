#pragma once
// knowledge/secret-rules.tsv: the secret rules the collector masks with (docs/collector.md,
// "Redaction"), read here for --redact (reports/redact.h). One table, two engines: the
// collector runs each pattern with GNU sed -E, the analyzer with RE2 in leftmost-longest mode;
// tests/unit/knowledge/secret_rules_test.cpp checks they agree on tests/collector/secret-samples.tsv.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace triage {

constexpr std::string_view kSecretRulesFile = "secret-rules.tsv";

struct SecretRule {
  std::string id;                     // "assign", "json", ...
  std::vector<std::string> triggers;  // lower-case; a text holding none is not matched
  std::shared_ptr<const re2::RE2> pattern;
  int after = 0;  // the group put back after <redacted>, or 0
  std::string rewrite;  // RE2's rewrite: \1<redacted> and \<after> when set
};

struct SecretRules {
  std::vector<SecretRule> rules;
  // Masks every rule's matches in `s` as the collector does, then every line between the
  // BEGIN and END lines of a PEM private key; returns how many values were masked.
  size_t mask(std::string& s) const;
};

// Columns id, trigger, pattern, after; problems as "file:line: message".
SecretRules parse_secret_rules(std::string_view content, const std::string& name, std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/secret-rules.tsv replaces it).
const SecretRules& secret_rules_for(const std::string& dir);

}  // namespace triage
