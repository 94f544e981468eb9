// ascend/seclog/<name> (/var/log/ascend_seclog/): the install log and the operation log of
// the Ascend driver, firmware and CANN installers. Formats: docs/timeline.md "Install and
// operation logs"; ascend-facts.md (hicann/driver log_common.sh). Lines are read as string
// views; only the lines kept as InstallEvent facts allocate.
#include "parsers/plog/seclog_parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include "bundle/line_reader.h"
#include "model/facts_events.h"
#include "parsers/common/log_text.h"

namespace triage {

namespace {

using sv = std::string_view;

bool starts_with(sv s, sv p) { return s.substr(0, p.size()) == p; }
bool contains(sv s, sv p) { return s.find(p) != sv::npos; }

sv trim_blanks(sv s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The bracketed field at the start of `s` ("[Driver] ..." -> "Driver"), advancing `s`
// past it and one blank. nullopt when `s` does not start with a closed bracket.
std::optional<sv> take_bracket(sv& s) {
  if (s.empty() || s.front() != '[') return std::nullopt;
  size_t close = s.find(']');
  if (close == sv::npos || close > 64) return std::nullopt;
  sv inner = s.substr(1, close - 1);
  s.remove_prefix(close + 1);
  if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return inner;
}

bool is_level_word(sv w) {
  return w == "INFO" || w == "WARNING" || w == "WARN" || w == "ERROR" || w == "DEBUG" ||
         w == "CRITICAL" || w == "FATAL";
}

Severity severity_of_level(sv level) {
  if (level == "ERROR" || level == "CRITICAL" || level == "FATAL") return Severity::error;
  if (level == "WARNING" || level == "WARN") return Severity::warning;
  return Severity::info;
}

// The install-log prefix, parsed without allocating.
struct InstallLine {
  sv tag, uid, level, message, time_text;
  CivilTime time;
};

enum class Shape { install, operation, not_seclog, malformed };

Shape read_install_line(sv text, InstallLine& out) {
  sv s = text;
  auto tag = take_bracket(s);
  if (!tag || tag->empty()) return Shape::not_seclog;
  for (char c : *tag)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '-' || c == '_'))
      return Shape::not_seclog;
  auto when = take_bracket(s);
  if (!when) return Shape::malformed;
  CivilTime t;
  if (when->size() != 19 || parse_civil_prefix(*when, t) != 19) return Shape::malformed;
  out.tag = *tag;
  out.time = t;
  out.time_text = *when;
  out.uid = {};
  out.level = {};
  // Optional "[uid=0] ", then an optional "[LEVEL]" followed by ": " or nothing.
  sv probe = s;
  if (auto b = take_bracket(probe); b && starts_with(*b, "uid=")) {
    out.uid = *b;
    s = probe;
  }
  probe = s;
  if (auto b = take_bracket(probe); b && is_level_word(*b)) {
    out.level = *b;
    s = probe;  // the level is followed directly by the text, by a blank or by ": "
    if (starts_with(s, ":")) s.remove_prefix(1);
  }
  out.message = trim_blanks(s);
  return Shape::install;
}

struct OperationLine {
  sv action, level, user, time_text, ip, package, result, install_type, cmdlist;
  CivilTime time;
};

// Next blank-separated word of `s`, advancing past it.
sv next_word(sv& s) {
  s = trim_blanks(s);
  size_t end = s.find(' ');
  sv w = s.substr(0, end);
  s.remove_prefix(end == sv::npos ? s.size() : end);
  return w;
}

bool is_operation_action(sv w) {
  return w == "Install" || w == "Upgrade" || w == "Uninstall" || w == "Rollback" ||
         w == "Reinstall";
}

Shape read_operation_line(sv text, OperationLine& out) {
  sv s = text;
  sv action = next_word(s);
  if (!is_operation_action(action)) return Shape::not_seclog;
  out.action = action;
  out.level = next_word(s);
  out.user = next_word(s);
  sv date = next_word(s), clock = next_word(s);
  if (out.level.empty() || out.user.empty() || date.size() != 10 || clock.size() < 8)
    return Shape::malformed;
  // The date and time words are adjacent in the line: read them as one.
  sv when(date.data(), static_cast<size_t>(clock.data() + clock.size() - date.data()));
  CivilTime t;
  if (parse_civil_prefix(when, t) != when.size()) return Shape::malformed;
  out.time = t;
  out.time_text = when;
  out.ip = next_word(s);
  out.package = next_word(s);
  out.result = next_word(s);
  if (out.package.empty() || out.result.empty()) return Shape::malformed;
  s = trim_blanks(s);
  out.install_type = find_token(s, "install_type=");
  size_t cmd = s.find("cmdlist=");
  out.cmdlist = cmd == sv::npos ? sv{} : trim_blanks(s.substr(cmd + 8));
  if (!out.cmdlist.empty() && out.cmdlist.back() == '.') out.cmdlist.remove_suffix(1);
  return Shape::operation;
}

InstallAction action_of_word(sv w) {
  if (w == "Upgrade" || w == "upgrade") return InstallAction::upgrade;
  if (w == "Uninstall" || w == "uninstall") return InstallAction::uninstall;
  if (w == "Rollback" || w == "rollback") return InstallAction::rollback;
  return InstallAction::install;
}

// Run file or package named after `key` up to a blank or a comma; path and "./" removed.
sv package_after(sv message, sv key) {
  size_t at = message.find(key);
  if (at == sv::npos) return {};
  sv rest = trim_blanks(message.substr(at + key.size()));
  size_t end = rest.find_first_of(" ,");
  sv word = rest.substr(0, end);
  size_t slash = word.rfind('/');
  if (slash != sv::npos) word.remove_prefix(slash + 1);
  return word;
}

// What an install-log message says; `keep` false for lines that only count.
struct Meaning {
  bool keep = false;
  InstallLineKind kind = InstallLineKind::step;
  InstallAction action = InstallAction::step;
  InstallResult result = InstallResult::unknown;
  sv package, version;
};

// Info lines worth a row: where modules were placed, links made, the version replaced.
constexpr std::array<sv, 6> kInfoSteps{"dkms add", "dkms build", "dkms install", "copy ko",
                                       "create softlink", "base version is"};

Meaning meaning_of(const InstallLine& l) {
  Meaning m;
  sv msg = l.message;
  Severity sev = severity_of_level(l.level);
  if (contains(msg, "command:")) {
    m.keep = true;
    m.kind = InstallLineKind::command;
    size_t colon = msg.find("command:");
    sv verb = trim_blanks(msg.substr(0, colon));
    m.action = action_of_word(verb);
    m.package = package_after(msg, "command:");
    m.version = version_from_run_file(m.package);
    return m;
  }
  if (starts_with(msg, "Start to ")) {  // "Start to install X.run, install path P"
    m.keep = true;
    m.kind = InstallLineKind::start;
    sv rest = msg.substr(9);
    m.action = action_of_word(rest.substr(0, rest.find(' ')));
    m.package = package_after(rest, " ");
    m.version = version_from_run_file(m.package);
    return m;
  }
  struct Outcome {
    sv words;
    InstallAction action;
  };
  static constexpr std::array<Outcome, 6> kSuccess{{
      {"uninstalled successfully", InstallAction::uninstall},
      {"uninstall success", InstallAction::uninstall},
      {"upgraded successfully", InstallAction::upgrade},
      {"upgrade success", InstallAction::upgrade},
      {"installed successfully", InstallAction::install},
      {"install success", InstallAction::install},
  }};
  for (const auto& o : kSuccess) {
    size_t at = msg.find(o.words);
    if (at == sv::npos) continue;
    m.keep = true;
    m.kind = InstallLineKind::result;
    m.action = o.action;
    m.result = InstallResult::success;
    // "Ascend-cann-toolkit install success, version 8.5.0, path ..."
    sv before = trim_blanks(msg.substr(0, at));
    if (!before.empty() && before.find(' ') == sv::npos) m.package = before;
    sv v = find_token(msg, "version ");
    if (!v.empty()) m.version = v;
    return m;
  }
  if (sev >= Severity::error && (contains(msg, "failed") || contains(msg, "fail,"))) {
    m.keep = true;
    m.kind = InstallLineKind::result;
    m.result = InstallResult::failed;
    m.action = contains(msg, "uninstall") ? InstallAction::uninstall
               : contains(msg, "upgrade") ? InstallAction::upgrade
                                          : InstallAction::install;
    return m;
  }
  if (sev >= Severity::warning) {
    m.keep = true;
    return m;
  }
  for (sv p : kInfoSteps)
    if (starts_with(msg, p)) m.keep = true;
  if (contains(msg, " installed to /")) m.keep = true;  // "davinci_ascend/1.0 installed to ..."
  return m;
}

class SeclogParser {
 public:
  explicit SeclogParser(ParseContext& ctx) : ctx_(ctx) {
    entry_ = ctx.entry.display.empty() ? sv(ctx.entry.path) : sv(ctx.entry.display);
  }

  void feed(const Line& line) {
    ParseStats& stats = ctx_.stats;
    ++stats.lines;
    sv text = line.text;
    if (line.overlong || std::memchr(text.data(), '\0', text.size()) != nullptr) {
      stats.note_malformed(entry_, line.number, line.offset, text.substr(0, 200));
      return;
    }
    if (trim_blanks(text).empty()) {
      ++stats.parsed;
      return;
    }
    InstallLine il;
    Shape shape = read_install_line(text, il);
    if (shape == Shape::install) {
      ++stats.parsed;
      ++install_lines_;
      on_install_line(il, line);
      return;
    }
    if (shape == Shape::malformed) {
      stats.note_malformed(entry_, line.number, line.offset, text);
      return;
    }
    OperationLine ol;
    shape = read_operation_line(text, ol);
    if (shape == Shape::operation) {
      ++stats.parsed;
      ++operation_lines_;
      on_operation_line(ol, line);
      return;
    }
    if (shape == Shape::malformed) {
      stats.note_malformed(entry_, line.number, line.offset, text);
      return;
    }
    ++stats.unrecognised;
    if (tool_error_.empty() && stats.lines <= 3) tool_error_ = tool_error_reason(text);
  }

  void finish() {
    ParseStats& stats = ctx_.stats;
    if (!tool_error_.empty() && stats.parsed == 0) stats.not_collected = std::string(tool_error_);
    if (install_lines_ && operation_lines_) stats.variant = "install-log+operation-log";
    else if (install_lines_) stats.variant = "install-log";
    else if (operation_lines_) stats.variant = "operation-log";
    else stats.variant = "seclog(none found)";
  }

 private:
  InstallEvent* add(const Line& line, sv log) {
    EventFacts& ev = ctx_.facts.events;
    if (ev.install.size() >= EventFacts::kMaxInstallEvents) {
      ++ev.dropped;
      return nullptr;
    }
    InstallEvent& e = ev.install.emplace_back();
    e.log = log;
    e.evidence = make_evidence(entry_, line.number, line.offset, line.text);
    return &e;
  }

  void on_install_line(const InstallLine& il, const Line& line) {
    Meaning m = meaning_of(il);
    // A run's result line does not repeat the package: the last command of the same tag says it.
    if (m.kind == InstallLineKind::command || m.kind == InstallLineKind::start) {
      last_tag_.assign(il.tag);
      last_package_.assign(m.package);
      last_version_.assign(m.version);
    }
    if (!m.keep) return;
    InstallEvent* e = add(line, "install-log");
    if (!e) return;
    e->component = il.tag;
    e->line_kind = m.kind;
    e->action = m.action;
    e->result = m.result;
    e->package = m.package;
    e->version = m.version;
    if (m.kind == InstallLineKind::result && il.tag == last_tag_) {
      if (e->package.empty()) e->package = last_package_;
      if (e->version.empty()) e->version = last_version_;
    }
    e->level = il.level.empty() ? sv("INFO") : il.level;
    e->severity = severity_of_level(il.level);
    if (m.result == InstallResult::failed) e->severity = std::max(e->severity, Severity::error);
    e->user = il.uid;
    e->message = make_excerpt(il.message);
    e->time.civil = il.time;
    e->time.valid = true;
    e->time.time.original = il.time_text;
  }

  void on_operation_line(const OperationLine& ol, const Line& line) {
    InstallEvent* e = add(line, "operation-log");
    if (!e) return;
    e->line_kind = InstallLineKind::operation;
    e->action = action_of_word(ol.action);
    e->result = ol.result == "success"                     ? InstallResult::success
                : (ol.result == "failed" || ol.result == "fail") ? InstallResult::failed
                                                                 : InstallResult::unknown;
    e->package = ol.package;
    e->version = version_from_run_file(ol.package);
    e->level = ol.level;
    e->severity = e->result == InstallResult::failed ? Severity::error : Severity::info;
    e->user = ol.user;
    e->install_type = ol.install_type;
    e->cmdlist = make_excerpt(ol.cmdlist);
    std::string msg(ol.action);
    msg += ' ';
    msg += ol.package;
    msg += ' ';
    msg += ol.result;
    if (!ol.cmdlist.empty()) {
      msg += " (";
      msg += ol.cmdlist;
      msg += ')';
    }
    e->message = make_excerpt(msg);
    e->time.civil = ol.time;
    e->time.valid = true;
    e->time.time.original = ol.time_text;
  }

  ParseContext& ctx_;
  sv entry_;
  sv tool_error_;
  uint64_t install_lines_ = 0, operation_lines_ = 0;
  std::string last_tag_, last_package_, last_version_;
};

}  // namespace

std::string_view version_from_run_file(std::string_view name) {
  size_t us = name.find('_');
  while (us != sv::npos) {
    sv rest = name.substr(us + 1);
    if (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') {
      size_t end = rest.find('_');
      sv v = rest.substr(0, end);
      if (end == sv::npos && v.size() > 4 && v.substr(v.size() - 4) == ".run")
        v.remove_suffix(4);
      return v;
    }
    us = name.find('_', us + 1);
  }
  return {};
}

void parse_ascend_seclog(ParseContext& ctx, ByteSource& src) {
  SeclogParser parser(ctx);
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line line;
  while (reader.next(line)) parser.feed(line);
  ctx.stats.bytes = reader.bytes_read();
  parser.finish();
}

}  // namespace triage
