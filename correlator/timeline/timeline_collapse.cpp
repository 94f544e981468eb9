// Repeats become one row: a stall report every 180 s for an hour is one row with its count,
// first and last time. The key is signature + normalised message + host, lane, kind, pid,
// stream and device; a reboot between two occurrences starts a new row.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "correlator/timeline/timeline_internal.h"
#include "model/strings.h"
#include "parsers/common/log_text.h"

namespace triage {

namespace {


// A word of letters and digits that stands for a number: decimal, 0x hex, or a long hex word
// (addresses, hashes, ids) that holds at least one digit.
bool numeric_word(std::string_view w) {
  if (w.empty()) return false;
  if (std::all_of(w.begin(), w.end(), is_digit)) return true;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
    return std::all_of(w.begin() + 2, w.end(), is_hex);
  if (w.size() >= 8 && std::all_of(w.begin(), w.end(), is_hex))
    return std::any_of(w.begin(), w.end(), is_digit);
  return false;
}

}  // namespace

std::string occurrence_group_key(const TimelineOccurrence& o) {
  const TimelineEvent& e = o.event;
  auto opt = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; };
  std::string key = e.host;
  for (const std::string* part : {&e.source, &e.kind, &o.signature}) {
    key += '\x1f';
    key += *part;
  }
  key += '\x1f' + opt(e.pid) + '\x1f' + opt(e.stream) + '\x1f' + opt(e.device) + '\x1f';
  key += normalise_message(e.message);
  return key;
}

namespace {

bool boot_between(const std::vector<BootMark>& boots, const std::string& host, int64_t after,
                  int64_t until) {
  for (const BootMark& b : boots)
    if (b.host == host && b.start_utc_us > after && b.start_utc_us <= until) return true;
  return false;
}

}  // namespace

std::string normalise_message(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  size_t i = 0;
  bool blank = false;
  while (i < message.size()) {
    char c = message[i];
    if (c == ' ' || c == '\t') {
      blank = !out.empty();
      ++i;
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    if (!is_alnum(c)) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < message.size() && is_alnum(message[j])) ++j;
    std::string_view word = message.substr(i, j - i);
    if (numeric_word(word)) out += '#';
    else out += word;
    i = j;
  }
  return out;
}

std::string line_key(const EvidenceRef& ev) {
  return ev.entry + '\x1f' + std::to_string(ev.line);
}

std::vector<TimelineEvent> collapse_occurrences(
    std::vector<TimelineOccurrence> occurrences, const std::vector<BootMark>& boots,
    uint64_t& undated, std::unordered_map<std::string, size_t>& line_to_row,
    const std::unordered_set<std::string>* wanted_lines) {
  // Undated lines are counted, never placed at a guessed time. Kept in place, in order: a
  // second vector of every occurrence doubled the timeline's peak (issue 35).
  std::vector<TimelineOccurrence>& dated = occurrences;
  size_t kept_dated = 0;
  for (size_t i = 0; i < dated.size(); ++i) {
    if (!dated[i].dated) {
      ++undated;
      continue;
    }
    if (kept_dated != i) dated[kept_dated] = std::move(dated[i]);
    ++kept_dated;
  }
  dated.erase(dated.begin() + static_cast<std::ptrdiff_t>(kept_dated), dated.end());
  // Each distinct group key once, an occurrence holding its number (issue 35: a string per
  // occurrence was a large part of the peak when a few templates repeat across many files).
  std::deque<std::string> distinct;
  std::vector<uint32_t> key_of;
  key_of.reserve(dated.size());
  {
    std::unordered_map<std::string_view, uint32_t> ids;
    for (const auto& o : dated) {
      std::string k = occurrence_group_key(o);
      auto it = ids.find(k);
      if (it == ids.end()) {
        distinct.push_back(std::move(k));
        it = ids.emplace(distinct.back(), static_cast<uint32_t>(distinct.size() - 1)).first;
      }
      key_of.push_back(it->second);
    }
  }
  // The key numbers in the keys' byte order: sorting by rank is sorting by key.
  std::vector<uint32_t> rank(distinct.size());
  {
    std::vector<uint32_t> by_text(distinct.size());
    for (uint32_t i = 0; i < by_text.size(); ++i) by_text[i] = i;
    std::sort(by_text.begin(), by_text.end(),
              [&](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
    for (uint32_t r = 0; r < by_text.size(); ++r) rank[by_text[r]] = r;
  }

  // The same line in two bundles of one host (a log collected before and again after a
  // reboot) is one occurrence: same key, same time, another bundle. Only when occurrences
  // come from more than one bundle: within one, a repeat is a real repeat.
  // By a hash of (key, time, message), the strings compared on a hit: no copy of each
  // occurrence's key and message (a map of them was the largest cost of a 1 GiB timeline).
  std::vector<bool> dropped(dated.size(), false);
  bool several_bundles = false;
  for (const auto& o : dated) several_bundles = several_bundles || o.bundle != dated.front().bundle;
  if (several_bundles) {
    std::unordered_multimap<uint64_t, size_t> first_copy;
    first_copy.reserve(dated.size());
    for (size_t i = 0; i < dated.size(); ++i) {
      const TimelineEvent& e = dated[i].event;
      uint64_t h = mix64(mix64(key_of[i], static_cast<uint64_t>(e.first_utc_us)), fnv1a(e.message));
      std::optional<size_t> first;
      for (auto [it, end] = first_copy.equal_range(h); it != end; ++it) {
        const TimelineEvent& f = dated[it->second].event;
        if (key_of[it->second] == key_of[i] && f.first_utc_us == e.first_utc_us && f.message == e.message) {
          first = it->second;
          break;
        }
      }
      if (!first) {
        first_copy.emplace(h, i);
        continue;
      }
      TimelineOccurrence& kept = dated[*first];
      if (kept.bundle == dated[i].bundle) continue;  // a real repeat within one file
      dropped[i] = true;
      kept.also_seen.push_back(dated[i].event.evidence);
      for (auto& ev : dated[i].also_seen) kept.also_seen.push_back(std::move(ev));
    }
  }

  std::vector<size_t> order;
  for (size_t i = 0; i < dated.size(); ++i)
    if (!dropped[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (key_of[a] != key_of[b]) return rank[key_of[a]] < rank[key_of[b]];
    return dated[a].event.first_utc_us < dated[b].event.first_utc_us;
  });

  // The rows counted first, so their vector is allocated once at its size: where most keys
  // are distinct (1e6 error templates) its doubling was a quarter of the timeline's peak.
  size_t row_count = 0;
  {
    std::optional<uint32_t> key;
    int64_t last = 0;
    for (size_t i : order) {
      const TimelineEvent& e = dated[i].event;
      if (key && *key == key_of[i] && !boot_between(boots, e.host, last, e.first_utc_us)) {
        last = std::max(last, e.last_utc_us);
      } else {
        ++row_count;
        last = e.last_utc_us;
      }
      key = key_of[i];
    }
  }
  std::vector<TimelineEvent> rows;
  rows.reserve(row_count);
  auto note_line = [&](std::string k, size_t row) {
    if (!wanted_lines || wanted_lines->count(k)) line_to_row[std::move(k)] = row;
  };
  std::optional<uint32_t> prev_key;
  for (size_t i : order) {
    TimelineOccurrence& o = dated[i];
    TimelineEvent& e = o.event;
    std::string evidence_key = line_key(e.evidence);
    bool same = prev_key && *prev_key == key_of[i] &&
                !boot_between(boots, e.host, rows.back().last_utc_us, e.first_utc_us);
    if (same) {
      TimelineEvent& row = rows.back();
      row.count += e.count;
      row.last_utc_us = std::max(row.last_utc_us, e.last_utc_us);
      row.severity = std::max(row.severity, e.severity);
    } else {
      rows.push_back(std::move(e));
    }
    size_t row = rows.size() - 1;
    note_line(std::move(evidence_key), row);
    for (const auto& ev : o.also_seen) note_line(line_key(ev), row);
    prev_key = key_of[i];
  }
  return rows;
}

void link_findings(std::vector<TimelineEvent>& events,
                   const std::unordered_map<std::string, size_t>& line_to_row,
                   const std::vector<Finding>& findings) {
  for (const Finding& f : findings)
    for (const EvidenceRef& ev : f.evidence) {
      if (ev.line == 0) continue;
      auto it = line_to_row.find(line_key(ev));
      if (it == line_to_row.end()) continue;
      auto& ids = events[it->second].finding_ids;
      if (std::find(ids.begin(), ids.end(), f.id) == ids.end()) ids.push_back(f.id);
    }
}

std::vector<BootMark> merge_boots(std::vector<BootMark> boots) {
  std::stable_sort(boots.begin(), boots.end(), [](const BootMark& a, const BootMark& b) {
    return std::tie(a.host, a.start_utc_us) < std::tie(b.host, b.start_utc_us);
  });
  std::vector<BootMark> out;
  std::map<std::pair<std::string, std::string>, bool> seen;
  for (auto& b : boots) {
    if (!b.boot_id.empty() && !seen.emplace(std::make_pair(b.host, b.boot_id), true).second)
      continue;
    b.after_previous = !out.empty() && out.back().host == b.host;
    out.push_back(std::move(b));
  }
  return out;
}

void apply_timeline_filter(Timeline& t, const TimelineFilter& f) {
  auto passes_time = [&](int64_t first, int64_t last) {
    if (f.since_utc_us && last < *f.since_utc_us) return false;
    if (f.until_utc_us && first > *f.until_utc_us) return false;
    return true;
  };
  std::vector<TimelineEvent> kept;
  kept.reserve(t.events.size());
  for (auto& e : t.events) {
    bool source_ok = f.sources.empty() ||
                     std::find(f.sources.begin(), f.sources.end(), e.source) != f.sources.end();
    if (source_ok && e.severity >= f.min_severity && passes_time(e.first_utc_us, e.last_utc_us))
      kept.push_back(std::move(e));
    else
      ++t.filtered_out;
  }
  t.events = std::move(kept);
  std::erase_if(t.boots, [&](const BootMark& b) {
    return !passes_time(b.start_utc_us, b.start_utc_us);
  });
}

void sort_timeline(Timeline& t) {
  std::stable_sort(t.events.begin(), t.events.end(),
                   [](const TimelineEvent& a, const TimelineEvent& b) {
                     return std::tie(a.first_utc_us, a.source, a.message) <
                            std::tie(b.first_utc_us, b.source, b.message);
                   });
  std::stable_sort(t.boots.begin(), t.boots.end(), [](const BootMark& a, const BootMark& b) {
    return a.start_utc_us < b.start_utc_us;
  });
}

}  // namespace triage
