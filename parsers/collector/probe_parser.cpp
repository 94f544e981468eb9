// Probe results: the JSON the collector wrote for each probe process and its output files.
#include <fmt/format.h>
#include <re2/re2.h>
#include <simdjson.h>

#include "parsers/collector/manifest_common.h"
#include "parsers/collector/probe_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {
using sv = std::string_view;
namespace od = simdjson::ondemand;

ProbeResult* probe_of(ParseContext& ctx) {
  sv name = probe_name_of(ctx.entry.path);
  if (name.empty()) return nullptr;
  return &ctx.facts.devices.probe(std::string(name));
}

void count_all_unrecognised(ParseContext& ctx, sv text) {
  ctx.stats.unrecognised += count_lines(text);
}

}  // namespace

sv probe_name_of(sv path) {
  size_t slash = path.rfind('/');
  sv name = slash == sv::npos ? path : path.substr(slash + 1);
  for (sv ext : {".threads.txt", ".json", ".stdout", ".stderr", ".status"})
    if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext)
      return name.substr(0, name.size() - ext.size());
  return {};
}

void parse_probe_json(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  ProbeResult* p = probe_of(ctx);
  if (!p) return count_all_unrecognised(ctx, text);
  p->evidence = make_evidence(entry_name(ctx), 1, 0, text.substr(0, text.find('\n')));
  simdjson::padded_string json(text);
  od::parser parser;
  od::document doc;
  od::object obj;
  auto fail = [&](std::string_view why) {
    ctx.stats.note_malformed(entry_name(ctx), 1, 0, fmt::format("{}: {}", why, make_excerpt(text, 120)));
  };
  if (parser.iterate(json).get(doc) || doc.get_object().get(obj)) return fail("not a JSON object");
  for (auto f : obj) {
    od::field field;
    sv k;
    if (std::move(f).get(field) || field.unescaped_key().get(k)) return fail("bad field");
    od::value v = field.value();
    bool ok = true;
    std::string name;  // the file name is the contract's key; "name" must agree
    if (k == "name") ok = read_contract_text(v, name) && (name.empty() || name == p->name);
    else if (k == "device") ok = read_contract_int(v, p->device);
    else if (k == "python") ok = read_contract_text(v, p->python);
    else if (k == "torch_npu_version") ok = read_contract_text(v, p->torch_npu_version);
    else if (k == "started_utc") ok = read_contract_time(v, p->started_utc_us);
    else if (k == "rc") ok = read_contract_int(v, p->rc);
    else if (k == "timed_out") ok = read_contract_bool(v, p->timed_out);
    else if (k == "duration_ms") ok = read_contract_int(v, p->duration_ms);
    // argv, stdout_file, stderr_file and newer fields: not needed by analyses
    if (!ok) return fail(fmt::format("field \"{}\" has an unexpected value", k));
  }
  p->has_json = true;  // only a JSON read whole: a damaged one gives no outcome
  ctx.stats.parsed += count_lines(text);
  ctx.stats.variant = "probe-json";
}

void parse_probe_stdout(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  ProbeResult* p = probe_of(ctx);
  if (!p) return count_all_unrecognised(ctx, text);
  p->has_stdout = true;
  p->stdout_first_line = make_excerpt(text.substr(0, text.find('\n')), 120);
  ctx.stats.parsed += count_lines(text);
}

void parse_probe_stderr(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  ProbeResult* p = probe_of(ctx);
  if (!p) return count_all_unrecognised(ctx, text);
  p->has_stderr = true;
  static const RE2 code_re(R"((?:error code is|errorCode\s*=|ErrCode=|runtime result =)\s*(\d{6}))");
  static const RE2 exception_re(R"(^([A-Za-z_][\w.]*(?:Error|Exception)): )");
  for_each_line(text, [&](const TextLine& line) {
    ++ctx.stats.parsed;
    sv t = line.text;
    int64_t code = 0;
    if (!p->error_code && RE2::PartialMatch(t, code_re, &code)) {
      p->error_code = code;
      p->stderr_evidence = evidence_at(ctx, line);
    }
    if (RE2::PartialMatch(t, exception_re)) {
      p->exception_line = make_excerpt(t, 200);
      if (!p->error_code) p->stderr_evidence = evidence_at(ctx, line);
    }
    sv tt = trim(t);
    if (p->error_text.empty() && tt.rfind("[Error]:", 0) == 0)
      p->error_text = make_excerpt(trim(tt.substr(8)), 200);
  });
}

void parse_probe_side_file(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  ProbeResult* p = probe_of(ctx);
  if (!p) return count_all_unrecognised(ctx, text);
  sv path = ctx.entry.path;
  if (path.size() >= 12 && path.substr(path.size() - 12) == ".threads.txt") p->has_threads = true;
  else p->has_status = true;
  ctx.stats.parsed += count_lines(text);
}

}  // namespace triage
