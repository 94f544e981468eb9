// `knowledge check`: a knowledge file is only good when every pattern compiles, every id
// is unique and every sample behaves (matches, or for a near miss does not).
#include <algorithm>
#include <set>

#include "knowledge/chain_selection.h"
#include "knowledge/error_str_sides.h"
#include "knowledge/failure_classes.h"
#include "knowledge/finding_groups.h"
#include "knowledge/same_event.h"
#include "knowledge/fleet_roles.h"
#include "knowledge/wait_edges.h"
#include "knowledge/component_phrases.h"
#include "knowledge/error_levels.h"
#include "knowledge/job_text_forms.h"
#include "knowledge/finding_texts.h"
#include "knowledge/collective_classes.h"
#include "knowledge/zone_abbreviations.h"
#include "knowledge/line_shapes.h"
#include "knowledge/report_fact_rules.h"
#include "knowledge/fact_scanner.h"
#include "knowledge/device_event_sensors.h"
#include "knowledge/month_names.h"
#include "knowledge/port_health.h"
#include "knowledge/slow_limits.h"
#include "knowledge/secret_rules.h"
#include "knowledge/source_links.h"
#include "knowledge/finding_catalogue.h"
#include "knowledge/knowledge.h"
#include "knowledge/knowledge_schemas.h"
#include "knowledge/verdict_rules.h"
#include "knowledge/version_tables.h"

namespace triage {

namespace {

// A signature must lead somewhere: benign (and then never above info), its own finding, or
// a finding of the catalogue that cites its lines. A match that leads nowhere is silence.
void check_outcome(const Signature& s, const std::string& name, KnowledgeCheck& out) {
  if (s.outcome.empty()) return;  // the loader reported it
  if (s.outcome == "benign") {
    if (s.severity != "info")
      out.problems.push_back(name + ": " + s.id + ": a benign signature must have severity info");
    return;
  }
  if (s.outcome == "own") return;
  for (const auto& e : finding_catalogue_for(""))
    if (e.id == s.outcome || (e.id.size() > s.outcome.size() && e.id.starts_with(s.outcome) &&
                              e.id[s.outcome.size()] == '/'))
      return;
  out.problems.push_back(name + ": " + s.id + ": outcome '" + s.outcome +
                         "' is neither benign, own nor a catalogued finding id (findings/<area>.tsv)");
}

void check_signatures(std::string_view content, const std::string& name, SampleTextFn sample_text,
                      KnowledgeCheck& out) {
  std::vector<Signature> sigs;
  parse_signature_file(content, name, sigs, out.problems);
  out.signatures = sigs.size();
  std::set<std::string> ids;
  for (const auto& s : sigs) {
    if (!ids.insert(s.id).second) out.problems.push_back(name + ": " + s.id + ": duplicate id");
    if (s.title.empty()) out.problems.push_back(name + ": " + s.id + ": no title");
    if (s.explanation.empty()) out.problems.push_back(name + ": " + s.id + ": no explanation");
    if (s.next_steps.empty()) out.problems.push_back(name + ": " + s.id + ": no next_steps");
    if (s.category.empty()) out.problems.push_back(name + ": " + s.id + ": no category");
    check_outcome(s, name, out);
    for (const auto& id : s.supersedes)
      if (id == s.id || std::none_of(sigs.begin(), sigs.end(), [&](const Signature& o) { return o.id == id; }))
        out.problems.push_back(name + ": " + s.id + ": supersedes '" + id +
                               "', which is not another signature of this file");
    if (s.samples_match.empty())
      out.problems.push_back(name + ": " + s.id + ": needs at least one sample that must match");
    if (s.samples_near_miss.empty())
      out.problems.push_back(name + ": " + s.id + ": needs at least one near miss that must not match");
    if (!s.re) continue;  // the compile error is already reported
    // Each sample runs through the same path as a log line: the Set prefilter, the module
    // filter, then the signature itself.
    std::vector<Signature> one{s};
    SignatureMatcher plog(one, kSigPlog), kernel(one, kSigKernel), job(one, kSigJob),
        npu_smi(one, kSigNpuSmi);
    std::vector<int> scratch, hits;
    auto matches = [&](const std::string& sample) {
      std::string_view module;
      std::string_view text = sample_text(sample, s.sources, module);
      bool hit = false;
      if (s.sources & kSigPlog) {
        plog.match(text, module, scratch, hits);
        hit = hit || !hits.empty();
      }
      if (s.sources & kSigKernel) {
        kernel.match(text, {}, scratch, hits);
        hit = hit || !hits.empty();
      }
      // Job output and npu-smi lines are matched as printed (job: after its wrapper prefix).
      for (const SignatureMatcher* m : {&job, &npu_smi}) {
        if (m->empty()) continue;
        m->match(sample, {}, scratch, hits);
        if (!hits.empty()) {
          hit = true;
          text = sample;
        }
      }
      return hit && RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *s.re);
    };
    for (const auto& sample : s.samples_match) {
      ++out.samples;
      if (!matches(sample))
        out.problems.push_back(name + ": " + s.id + ": sample does not match: " + sample.substr(0, 160));
    }
    for (const auto& sample : s.samples_near_miss) {
      ++out.samples;
      if (matches(sample))
        out.problems.push_back(name + ": " + s.id + ": near miss matches: " + sample.substr(0, 160));
    }
  }
}

void check_error_codes(std::string_view content, const std::string& name, KnowledgeCheck& out) {
  std::vector<ErrorCodeInfo> codes;
  parse_error_code_file(content, name, codes, out.problems);
  out.error_codes = codes.size();
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& c : codes)
    if (!seen.insert({c.code, c.kind}).second)
      out.problems.push_back(name + ": " + c.kind + " " + c.code + ": duplicate code");
}

// A grouping rule names a finding of the catalogue; one that names nothing groups nothing.
void check_finding_groups(std::string_view content, const std::string& name,
                          std::vector<std::string>& problems) {
  for (const auto& r : parse_finding_groups(content, name, problems)) {
    bool known = false;
    for (const auto& e : finding_catalogue_for("")) known = known || e.id == r.id;
    if (!known) problems.push_back(name + ": " + r.id + " is not a catalogued finding id (findings/<area>.tsv)");
  }
}

// A same-event pair names two findings of the catalogue; a pair that names nothing folds nothing.
void check_same_event(std::string_view content, const std::string& name, std::vector<std::string>& problems) {
  auto known = [](const std::string& id) {
    for (const auto& e : finding_catalogue_for(""))
      if (e.id == id) return true;
    return false;
  };
  for (const auto& r : parse_same_event_rules(content, name, problems))
    for (const std::string* id : {&r.keep, &r.fold})
      if (!known(*id)) problems.push_back(name + ": " + *id + " is not a catalogued finding id (findings/<area>.tsv)");
}

void append(std::vector<std::string>& to, std::vector<std::string> more) {
  for (auto& m : more) to.push_back(std::move(m));
}

}  // namespace

KnowledgeCheck check_knowledge_file(std::string_view content, const std::string& name,
                                    SampleTextFn sample_text) {
  KnowledgeCheck out;
  std::vector<DeviceEventInfo> events;  // tables whose parser does every check
  std::vector<PciIdInfo> pci_ids;
  std::vector<FaultRuleMapping> mappings;
  if (is_knowledge_schema(name)) {
    check_knowledge_schema_file(content, name, out.problems);
    return out;
  }
  // The form first (paths into the file), then what only the loaders know.
  check_knowledge_json_schema(content, name, out.problems);
  // Finding texts first: an area file may share its name with a table (failure-classes.tsv).
  if (name.ends_with(".tsv") && (name.starts_with(kFindingTextsFolder) ||
                                 name.find("/" + std::string(kFindingTextsFolder)) != std::string::npos)) {
    std::vector<FindingText> texts;
    parse_finding_texts(content, name, texts, out.problems);
  } else if (name.starts_with("versions/") || name.find("/versions/") != std::string::npos)
    append(out.problems, check_version_table(content, name));  // knowledge/versions/README.md
  else if (is_verdict_rules_file(name)) {
    // Verdict rules: finding ids are checked against the built-in catalogue (docs/verdict.md).
    std::vector<std::string> ids;
    for (const auto& e : finding_catalogue_for("")) ids.push_back(e.id);
    append(out.problems, check_verdict_rules(parse_verdict_rules(content, name), name, ids));
  } else if (name == kRetiredCatalogueFile || name.ends_with("/" + std::string(kRetiredCatalogueFile)))
    out.problems.push_back(name + ": no longer read: a finding's severity, meaning, limits and how to settle "
                           "are rows of findings/<area>.tsv (docs/knowledge.md, \"Finding texts\")");
  else if (name.ends_with(kDeviceEventSensorsFile))
    parse_device_event_sensors(content, name, out.problems);
  else if (name.ends_with(kPortHealthFile))
    parse_port_health(content, name, out.problems);
  else if (name.ends_with("device-events.tsv")) parse_device_event_file(content, name, events, out.problems);
  else if (name.ends_with("pci-ids.tsv")) parse_pci_id_file(content, name, pci_ids, out.problems);
  else if (name.ends_with("failure-classes.tsv"))
    parse_failure_classes(content, name, out.problems);
  else if (name.ends_with(kErrorStrSidesFile))  // each row's sample must land on that row
    out.samples += parse_error_str_sides(content, name, out.problems).rows.size();
  else if (name.ends_with("finding-groups.tsv"))
    check_finding_groups(content, name, out.problems);
  else if (name.ends_with(kSameEventFile))
    check_same_event(content, name, out.problems);
  else if (name.ends_with("chain-selection.tsv"))
    parse_chain_selection(content, name, out.problems);
  else if (name.ends_with(kFleetRolesFile))
    parse_fleet_roles(content, name, out.problems);
  else if (name.ends_with(kWaitEdgesFile))
    parse_wait_edges(content, name, out.problems);
  else if (name.ends_with(kLineShapesFile) || name.ends_with(kLineShapeSamplesFile))
    append(out.problems, check_line_shapes(content, name, out.samples));
  else if (name.ends_with(kErrorLevelsFile) || name.ends_with(kErrorLevelSamplesFile))
    append(out.problems, check_error_levels(content, name, out.samples));
  else if (name.ends_with(kJobTextFormsFile))
    append(out.problems, check_job_text_forms(content, name, out.samples));
  else if (name.ends_with(kMonthNamesFile))
    parse_month_names(content, name, out.problems);
  else if (name.ends_with(kSlowLimitsFile))
    out.samples += parse_slow_limits(content, name, out.problems).rows.size();
  else if (name.ends_with(kComponentPhrasesFile))
    parse_component_phrases(content, name, out.problems);
  else if (name.ends_with(kSecretRulesFile))
    parse_secret_rules(content, name, out.problems);
  else if (name.ends_with(kFindingSourcesFile))
    check_finding_sources(content, name, out.problems);  // the ids without a row: cli/knowledge_command.cpp
  else if (name.ends_with(kZoneAbbreviationsFile))
    parse_zone_abbreviations(content, name, out.problems);
  else if (name.ends_with(kCollectiveClassesFile)) {
    // Each class must be a catalogued finding and each signature a known one.
    std::set<std::string> signatures;
    for (const auto& s : knowledge_for("").signatures) signatures.insert(s.id);
    for (const auto& r : parse_collective_classes(content, name, out.problems).rows) {
      if (!find_catalogue_entry(finding_catalogue_for(""), r.klass))
        out.problems.push_back(name + ": " + r.text + ": class " + r.klass + " is not a catalogued finding id");
      if (r.match == "signature" && !signatures.count(r.text))
        out.problems.push_back(name + ": no signature " + r.text + " in knowledge/signatures/");
    }
  } else if (name.ends_with(kReportFactsFile))
    out.samples += parse_report_fact_rules(content, name, out.problems).size();
  else if (name.ends_with(kFactFormsFile))
    out.samples += 2 * parse_fact_forms(content, name, out.problems).size();  // sample and near miss
  else if (name.ends_with(".tsv") && (name.starts_with("mappings/") || name.find("/mappings/") != std::string::npos))
    parse_fault_rule_mapping(content, name, mappings, out.problems);
  else if (name.ends_with(".json")) check_signatures(content, name, sample_text, out);
  else if (name.ends_with(".tsv")) check_error_codes(content, name, out);
  else out.problems.push_back(name + ": unknown knowledge file type (expected .json or .tsv)");
  return out;
}

}  // namespace triage
