// Loading and checking knowledge/verdict/hypotheses.json (format: docs/verdict.md).
#include "knowledge/verdict_rules.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <set>

#include "knowledge/knowledge.h"

namespace triage {

namespace {

using namespace simdjson;

const std::vector<std::string_view> kHypothesisIds = {
    "host-driver-installation", "cann-wheel-mismatch",      "environment-paths",
    "mount-shadowing",          "stale-process-mappings",   "device-hardware",
    "collective-communication", "device-access",            "application-code",
    "insufficient-evidence", "device-memory"};

// Reads a string or an array of strings.
bool read_strings(ondemand::value v, std::vector<std::string>& out) {
  std::string_view s;
  if (!v.get_string().get(s)) {
    out.emplace_back(s);
    return true;
  }
  ondemand::array arr;
  if (v.get_array().get(arr)) return false;
  for (auto item : arr) {
    if (item.get_string().get(s)) return false;
    out.emplace_back(s);
  }
  return true;
}

bool read_string(ondemand::value v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out = std::string(s);
  return true;
}

bool read_int(ondemand::value v, int& out) {
  int64_t n;
  if (v.get_int64().get(n) || n < -1000 || n > 1000) return false;
  out = static_cast<int>(n);
  return true;
}

struct Reader {
  VerdictRules& r;
  std::string name;
  void fail(const std::string& what) { r.errors.push_back(name + ": " + what); }

  void hypothesis(ondemand::object obj, const std::string& where) {
    HypothesisSpec h;
    for (auto f : obj) {
      std::string_view k;
      ondemand::value v;
      if (f.unescaped_key().get(k) || f.value().get(v)) return fail(where + ": bad field");
      bool ok = true;
      if (k == "id") ok = read_string(v, h.id);
      else if (k == "title") ok = read_string(v, h.title);
      else if (k == "does_not_prove") ok = read_string(v, h.does_not_prove);
      else if (k == "look_at") ok = read_strings(v, h.look_at);
      else if (k == "confirm") {
        ondemand::object c;
        if (v.get_object().get(c)) ok = false;
        else
          for (auto cf : c) {
            std::string_view ck;
            ondemand::value cv;
            if (cf.unescaped_key().get(ck) || cf.value().get(cv)) { ok = false; break; }
            if (ck == "description") ok = read_string(cv, h.confirm_description) && ok;
            else if (ck == "command") ok = read_string(cv, h.confirm_command) && ok;
            else fail(where + ": unknown confirm key '" + std::string(ck) + "'");
          }
      } else if (k == "comment") {
      } else fail(where + ": unknown key '" + std::string(k) + "'");
      if (!ok) fail(where + ": " + std::string(k) + " has the wrong type");
    }
    if (h.id.empty()) return fail(where + ": no id");
    r.hypotheses.push_back(std::move(h));
  }

  void rule(ondemand::object obj, const std::string& where) {
    VerdictRule rule;
    std::string effect, severity;
    bool have_weight = false;
    for (auto f : obj) {
      std::string_view k;
      ondemand::value v;
      if (f.unescaped_key().get(k) || f.value().get(v)) return fail(where + ": bad field");
      bool ok = true;
      if (k == "hypothesis") ok = read_string(v, rule.hypothesis);
      else if (k == "effect") ok = read_string(v, effect);
      else if (k == "finding") ok = read_strings(v, rule.findings);
      else if (k == "min_severity") ok = read_string(v, severity);
      else if (k == "preceded_by") ok = read_strings(v, rule.preceded_by);
      else if (k == "unless_preceded_by") ok = read_strings(v, rule.unless_preceded_by);
      else if (k == "missing") ok = read_string(v, rule.missing);
      else if (k == "why") ok = read_string(v, rule.why);
      else if (k == "only_with_support") ok = !v.get_bool().get(rule.only_with_support);
      else if (k == "weight") ok = have_weight = read_int(v, rule.weight);
      else if (k == "values") {
        ondemand::object vo;
        if (v.get_object().get(vo)) ok = false;
        else
          for (auto vf : vo) {
            std::string_view vk;
            ondemand::value vv;
            if (vf.unescaped_key().get(vk) || vf.value().get(vv)) { ok = false; break; }
            ok = read_strings(vv, rule.values[std::string(vk)]) && ok;
          }
      } else if (k == "comment") {
      } else fail(where + ": unknown key '" + std::string(k) + "'");
      if (!ok) fail(where + ": " + std::string(k) + " has the wrong type or range");
    }
    if (effect == "supports") rule.effect = RuleEffect::supports;
    else if (effect == "contradicts") rule.effect = RuleEffect::contradicts;
    else if (effect == "consequence") rule.effect = RuleEffect::consequence;
    else return fail(where + ": effect must be supports, contradicts or consequence");
    if (!severity.empty()) {
      auto s = parse_severity(severity);
      if (!s) return fail(where + ": min_severity must be info, warning, error or critical");
      rule.min_severity = *s;
    }
    if (rule.effect != RuleEffect::consequence && !have_weight)
      return fail(where + ": supports/contradicts need an integer weight");
    if (rule.findings.empty() == rule.missing.empty())
      return fail(where + ": give either finding or missing");
    if (rule.why.empty()) fail(where + ": no why (the rule's rationale)");
    r.rules.push_back(std::move(rule));
  }

  void pair(ondemand::object obj, const std::string& where) {
    PairCheck p;
    std::vector<std::string> between;
    for (auto f : obj) {
      std::string_view k;
      ondemand::value v;
      if (f.unescaped_key().get(k) || f.value().get(v)) return fail(where + ": bad field");
      bool ok = true;
      if (k == "between") ok = read_strings(v, between);
      else if (k == "description") ok = read_string(v, p.description);
      else if (k == "command") ok = read_string(v, p.command);
      else if (k == "comment") {
      } else fail(where + ": unknown key '" + std::string(k) + "'");
      if (!ok) fail(where + ": " + std::string(k) + " has the wrong type");
    }
    if (between.size() != 2) return fail(where + ": between needs two hypothesis ids");
    p.a = between[0], p.b = between[1];
    if (p.description.empty()) fail(where + ": no description");
    r.pair_checks.push_back(std::move(p));
  }

  void collect(ondemand::object obj, const std::string& where) {
    CollectAdvice c;
    for (auto f : obj) {
      std::string_view k;
      ondemand::value v;
      if (f.unescaped_key().get(k) || f.value().get(v)) return fail(where + ": bad field");
      bool ok = true;
      if (k == "missing") ok = read_string(v, c.missing);
      else if (k == "command") ok = read_string(v, c.command);
      else if (k == "why") ok = read_string(v, c.why);
      else if (k == "covers") ok = read_strings(v, c.covers);
      else if (k == "comment") {
      } else fail(where + ": unknown key '" + std::string(k) + "'");
      if (!ok) fail(where + ": " + std::string(k) + " has the wrong type");
    }
    if (c.missing.empty() || c.command.empty()) return fail(where + ": needs missing and command");
    r.collect.push_back(std::move(c));
  }

  template <class Fn>
  void each(ondemand::value v, std::string_view what, Fn fn) {
    ondemand::array arr;
    if (v.get_array().get(arr)) return fail(std::string(what) + " is not an array");
    size_t i = 0;
    for (auto item : arr) {
      std::string where = fmt::format("{} #{}", what, i++);
      ondemand::object obj;
      if (item.get_object().get(obj)) {
        fail(where + ": not an object");
        continue;
      }
      fn(obj, where);
    }
  }
};

}  // namespace

const HypothesisSpec* VerdictRules::find(std::string_view id) const {
  for (const auto& h : hypotheses)
    if (h.id == id) return &h;
  return nullptr;
}

const std::vector<std::string_view>& coverage_keys() {
  static const std::vector<std::string_view> keys = {"bundle",    "modules", "versions",
                                                     "processes", "probes",  "kernel_log"};
  return keys;
}

VerdictRules parse_verdict_rules(std::string_view content, const std::string& name) {
  VerdictRules r;
  Reader rd{r, name};
  ondemand::parser parser;
  padded_string json(content);
  ondemand::document doc;
  ondemand::object root;
  if (parser.iterate(json).get(doc) || doc.get_object().get(root)) {
    rd.fail("not a JSON object");
    return r;
  }
  std::string format;
  for (auto field : root) {
    std::string_view key;
    ondemand::value v;
    if (field.unescaped_key().get(key) || field.value().get(v)) {
      rd.fail("not JSON");
      return r;
    }
    if (key == "format") read_string(v, format);
    else if (key == "leading_min_score") {
      if (!read_int(v, r.leading_min_score)) rd.fail("leading_min_score is not an integer");
    } else if (key == "strong_weight") {
      if (!read_int(v, r.strong_weight)) rd.fail("strong_weight is not an integer");
    } else if (key == "hypotheses")
      rd.each(v, "hypothesis", [&](ondemand::object o, const std::string& w) { rd.hypothesis(o, w); });
    else if (key == "rules")
      rd.each(v, "rule", [&](ondemand::object o, const std::string& w) { rd.rule(o, w); });
    else if (key == "next_checks")
      rd.each(v, "next_check", [&](ondemand::object o, const std::string& w) { rd.pair(o, w); });
    else if (key == "collect")
      rd.each(v, "collect", [&](ondemand::object o, const std::string& w) { rd.collect(o, w); });
    else if (key == "version" || key == "comment") {
    } else rd.fail("unknown key '" + std::string(key) + "'");
  }
  if (format != "ascend-triage-verdict") rd.fail("format must be \"ascend-triage-verdict\"");
  if (r.hypotheses.empty()) rd.fail("no hypotheses");
  return r;
}

std::vector<std::string> check_verdict_rules(const VerdictRules& r, const std::string& name,
                                             const std::vector<std::string>& finding_ids) {
  std::vector<std::string> out = r.errors;
  auto known_hypothesis = [](std::string_view id) {
    return std::find(kHypothesisIds.begin(), kHypothesisIds.end(), id) != kHypothesisIds.end();
  };
  auto known_finding = [&](const std::string& id) {
    return finding_ids.empty() || std::find(finding_ids.begin(), finding_ids.end(), id) != finding_ids.end();
  };
  auto known_coverage = [](std::string_view k) {
    const auto& keys = coverage_keys();
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  std::set<std::string> seen;
  for (const auto& h : r.hypotheses) {
    if (!known_hypothesis(h.id)) out.push_back(name + ": unknown hypothesis id " + h.id);
    if (!seen.insert(h.id).second) out.push_back(name + ": duplicate hypothesis " + h.id);
    if (h.title.empty()) out.push_back(name + ": " + h.id + ": no title");
    if (h.does_not_prove.empty()) out.push_back(name + ": " + h.id + ": no does_not_prove");
    if (h.confirm_description.empty()) out.push_back(name + ": " + h.id + ": no confirm check");
  }
  for (auto id : kHypothesisIds)
    if (!r.find(id)) out.push_back(name + ": hypothesis " + std::string(id) + " is not described");
  size_t i = 0;
  for (const auto& rule : r.rules) {
    std::string where = fmt::format("{}: rule #{} ({})", name, i++, rule.hypothesis);
    if (!r.find(rule.hypothesis)) out.push_back(where + ": unknown hypothesis id");
    for (const auto& lists : {&rule.findings, &rule.preceded_by, &rule.unless_preceded_by})
      for (const auto& id : *lists)
        if (!known_finding(id)) out.push_back(where + ": unknown finding id " + id);
    if (!rule.missing.empty() && !known_coverage(rule.missing))
      out.push_back(where + ": unknown coverage key " + rule.missing);
    if (rule.effect == RuleEffect::consequence && rule.weight != 0)
      out.push_back(where + ": a consequence carries no weight");
    if (rule.effect != RuleEffect::consequence && (rule.weight < 0 || rule.weight > 100))
      out.push_back(where + ": weight must be 0..100 (contradicts subtracts it)");
    if (rule.only_with_support && rule.effect != RuleEffect::contradicts)
      out.push_back(where + ": only_with_support applies to contradicts");
    if (!rule.missing.empty() && rule.effect != RuleEffect::supports)
      out.push_back(where + ": a coverage rule can only support");
    for (const auto& [k, vals] : rule.values)
      if (vals.empty()) out.push_back(where + ": values." + k + " lists nothing");
  }
  for (const auto& p : r.pair_checks)
    if (!r.find(p.a) || !r.find(p.b)) out.push_back(name + ": next_check between unknown hypotheses " + p.a + ", " + p.b);
  for (const auto& c : r.collect) {
    if (!known_coverage(c.missing)) out.push_back(name + ": collect: unknown coverage key " + c.missing);
    for (const auto& k : c.covers)
      if (!known_coverage(k)) out.push_back(name + ": collect: unknown coverage key " + k);
  }
  if (r.leading_min_score <= 0) out.push_back(name + ": leading_min_score must be positive");
  if (r.strong_weight <= 0) out.push_back(name + ": strong_weight must be positive");
  return out;
}

const VerdictRules& verdict_rules_for(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<VerdictRules>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dir);
  if (it != cache.end()) return *it->second;
  const KnowledgeFile* chosen = nullptr;
  for (const auto& f : builtin_knowledge_files())
    if (f.name == kVerdictRulesFile) chosen = &f;
  std::vector<KnowledgeFile> extra;
  std::vector<std::string> errors;
  if (!dir.empty()) {
    extra = read_knowledge_dir(dir, errors);
    for (const auto& f : extra)
      if (f.name == kVerdictRulesFile) chosen = &f;
  }
  auto rules = std::make_unique<VerdictRules>(
      chosen ? parse_verdict_rules(chosen->content, chosen->name) : VerdictRules{});
  if (!chosen) rules->errors.push_back(std::string(kVerdictRulesFile) + ": missing");
  for (auto& e : errors) rules->errors.push_back(e);
  auto& ref = *rules;
  cache.emplace(dir, std::move(rules));
  return ref;
}

}  // namespace triage
