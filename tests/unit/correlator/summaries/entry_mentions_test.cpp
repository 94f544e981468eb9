// Per-entry mentions (correlator/summaries/entry_mentions.cpp) from `facts` rows: the values of the
// rows of the CANN documentation's grep of device-0 TSCH ringbuffer events
// (tests/data/real/cann-docs-device-log-grep-ringbuffer) and a torch_npu ERR line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "correlator/summaries/entry_mentions.h"

using namespace triage;

namespace {
FactRow row(const char* key, const char* value, const char* entry, uint64_t line) {
  return FactRow{key, value, entry, line};
}
}  // namespace

TEST_CASE("entry mentions: a device log's stated span wins over its lines' times", "[mentions]") {
  std::vector<FactRow> rows = {
      row("component", "TSCH", "grep.txt", 0),
      row("time", "2023-12-02-14:29:25", "grep.txt", 0),
      row("time", "2023-12-02-14:29:25.780.720", "grep.txt", 0),
      row("time", "2023-12-04-11:44:15", "grep.txt", 0),
      row("time", "2023-12-04-11:44:15.752.017", "grep.txt", 0),
      row("pid", "3299758", "grep.txt", 1),
      row("time", "2023-12-02-14:29:25.780.756", "grep.txt", 2),
      row("pid", "3299758", "grep.txt", 4),
  };
  auto m = entry_mentions(rows);
  REQUIRE(m.size() == 1);
  CHECK(m[0].path == "grep.txt");
  CHECK(m[0].pids.shown == std::vector<std::string>{"3299758"});
  CHECK(m[0].pids.total == 1);
  CHECK(m[0].components.shown == std::vector<std::string>{"TSCH"});
  CHECK(m[0].first_time == "2023-12-02-14:29:25.780.720");
  CHECK(m[0].last_time == "2023-12-04-11:44:15.752.017");
  CHECK(m[0].first_time_line == 0);
}

TEST_CASE("entry mentions: lined times, rank -1 left out, codes not mentions, cap with total", "[mentions]") {
  std::vector<FactRow> rows = {
      row("code", "ERR01100", "output.txt", 19),
      row("device", "0", "output.txt", 19),
      row("pid", "1940485", "output.txt", 19),
      row("rank", "-1", "output.txt", 19),
      row("time", "2024-12-19-12:06:38", "output.txt", 19),
      row("time", "2024-12-19-12:06:40", "output.txt", 25),
      row("version", "7.0.1.5", "output.txt", 1),
  };
  for (int i = 0; i < 20; ++i) rows.push_back(FactRow{"pid", std::to_string(100 + i), "ranks.txt", 0});
  std::sort(rows.begin(), rows.end(), [](const FactRow& a, const FactRow& b) {
    return std::tie(a.entry, a.line, a.key, a.value) < std::tie(b.entry, b.line, b.key, b.value);
  });
  auto m = entry_mentions(rows);
  REQUIRE(m.size() == 2);
  const EntryMentions& out = m[0];
  CHECK(out.path == "output.txt");
  CHECK(out.ranks.total == 0);
  CHECK(out.devices.shown == std::vector<std::string>{"0"});
  CHECK(out.versions.shown == std::vector<std::string>{"7.0.1.5"});
  CHECK(out.first_time == "2024-12-19-12:06:38");
  CHECK(out.first_time_line == 19);
  CHECK(out.last_time == "2024-12-19-12:06:40");
  CHECK(out.last_time_line == 25);
  CHECK(m[1].pids.shown.size() == EntryMentions::kMaxShown);
  CHECK(m[1].pids.total == 20);
  CHECK(m[1].first_time.empty());
}

TEST_CASE("entry mentions: the text reports' union, eight of each, honest about the rest", "[mentions]") {
  std::vector<EntryMentions> m(2);
  m[0].path = "a.log";
  m[0].pids.shown = {"48213"};
  m[0].pids.total = 1;
  m[0].components.shown = {"APP", "GE"};
  m[0].components.total = 2;
  m[1].path = "b.log";
  m[1].pids.shown = {"48213", "31544"};
  m[1].pids.total = 2;
  CHECK(mentions_text(m) == "pid 48213, 31544; component APP, GE");
  for (int i = 0; i < 12; ++i) m[1].devices.shown.push_back(std::to_string(i));
  m[1].devices.total = 20;  // the entry names more than it lists
  CHECK(mentions_text(m) == "pid 48213, 31544; device 0, 1, 2, 3, 4, 5, 6, 7 (+4 or more); component APP, GE");
  m[1].devices.shown.resize(2);
  m[1].devices.total = 2;
  m[0].ranks.shown = {"0"};
  m[0].ranks.total = 3;
  CHECK(mentions_text(m) == "pid 48213, 31544; device 0, 1; rank 0 and more; component APP, GE");
  CHECK(mentions_text({}).empty());
}
