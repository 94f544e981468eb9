#pragma once
// The verdict's rules as data (knowledge/verdict/hypotheses.json, docs/verdict.md): which
// findings support, contradict or are explained by each root-cause hypothesis, with weights
// and a rationale per rule. Rules match finding ids and `values`, never a bundle's literals.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/severity.h"

namespace triage {

enum class RuleEffect { supports, contradicts, consequence };

struct VerdictRule {
  std::string hypothesis;
  RuleEffect effect = RuleEffect::supports;
  std::vector<std::string> findings;  // finding ids (exact); empty for a coverage rule
  // Every key must hold one of the listed values.
  std::map<std::string, std::vector<std::string>> values;
  Severity min_severity = Severity::info;
  // Time conditions against findings of ANY host: one of these ids came first (known
  // times), or none of them may have come first (an unknown time counts as "may have").
  std::vector<std::string> preceded_by, unless_preceded_by;
  std::string missing;  // coverage rule: this kind of evidence was not collected
  bool only_with_support = false;  // contradicts only a hypothesis that something supports
  int weight = 0;
  std::string why;
};

struct HypothesisSpec {
  std::string id, title, does_not_prove;
  std::string confirm_description, confirm_command;  // the check that confirms or clears it
  // Finding values that name where to look first (a lost peer, a remote rank, a device): the
  // next check names them when the hypothesis leads.
  std::vector<std::string> look_at;
};

struct PairCheck {
  std::string a, b;  // unordered
  std::string description, command;
};

struct CollectAdvice {
  std::string missing;  // coverage key
  std::string command, why;
  std::vector<std::string> covers;  // other gaps this command also fills
};

struct VerdictRules {
  std::vector<HypothesisSpec> hypotheses;  // in file order (ties rank in this order)
  std::vector<VerdictRule> rules;
  std::vector<PairCheck> pair_checks;
  std::vector<CollectAdvice> collect;
  int leading_min_score = 30;  // below it no hypothesis is named as the cause
  int strong_weight = 30;      // rules at or above it count for confidence
  std::vector<std::string> errors;

  const HypothesisSpec* find(std::string_view id) const;
};

// The coverage keys a rule may name in `missing` (computed from the evidence in verdict.cpp).
const std::vector<std::string_view>& coverage_keys();

VerdictRules parse_verdict_rules(std::string_view content, const std::string& name);
// Problems beyond syntax: unknown hypothesis, finding or coverage ids, bad weights.
// `finding_ids` empty = finding ids are not checked.
std::vector<std::string> check_verdict_rules(const VerdictRules& rules, const std::string& name,
                                             const std::vector<std::string>& finding_ids);

// The rules for a --knowledge value ("" = built-in): DIR/verdict/hypotheses.json replaces
// the built-in file. Built once per directory; lives until the program ends.
const VerdictRules& verdict_rules_for(const std::string& dir);

constexpr std::string_view kVerdictRulesFile = "verdict/hypotheses.json";

}  // namespace triage
