// The verdict section of the JSON report (docs/json-report.md, "verdict").
#include <cmath>

#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

static void write_links(JsonWriter& w, std::string_view key, const std::vector<FindingLink>& links) {
  w.key(key).begin_array();
  for (const auto& l : links)
    w.begin_object().field("id", l.id).field("index", static_cast<uint64_t>(l.index)).field("why", l.why).end_object();
  w.end_array();
}

void write_verdict_json(JsonWriter& w, const Verdict& v) {
  w.begin_object();
  w.field("summary", v.summary);
  w.field("reply", v.reply);
  w.key("ranked").begin_array();
  int rank = 0;
  for (const auto& h : v.ranked) {
    w.begin_object();
    w.field("rank", ++rank);
    w.field("id", h.id).field("title", h.title).field("host", h.host);
    w.field("score", static_cast<int64_t>(std::llround(h.score)));
    w.field("confidence", to_string(h.confidence));
    w.field("rationale", h.rationale);
    write_links(w, "supporting", h.supporting);
    write_links(w, "contradicting", h.contradicting);
    write_links(w, "consequences", h.consequences);
    w.field("does_not_prove", h.does_not_prove);
    w.end_object();
  }
  w.end_array();
  w.key("next_check").begin_object();
  w.field("separates", v.next_check.separates);
  w.field("description", v.next_check.description);
  w.field("command", v.next_check.command);
  w.end_object();
  w.key("collect_more").begin_array();
  for (const auto& c : v.collect_more) w.value(c);
  w.end_array();
  w.end_object();
}

}  // namespace triage
