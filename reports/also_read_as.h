#pragma once
// "Also read as": the other findings folded into a finding because they read the same evidence
// event (correlator/passes/same_event.cpp), as one line for every format: findings of one id
// are named once with their count ("device-exception/hccl-timeout (7 findings, e.g. ...)").
#include <string>
#include <vector>

#include "knowledge/same_event.h"
#include "model/finding.h"

namespace triage {

struct AlsoReadAs {
  std::string id;
  std::string title;  // the first finding's of that id
  size_t count = 0;
};

// One also_read_as value taken apart ("<id>\t<title>\t<observed>").
struct AlsoReadAsValue {
  std::string id, title, observed;
};
AlsoReadAsValue parse_also_read_as(const std::string& v);

// One entry per id, in the order the ids first appear (from the finding's also_read_as values).
std::vector<AlsoReadAs> also_read_as_by_id(const Finding& f);

// "id: title" or "id (N findings, e.g. title)", entries joined by "; ". Plain text: each
// format escapes it its own way (the Markdown one marks the id as code).
std::string also_read_as_text(const AlsoReadAs& a);

}  // namespace triage
