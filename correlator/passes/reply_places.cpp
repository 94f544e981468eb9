#include "correlator/passes/reply_places.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/strings.h"
#include "model/time.h"

namespace triage {
namespace {

constexpr size_t kMaxEach = 3;  // values named per kind; more are "..."
constexpr size_t kColumns = 98;  // as kReplyColumns (verdict_reply.h)

void add(std::vector<std::string>& to, std::string_view v) {
  if (v.empty() || v == "unknown" || !std::all_of(v.begin(), v.end(), is_digit)) return;
  if (std::find(to.begin(), to.end(), v) == to.end()) to.emplace_back(v);
}

struct Keyword {
  std::string_view word;  // lower case
  int kind;               // 0 device, 1 rank, 2 pid
};
// The words an Ascend log puts before a device, a rank or a process id.
constexpr Keyword kKeywords[] = {
    {"device_id", 0}, {"deviceid", 0}, {"device id", 0}, {"devid", 0}, {"logic_device", 0}, {"device", 0},
    {"npu", 0},       {"rank_id", 1},  {"rankid", 1},    {"local_rank", 1}, {"rank", 1},     {"pid", 2}};

// An ISO text's instant and, for one with an offset ("...+08:00"), that offset.
std::optional<int64_t> iso_time(std::string_view text, std::optional<int>* offset = nullptr) {
  if (text.empty() || !is_digit(text.front())) return std::nullopt;
  auto utc = parse_iso8601_utc_us(text);
  CivilTime civil;
  if (utc && offset && text.back() != 'Z' && parse_civil_prefix(text, civil))
    *offset = static_cast<int>((civil_to_epoch_us(civil) - *utc) / 1000000);
  return utc;
}

std::string named(std::string_view what, const std::vector<std::string>& values) {
  if (values.empty()) return {};
  std::vector<std::string> shown(values.begin(), values.begin() + std::min(values.size(), kMaxEach));
  std::string list = shown.size() == 1 ? shown[0]
                                       : fmt::format("{} and {}", fmt::join(shown.begin(), shown.end() - 1, ", "),
                                                     shown.back());
  return fmt::format("{} {}{}", what, list, values.size() > kMaxEach ? " and more" : "");
}

// "2026-09-02T07:38:31.278812Z" -> "2026-09-02 07:38:31": seconds are what a ticket needs.
std::string seconds_of(std::string iso) {
  if (iso.size() >= 19) iso = iso.substr(0, 19);
  if (iso.size() > 10 && iso[10] == 'T') iso[10] = ' ';
  return iso;
}

// `[ERROR] RUNTIME(4242,python3):`, `[CRITICAL] DEVICE(5151,fffd6cff91e0,python):`: the
// header's pid, after the level in brackets (or at the line's start), a module name in
// capitals and "(". "" when the line has no such header.
std::string_view header_pid(std::string_view line) {
  size_t i = 0;
  if (!line.empty() && line[0] == '[') {
    size_t close = line.find("] ");
    if (close == std::string_view::npos || close > 12) return {};
    i = close + 2;
  }
  size_t name = i;
  while (i < line.size() && i - name < 24 && (is_upper(line[i]) || line[i] == '_' || is_digit(line[i]))) ++i;
  if (i - name < 2 || !is_upper(line[name]) || i >= line.size() || line[i] != '(') return {};
  size_t start = ++i;
  while (i < line.size() && is_digit(line[i]) && i - start < 9) ++i;
  if (i == start || i >= line.size() || line[i] != ',') return {};
  return line.substr(start, i - start);
}

}  // namespace

void scan_places(std::string_view line, std::vector<std::string>& devices, std::vector<std::string>& ranks,
                 std::vector<std::string>& pids) {
  if (std::string_view pid = header_pid(line); !pid.empty()) add(pids, pid);
  std::string lower = ascii_lower(line);
  std::vector<std::string>* into[] = {&devices, &ranks, &pids};
  for (size_t i = 0; i < lower.size(); ++i) {
    if (i > 0 && (is_alnum(lower[i - 1]) || lower[i - 1] == '_')) continue;  // inside a word
    if (i >= 7 && lower.compare(i - 7, 7, "remote ") == 0) continue;        // the peer's, not this one's
    for (const Keyword& k : kKeywords) {
      if (lower.compare(i, k.word.size(), k.word) != 0) continue;
      size_t j = i + k.word.size();
      size_t seps = 0;  // "device 4", "device_id=4", "devId[1]", "rank: 3", "NPU 2;"
      while (j < lower.size() && seps < 2 && (lower[j] == ' ' || lower[j] == '=' || lower[j] == ':' ||
                                              lower[j] == '[' || lower[j] == '(' || lower[j] == '#'))
        ++j, ++seps;
      size_t start = j;
      while (j < lower.size() && is_digit(lower[j]) && j - start < 9) ++j;
      bool whole = j < lower.size() ? !is_alnum(lower[j]) && lower[j] != '.' : true;  // not "npu 2.1"
      // MindSpore's "[ERROR] DEVICE(PID,python)": a module name and the pid, not a device.
      if (j < lower.size() && lower[j] == ',' && start > 0 && lower[start - 1] == '(') whole = false;
      if (j > start && whole) add(*into[k.kind], lower.substr(start, j - start));
      break;  // the longest keyword at this place decided
    }
  }
}

std::string scan_time(std::string_view line) {
  auto digits = [&](size_t at, size_t n) {
    if (at + n > line.size()) return false;
    for (size_t k = 0; k < n; ++k)
      if (!is_digit(line[at + k])) return false;
    return true;
  };
  for (size_t i = 0; i + 19 <= line.size(); ++i) {
    if (!digits(i, 4) || line[i + 4] != '-' || !digits(i + 5, 2) || line[i + 7] != '-' || !digits(i + 8, 2)) continue;
    char sep = line[i + 10];
    if ((sep != '-' && sep != 'T' && sep != ' ') || !digits(i + 11, 2) || line[i + 13] != ':' || !digits(i + 14, 2) ||
        line[i + 16] != ':' || !digits(i + 17, 2))
      continue;
    if (i > 0 && is_digit(line[i - 1])) continue;
    return fmt::format("{} {}", line.substr(i, 10), line.substr(i + 11, 8));
  }
  return {};
}

namespace {

struct Moment {
  int64_t utc = 0, last = 0;
  std::optional<int> offset;
  bool collection = false;  // a probe run or the collector's own line: the time of the collection
  bool corrected = false;   // the host's fleet clock skew taken off
  std::optional<int64_t> pid, device;  // a timeline event's
  bool year_estimated = false;  // a job line's year-less time, its year from the bundle
};

// A job line's year-less time whose year the bundle gave (parsers/job/python_finalize.cpp):
// placed like any other, and said so. Job signature hits are drawn on the plog lane, whose
// own lines always print their year; other year-estimated sources (syslog) stay out.
bool job_year_estimated(const TimelineEvent& e) { return e.source == "plog" && e.time_note == "year estimated"; }

// "node3 +300.2 s, node1 -2.0 s" (collective/wait-root's clock_offsets) -> host -> seconds.
std::vector<std::pair<std::string, double>> clock_offsets(const std::vector<Finding>& findings) {
  std::vector<std::pair<std::string, double>> out;
  for (const Finding& f : findings)
    if (const auto* v = f.find_value("clock_offsets"))
      for (std::string_view item : split(*v, ',')) {
        item = trim(item);
        size_t sp = item.find(' ');
        if (sp == std::string_view::npos || sp == 0) continue;
        std::string number(item.substr(sp + 1, item.find(' ', sp + 1) - sp - 1));
        char* end = nullptr;
        double seconds = std::strtod(number.c_str(), &end);
        if (end == number.c_str() || std::abs(seconds) > 366.0 * 86400) continue;
        out.emplace_back(std::string(item.substr(0, sp)), seconds);
      }
  return out;
}

double offset_of(const std::vector<std::pair<std::string, double>>& offsets, const std::string& host) {
  for (const auto& [h, s] : offsets)
    if (h == host) return s;
  return 0;
}

// The current boot's start on `host`: the latest boot the timeline knows of it.
std::optional<int64_t> boot_start(const Timeline& t, const std::string& host) {
  std::optional<int64_t> out;
  for (const BootMark& b : t.boots)
    if ((host.empty() || b.host.empty() || b.host == host) && b.start_utc_us && (!out || b.start_utc_us > *out))
      out = b.start_utc_us;
  return out;
}

// A timeline event is evidence of finding `f`: it names f's id, on f's host, and of f's
// process when both name one (two stream-stall findings share the id).
bool event_of(const TimelineEvent& e, const Finding& f) {
  if (!e.host.empty() && !f.host.empty() && e.host != f.host) return false;
  if (std::find(e.finding_ids.begin(), e.finding_ids.end(), f.id) == e.finding_ids.end()) return false;
  const std::string* pid = f.find_value("pid");
  return !(pid && e.pid && *pid != std::to_string(*e.pid));
}

}  // namespace

ReplyPlaces reply_places(const std::vector<Finding>& findings, const std::vector<size_t>& about,
                         const Timeline& timeline, const std::string& host, const RanksByProcess& ranks,
                         const LineTimes& times) {
  ReplyPlaces p;
  p.host = host;
  const auto offsets = clock_offsets(findings);
  // The findings on the reply's host (all of them when it names none), with their moments.
  std::vector<size_t> mine;
  std::vector<std::vector<Moment>> moments;
  for (size_t i : about) {
    if (i >= findings.size()) continue;
    const Finding& f = findings[i];
    if (!host.empty() && !f.host.empty() && f.host != host) continue;  // another node's: it waited
    mine.push_back(i);
    std::vector<Moment> m;
    double skew = offset_of(offsets, f.host);
    int64_t skew_us = static_cast<int64_t>(skew * 1e6);
    for (std::string_view key : {"first_utc", "observed_utc"})
      if (const auto* v = f.find_value(key))
        if (auto utc = iso_time(*v)) {
          Moment x{*utc - skew_us, *utc - skew_us, std::nullopt, false, skew_us != 0, std::nullopt, std::nullopt};
          if (const auto* local = f.find_value("first_local")) iso_time(*local, &x.offset);
          if (const auto* last = f.find_value("last_utc"))
            if (auto l = iso_time(*last)) x.last = std::max(x.utc, *l - skew_us);
          m.push_back(x);
          break;  // its first_utc, else its observed_utc
        }
    for (const TimelineEvent& e : timeline.events) {
      if (!e.first_utc_us || (!e.time_note.empty() && !job_year_estimated(e)) || !event_of(e, f)) continue;
      int64_t s = static_cast<int64_t>(offset_of(offsets, e.host.empty() ? f.host : e.host) * 1e6);
      m.push_back(Moment{e.first_utc_us - s, std::max(e.first_utc_us, e.last_utc_us) - s, e.local_offset_seconds,
                         e.source == "probe" || e.source == "collector", s != 0, e.pid, e.device});
      m.back().year_estimated = job_year_estimated(e);
    }
    moments.push_back(std::move(m));
  }
  // After a reboot: the current boot's failure, when the findings' logs hold one.
  if (auto boot = boot_start(timeline, host)) {
    bool since = false;
    for (const auto& m : moments)
      for (const Moment& x : m) since |= !x.collection && x.utc >= *boot;
    if (since)
      for (auto& m : moments) {
        bool timed = !m.empty();
        m.erase(std::remove_if(m.begin(), m.end(), [&](const Moment& x) { return x.utc < *boot; }), m.end());
        if (timed && m.empty()) m.push_back(Moment{INT64_MIN, INT64_MIN, {}, false, false, {}, {}});  // dropped
      }
  }
  // The latest failure: the findings' log times, cut where they are kFailureGapUs apart.
  std::vector<std::pair<int64_t, int64_t>> spans;  // per finding: first and last log time
  for (const auto& m : moments) {
    std::pair<int64_t, int64_t> s{INT64_MAX, INT64_MIN};
    for (const Moment& x : m)
      if (!x.collection && x.utc != INT64_MIN) s = {std::min(s.first, x.utc), std::max(s.second, x.last)};
    spans.push_back(s);
  }
  std::vector<std::pair<int64_t, int64_t>> sorted;
  for (const auto& s : spans)
    if (s.first != INT64_MAX) sorted.push_back(s);
  std::sort(sorted.begin(), sorted.end());
  int64_t from = INT64_MIN, reach = INT64_MIN;
  for (const auto& s : sorted) {
    if (reach == INT64_MIN || s.first - reach > kFailureGapUs) from = s.first;
    reach = std::max(reach, s.second);
  }
  // Kept: untimed findings (a state: module sets, versions), those of that failure, and those
  // timed only by the collection (probes).
  std::vector<int> pass(mine.size(), 0);  // 0 dropped, 1 the failure's or untimed, 2 collection only
  for (size_t k = 0; k < mine.size(); ++k) {
    bool dropped = std::any_of(moments[k].begin(), moments[k].end(), [](const Moment& x) { return x.utc == INT64_MIN; });
    if (dropped) continue;
    if (spans[k].first != INT64_MAX) pass[k] = spans[k].first >= from ? 1 : 0;
    else pass[k] = moments[k].empty() ? 1 : 2;
  }
  for (int want : {1, 2})
    for (size_t k = 0; k < mine.size(); ++k) {
      if (pass[k] != want) continue;
      const Finding& f = findings[mine[k]];
      if (p.host.empty()) p.host = f.host;
      for (const Moment& x : moments[k])
        if (!x.collection || want == 2)
          if (!p.first_utc_us || x.utc < *p.first_utc_us ||
              (x.utc == *p.first_utc_us && x.offset && !p.local_offset_seconds)) {  // the zone, when one knows it
            if (want == 2 && p.first_utc_us && !p.from_collection) continue;  // a log time stays
            p.first_utc_us = x.utc;
            p.local_offset_seconds = x.offset;
            p.from_collection = x.collection;
            p.corrected_host = x.corrected ? f.host : std::string();
            p.corrected_seconds = x.corrected ? offset_of(offsets, f.host) : 0;
            p.year_estimated = x.year_estimated;
          }
      std::vector<std::string> pids;
      for (std::string_view key : {"device", "npu", "device_id", "chip"})
        if (const auto* v = f.find_value(key)) add(p.devices, *v);
      for (std::string_view key : {"rank", "local_rank", "rank_id"})
        if (const auto* v = f.find_value(key)) add(p.ranks, *v);
      if (const auto* v = f.find_value("pid")) add(pids, *v);
      if (const auto* local = f.find_value("first_local"))
        if (std::string t = scan_time(*local); !t.empty() && (p.first_local.empty() || t < p.first_local)) {
          p.first_local = t;
          if (!p.first_utc_us) p.year_estimated = false;
        }
      for (const EvidenceRef& e : f.evidence) {
        scan_places(e.excerpt, p.devices, p.ranks, pids);
        std::string t = scan_time(e.excerpt);
        bool estimated = false;
        if (t.empty() && !times.empty())  // a job line's own or carried time that is no instant
          if (auto it = times.find({e.entry, e.line}); it != times.end()) {
            if (it->second.has_year) {
              t = it->second.text;
              estimated = it->second.year_estimated;
            } else if (p.first_yearless.empty() || it->second.order < p.yearless_order) {
              p.first_yearless = it->second.text;
              p.yearless_order = it->second.order;
            }
          }
        if (!t.empty() && (p.first_local.empty() || t < p.first_local)) {
          p.first_local = t;
          if (!p.first_utc_us) p.year_estimated = estimated;
        }
      }
      // The same failure printed by another layer: its process. Not its device or rank, which
      // that layer may number otherwise (torch_npu's logical device 0 is the driver's 6).
      for (const EvidenceRef& e : f.same_failure) {
        std::vector<std::string> devices, ranks_named;
        scan_places(e.excerpt, devices, ranks_named, pids);
      }
      for (const Moment& x : moments[k]) {
        if (x.pid) add(pids, std::to_string(*x.pid));
        if (x.device) add(p.devices, std::to_string(*x.device));
      }
      for (const std::string& pid : pids) {
        add(p.pids, pid);
        if (pid.size() <= 9)
          if (auto r = ranks.find({f.host, std::stoll(pid)}); r != ranks.end()) add(p.ranks, std::to_string(r->second));
      }
    }
  if (p.first_utc_us) p.first_local.clear();
  if (p.first_utc_us || !p.first_local.empty()) p.first_yearless.clear();
  return p;
}

std::string where_line(const ReplyPlaces& p) {
  std::vector<std::string> parts;
  if (!p.host.empty()) parts.push_back("host " + p.host);
  for (auto s : {named(p.devices.size() > 1 ? "devices" : "device", p.devices),
                 named(p.ranks.size() > 1 ? "ranks" : "rank", p.ranks),
                 named(p.pids.size() > 1 ? "pids" : "pid", p.pids)})
    if (!s.empty()) parts.push_back(std::move(s));
  if (parts.empty() && p.named.empty()) return {};
  std::string s = parts.empty() ? "Where: " + p.named + "." : fmt::format("Where: {}.", fmt::join(parts, ", "));
  if (!parts.empty() && !p.named.empty() && s.size() + p.named.size() + 15 <= kColumns)
    s.insert(s.size() - 1, "; the lines name " + p.named);
  return s.size() <= kColumns ? s : s.substr(0, kColumns - 4) + " ...";
}

std::string when_line(const ReplyPlaces& p) {
  if (!p.first_utc_us && p.first_local.empty() && !p.first_yearless.empty())
    return fmt::format("When: first at {} (local, year not stated).", p.first_yearless);
  if (!p.first_utc_us && !p.first_local.empty())
    return p.year_estimated  // a job line's year-less time: the year is the bundle's, the zone unknown
               ? fmt::format("When: first at {}, the host's time (zone not stated; year from the bundle).", p.first_local)
               : fmt::format("When: first at {}, the host's time (the input does not say its zone).", p.first_local);
  if (!p.first_utc_us) return {};
  std::string utc = seconds_of(format_utc(*p.first_utc_us));
  std::string head = fmt::format("When: first at {} UTC", utc);
  std::string local;
  if (p.local_offset_seconds) {
    local = seconds_of(format_with_offset(*p.first_utc_us, *p.local_offset_seconds));
    if (local.compare(0, 10, utc, 0, 10) == 0) local = local.substr(11);  // the same day: the time alone
    local = fmt::format("{} {}", local, format_offset(*p.local_offset_seconds));
  }
  // Skew-corrected: the host's clock read that much later (or earlier) than the fleet's.
  std::string corrected = p.corrected_host.empty()
                              ? std::string()
                              : fmt::format(", {}'s clock {:.1f} s {}, corrected", p.corrected_host,
                                            std::abs(p.corrected_seconds), p.corrected_seconds > 0 ? "fast" : "slow");
  // A job line's year-less time: its year is the bundle's (parsers/job/python_finalize.cpp).
  std::string year = p.year_estimated ? ", year from the bundle" : "";
  for (std::string_view form : {" ({} on the host)", " ({})", ""}) {
    if (local.empty() && !form.empty()) continue;
    std::string line = fmt::format("{}{}{}{}.", head, fmt::format(fmt::runtime(form), local), corrected, year);
    if (line.size() <= kColumns) return line;
  }
  return head + (corrected.empty() ? year + "." : ", skew-corrected.");
}

}  // namespace triage
