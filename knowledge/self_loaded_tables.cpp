#include "knowledge/self_loaded_tables.h"

#include <algorithm>
#include <array>

namespace triage {
namespace {

// file name, the header of the module that reads it
constexpr std::array<std::pair<std::string_view, std::string_view>, 23> kTables{{
    {"error-str-sides.tsv", "knowledge/error_str_sides.h"},
    {"failure-classes.tsv", "knowledge/failure_classes.h"},
    {"finding-groups.tsv", "knowledge/finding_groups.h"},
    {"same-event.tsv", "knowledge/same_event.h"},
    {"chain-selection.tsv", "knowledge/chain_selection.h"},
    {"fleet-roles.tsv", "knowledge/fleet_roles.h"},
    {"month-names.tsv", "knowledge/month_names.h"},
    {"component-phrases.tsv", "knowledge/component_phrases.h"},
    {"secret-rules.tsv", "knowledge/secret_rules.h"},
    {"line-shapes.tsv", "knowledge/line_shapes.h"},
    {"line-shape-samples.tsv", "knowledge/line_shapes.h"},
    {"report-facts.tsv", "knowledge/report_fact_rules.h"},
    {"collective-classes.tsv", "knowledge/collective_classes.h"},
    {"zone-abbreviations.tsv", "knowledge/zone_abbreviations.h"},
    {"wait-edges.tsv", "knowledge/wait_edges.h"},
    {"error-levels.tsv", "knowledge/error_levels.h"},
    {"error-level-samples.tsv", "knowledge/error_levels.h"},
    {"finding-sources.tsv", "knowledge/source_links.h"},
    {"job-text-forms.tsv", "knowledge/job_text_forms.h"},
    {"fact-forms.tsv", "knowledge/fact_scanner.h"},
    {"device-event-sensors.tsv", "knowledge/device_event_sensors.h"},
    {"port-health.tsv", "knowledge/port_health.h"},
    {"slow-limits.tsv", "knowledge/slow_limits.h"},
}};

}  // namespace

bool is_self_loaded_table(std::string_view name) {
  return std::any_of(kTables.begin(), kTables.end(), [&](const auto& t) { return t.first == name; });
}

}  // namespace triage
