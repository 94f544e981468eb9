// Clock skew on named pairs (docs/timeline.md "Clock skew"): the same kernel line read from
// the journal and from dmesg (btime + seconds since boot), the journal and syslog, and a
// probe's started_utc against the first line of its own plog. The median of the pairs is
// reported; nothing on the axis is moved because of it.
#include <fmt/format.h>

#include <algorithm>

#include "correlator/timeline/timeline_internal.h"

namespace triage {

namespace {

struct Pair {
  double b_minus_a;
  EvidenceRef a, b;
};

bool is_journal(KernelLogForm f) {
  return f == KernelLogForm::journal_json || f == KernelLogForm::journal_text;
}
bool is_dmesg(KernelLogForm f) {
  return f == KernelLogForm::dmesg_raw || f == KernelLogForm::dmesg_human;
}

// One skew from the pairs: the median, the pair nearest to it as evidence.
std::optional<ClockSkew> summarise(std::vector<Pair> pairs, const std::string& host,
                                   std::string a, std::string b, std::string method) {
  if (pairs.empty()) return std::nullopt;
  std::sort(pairs.begin(), pairs.end(),
            [](const Pair& x, const Pair& y) { return x.b_minus_a < y.b_minus_a; });
  const Pair& mid = pairs[pairs.size() / 2];
  ClockSkew s;
  s.host = host;
  s.source_a = std::move(a);
  s.source_b = std::move(b);
  s.b_minus_a_seconds = pairs.size() % 2 ? mid.b_minus_a
                                         : (mid.b_minus_a + pairs[pairs.size() / 2 - 1].b_minus_a) / 2;
  s.pairs = pairs.size();
  s.a_evidence = mid.a;
  s.b_evidence = mid.b;
  s.method = std::move(method);
  return s;
}

double seconds(int64_t us) { return static_cast<double>(us) / 1e6; }

}  // namespace

std::vector<ClockSkew> timeline_skews(const BundleFacts& facts) {
  std::vector<ClockSkew> out;
  std::vector<Pair> journal_dmesg, journal_syslog;
  std::string dmesg_boot;
  for (const KernelEvent& ev : facts.logs.kernel_events) {
    for (size_t i = 0; i < ev.also_seen_copies.size() && i < ev.also_seen.size(); ++i) {
      const auto& copy = ev.also_seen_copies[i];
      if (!ev.time.known() || !copy.time.known()) continue;
      // Which side is which does not depend on which copy the kernel finalize kept.
      if (is_journal(ev.form) && is_dmesg(copy.form)) {
        journal_dmesg.push_back({seconds(ev.time.utc_us - copy.time.utc_us), ev.also_seen[i], ev.evidence});
        dmesg_boot = ev.boot_id;
      } else if (is_dmesg(ev.form) && is_journal(copy.form)) {
        journal_dmesg.push_back({seconds(copy.time.utc_us - ev.time.utc_us), ev.evidence, ev.also_seen[i]});
        dmesg_boot = ev.boot_id;
      } else if (is_journal(ev.form) && copy.form == KernelLogForm::syslog) {
        journal_syslog.push_back({seconds(copy.time.utc_us - ev.time.utc_us), ev.evidence, ev.also_seen[i]});
      } else if (ev.form == KernelLogForm::syslog && is_journal(copy.form)) {
        journal_syslog.push_back({seconds(ev.time.utc_us - copy.time.utc_us), ev.also_seen[i], ev.evidence});
      }
    }
  }
  std::string boot = dmesg_boot.empty() ? std::string() : " of boot " + dmesg_boot.substr(0, 8);
  if (auto s = summarise(std::move(journal_dmesg), facts.host, "dmesg", "journal",
                         "same kernel line" + boot + ": journal time vs btime + seconds since boot"))
    out.push_back(std::move(*s));
  if (auto s = summarise(std::move(journal_syslog), facts.host, "journal", "syslog",
                         "same kernel line: journal time vs syslog time (whole seconds)"))
    out.push_back(std::move(*s));

  // A probe's own plog (probes/logs/<name>/...) starts after the interpreter did: a second or
  // two of start-up is expected on top of any skew.
  std::vector<Pair> probe_plog;
  for (const ProbeResult& p : facts.devices.probes) {
    if (!p.started_utc_us) continue;
    const PlogEntrySummary* best = nullptr;
    std::string needle = "probes/logs/" + p.name + "/";
    for (const auto& e : facts.logs.plog_entries)
      if (e.entry.find(needle) != std::string::npos && e.first.time.known() &&
          (!best || e.first.time.utc_us < best->first.time.utc_us))
        best = &e;
    if (!best) continue;
    EvidenceRef plog;
    plog.entry = best->entry;
    // line 0: the summary keeps the first time of the entry, not its line number
    plog.excerpt = best->first.time.original;
    probe_plog.push_back({seconds(best->first.time.utc_us - *p.started_utc_us), p.evidence, plog});
  }
  if (auto s = summarise(std::move(probe_plog), facts.host, "probe", "plog",
                         "probe started_utc vs the first line of its own plog "
                         "(includes the interpreter's start-up)"))
    out.push_back(std::move(*s));
  return out;
}

}  // namespace triage
