// Each process's start time and zone, once the whole bundle (boot.txt, time.txt, the
// process's tz.txt and localtime.tzif) is read.
#include <fmt/format.h>

#include "parsers/collector/process_parsers.h"

namespace triage {
namespace {

constexpr int kUsualClkTck = 100;  // USER_HZ on every mainstream Linux architecture

void derive_start_time(ProcessInfo& p, const SystemFacts& sys) {
  if (!p.stat) return;
  if (!sys.btime) {
    p.notes.push_back("start time unknown: no btime in system/boot.txt");
    return;
  }
  int clk = sys.clk_tck.value_or(kUsualClkTck);
  if (!sys.clk_tck)
    p.notes.push_back(fmt::format("start time assumes clk_tck={} (none in system/time.txt)", clk));
  int64_t since_boot_us = static_cast<int64_t>(p.stat->start_ticks / clk) * 1000000 +
                          static_cast<int64_t>(p.stat->start_ticks % clk) * 1000000 / clk;
  p.start_time = boot_relative_timestamp(since_boot_us, sys.btime,
                                         fmt::format("starttime={}", p.stat->start_ticks));
}

// TZ may hold a POSIX rule ("CST-8"), "UTC", or a zone name ("Asia/Shanghai", ":Europe/Berlin")
// that only a zone database could resolve.
std::optional<ZoneRule> zone_from_tz_env(std::string_view tz) {
  if (!tz.empty() && tz.front() == ':') tz.remove_prefix(1);
  if (auto z = ZoneRule::from_posix(tz)) return z;
  if (tz == "UTC" || tz == "GMT" || tz == "Etc/UTC" || tz == "UTC0") return ZoneRule::fixed(0, "UTC");
  return std::nullopt;
}

// The process's own localtime: tz_posix, its TZif copy, utc_offset (in that order).
bool zone_from_localtime(ProcessInfo& p, const std::string& dir) {
  const ProcessTzFile* f = p.tz_file ? &*p.tz_file : nullptr;
  if (f && !f->tz_posix.empty())
    if (auto z = ZoneRule::from_posix(f->tz_posix)) {
      p.zone = z, p.zone_origin = dir + "tz.txt tz_posix";
      return true;
    }
  if (p.localtime_tzif && p.localtime_tzif->zone) {
    p.zone = p.localtime_tzif->zone, p.zone_origin = dir + "localtime.tzif";
    if (!p.localtime_tzif->note.empty()) p.notes.push_back("localtime.tzif: " + p.localtime_tzif->note);
    return true;
  }
  if (f && !f->utc_offset.empty())
    if (auto z = ZoneRule::from_offset_text(f->utc_offset)) {
      p.zone = z, p.zone_origin = dir + "tz.txt utc_offset (fixed offset; DST rules unknown)";
      return true;
    }
  return false;
}

void choose_zone(ProcessInfo& p, const SystemFacts& sys) {
  std::string dir = fmt::format("processes/{}/", p.pid);
  std::string tz = p.tz_file ? p.tz_file->tz_env : std::string();
  std::string tz_from = dir + "tz.txt TZ";
  if (tz.empty() && !p.tz_file)
    if (const std::string* env = p.env("TZ")) tz = *env, tz_from = dir + "environ TZ";
  if (tz.empty()) {
    zone_from_localtime(p, dir);
    return;
  }
  if (auto z = zone_from_tz_env(tz)) {
    p.zone = z, p.zone_origin = fmt::format("{}={}", tz_from, tz);
    return;
  }
  // A zone name: right only if the process's /etc/localtime is that zone.
  std::string name = tz.front() == ':' ? tz.substr(1) : tz;
  bool same = name == "/etc/localtime" ||
              (p.tz_file && !p.tz_file->timezone.empty() && p.tz_file->timezone == name);
  if (zone_from_localtime(p, dir)) {
    if (same) {
      p.zone_origin += fmt::format(" (TZ={} names the same zone)", tz);
      return;
    }
  } else if (sys.host_zone) {
    p.zone = sys.host_zone, p.zone_origin = sys.host_zone_origin;
  } else {
    p.notes.push_back(fmt::format("{}={} names a zone the analyzer cannot read; no other zone known", tz_from, tz));
    return;
  }
  p.zone_assumed = true;
  p.notes.push_back(fmt::format("{}={} names a zone the analyzer cannot read (no zone database): "
                                "assumed {} instead",
                                tz_from, tz, p.zone_origin));
  p.zone_origin += fmt::format(" (assumed: TZ={} unreadable)", tz);
}

}  // namespace

void finalize_processes(BundleFacts& facts) {
  for (auto& [pid, p] : facts.processes.by_pid) {
    derive_start_time(p, facts.system);
    choose_zone(p, facts.system);
  }
}

}  // namespace triage
