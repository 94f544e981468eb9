// Which plog lines become facts (stall reports, sync timeouts, error codes, signature hits)
// and how their fields are read. Only kept facts allocate.
#include <algorithm>

#include "parsers/common/line_prefix.h"
#include "parsers/common/log_text.h"
#include "parsers/plog/plog_parser.h"

namespace triage {

namespace {
using sv = std::string_view;

bool is_code_char(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }

// A CANN error-message code: E, one module character, four digits ("EZ9999", "E39999").
bool is_message_code(sv s) {
  if (s.size() != 6 || s[0] != 'E' || !is_code_char(s[1])) return false;
  for (size_t i = 2; i < 6; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// Where an error line names a message code as a word of its own ("Func:EI0006 Getting socket
// times out", "... failed [E19014]"): at the start or after a blank, ':', '[' or '(' and
// before a blank, ':', ']', ')' or the end, as knowledge/fact-forms.tsv's code row reads it
// in any line (issue 37: ascend-fd's rules match the code inside any line). Empty if none.
sv inner_message_code(sv m) {
  for (size_t at = m.find('E'); at != sv::npos && at + 6 <= m.size(); at = m.find('E', at + 1)) {
    char before = at == 0 ? ' ' : m[at - 1];
    if (before != ' ' && before != ':' && before != '[' && before != '(') continue;
    if (!is_message_code(m.substr(at, 6))) continue;
    if (at + 6 == m.size()) return m.substr(at, 6);
    char after = m[at + 6];
    if (after == ' ' || after == ':' || after == ']' || after == ')') return m.substr(at, 6);
  }
  return {};
}

}  // namespace

// Every line naming a device id and a stream id teaches which device that stream is on.
void PlogFileParser::learn_device(const PlogLine& p) {
  sv m = p.message;
  auto dev = find_int(m, "device_id=");
  if (!dev) return;
  auto stream = find_int(m, "stream_id=");
  if (!stream) return;
  auto key = std::make_pair(p.pid_value, *stream);
  if (stream_devices_.find(key) == stream_devices_.end()) stream_devices_.emplace(key, *dev);
}

// Where a message names what keep_facts() looks for; found once per line, no allocation.
struct PlogFileParser::Markers {
  bool stall, sync_timeout, has_device, leading_code;
  size_t err_code, runtime_result, ret_code, error_code_is, error_code_eq, module_name;

  Markers(sv m, sv whole, bool error_level)
      : stall(m.find("three minutes timeout") != sv::npos),
        sync_timeout(!stall && m.find("Stream synchronize timeout") != sv::npos),
        has_device(m.find("device_id=") != sv::npos),
        leading_code(m.size() > 7 && m[6] == ':' && is_message_code(m.substr(0, 6))),
        err_code(m.find("ErrCode=")),
        runtime_result(m.find("runtime result =")),
        ret_code(m.find("retCode=0x")),
        error_code_is(m.find("error code is ")),
        error_code_eq(find_word(m, "errorCode")),
        module_name(m.find("module_name=E")),
        whole_(whole),
        error_level_(error_level) {}

  // A message code as a word of its own in the whole line after its time (a code in the
  // function's place too), looked for only when asked: a line whose template is folded
  // (a storm) never is.
  sv inner_code() const {
    if (!inner_)
      inner_ = error_level_ && !leading_code && module_name == sv::npos ? inner_message_code(whole_) : sv();
    return *inner_;
  }

  bool any_code() const {
    return err_code != sv::npos || runtime_result != sv::npos || ret_code != sv::npos ||
           error_code_is != sv::npos || error_code_eq != sv::npos || module_name != sv::npos ||
           leading_code || !inner_code().empty();
  }

 private:
  sv whole_;
  bool error_level_;
  mutable std::optional<sv> inner_;
};

// Cheap tests first: most lines hold none of the facts, and they cost no allocation.
void PlogFileParser::keep_facts(const PlogLine& p, const Line& line) {
  sv m = p.message;
  // One DFA pass says whether any signature can match (no allocation); which ones is
  // asked only for lines that are kept.
  const sv sig_text = plog_signature_text(p);
  const Markers k(m, sig_text, p.level_id == PlogLevel::error);
  if (k.has_device) learn_device(p);
  bool any_signature = knowledge_.plog_matcher.any(sig_text);
  if (!k.stall && !k.sync_timeout && !any_signature && !k.any_code()) {
    if (p.level_id == PlogLevel::warning || p.level_id == PlogLevel::error) note_level_line(p, line);
    return;
  }
  // A storm of one template costs a hash per line once it has its kept lines.
  TemplateSlot* slot = nullptr;
  if (!k.stall && !k.sync_timeout) {
    slot = &templates_[mix64(mix64(message_template_key(m), static_cast<uint64_t>(p.pid_value)),
                             static_cast<uint64_t>(p.level_id))];
    if (slot->kept >= kKeptPerTemplate && fold_repeat(*slot, p)) return;
  }
  if (!first_sighting(p, line)) return;
  LogFacts& logs = ctx_.facts.logs;
  const size_t hits_before = logs.signature_hits.size(), codes_before = logs.error_codes.size();
  const size_t stalls_before = logs.stalls.size(), timeouts_before = logs.sync_timeouts.size();
  const uint64_t folded_before = summary_.folded_lines;
  hits_.clear();
  if (any_signature) knowledge_.plog_matcher.match(sig_text, p.module, set_scratch_, hits_);
  std::optional<int64_t> device = summary_.device_id;
  DeviceIdSource device_source = device ? DeviceIdSource::path : DeviceIdSource::none;
  if (k.has_device && !device) {
    device = find_int(m, "device_id=");
    device_source = DeviceIdSource::message;
  }
  if (k.stall) keep_stall(p, line, device, device_source);
  if (k.sync_timeout) keep_sync_timeout(p, line);
  if (k.any_code()) keep_error_codes(p, line, k, device);
  keep_signature_hits(p, line);
  // The line's copy key is kept unless the line only added to the counts of full code groups:
  // then it kept nothing a copy could repeat, and a key per such line grew with the lines
  // (1e6 distinct error messages naming one code; issue 35).
  const bool kept_any = logs.signature_hits.size() != hits_before || logs.error_codes.size() != codes_before ||
                        logs.stalls.size() != stalls_before || logs.sync_timeouts.size() != timeouts_before;
  if (kept_any || summary_.folded_lines == folded_before) logs.plog_seen_keys.try_emplace(copy_key_, entry_id_);
  if (slot) {
    ++slot->kept;
    slot->hits_at = static_cast<uint32_t>(hits_before);
    slot->hits_n = static_cast<uint32_t>(logs.signature_hits.size() - hits_before);
    slot->codes_at = static_cast<uint32_t>(codes_before);
    slot->codes_n = static_cast<uint32_t>(logs.error_codes.size() - codes_before);
  }
}

// Counts the line on the facts of its template's last kept line. False when that line kept
// none (the line is then read in full: it may hold what the kept ones did not).
bool PlogFileParser::fold_repeat(TemplateSlot& slot, const PlogLine& p) {
  if (slot.hits_n == 0 && slot.codes_n == 0) return false;
  LogFacts& logs = ctx_.facts.logs;
  auto count = [&](FoldedRepeats& r) {
    ++r.lines;
    if (!p.has_time) return;
    r.last.civil = p.time;
    r.last.valid = true;
    r.last.time.original.assign(p.time_text);  // reuses the string's storage after the first
  };
  for (uint32_t i = 0; i < slot.hits_n; ++i) count(logs.signature_hits[slot.hits_at + i].repeats);
  for (uint32_t i = 0; i < slot.codes_n; ++i) count(logs.error_codes[slot.codes_at + i].repeats);
  if (slot.kept++ == kKeptPerTemplate) ++summary_.folded_templates;
  ++summary_.folded_lines;
  return true;
}

// The same line twice in this entry is kept once. A copy in another entry (run/ vs debug/,
// stdout) is kept with its key: which copy stays is decided once every entry is read, by
// walk order, not by the order an archive stored them in (LogFacts::plog_seen_keys).
bool PlogFileParser::first_sighting(const PlogLine& p, const Line& line) {
  LogFacts& logs = ctx_.facts.logs;
  uint64_t key = mix64(mix64(fnv1a(p.message), static_cast<uint64_t>(p.pid_value)),
                       static_cast<uint64_t>(civil_to_epoch_us(p.time)));
  if (!p.has_time) key = mix64(key, line.number);  // untimed lines: never merge across lines
  // Looked up here; added by keep_facts once it knows the line kept a fact.
  auto at = logs.plog_seen_keys.find(key);
  if (at != logs.plog_seen_keys.end() && at->second == entry_id_) {
    ++summary_.duplicates;
    return false;
  }
  copy_key_ = key;
  return true;
}

void PlogFileParser::keep_stall(const PlogLine& p, const Line& line, std::optional<int64_t> device,
                                DeviceIdSource device_source) {
  sv m = p.message;
  auto stream = find_int(m, "stream_id=");
  auto task = find_int(m, "task_id=");
  auto pending = find_int(m, "pendingNum=");
  if (!stream || !task || !pending) return;
  StallReport s;
  s.origin = origin(p);
  s.device_id = device;
  s.device_id_source = device_source;
  s.stream_id = *stream;
  s.sq_id = find_int(m, "sq_id=");
  s.task_id = *task;
  s.sq_head = find_int(m, "sqHead=");
  s.flip_num = find_int(m, "flip_num=");
  s.pending_num = *pending;
  s.old_variant = !s.sq_id && !s.sq_head && !s.flip_num;
  s.time = local_time(p);
  s.evidence = evidence(line);
  ctx_.facts.logs.stalls.push_back(std::move(s));
}

void PlogFileParser::keep_sync_timeout(const PlogLine& p, const Line& line) {
  sv m = p.message;
  StreamSyncTimeout t;
  t.origin = origin(p);
  t.device_id = find_int(m, "device_id=");
  if (!t.device_id) t.device_id = summary_.device_id;
  t.stream_id = find_int(m, "stream_id=").value_or(-1);
  t.timeout_ms = find_int(m, "timeout=");
  t.try_count = find_int(m, "tryCount=");
  t.time = local_time(p);
  t.evidence = evidence(line);
  ctx_.facts.logs.sync_timeouts.push_back(std::move(t));
}

// Every error-code form the line holds, in a fixed order (docs/log-formats.md).
void PlogFileParser::keep_error_codes(const PlogLine& p, const Line& line, const Markers& k,
                                      std::optional<int64_t> device) {
  sv m = p.message;
  LogFacts& logs = ctx_.facts.logs;
  bool code_folded = false;  // the line is then counted in folded_lines, once
  auto add = [&](ErrorCodeForm form, sv code) {
    if (code.empty()) return;
    uint64_t group_key = mix64(mix64(mix64(fnv1a(code, fnv1a(p.module)), static_cast<uint64_t>(form)),
                                     static_cast<uint64_t>(p.pid_value)),
                               static_cast<uint64_t>(device.value_or(-1)));
    CodeGroup& group = code_groups_[group_key];
    if (group.kept >= kKeptPerCode && group.last < logs.error_codes.size()) {
      FoldedRepeats& r = logs.error_codes[group.last].repeats;
      ++r.lines;
      code_folded = true;
      if (p.has_time) {
        r.last.civil = p.time;
        r.last.valid = true;
        r.last.time.original.assign(p.time_text);
      }
      return;
    }
    ++group.kept;
    group.last = logs.error_codes.size();
    ErrorCodeFact f;
    f.origin = origin(p);
    f.module = std::string(p.module);
    f.form = form;
    f.code = std::string(code);
    f.device_id = device;
    f.time = local_time(p);
    f.evidence = evidence(line);
    logs.error_codes.push_back(std::move(f));
  };
  // The description belongs to the fact this line just added, never to an earlier line's.
  size_t at = logs.error_codes.size();
  if (k.err_code != sv::npos) {
    add(ErrorCodeForm::err_code, find_token(m, "ErrCode="));
    if (logs.error_codes.size() > at) {
      logs.error_codes.back().description = std::string(find_bracketed(m, "desc=["));
      logs.error_codes.back().inner_code = std::string(find_token(m, "InnerCode="));
    }
  }
  if (k.runtime_result != sv::npos) add(ErrorCodeForm::runtime_result, find_token(m, "runtime result = "));
  if (k.ret_code != sv::npos) {
    at = logs.error_codes.size();
    add(ErrorCodeForm::ret_code, find_token(m, "retCode="));
    // "[aicore exception]" after the retCode names the same fault.
    size_t open = m.find(", [", k.ret_code);
    if (open != sv::npos && logs.error_codes.size() > at) {
      size_t close = m.find(']', open);
      if (close != sv::npos)
        logs.error_codes.back().description = std::string(m.substr(open + 3, close - open - 3));
    }
  }
  if (k.error_code_is != sv::npos) add(ErrorCodeForm::error_code_is, find_token(m, "error code is "));
  if (k.error_code_eq != sv::npos) {
    sv rest = m.substr(k.error_code_eq + 9);
    size_t i = 0;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '=')) ++i;
    sv tok = rest.substr(i);
    tok = tok.substr(0, std::min(tok.find_first_of(", ;)]."), tok.size()));
    bool hex = tok.substr(0, 2) == "0x";
    if (i > 0 && !tok.empty()) add(hex ? ErrorCodeForm::ret_code : ErrorCodeForm::error_code_is, tok);
  }
  if (k.module_name != sv::npos && is_message_code(m.substr(k.module_name + 12, 6)))
    add(ErrorCodeForm::message_code, m.substr(k.module_name + 12, 6));
  if (k.leading_code) add(ErrorCodeForm::message_code, m.substr(0, 6));
  if (sv inner = k.inner_code(); !inner.empty()) add(ErrorCodeForm::message_code, inner);
  if (code_folded) ++summary_.folded_lines;
}

// The signatures hits_ names, with their named captures.
void PlogFileParser::keep_signature_hits(const PlogLine& p, const Line& line) {
  sv m = p.message;
  for (int idx : hits_) {
    const Signature& sig = knowledge_.signatures[static_cast<size_t>(idx)];
    SignatureHit h;
    h.id = sig.id;
    h.severity = sig.severity;
    h.category = sig.category;
    h.pid = p.pid_value;
    h.time = local_time(p);
    h.evidence = evidence(line);
    h.copy_key = copy_key_;
    if (sig.re && sig.re->NumberOfCapturingGroups() > 0) {
      const RE2& re = *sig.re;
      int n = re.NumberOfCapturingGroups();
      std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
      // The message first; else the text the signature set matched, which starts at the
      // line's source position (a pattern that spans "[file.cc:N] [tid][Tag]" captures there).
      auto match = [&](sv text) {
        return re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups.data(),
                        n + 1);
      };
      sv whole = plog_signature_text(p);
      if (match(m) || (whole.data() != m.data() && match(whole))) {
        for (const auto& [name, index] : re.NamedCapturingGroups()) {
          const auto& g = groups[static_cast<size_t>(index)];
          if (g.data() != nullptr) h.captures.emplace_back(name, std::string(g.data(), g.size()));
        }
        std::sort(h.captures.begin(), h.captures.end());
      }
    }
    ctx_.facts.logs.signature_hits.push_back(std::move(h));
  }
}

}  // namespace triage

namespace triage {

// Allocation-free for a line that joins an existing row: only a new row copies text.
void PlogFileParser::note_level_line(const PlogLine& p, const Line& line) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : p.message) {
    if (c >= '0' && c <= '9') continue;  // ids, times, counters: the same message otherwise
    h = (h ^ c) * 1099511628211ULL;
  }
  h = mix64(mix64(h, static_cast<uint64_t>(p.pid_value)), static_cast<uint64_t>(p.level_id));
  auto& rows = summary_.level_lines;
  for (auto& r : rows) {
    if (r.key != h) continue;
    ++r.count;
    if (p.has_time) {
      r.last.civil = p.time;
      r.last.valid = true;
    }
    return;
  }
  if (rows.size() >= kMaxLevelRows) {
    ++summary_.level_lines_over_cap;
    return;
  }
  PlogLevelLine& r = rows.emplace_back();
  r.key = h;
  r.level = p.level_id;
  r.pid = p.pid_value;
  r.first = local_time(p);
  r.last.civil = p.time;
  r.last.valid = p.has_time;
  r.count = 1;
  r.evidence = evidence(line);
}

bool PlogFileParser::note_unknown_shape_level(const Line& line) {
  LinePrefix pre = split_line_prefix(line.text);
  LevelHit hit;
  if (!levels_.find(pre.logger, pre.body, hit)) return false;
  if (hit.blank) return true;
  // The row's key: the form and the text with its digits left out (the pid among them), apart
  // from parsed lines' rows. A repeat joins its row without reading the groups: no allocation.
  uint64_t h = mix64(hit.key, static_cast<uint64_t>(PlogLevel::count_));
  auto& rows = summary_.level_lines;
  for (auto& r : rows)
    if (r.key == h) {
      ++r.count;
      return true;
    }
  if (rows.size() >= kMaxLevelRows) {
    ++summary_.level_lines_over_cap;
    return true;
  }
  LevelLine lv;
  if (!levels_.read(hit, pre.body, lv) || lv.message.empty()) return true;
  PlogLevelLine& r = rows.emplace_back();
  r.key = h;
  r.level = PlogLevel::error;
  r.pid = lv.pid.value_or(0);
  r.count = 1;
  r.evidence = evidence(line);
  r.code = levels_.code(lv.message);
  return true;
}

}  // namespace triage
