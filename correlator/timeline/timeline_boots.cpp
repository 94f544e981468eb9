// Boot marks: every boot the journal lists (kernel/boots.txt, its first entry), and the boot
// the collector ran in from system/boot.txt (btime) when the list does not name it.
// The journal's list is preferred: its times are on the same clock as the journal lines, so
// a slow clock does not put a boot after its own first lines (the skew is reported apart).
#include "correlator/timeline/timeline_internal.h"
#include "model/facts_events.h"

namespace triage {

std::vector<BootMark> timeline_boots(const BundleFacts& facts) {
  std::vector<BootMark> out;
  bool current_listed = false;
  for (const BootRecord& b : facts.events.boots) {
    if (!b.first_utc_us) continue;
    BootMark m;
    m.host = facts.host;
    m.boot_id = b.boot_id;
    m.start_utc_us = *b.first_utc_us;
    m.evidence = b.evidence;
    if (!facts.system.boot_id.empty() && b.boot_id == facts.system.boot_id) current_listed = true;
    out.push_back(std::move(m));
  }
  const SystemFacts& sys = facts.system;
  if (!current_listed && sys.btime) {
    BootMark m;
    m.host = facts.host;
    m.boot_id = sys.boot_id;
    m.start_utc_us = *sys.btime * 1000000;
    for (const auto& ev : sys.evidence)
      if (ev.entry.ends_with("boot.txt")) m.evidence = ev;
    if (m.evidence.entry.empty()) m.evidence.entry = "system/boot.txt";
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace triage
