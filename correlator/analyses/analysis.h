#pragma once
// What every analysis is given: the facts, the options and the knowledge already loaded
// (no analysis loads its own), and the one signature every analysis has. The table of
// analyses, in the order they run, is correlator/analyses/table.cpp.
#include <span>
#include <string_view>
#include <vector>

#include "knowledge/collective_classes.h"
#include "knowledge/failure_classes.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"
#include "knowledge/version_tables.h"
#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

struct AnalysisContext {
  const EvidenceSet& evidence;
  const AnalyzeOptions& options;
  const KnowledgeBase& knowledge;          // signatures, codes, device events, PCI ids
  const FailureClasses& failure_classes;  // knowledge/failure-classes.tsv
  const VersionTables& version_tables;    // knowledge/versions/*.tsv
  const FindingTexts& finding_texts;      // knowledge/findings/*.tsv: the words of findings
  const CollectiveClasses& collective_classes;  // knowledge/collective-classes.tsv

  // The knowledge of `options.knowledge_dir` (built once per directory and shared).
  static AnalysisContext load(const EvidenceSet& evidence, const AnalyzeOptions& options);
};

// An analysis appends its findings to `out`.
using AnalysisFn = void (*)(const AnalysisContext& ctx, std::vector<Finding>& out);

struct AnalysisRow {
  std::string_view name;  // the analysis, as in its file name and docs/findings/
  AnalysisFn run;
};

// Every analysis, in the order correlate() runs them (the passes over their findings come
// after: correlator/passes/).
std::span<const AnalysisRow> analyses();

}  // namespace triage
