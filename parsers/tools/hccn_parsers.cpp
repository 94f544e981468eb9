// hccn_tool answers, one small file per device and query. Formats: Huawei's hccn_tool guide
// (net_health, link_stat as documented; the others after the guide, see
// tests/collector/stubs/hccn_tool). A line not in the expected shape is counted unrecognised.
#include <fmt/format.h>

#include "parsers/common/text_file.h"
#include "parsers/tools/hccn_parsers.h"

namespace triage {
namespace {
using sv = std::string_view;

bool starts_with(sv s, sv p) { return s.substr(0, p.size()) == p; }

// `hccn_tool -i 3 -ip -g` pasted before its output: the id after -i.
std::optional<int64_t> id_of_command(sv command) {
  size_t at = command.find(" -i ");
  if (at == sv::npos) return std::nullopt;
  sv rest = trim(command.substr(at + 4));
  return parse_int(rest.substr(0, rest.find(' ')));
}

// The logic id of "hccn-<query>-<id>.txt", or of the pasted command a segment is the output
// of; nullptr (every line unrecognised) without one.
HccnPort* port_of_entry(ParseContext& ctx, sv query) {
  if (auto id = id_of_command(ctx.command); id && *id >= 0 && *id < 4096) {
    HccnPort& p = ctx.facts.network.hccn[*id];
    p.device = *id;
    return &p;
  }
  sv path = ctx.entry.path;
  size_t slash = path.rfind('/');
  sv name = slash == sv::npos ? path : path.substr(slash + 1);
  std::string prefix = fmt::format("hccn-{}-", query);
  if (!starts_with(name, prefix) || name.size() <= prefix.size() + 4) return nullptr;
  auto id = parse_int(name.substr(prefix.size(), name.size() - prefix.size() - 4));  // ".txt"
  if (!id || *id < 0) return nullptr;
  HccnPort& p = ctx.facts.network.hccn[*id];
  p.device = *id;
  return &p;
}

// "key : value" / "key:value", both trimmed.
std::optional<std::pair<sv, sv>> colon_pair(sv line) {
  size_t c = line.find(':');
  if (c == sv::npos) return std::nullopt;
  return std::make_pair(trim(line.substr(0, c)), trim(line.substr(c + 1)));
}

// `dev_id:3, tls switch[0]...`: an answer for every device (hccn_tool -tls -g without -i)
// names its device first; the lines after it without the prefix belong to it too.
// A row of the Ascend 950 driver's -link_stat table names its NPU first (`|  0  |  0   |  4 ...`).
HccnPort* port_of_line(ParseContext& ctx, sv& t, HccnPort* current) {
  std::optional<int64_t> id;
  if (starts_with(t, "dev_id:")) {
    size_t comma = t.find(',');
    id = parse_int(t.substr(7, comma == sv::npos ? sv::npos : comma - 7));
    if (id) t = comma == sv::npos ? sv{} : trim(t.substr(comma + 1));
  } else if (starts_with(t, "|")) {
    size_t bar = t.find('|', 1);
    if (bar != sv::npos) id = parse_int(trim(t.substr(1, bar - 1)));
  }
  if (!id || *id < 0 || *id >= 4096) return current;
  HccnPort& p = ctx.facts.network.hccn[*id];
  p.device = *id;
  return &p;
}

// Reads the file, refuses a tool error, and calls f(line, port) for each non-blank line;
// f returns whether it understood the line. The port is the file's (its name, the pasted
// command) or, without one, the device the line or the lines before it name.
template <class F>
void each_line(ParseContext& ctx, ByteSource& src, sv query, F&& f) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  HccnPort* port = port_of_entry(ctx, query);
  // Lines before the first that names a device (the 950 table's counts and header) are the
  // first named device's.
  HccnPort* named = nullptr;
  if (!port)
    for_each_line(text, [&](const TextLine& line) {
      sv t = trim(line.text);
      if (!named) named = port_of_line(ctx, t, nullptr);
    });
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    if (!port) named = port_of_line(ctx, t, named);
    HccnPort* p = port ? port : named;
    if (p && f(t, line, *p)) ++ctx.stats.parsed;
    else ++ctx.stats.unrecognised;
  });
}

}  // namespace


void parse_hccn_net_health(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "net_health", [&](sv t, const TextLine& line, HccnPort& p) {
    auto kv = colon_pair(t);
    if (!kv || kv->first != "net health status") return false;
    p.net_health = std::string(kv->second);
    p.net_health_evidence = evidence_at(ctx, line);
    return true;
  });
}

// `ipaddr:..` / `netmask:..` (-ip -g), `ipv6_address:..` / `prefix_length:..` (-ip -inet6 -g).
void parse_hccn_ip(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "ip", [&](sv t, const TextLine& line, HccnPort& p) {
    // an IPv6 address holds colons: the key is what comes before the first one
    size_t c = t.find(':');
    if (c != sv::npos && trim(t.substr(0, c)) == "ipv6_address") {
      p.ipv6 = std::string(trim(t.substr(c + 1)));
      p.ipv6_evidence = evidence_at(ctx, line);
      return true;
    }
    auto kv = colon_pair(t);
    if (!kv) return false;
    if (kv->first == "ipaddr") {
      p.ip = std::string(kv->second);
      p.ip_evidence = evidence_at(ctx, line);
    } else if (kv->first == "netmask") {
      p.netmask = std::string(kv->second);
    } else {
      return kv->first == "prefix_length";
    }
    return true;
  });
}

// The optical lines a port-health rule reads (knowledge/port-health.tsv); vendor, Vcc,
// temperature, bias and SNR lines are understood and not kept.
bool optical_reading(sv name) {
  return name == "present" || starts_with(name, "Tx Power") || starts_with(name, "Rx Power") ||
         starts_with(name, "TxPower ") || starts_with(name, "RxPower ") || name == "Tx Los Flag" ||
         name == "Rx Los Flag" || name == "Tx LoL Flag" || name == "Rx LoL Flag";
}

void parse_hccn_optical(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "optical", [&](sv t, const TextLine& line, HccnPort& p) {
    auto kv = colon_pair(t);
    if (!kv) return false;
    if (kv->first == "present") p.optical_present = std::string(kv->second);
    if (optical_reading(kv->first) && p.optical.size() < 64)
      p.optical.push_back({std::string(kv->first), std::string(kv->second), evidence_at(ctx, line)});
    return true;
  });
}

// The Ascend 950 driver's -link_stat history, a table: `| NPU | UDie | Port | Link_Status |
// Time_Stamp |`, then `|  0  |  0   |  4   |  LINK_DOWN  | Mon Feb 9 21:45:47 2026 |`.
bool link_table_row(ParseContext& ctx, sv t, const TextLine& line, HccnPort& p) {
  sv cells[6];
  size_t n = 0, at = 1;
  while (n < 6 && at < t.size()) {
    size_t bar = t.find('|', at);
    if (bar == sv::npos) break;
    cells[n++] = trim(t.substr(at, bar - at));
    at = bar + 1;
  }
  if (n != 5 || at != t.size()) return false;
  if (cells[0] == "NPU") return cells[3] == "Link_Status";
  bool up = cells[3] == "LINK_UP";
  if (!up && cells[3] != "LINK_DOWN") return false;
  if (p.link_changes.size() < 256) p.link_changes.push_back({std::string(cells[4]), up, evidence_at(ctx, line)});
  return true;
}

// `[device 0]link up count       : 1`, `[device 0]    Sat Jun 13 00:01:12 2026    LINK UP`.
bool link_stat_line(ParseContext& ctx, sv t, const TextLine& line, HccnPort& p) {
  if (starts_with(t, "[device") || starts_with(t, "[devid")) {
    size_t close = t.find(']');
    if (close == sv::npos) return false;
    t = trim(t.substr(close + 1));
  }
  for (sv state : {sv("LINK DOWN"), sv("LINK UP")}) {
    if (t.size() > state.size() && t.substr(t.size() - state.size()) == state) {
      if (p.link_changes.size() < 256)
        p.link_changes.push_back({std::string(trim(t.substr(0, t.size() - state.size()))), state == "LINK UP",
                                  evidence_at(ctx, line)});
      return true;
    }
  }
  if (starts_with(t, "+-")) return t.find_first_not_of("+-") == sv::npos;  // a table border
  if (starts_with(t, "|")) return link_table_row(ctx, t, line, p);
  auto kv = colon_pair(t);
  if (!kv) return false;
  if (kv->first == "link up count") p.link_up_count = parse_int(kv->second);
  return kv->first == "link up count" || kv->first == "link down count" || kv->first == "current time" ||
         kv->first == "link change records";
}

void parse_hccn_link_stat(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "link_stat", [&](sv t, const TextLine& line, HccnPort& p) {
    return link_stat_line(ctx, t, line, p);
  });
}

// -tls -g, after its `dev_id:N,`: `tls switch[0](0:disable, 1:enable), tls alarm time
// threshold[60]days`, then each certificate's `[pub cert] info:` and its issuer[..],
// start_time[..], end_time[..] lines (understood, not kept).
bool tls_line(ParseContext& ctx, sv t, const TextLine& line, HccnPort& p) {
  constexpr sv kSwitch = "tls switch[";
  if (starts_with(t, kSwitch)) {
    size_t close = t.find(']', kSwitch.size());
    if (close == sv::npos || close == kSwitch.size() || close - kSwitch.size() > 8) return false;  // 0 or 1
    p.tls_switch = std::string(t.substr(kSwitch.size(), close - kSwitch.size()));
    p.tls_evidence = evidence_at(ctx, line);
    return true;
  }
  if (starts_with(t, "[") && t.size() > 12 && t.substr(t.size() - 12) == " cert] info:") return true;
  for (sv key : {sv("issuer["), sv("start_time["), sv("end_time[")})
    if (starts_with(t, key) && t.back() == ']') return true;
  return false;
}

// `link status: UP`; bundles of earlier collectors hold the -link_stat text under this name;
// hccn_tool queries without a kind of their own (-fec, -tls) land here.
void parse_hccn_link(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "link", [&](sv t, const TextLine& line, HccnPort& p) {
    if (tls_line(ctx, t, line, p)) return true;
    auto kv = colon_pair(t);
    if (kv && kv->first == "link status") {
      p.link_status = std::string(kv->second);
      p.link_evidence = evidence_at(ctx, line);
      return true;
    }
    // -fec -g has no file kind of its own: `fec mode: rs FEC mode`, `fec mode: no FEC mode`
    if (kv && kv->first == "fec mode") {
      p.fec_mode = std::string(kv->second);
      p.fec_evidence = evidence_at(ctx, line);
      return true;
    }
    return link_stat_line(ctx, t, line, p);
  });
}

// `name:value` counters; those whose name says err or bad and that are not zero are kept.
void parse_hccn_stat(ParseContext& ctx, ByteSource& src) {
  each_line(ctx, src, "stat", [&](sv t, const TextLine& line, HccnPort& p) {
    auto kv = colon_pair(t);
    if (!kv) return false;
    if (kv->second.empty()) return true;  // a heading ("packet statistics:")
    auto v = parse_int(kv->second);
    if (!v) return false;
    bool error_name = kv->first.find("err") != sv::npos || kv->first.find("bad") != sv::npos;
    if (error_name && *v != 0 && p.error_counters.size() < 64) {
      if (p.error_counters.empty()) p.stat_evidence = evidence_at(ctx, line);
      p.error_counters.emplace_back(std::string(kv->first), *v);
    }
    return true;
  });
}

}  // namespace triage
