// The verdict: ranks root-cause hypotheses per host group from the sorted findings with the
// rules of knowledge/verdict/hypotheses.json (docs/verdict.md). All judgement is in the
// rules; this file only matches, adds weights, orders and words the result.
#include "correlator/passes/verdict.h"
#include "correlator/passes/verdict_reply.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "knowledge/verdict_rules.h"

namespace triage {
namespace {

constexpr size_t kMaxLinksPerRule = 12;
constexpr std::string_view kInsufficient = "insufficient-evidence";

// What kinds of evidence a host's bundles hold (coverage_keys()).
std::set<std::string> coverage_of(const BundleFacts& b) {
  std::set<std::string> c;
  if (b.manifest.has_manifest_json || b.manifest.has_items_jsonl) c.insert("bundle");
  if (!b.modules.files.empty() || !b.modules.resident.empty() || !b.modules.loaded.empty())
    c.insert("modules");
  if (b.libraries.driver_version || !b.libraries.cann_files.empty() || !b.libraries.cann_index.empty())
    c.insert("versions");
  if (!b.processes.by_pid.empty() || !b.libraries.by_pid.empty()) c.insert("processes");
  // The collector looked and found no NPU process: known, not missing.
  for (const auto& item : b.manifest.items)
    if (item.path == "processes" && item.status == ItemStatus::absent) c.insert("processes");
  if (!b.devices.probes.empty()) c.insert("probes");
  if (!b.logs.kernel_events.empty() || !b.logs.kernel_entries.empty()) c.insert("kernel_log");
  return c;
}

// What each coverage key is, in the words of a no-fault verdict ("Read: ...").
std::string_view coverage_name(std::string_view key) {
  if (key == "bundle") return "a collector bundle";
  if (key == "modules") return "module state";
  if (key == "versions") return "installed versions";
  if (key == "processes") return "process environment and library maps";
  if (key == "probes") return "device probes";
  if (key == "kernel_log") return "the kernel log";
  return key;
}

// A finding's time as ISO UTC text ("" = unknown); ISO UTC strings order as times do.
std::string time_of(const Finding& f) {
  for (std::string_view key : {"first_utc", "observed_utc"})
    if (const auto* v = f.find_value(key); v && !v->empty() && (*v)[0] >= '0' && (*v)[0] <= '9')
      return *v;
  return {};
}

bool listed(const std::vector<std::string>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool matches(const VerdictRule& r, const Finding& f) {
  if (!listed(r.findings, f.id) || f.severity < r.min_severity) return false;
  for (const auto& [key, allowed] : r.values) {
    const auto* v = f.find_value(key);
    if (!v || !listed(allowed, *v)) return false;
  }
  return true;
}

// Time conditions look at every host: a rank's fault elsewhere still comes first.
bool time_condition(const VerdictRule& r, const Finding& f, const std::vector<Finding>& all) {
  std::string t = time_of(f);
  if (!r.preceded_by.empty()) {
    bool earlier = false;
    for (const auto& g : all) {
      if (!listed(r.preceded_by, g.id)) continue;
      std::string tg = time_of(g);
      if (!t.empty() && !tg.empty() && tg < t) earlier = true;
    }
    if (!earlier) return false;
  }
  for (const auto& g : all) {
    if (!listed(r.unless_preceded_by, g.id)) continue;
    std::string tg = time_of(g);
    if (t.empty() || tg.empty() || tg <= t) return false;  // it came, or may have come, first
  }
  return true;
}

std::string family(std::string_view id) { return std::string(id.substr(0, id.find('/'))); }

bool linked(const std::vector<FindingLink>& links, size_t index) {
  return std::any_of(links.begin(), links.end(), [&](const FindingLink& l) { return l.index == index; });
}

struct Work {
  Hypothesis h;
  size_t order = 0;  // host order * hypotheses + file order: the tie break
  std::set<std::string> strong_families;
  std::set<std::pair<std::string, uint64_t>> strong_lines;  // (entry, line) a strong family cited
  std::vector<std::string> reasons;
  std::vector<std::string> gaps;  // coverage keys a rule found missing
};

// Two findings read from the same lines (collective/wait-timeout and
// device-exception/hccl-timeout on one HCCL report) are one piece of evidence, not two
// independent families: a family counts only when it cites a line no earlier one cited.
bool new_lines(Work& w, const Finding& f) {
  bool fresh = f.evidence.empty();
  for (const auto& e : f.evidence)
    if (w.strong_lines.insert({e.entry, e.line}).second) fresh = true;
  return fresh;
}

void apply_rules(Work& w, const VerdictRules& rules, const std::vector<Finding>& findings,
                 const std::set<std::string>& coverage) {
  // Supports first: a contradiction may apply only to a hypothesis that something supports.
  for (auto pass : {RuleEffect::supports, RuleEffect::contradicts}) {
    for (const auto& rule : rules.rules) {
      if (rule.hypothesis != w.h.id || rule.effect != pass) continue;
      if (rule.only_with_support && w.h.supporting.empty()) continue;
      if (!rule.missing.empty()) {
        if (coverage.count(rule.missing)) continue;
        w.h.score += rule.weight;
        w.gaps.push_back(rule.missing);
        w.reasons.push_back(fmt::format("{} ({:+})", rule.why, rule.weight));
        continue;
      }
      auto& links = rule.effect == RuleEffect::supports ? w.h.supporting : w.h.contradicting;
      size_t hits = 0;
      for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        if ((!f.host.empty() && f.host != w.h.host) || !matches(rule, f)) continue;
        if (!time_condition(rule, f, findings)) continue;
        if (hits++ < kMaxLinksPerRule && !linked(links, i)) links.push_back({f.id, i, rule.why});
        if (rule.effect == RuleEffect::supports && rule.weight >= rules.strong_weight &&
            f.confidence >= Confidence::medium && new_lines(w, f))
          w.strong_families.insert(family(f.id));
      }
      if (hits == 0) continue;
      int delta = rule.effect == RuleEffect::supports ? rule.weight : -rule.weight;
      w.h.score += delta;
      w.reasons.push_back(fmt::format("{} ({:+})", rule.why, delta));
    }
  }
}

// Consequences are listed only for a hypothesis that something supports; they may sit on
// another host (a rank elsewhere that timed out waiting).
void link_consequences(Work& w, const VerdictRules& rules, const std::vector<Finding>& findings) {
  if (w.h.supporting.empty() || w.h.score <= 0) return;
  for (const auto& rule : rules.rules) {
    if (rule.hypothesis != w.h.id || rule.effect != RuleEffect::consequence) continue;
    size_t hits = 0;
    for (size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      if (!matches(rule, f) || !time_condition(rule, f, findings)) continue;
      if (linked(w.h.supporting, i) || linked(w.h.consequences, i)) continue;
      if (hits++ < kMaxLinksPerRule) w.h.consequences.push_back({f.id, i, rule.why});
    }
  }
}

// The best supported cause on another host whose consequences include a finding of `host`
// (another rank's device failed first and this host's collective timed out waiting for it):
// then this host's own lack of evidence is no reason to rank "insufficient evidence" first.
const Hypothesis* cause_elsewhere(const std::vector<Work>& work, const std::vector<Finding>& findings,
                                  const std::string& host) {
  const Hypothesis* best = nullptr;
  for (const auto& w : work) {
    if (w.h.host == host || w.h.id == kInsufficient || w.h.score <= 0) continue;
    bool explains_here = std::any_of(w.h.consequences.begin(), w.h.consequences.end(), [&](const FindingLink& l) {
      return l.index < findings.size() && findings[l.index].host == host;
    });
    // The wait graph's root supports it and this host's ranks are among those that waited on it.
    explains_here = explains_here || std::any_of(w.h.supporting.begin(), w.h.supporting.end(), [&](const FindingLink& l) {
      if (l.index >= findings.size() || findings[l.index].id != "collective/wait-root") return false;
      const std::string* waiting = findings[l.index].find_value("waiter_hosts");
      if (!waiting || host.empty()) return false;
      for (std::string_view rest = *waiting; !rest.empty();) {
        size_t comma = rest.find(',');
        if (rest.substr(0, comma) == host) return true;
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      }
      return false;
    });
    if (explains_here && (!best || w.h.score > best->score)) best = &w.h;
  }
  return best;
}

Confidence confidence_of(const Work& w) {
  if (!w.h.contradicting.empty()) return Confidence::low;
  if (w.strong_families.size() >= 2) return Confidence::high;
  if (w.strong_families.size() == 1) return Confidence::medium;
  return Confidence::low;
}

std::string ids_of(const std::vector<FindingLink>& links, size_t max = 4) {
  std::vector<std::string> ids;
  for (const auto& l : links)
    if (!listed(ids, l.id)) ids.push_back(l.id);
  std::string out = fmt::format("{}", fmt::join(ids.begin(), ids.begin() + std::min(ids.size(), max), ", "));
  if (ids.size() > max) out += fmt::format(" and {} more", ids.size() - max);
  return out;
}

std::string on_host(const std::string& host) { return host.empty() ? "" : fmt::format(" on {}", host); }

void write_summary(Verdict& v, const VerdictRules& rules, const std::vector<Finding>& findings) {
  if (v.ranked.empty()) return;  // no fault: no_fault_summary() wrote it
  const Hypothesis& top = v.ranked.front();
  bool any_warning = std::any_of(findings.begin(), findings.end(),
                                 [](const Finding& f) { return f.severity >= Severity::warning; });
  std::string s;
  if (top.id != kInsufficient) {
    s = fmt::format("Leading hypothesis{}: {} ({} confidence), supported by {}.", on_host(top.host),
                    top.title, to_string(top.confidence), ids_of(top.supporting));
    if (!top.consequences.empty())
      s += fmt::format(" Explained as its consequences: {}.", ids_of(top.consequences));
  } else if (!any_warning) {
    s = "No fault found: no finding at warning or above, so there is nothing to rank.";
  } else {
    s = "Insufficient evidence to name a cause: no hypothesis is supported strongly enough.";
  }
  // Below the threshold: named as conditions to fix, never as the cause.
  // With several hosts a hypothesis ranks once per host: say each once, with its host count.
  std::vector<std::string> weak, unlikely_ids;
  std::map<std::string, std::pair<const Hypothesis*, size_t>> unlikely;
  for (const auto& h : v.ranked) {
    if (&h == &top || h.id == kInsufficient) continue;
    if (h.score > 0 && h.score < rules.leading_min_score && !listed(weak, h.id)) weak.push_back(h.id);
    if (h.score < 0) {
      auto [it, fresh] = unlikely.try_emplace(h.id, &h, 0);
      if (fresh) unlikely_ids.push_back(h.id);
      ++it->second.second;
    }
  }
  std::vector<std::string> unlikely_text;
  for (const auto& id : unlikely_ids) {
    const auto& [h, hosts] = unlikely.at(id);
    unlikely_text.push_back(fmt::format("{} (contradicted by {}{})", id, ids_of(h->contradicting, 2),
                                        hosts > 1 ? fmt::format(", on {} hosts", hosts) : ""));
  }
  if (!weak.empty())
    s += fmt::format(" Below the score to be named a cause (conditions to check or fix, not shown to "
                     "cause the fault): {}.", fmt::join(weak, ", "));
  if (!unlikely_text.empty()) s += fmt::format(" Unlikely: {}.", fmt::join(unlikely_text, "; "));
  // Last: a command is no sentence, and text after it would read as part of it.
  if (top.id == kInsufficient && any_warning && !v.collect_more.empty())
    s += fmt::format(" Collect a bundle: {}", v.collect_more.front());
  v.summary = std::move(s);
}

// Collector commands for the gaps, when insufficient evidence leads; a command that also
// fills other gaps (`covers`) makes their own commands unnecessary.
void collect_commands(Verdict& v, const VerdictRules& rules, const std::vector<std::string>& gaps) {
  if (v.ranked.empty() || v.ranked.front().id != kInsufficient) return;
  std::vector<std::string> filled;
  for (const auto& c : rules.collect) {
    if (!listed(gaps, c.missing) || listed(filled, c.missing) || listed(v.collect_more, c.command)) continue;
    v.collect_more.push_back(c.command);
    filled.push_back(c.missing);
    filled.insert(filled.end(), c.covers.begin(), c.covers.end());
  }
}

// The one check that separates the best hypothesis from the runner-up: the best other one
// that still stands (score above zero). Below a named cause, "insufficient evidence" is no
// rival cause (collect_more already says what to collect): when a supported cause stands
// beside it, the check separates the two causes (a missing library present on disk or not).
// "peer 90.90.92.240/1; remote_rank 15": the values of the leading hypothesis's findings that
// name where to look first (its spec's look_at), each once, at most six.
std::string named_places(const Hypothesis& top, const HypothesisSpec& spec, const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& key : spec.look_at)
    for (const auto& l : top.supporting) {
      const auto* v = l.index < findings.size() ? findings[l.index].find_value(key) : nullptr;
      std::string s = v && !v->empty() ? key + " " + *v : "";
      if (!s.empty() && !listed(out, s) && out.size() < 6) out.push_back(std::move(s));
    }
  return fmt::format("{}", fmt::join(out, "; "));
}

void choose_next_check(Verdict& v, const VerdictRules& rules, const std::vector<Finding>& findings,
                       bool missing_evidence) {
  if (v.ranked.empty()) return;
  const Hypothesis& top = v.ranked.front();
  const Hypothesis* second = nullptr;
  for (const auto& h : v.ranked)
    if (h.id != top.id && h.score > 0 && (top.id == kInsufficient || h.id != kInsufficient) &&
        (h.id == kInsufficient || !h.supporting.empty())) {
      second = &h;
      break;
    }
  if (!second)
    for (const auto& h : v.ranked)
      if (h.id != top.id && h.score > 0) {
        second = &h;
        break;
      }
  v.next_check.separates = second ? fmt::format("{} vs {}", top.id, second->id) : top.id;
  // Alone, on loose files (insufficient evidence is not ranked where the cause explains
  // everything): the check written against missing evidence still says what to read first.
  std::string_view other = second ? std::string_view(second->id) : missing_evidence ? kInsufficient : "";
  const PairCheck* pair = nullptr;
  for (const auto& p : rules.pair_checks)
    if ((p.a == top.id && p.b == other) || (p.b == top.id && p.a == other)) pair = &p;
  if (pair) {
    v.next_check.description = pair->description;
    v.next_check.command = pair->command;
  } else if (const auto* spec = rules.find(top.id)) {
    v.next_check.description = spec->confirm_description;
    v.next_check.command = spec->confirm_command;
  }
  if (top.id == kInsufficient && !v.collect_more.empty() && v.next_check.command.empty())
    v.next_check.command = v.collect_more.front();
  // With insufficient evidence first, the runner-up's lines still name where the deciding
  // evidence is (issue 36: the peer rank a link set-up waited for), so the check starts there.
  const Hypothesis& named = top.id == kInsufficient && second && second->host == top.host ? *second : top;
  if (const auto* spec = rules.find(named.id))
    if (auto places = named_places(named, *spec, findings); !places.empty())
      v.next_check.description = fmt::format("Start with what the lines name: {}. {}", places, v.next_check.description);
}

// Nothing at warning or above anywhere: "No fault found" stands alone, with what was read
// and what was not (so not known healthy), and no hypothesis ranked beside it.
std::string no_fault_summary(const std::set<std::string>& read) {
  std::vector<std::string_view> have, lack;
  for (auto key : coverage_keys()) (read.count(std::string(key)) ? have : lack).push_back(coverage_name(key));
  std::string s = "No fault found: no finding at warning or above, so there is nothing to rank.";
  s += have.empty() ? std::string(" Read: loose files only.") : fmt::format(" Read: {}.", fmt::join(have, ", "));
  if (!lack.empty()) s += fmt::format(" Not in the input, so not known healthy: {}.", fmt::join(lack, ", "));
  return s;
}

}  // namespace

Verdict build_verdict(const std::vector<Finding>& findings, const EvidenceSet& evidence,
                      const AnalyzeOptions& options) {
  const VerdictRules& rules = verdict_rules_for(options.knowledge_dir);
  Verdict v;
  // Host groups: bundles' hosts, then hosts only findings name.
  std::vector<std::string> hosts;
  std::map<std::string, std::set<std::string>> coverage;
  for (const auto& b : evidence.bundles) {
    if (!listed(hosts, b.host)) hosts.push_back(b.host);
    auto c = coverage_of(b);
    coverage[b.host].insert(c.begin(), c.end());
  }
  for (const auto& f : findings)
    if (!f.host.empty() && !listed(hosts, f.host)) hosts.push_back(f.host);
  if (hosts.size() > 1) hosts.erase(std::remove(hosts.begin(), hosts.end(), std::string()), hosts.end());
  if (hosts.empty()) hosts.push_back("");

  // A host with a finding at warning or above has something to explain.
  auto has_problem = [&](const std::string& host) {
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.severity >= Severity::warning && (f.host.empty() || f.host == host);
    });
  };
  std::vector<Work> work;
  std::vector<std::string> gaps;
  for (size_t hi = 0; hi < hosts.size(); ++hi) {
    for (size_t si = 0; si < rules.hypotheses.size(); ++si) {
      const auto& spec = rules.hypotheses[si];
      Work w;
      w.h.id = spec.id, w.h.title = spec.title, w.h.host = hosts[hi];
      w.h.does_not_prove = spec.does_not_prove;
      w.order = hi * rules.hypotheses.size() + si;
      apply_rules(w, rules, findings, coverage[hosts[hi]]);
      link_consequences(w, rules, findings);
      w.h.confidence = confidence_of(w);
      work.push_back(std::move(w));
    }
  }
  // A finding at warning or above on `host` that no hypothesis reaching the leading score
  // supports or lists as a consequence: something a named cause does not account for.
  auto has_unexplained = [&](const std::string& host) {
    for (size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      if (f.severity < Severity::warning || (!f.host.empty() && f.host != host)) continue;
      bool explained = std::any_of(work.begin(), work.end(), [&](const Work& w) {
        return w.h.id != kInsufficient && w.h.score >= rules.leading_min_score &&
               (linked(w.h.supporting, i) || linked(w.h.consequences, i));
      });
      if (!explained) return true;
    }
    return false;
  };
  // After every host is judged: a host may wait on another host's cause.
  for (const auto& host : hosts) {
    // No hypothesis strong enough: insufficient evidence leads this host, unless its
    // findings are the consequences of a cause on another host (it waited on that host).
    double best = 0;
    for (const auto& w : work)
      if (w.h.host == host && w.h.id != kInsufficient) best = std::max(best, w.h.score);
    const Hypothesis* waited_on = cause_elsewhere(work, findings, host);
    // A host with nothing to explain beside one that has: its gaps are no reason to lead.
    bool quiet_beside_fault = !has_problem(host) && std::any_of(hosts.begin(), hosts.end(), [&](const std::string& o) {
      return o != host && has_problem(o);
    });
    bool unexplained = has_unexplained(host);
    for (Work& w : work) {
      if (w.h.host != host || w.h.id != kInsufficient) continue;
      // Its gaps still name what to collect; they do not rank it beside the other host's cause.
      if (!has_problem(host)) {
        w.h.score = 0;
        w.reasons = {"nothing at warning or above on this host"};
      } else if (waited_on) {
        w.h.score = 0;
        w.reasons = {fmt::format("its findings are read as waiting on {}: consequences of {} there",
                                 waited_on->host, waited_on->id)};
      } else if (quiet_beside_fault) {
        w.h.score = 0;
        w.reasons = {"nothing at warning or above on this host, while another host has a fault"};
      } else if (best < rules.leading_min_score) {
        w.h.score += rules.leading_min_score;
        w.h.confidence = Confidence::medium;
        w.reasons.insert(w.reasons.begin(),
                         fmt::format("no hypothesis reaches the leading score {} (best {})",
                                     rules.leading_min_score, best));
      } else if (!unexplained) {
        // A named cause explains everything at warning or above: its gaps are no rival.
        w.h.score = 0;
        w.reasons = {"every finding at warning or above is explained by a named cause"};
      }
      for (const auto& g : w.gaps)
        if (!listed(gaps, g)) gaps.push_back(g);
    }
  }
  for (auto& w : work) {
    std::string r;
    for (size_t i = 0; i < w.reasons.size(); ++i) r += (i ? "; " : "") + w.reasons[i];
    w.h.rationale = r.empty() ? "no finding bears on it" : r;
  }
  std::stable_sort(work.begin(), work.end(), [](const Work& a, const Work& b) {
    if (a.h.score != b.h.score) return a.h.score > b.h.score;
    return a.order < b.order;
  });
  // Only hypotheses something bears on are ranked (insufficient evidence: when it scores);
  // one that is only contradicted is worth saying where there is something to explain.
  for (auto& w : work) {
    bool supported = w.h.id != kInsufficient && !w.h.supporting.empty();
    bool contradicted = !w.h.contradicting.empty() && w.h.supporting.empty();
    if ((w.h.score > 0 || supported) || (contradicted && has_problem(w.h.host)))
      v.ranked.push_back(std::move(w.h));
  }
  bool no_fault = std::none_of(hosts.begin(), hosts.end(), has_problem);
  if (v.ranked.empty() && no_fault && !rules.hypotheses.empty()) {
    std::set<std::string> read;
    for (const auto& [host, c] : coverage) read.insert(c.begin(), c.end());
    v.summary = no_fault_summary(read);
  } else if (v.ranked.empty()) {  // no rules loaded: say so rather than rank nothing
    Hypothesis h;
    h.id = std::string(kInsufficient);
    h.title = "No verdict: the verdict rules did not load";
    h.rationale = rules.errors.empty() ? "" : rules.errors.front();
    v.ranked.push_back(std::move(h));
  }

  collect_commands(v, rules, gaps);
  choose_next_check(v, rules, findings, listed(gaps, "bundle"));
  write_summary(v, rules, findings);
  v.reply = verdict_reply(v, findings);
  return v;
}

}  // namespace triage
