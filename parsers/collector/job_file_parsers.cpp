// The rank table and the py-spy stacks of a collected process. The rank table is untrusted
// JSON (any of the HCCL layouts: server_list[].device[] with device_id / device_ip / rank_id,
// values as strings or numbers); what cannot be read is counted malformed, naming the line.
#include <simdjson.h>

#include <fmt/format.h>

#include "parsers/collector/job_file_parsers.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {
using sv = std::string_view;

// A string or a number as text; "" for anything else.
std::string scalar_text(simdjson::dom::element e) {
  if (e.is_string()) return std::string(std::string_view(e.get_string().value_unsafe()));
  if (e.is_int64()) return std::to_string(int64_t(e.get_int64().value_unsafe()));
  if (e.is_uint64()) return std::to_string(uint64_t(e.get_uint64().value_unsafe()));
  return {};
}

std::string field(simdjson::dom::object o, sv key) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) return {};
  return scalar_text(e);
}

// 1-based line of the first occurrence of `needle` at or after `from`, moving `from` on.
uint64_t line_of(sv text, sv needle, size_t& from) {
  size_t at = text.find(needle, from);
  if (at == sv::npos) return 0;
  from = at + needle.size();
  uint64_t line = 1;
  for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
  return line;
}

}  // namespace

void parse_rank_table_json(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{8} << 20);
  if (refuse_tool_error(ctx, text)) return;
  auto pid = pid_from_entry_path(ctx.entry.path);
  uint64_t lines = count_lines(text);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.parse(text).get(doc); err || !doc.is_object()) {
    add_malformed(ctx, lines, 1, 0, err ? fmt::format("rank table is not JSON: {}", simdjson::error_message(err))
                                        : std::string("rank table is not a JSON object"));
    return;
  }
  RankTable t;
  t.pid = pid.value_or(0);
  t.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  simdjson::dom::object root = doc.get_object().value_unsafe();
  t.status = field(root, "status");
  simdjson::dom::array servers;
  size_t from = 0;
  if (!root.at_key("server_list").get(servers)) {
    for (simdjson::dom::element s : servers) {
      if (!s.is_object()) continue;
      simdjson::dom::object so = s.get_object().value_unsafe();
      std::string server = field(so, "server_id");
      simdjson::dom::array devices;
      if (so.at_key("device").get(devices)) continue;
      for (simdjson::dom::element d : devices) {
        if (!d.is_object() || t.devices.size() >= 4096) continue;
        simdjson::dom::object dobj = d.get_object().value_unsafe();
        RankTableDevice rd;
        rd.server_id = server;
        rd.device_id = field(dobj, "device_id");
        rd.device_ip = field(dobj, "device_ip");
        rd.rank_id = field(dobj, "rank_id");
        uint64_t line = line_of(text, "\"device_id\"", from);
        rd.evidence = make_evidence(entry_name(ctx), line, 0,
                                    fmt::format("server_id {} device_id {} device_ip {} rank_id {}", server,
                                                rd.device_id, rd.device_ip.empty() ? "(none)" : rd.device_ip,
                                                rd.rank_id));
        t.devices.push_back(std::move(rd));
      }
    }
  }
  ctx.stats.parsed += lines;
  ctx.stats.variant = t.devices.empty() ? "rank-table-without-devices" : "rank-table";
  ctx.facts.network.rank_tables.push_back(std::move(t));
}

// `Thread 12345 (idle): "MainThread"` then frames `    function (file:line)`, innermost first.
void parse_py_spy_dump(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  int64_t pid = pid_from_entry_path(ctx.entry.path).value_or(0);
  auto& stacks = ctx.facts.network.stacks;
  bool in_thread = false;
  for_each_line(text, [&](const TextLine& line) {
    sv raw = line.text, t = trim(raw);
    if (t.empty() || t.substr(0, 8) == "Process " || t.substr(0, 7) == "Python ") return void(++ctx.stats.parsed);
    if (t.substr(0, 7) == "Thread ") {
      PyThreadStack s;
      s.pid = pid;
      sv rest = t.substr(7);
      size_t sp = rest.find(' ');
      s.thread = std::string(rest.substr(0, sp));
      if (size_t open = rest.find('('), close = rest.find(')'); open != sv::npos && close != sv::npos && close > open)
        s.state = std::string(rest.substr(open + 1, close - open - 1));
      if (size_t q = rest.find('"'); q != sv::npos) {
        size_t q2 = rest.rfind('"');
        if (q2 > q) s.name = std::string(rest.substr(q + 1, q2 - q - 1));
      }
      s.evidence = evidence_at(ctx, line);
      in_thread = stacks.size() < 1024;
      if (in_thread) stacks.push_back(std::move(s));
      return void(++ctx.stats.parsed);
    }
    bool indented = !raw.empty() && (raw[0] == ' ' || raw[0] == '\t');
    if (in_thread && indented && t.back() == ')' && t.find(" (") != sv::npos) {
      if (stacks.back().frames.size() < 128) stacks.back().frames.emplace_back(t);
      return void(++ctx.stats.parsed);
    }
    ++ctx.stats.unrecognised;
  });
}

}  // namespace triage
