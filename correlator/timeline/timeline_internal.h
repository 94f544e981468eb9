#pragma once
// Pieces of the timeline builder (correlator/timeline*.cpp), shared between its files and
// tested on their own (tests/unit/timeline_*_test.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/host_facts.h"
#include "model/options.h"
#include "model/timeline.h"

namespace triage {

// One occurrence before collapsing: a TimelineEvent with count 1, plus where it came from.
struct TimelineOccurrence {
  TimelineEvent event;
  bool dated = true;          // false: the line carries no usable time (counted as undated)
  size_t bundle = 0;          // index in EvidenceSet::bundles
  std::string signature;      // knowledge signature id, "" when none (part of the collapse key)
  std::vector<EvidenceRef> also_seen;  // the same line in other entries (finding links)
};

// Folding a bundle's occurrences as they are made, when it is the only bundle (no copy in
// another bundle to find): the occurrences of one collapse key between two boots become the
// one occurrence of their row, so memory follows the rows, not the lines (issue 35).
// collapse_occurrences then gives the rows it gives without folding early.
struct EarlyFold {
  const std::vector<BootMark>& boots;             // merged (merge_boots)
  const std::unordered_set<std::string>& cited;   // line_key of the findings' evidence
  uint64_t undated = 0;                           // undated occurrences counted, not listed
};

// Everything one bundle contributes: occurrences from every source, in no particular order;
// folded early when `fold` is given.
std::vector<TimelineOccurrence> timeline_occurrences(const BundleFacts& facts, size_t bundle,
                                                     const AnalyzeOptions& options, EarlyFold* fold = nullptr);

// The collapse key: signature, host, lane, kind, pid, stream, device and normalised message.
std::string occurrence_group_key(const TimelineOccurrence& o);

// Boot marks of one bundle: kernel/boots.txt, and the current boot from system/boot.txt.
std::vector<BootMark> timeline_boots(const BundleFacts& facts);

// Clock skews measured on named pairs within one bundle.
std::vector<ClockSkew> timeline_skews(const BundleFacts& facts);

// The message with digit runs and hex numbers (0x.., and hex words of 8+ characters holding a
// digit) replaced by '#', blanks squeezed: the collapse key's text part.
std::string normalise_message(std::string_view message);

// Collapses occurrences (signature + normalised message + host/source/kind/pid/stream/device)
// into rows with count, first and last; a boot of the same host between two occurrences
// starts a new row. The same line read from two bundles of one host (before and after a
// reboot) counts once. Undated occurrences are counted in `undated`, not shown.
// `line_to_row` maps "entry\x1fline" of every occurrence (and its other copies) to its row;
// given `wanted_lines`, only those lines (the findings' evidence: a key per occurrence was a
// large part of a plog-heavy timeline's peak, issue 35).
std::vector<TimelineEvent> collapse_occurrences(
    std::vector<TimelineOccurrence> occurrences, const std::vector<BootMark>& boots,
    uint64_t& undated, std::unordered_map<std::string, size_t>& line_to_row,
    const std::unordered_set<std::string>* wanted_lines = nullptr);

std::string line_key(const EvidenceRef& ev);

// Sets finding_ids on the rows that hold a finding's evidence line.
void link_findings(std::vector<TimelineEvent>& events,
                   const std::unordered_map<std::string, size_t>& line_to_row,
                   const std::vector<Finding>& findings);

// Boots of all bundles: one mark per host and boot id (the earliest start), in time order;
// every later boot of a host is a reboot (after_previous).
std::vector<BootMark> merge_boots(std::vector<BootMark> boots);

// Keeps the events (and boots) that pass the filter; counts the removed events.
void apply_timeline_filter(Timeline& timeline, const TimelineFilter& filter);

// Sorts events by first time, then source, then message; boots by start.
void sort_timeline(Timeline& timeline);

// The lane of a kernel line by its form: journal, dmesg, syslog, device-log.
std::string_view kernel_lane(KernelLogForm form);

}  // namespace triage
