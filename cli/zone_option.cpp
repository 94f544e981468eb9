#include "cli/zone_option.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "knowledge/zone_abbreviations.h"

namespace triage {
namespace {

// IANA names are path-like (`Asia/Shanghai`, `Etc/GMT-8`): letters, digits, `_+-` between
// slashes, never `..` or a leading slash, so the text cannot leave the zone directory.
bool is_zone_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() == '/' || s.back() == '/') return false;
  char prev = '/';
  for (char c : s) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '+' || c == '-' || c == '/';
    if (!ok || (c == '/' && prev == '/')) return false;
    prev = c;
  }
  return s.find("..") == std::string_view::npos;
}

std::string zone_dir() {
  const char* dir = std::getenv("TZDIR");  // as glibc reads it
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

}  // namespace

bool resolve_utc_offset(std::string_view text, const std::string& knowledge_dir, AnalyzeOptions& out,
                        std::string& error) {
  if (auto zone = ZoneRule::from_offset_text(text)) {
    out.utc_offset_seconds = zone->offset_at_utc(0);
    return true;
  }
  if (const ZoneAbbreviation* a = zone_abbreviations_for(knowledge_dir).find(text)) {
    error = "'" + std::string(text) + "' names more than one zone; give the zone or the offset: ";
    for (size_t i = 0; i < a->zones.size(); ++i) error += (i ? ", " : "") + a->zones[i];
    return false;
  }
  const std::string expected = "expected +HH:MM, +HHMM, UTC or an IANA zone name (Asia/Shanghai)";
  if (!is_zone_name(text)) {
    error = expected + ", got '" + std::string(text) + "'";
    return false;
  }
  std::string path = zone_dir() + "/" + std::string(text);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) bytes.clear();
  if (bytes.empty()) {
    error = expected + "; no zone '" + std::string(text) + "' in " + zone_dir() + " (Debian: tzdata)";
    return false;
  }
  TzifZone z = parse_tzif(bytes);
  if (!z.zone) {
    error = path + ": not a usable zone file: " + z.error;
    return false;
  }
  out.assumed_zone = *z.zone;
  out.assumed_zone_name = std::string(text);
  return true;
}

}  // namespace triage
