#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

// Placeholder until the timeline section is specified in docs/json-report.md.
void write_timeline_json(JsonWriter& w, const Timeline& t) {
  w.begin_object();
  w.field("events", static_cast<uint64_t>(t.events.size()));
  w.end_object();
}

}  // namespace triage
