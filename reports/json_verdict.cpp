#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

// Placeholder until the verdict section is specified in docs/json-report.md.
void write_verdict_json(JsonWriter& w, const Verdict& v) {
  w.begin_object();
  w.key("ranked").begin_array();
  for (const auto& h : v.ranked) w.begin_object().field("id", h.id).field("title", h.title).end_object();
  w.end_array();
  w.end_object();
}

}  // namespace triage
