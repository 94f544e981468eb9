// manifest.json's top-level fields (all but "items"), and the notes on its format.
#include <fmt/format.h>

#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_json_internal.h"

namespace triage {
namespace od = simdjson::ondemand;

namespace {

constexpr int64_t kKnownFormatVersion = 1;

std::string_view strip_blanks(std::string_view tok) {
  while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\n' || tok.back() == '\r' ||
                          tok.back() == '\t'))
    tok.remove_suffix(1);
  return tok;
}

bool read_redaction(od::value v, ManifestFacts& m) {
  od::object o;
  if (v.get_object().get(o)) return false;
  for (auto f : o) {
    od::field field;
    std::string_view k;
    if (std::move(f).get(field) || field.unescaped_key().get(k)) return false;
    std::string_view tok = strip_blanks(field.value().raw_json_token());
    std::string text;
    if (!decode_contract_string(tok, text)) text = std::string(tok);  // a count, a list
    m.redaction.emplace_back(std::string(k), std::move(text));
  }
  return true;
}

bool read_npu_presence(od::value v, ManifestFacts& m) {
  od::object o;
  if (v.get_object().get(o)) return false;
  NpuPresence p;
  for (auto f : o) {
    od::field field;
    std::string_view k;
    if (std::move(f).get(field) || field.unescaped_key().get(k)) return false;
    od::value x = field.value();
    bool is_null = false;
    if (!x.is_null().get(is_null) && is_null) continue;  // null: not decided by the collector
    bool ok = true;
    if (k == "state") ok = read_contract_text(x, p.state);
    else if (k == "ascend_modules_loaded") ok = read_contract_int(x, p.ascend_modules_loaded);
    else if (k == "device_nodes") ok = read_contract_int(x, p.device_nodes);
    else if (k == "npu_pci_devices") ok = read_contract_int(x, p.npu_pci_devices);
    else if (k == "npu_processes") ok = read_contract_int(x, p.npu_processes);
    else if (k == "driver_installed") ok = read_contract_bool(x, p.driver_installed);
    if (!ok) return false;
  }
  m.npu_presence = std::move(p);
  return true;
}

}  // namespace

void read_top_field(std::string_view key, od::value v, ManifestFacts& m) {
  bool ok = true;
  if (key == "format") ok = read_contract_text(v, m.format);
  else if (key == "format_version") ok = read_contract_int(v, m.format_version);
  else if (key == "collector_version") ok = read_contract_text(v, m.collector_version);
  else if (key == "host") ok = read_contract_text(v, m.host);
  else if (key == "collected_at_utc") ok = read_contract_time(v, m.collected_at_utc_us);
  else if (key == "finished_utc") ok = read_contract_time(v, m.finished_utc_us);
  else if (key == "uid") ok = read_contract_int(v, m.uid);
  else if (key == "sudo_user") ok = read_contract_text(v, m.sudo_user);
  else if (key == "locale") ok = read_contract_text(v, m.locale);
  else if (key == "in_container") ok = read_contract_bool(v, m.in_container);
  else if (key == "redaction") ok = read_redaction(v, m);
  else if (key == "npu_presence") ok = read_npu_presence(v, m);
  else if (key == "args" || key == "groups") {
    std::vector<std::string>& out = key == "args" ? m.args : m.groups;
    od::json_type t;
    if (!v.type().get(t) && t == od::json_type::string) {  // tolerated: one string
      std::string s;
      ok = read_contract_text(v, s);
      out = {s};
    } else {
      std::optional<std::vector<std::string>> list;
      ok = read_contract_strings(v, list);
      if (list) out = std::move(*list);
    }
  }
  else if (key == "notes") {  // the collector on its own run: a full disk, a hung archiver, ...
    std::optional<std::vector<std::string>> list;
    ok = read_contract_strings(v, list);
    if (list)
      for (auto& n : *list) m.notes.push_back(fmt::format("collector: {}", n));
  }
  // other keys: a newer collector's additions, ignored
  if (!ok) m.notes.push_back(fmt::format("manifest.json: field \"{}\" has an unexpected value", key));
}

void note_format(ManifestFacts& m) {
  if (!m.format.empty() && m.format != "ascend-bundle")
    m.notes.push_back(fmt::format("manifest.json format is \"{}\", not \"ascend-bundle\"", m.format));
  if (m.format_version && *m.format_version > kKnownFormatVersion)
    m.notes.push_back(fmt::format(
        "manifest.json format_version {} is newer than this analyzer knows ({}): read what is "
        "known, ignored the rest",
        *m.format_version, kKnownFormatVersion));
  else if (!m.format_version)
    m.notes.push_back("manifest.json has no format_version: read as version 1");
}

}  // namespace triage
