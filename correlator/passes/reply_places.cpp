#include "correlator/passes/reply_places.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

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

void take_time(ReplyPlaces& p, int64_t utc, std::optional<int> offset) {
  if (p.first_utc_us && *p.first_utc_us <= utc) return;
  p.first_utc_us = utc;
  p.local_offset_seconds = offset;
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

}  // namespace

void scan_places(std::string_view line, std::vector<std::string>& devices, std::vector<std::string>& ranks,
                 std::vector<std::string>& pids) {
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

ReplyPlaces reply_places(const std::vector<Finding>& findings, const std::vector<size_t>& about,
                         const Timeline& timeline, const std::string& host) {
  ReplyPlaces p;
  p.host = host;
  for (size_t i : about) {
    if (i >= findings.size()) continue;
    const Finding& f = findings[i];
    if (p.host.empty()) p.host = f.host;
    for (std::string_view key : {"device", "npu", "device_id", "chip"})
      if (const auto* v = f.find_value(key)) add(p.devices, *v);
    for (std::string_view key : {"rank", "local_rank", "rank_id"})
      if (const auto* v = f.find_value(key)) add(p.ranks, *v);
    if (const auto* v = f.find_value("pid")) add(p.pids, *v);
    std::optional<int> offset;
    bool timed = false;  // a finding's first_utc, else its observed_utc
    for (std::string_view key : {"first_utc", "observed_utc"})
      if (const auto* v = f.find_value(key); v && !timed)
        if (auto utc = iso_time(*v)) {
          if (const auto* local = f.find_value("first_local")) iso_time(*local, &offset);
          take_time(p, *utc, offset);
          timed = true;
        }
    if (const auto* local = f.find_value("first_local"); local && !p.first_utc_us)
      if (std::string t = scan_time(*local); !t.empty() && (p.first_local.empty() || t < p.first_local))
        p.first_local = t;
    for (const EvidenceRef& e : f.evidence) {
      scan_places(e.excerpt, p.devices, p.ranks, p.pids);
      if (std::string t = scan_time(e.excerpt); !t.empty() && (p.first_local.empty() || t < p.first_local))
        p.first_local = t;
    }
  }
  // The findings' events on the timeline: a time (and the zone at it) their values lack.
  for (const TimelineEvent& e : timeline.events) {
    bool ours = std::any_of(about.begin(), about.end(), [&](size_t i) {
      return i < findings.size() && (e.host.empty() || findings[i].host.empty() || e.host == findings[i].host) &&
             std::find(e.finding_ids.begin(), e.finding_ids.end(), findings[i].id) != e.finding_ids.end();
    });
    if (!ours) continue;
    if (e.first_utc_us && e.time_note.empty()) take_time(p, e.first_utc_us, e.local_offset_seconds);
    if (e.pid) add(p.pids, std::to_string(*e.pid));
    if (e.device) add(p.devices, std::to_string(*e.device));
  }
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
  if (!p.first_utc_us && !p.first_local.empty())
    return fmt::format("When: first at {}, the host's time (the input does not say its zone).", p.first_local);
  if (!p.first_utc_us) return {};
  std::string s = fmt::format("When: first at {} UTC", seconds_of(format_utc(*p.first_utc_us)));
  if (p.local_offset_seconds)
  {
    std::string utc = seconds_of(format_utc(*p.first_utc_us));
    std::string local = seconds_of(format_with_offset(*p.first_utc_us, *p.local_offset_seconds));
    if (local.compare(0, 10, utc, 0, 10) == 0) local = local.substr(11);  // the same day: the time alone
    s += fmt::format(" ({} {} on the host)", local, format_offset(*p.local_offset_seconds));
  }
  return s + ".";
}

}  // namespace triage
