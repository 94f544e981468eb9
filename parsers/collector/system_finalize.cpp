// Host name, collection time and host zone, chosen once the whole bundle is read.
#include <fmt/format.h>

#include "parsers/collector/system_parsers.h"

namespace triage {
namespace {

void choose_hostname(BundleFacts& facts) {
  SystemFacts& sys = facts.system;
  const std::string& manifest_host = facts.manifest.host;
  const std::string uname_host = sys.uname ? sys.uname->nodename : std::string();
  if (!manifest_host.empty()) {
    sys.hostname = manifest_host;
    sys.hostname_origin = "manifest.json host";
    if (!uname_host.empty() && uname_host != manifest_host)
      sys.notes.push_back(fmt::format("manifest.json host is {}, uname node name {}",
                                      manifest_host, uname_host));
  } else if (!uname_host.empty()) {
    sys.hostname = uname_host;
    sys.hostname_origin = "system/uname.txt";
  }
  if (!sys.hostname.empty()) facts.host = sys.hostname;
}

void choose_collection_time(BundleFacts& facts) {
  SystemFacts& sys = facts.system;
  const auto& m = facts.manifest;
  std::optional<int64_t> epoch;
  if (sys.time_file && sys.time_file->epoch) epoch = *sys.time_file->epoch * 1000000;
  if (m.collected_at_utc_us) {
    sys.collected_at_us = m.collected_at_utc_us;
    sys.collected_at_origin = "manifest.json collected_at_utc";
    // time.txt is written during the run: minutes apart is normal, hours are not.
    if (epoch && (*epoch - *m.collected_at_utc_us > int64_t{3600} * 1000000 ||
                  *m.collected_at_utc_us - *epoch > int64_t{3600} * 1000000))
      sys.notes.push_back(fmt::format("manifest.json collected_at_utc {} and system/time.txt "
                                      "epoch {} are more than an hour apart",
                                      format_utc(*m.collected_at_utc_us), format_utc(*epoch)));
  } else if (epoch) {
    sys.collected_at_us = epoch;
    sys.collected_at_origin = "system/time.txt epoch";
  }
}

void choose_host_zone(SystemFacts& sys) {
  const TimeFile* tf = sys.time_file ? &*sys.time_file : nullptr;
  const TzifFacts* tzif = sys.localtime_tzif ? &*sys.localtime_tzif : nullptr;
  std::string name = tf && !tf->timezone.empty() ? fmt::format(" ({})", tf->timezone) : "";
  if (tf && tf->tz_posix_zone) {
    sys.host_zone = tf->tz_posix_zone;
    sys.host_zone_origin = "system/time.txt tz_posix" + name;
    if (tzif && tzif->zone && !tzif->footer.empty() && tzif->footer != tf->tz_posix)
      sys.notes.push_back(fmt::format("system/time.txt tz_posix={} but system/localtime.tzif's "
                                      "footer is {}: used tz_posix",
                                      tf->tz_posix, tzif->footer));
  } else if (tzif && tzif->zone) {
    sys.host_zone = tzif->zone;
    sys.host_zone_origin = "system/localtime.tzif" + name;
    if (!tzif->note.empty()) {
      sys.host_zone_origin += " (last transition; DST rules unknown)";
      sys.notes.push_back("system/localtime.tzif: " + tzif->note);
    }
  } else if (tf && tf->utc_offset_seconds) {
    sys.host_zone = ZoneRule::fixed(*tf->utc_offset_seconds);
    sys.host_zone_origin = "system/time.txt utc_offset" + name + " (fixed offset; DST rules unknown)";
  }
}

}  // namespace

void finalize_system(BundleFacts& facts, const AnalyzeOptions&) {
  choose_hostname(facts);
  choose_collection_time(facts);
  choose_host_zone(facts.system);
}

}  // namespace triage
