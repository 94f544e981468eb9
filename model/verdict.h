#pragma once
// The verdict: root-cause hypotheses ranked from the findings, with what supports and what
// contradicts each, and the one next check that best separates the top two. The rules and
// weights are knowledge data (knowledge/verdict/); this header is only the result.
#include <cstddef>
#include <string>
#include <vector>

#include "model/severity.h"

namespace triage {

// A finding referred to by a hypothesis: its id, and its index in Report::findings (sorted).
struct FindingLink {
  std::string id;
  size_t index = 0;
  std::string why;  // one line: how this finding bears on the hypothesis
};

struct Hypothesis {
  std::string id;     // stable: "host-driver-installation", "cann-wheel-mismatch",
                      // "environment-paths", "mount-shadowing", "stale-process-mappings",
                      // "device-hardware", "collective-communication", "application-code",
                      // "insufficient-evidence" (docs/verdict.md)
  std::string title;  // one line for people
  std::string host;   // host group ("" = the whole evidence set)
  double score = 0;   // ranking key from the knowledge rules; higher ranks first
  Confidence confidence = Confidence::low;
  std::string rationale;  // why it ranks where it does, from the rules that fired
  std::vector<FindingLink> supporting;
  std::vector<FindingLink> contradicting;
  std::vector<FindingLink> consequences;  // findings explained as effects of this cause
  std::string does_not_prove;             // the limits of this hypothesis
};

struct NextCheck {
  std::string separates;    // "<first id> vs <second id>"
  std::string description;  // what to look at and how to read the result
  std::string command;      // the exact command to run on the host ("" when none applies)
};

struct Verdict {
  std::vector<Hypothesis> ranked;  // best first; empty only when no fault was found
  NextCheck next_check;
  std::string summary;                    // one or two sentences, verdict first
  std::string reply;                      // a paragraph in plain words, to paste into a ticket
  std::vector<std::string> collect_more;  // collector commands when evidence is insufficient
};

}  // namespace triage
