// The small TSV tables of knowledge/: device-events.tsv (RAS event ids) and pci-ids.tsv
// (NPU PCI functions). A header line first, columns taken by name, `#` comments; every row
// names its source. Format: docs/knowledge.md.
#include <algorithm>
#include <cctype>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_lines.h"
#include "model/strings.h"

namespace triage {
namespace {
bool is_hex(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// Calls f(fields in the order of `wanted`, "name:line") for each data row.
template <class F>
void for_each_row(std::string_view content, const std::string& name,
                  const std::vector<std::string_view>& wanted, std::vector<std::string>& errors, F&& f) {
  std::vector<int> index;
  size_t header_size = 0;
  bool have_header = false;
  for_each_table_line(content, [&](size_t line_no, const std::vector<std::string_view>& fields) {
    std::string where = name + ":" + std::to_string(line_no);
    if (!have_header) {
      have_header = true;
      header_size = fields.size();
      for (auto w : wanted) {
        auto it = std::find(fields.begin(), fields.end(), w);
        if (it == fields.end()) errors.push_back(where + ": header lacks column '" + std::string(w) + "'");
        index.push_back(it == fields.end() ? -1 : static_cast<int>(it - fields.begin()));
      }
      return;
    }
    if (fields.size() != header_size)
      return errors.push_back(where + ": " + std::to_string(fields.size()) + " fields, header has " +
                              std::to_string(header_size));
    std::vector<std::string> row;
    for (int i : index) row.emplace_back(i < 0 ? std::string_view{} : fields[static_cast<size_t>(i)]);
    f(row, where);
  });
  if (!have_header) errors.push_back(name + ": no header line");
}

}  // namespace

void parse_device_event_file(std::string_view content, const std::string& name,
                             std::vector<DeviceEventInfo>& out, std::vector<std::string>& errors) {
  std::set<std::string> seen;
  for_each_row(content, name, {"event_id", "exception_kind", "name", "meaning", "source"}, errors,
               [&](const std::vector<std::string>& r, const std::string& where) {
                 DeviceEventInfo e{ascii_lower(r[0]), r[1], r[2], r[3], r[4]};
                 if (e.event_id.size() != 10 || !e.event_id.starts_with("0x") || !is_hex(e.event_id.substr(2)))
                   return errors.push_back(where + ": event_id '" + r[0] + "' is not 0x + 8 hex digits");
                 if (e.exception_kind.empty() || e.meaning.empty() || e.source.empty())
                   return errors.push_back(where + ": exception_kind, meaning and source are required");
                 if (!seen.insert(e.event_id).second)
                   return errors.push_back(where + ": duplicate event_id " + e.event_id);
                 out.push_back(std::move(e));
               });
}

void parse_fault_rule_mapping(std::string_view content, const std::string& name,
                              std::vector<FaultRuleMapping>& out, std::vector<std::string>& errors) {
  static const std::set<std::string_view> kStatus = {"covered", "partial", "not-applicable", "missing"};
  std::set<std::string> seen;
  for_each_row(content, name, {"rule_id", "pattern", "ours", "status", "note"}, errors,
               [&](const std::vector<std::string>& r, const std::string& where) {
                 FaultRuleMapping m{r[0], r[1], r[2], r[3], r[4]};
                 if (m.rule_id.empty() || !seen.insert(m.rule_id).second)
                   return errors.push_back(where + ": empty or duplicate rule_id '" + m.rule_id + "'");
                 if (!kStatus.count(m.status))
                   return errors.push_back(where + ": status '" + m.status +
                                           "' is not covered, partial, not-applicable or missing");
                 // What covers a rule is named; a rule nothing covers says why in its note.
                 bool named = m.ours != "-" && !m.ours.empty();
                 if (named != (m.status == "covered" || m.status == "partial"))
                   return errors.push_back(where + ": ours '" + m.ours + "' does not fit status " + m.status);
                 if (m.status != "covered" && m.note.empty())
                   return errors.push_back(where + ": a " + m.status + " rule needs a note");
                 out.push_back(std::move(m));
               });
}

void parse_pci_id_file(std::string_view content, const std::string& name, std::vector<PciIdInfo>& out,
                       std::vector<std::string>& errors) {
  std::set<std::pair<std::string, std::string>> seen;
  for_each_row(content, name, {"vendor", "device", "model", "source"}, errors,
               [&](const std::vector<std::string>& r, const std::string& where) {
                 PciIdInfo p{ascii_lower(r[0]), ascii_lower(r[1]), r[2], r[3]};
                 if (p.vendor.size() != 4 || p.device.size() != 4 || !is_hex(p.vendor) || !is_hex(p.device))
                   return errors.push_back(where + ": vendor and device must be 4 hex digits");
                 if (p.model.empty() || p.source.empty())
                   return errors.push_back(where + ": model and source are required");
                 if (!seen.insert({p.vendor, p.device}).second)
                   return errors.push_back(where + ": duplicate id " + p.vendor + ":" + p.device);
                 out.push_back(std::move(p));
               });
}

const DeviceEventInfo* KnowledgeBase::find_device_event(std::string_view event_id) const {
  std::string key = ascii_lower(event_id);
  for (const auto& e : device_events)
    if (e.event_id == key) return &e;
  return nullptr;
}

const PciIdInfo* KnowledgeBase::find_pci_id(std::string_view vendor, std::string_view device) const {
  std::string v = ascii_lower(vendor), d = ascii_lower(device);
  for (const auto& p : pci_ids)
    if (p.vendor == v && p.device == d) return &p;
  return nullptr;
}

const KnowledgeFile* KnowledgeBase::find_version_file(std::string_view name) const {
  for (const auto& f : version_files)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace triage
