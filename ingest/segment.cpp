#include "ingest/segment.h"

#include <re2/re2.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "ingest/classify.h"
#include "bundle/member_name.h"
#include "knowledge/job_text_forms.h"

namespace triage {
namespace {

using K = SourceKind;

// `user@host:dir# cmd`, `[user@host dir]$ cmd`, with a conda env `(base) ` before it.
const RE2& user_prompt() {
  static const RE2 re(R"(^(?:\([\w.-]+\) )?\[?[A-Za-z_][\w.-]*@[\w.-]+(?:[: ][^\]#$]*)?\]?[#$] ?(.*)$)");
  return re;
}
// `/usr/local/Ascend/driver# cat version.info`: a prompt that shows only the directory.
const RE2& dir_prompt() {
  static const RE2 re(R"(^(?:/[\w.@+-]*)+[#$] +(\S.*)$)");
  return re;
}
// `# cmd` / `$ cmd`: a '#' line is a prompt only before a command people paste the output of
// (a '#' line is also a comment or a version.cfg header).
const RE2& bare_prompt() {
  static const RE2 re(R"(^\s*([#$]) +(\S.*)$)");
  return re;
}
constexpr std::array<std::string_view, 30> kPastedCommands = {
    "dmesg", "npu-smi", "journalctl", "cat", "tail", "head", "less", "grep", "python", "python3",
    "pip", "pip3", "lspci", "lsmod", "modinfo", "uname", "dkms", "ls", "ll", "msnpureport",
    "hccn_tool", "torchrun", "sudo", "docker", "kubectl", "vllm", "ascend-dmi", "bash", "env", "export"};

std::string_view first_word(std::string_view s) {
  size_t end = s.find_first_of(" \t");
  return base_name(s.substr(0, end));
}

std::string_view trimmed(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

bool is_file_viewer(std::string_view prog) {
  return prog == "cat" || prog == "tail" || prog == "head" || prog == "less" || prog == "more";
}

// Kinds whose lines belong together in one segment: a job's output holds plog lines and
// tracebacks, kernel text comes in several time forms (one reader reads them all), npu-smi
// prints several table forms, a framework report lists environment variables.
int group_of(SourceKind k) {
  switch (k) {
    case K::plog: case K::device_log: case K::python_log: return 1;
    case K::syslog: case K::journal_text: case K::dmesg: case K::dmesg_human: return 2;
    case K::npu_smi_info: case K::npu_smi_health: case K::npu_smi_usages: case K::npu_smi_map:
    case K::npu_smi_readings: return 3;
    // collect_env prints its ENV Variables as KEY=VALUE lines
    case K::framework_env: case K::proc_environ: return 4;
    default: return 100 + static_cast<int>(k);
  }
}

// Table borders and rows (`+====+`, `| 0  910B3 | OK |`) continue an npu-smi table.
bool table_line(std::string_view s) {
  s = trimmed(s);
  return s.size() >= 3 && ((s.front() == '|' && s.back() == '|') ||
                           (s.front() == '+' && (s[1] == '-' || s[1] == '=')));
}

struct LineMark {
  uint64_t offset;
  SourceKind shape;
  bool prompt;
};

}  // namespace

std::optional<std::string_view> prompt_command(std::string_view line) {
  if (line.size() > 4096) return std::nullopt;
  // A match without captures runs on RE2's DFA and allocates nothing; only a prompt line (a
  // fact) is matched again to capture its command.
  re2::StringPiece cmd, mark;
  if (RE2::FullMatch(line, user_prompt()) && RE2::FullMatch(line, user_prompt(), &cmd))
    return trimmed(std::string_view(cmd.data(), cmd.size()));
  if (RE2::FullMatch(line, dir_prompt()) && RE2::FullMatch(line, dir_prompt(), &cmd))
    return trimmed(std::string_view(cmd.data(), cmd.size()));
  if (RE2::FullMatch(line, bare_prompt()) && RE2::FullMatch(line, bare_prompt(), &mark, &cmd)) {
    std::string_view c = trimmed(std::string_view(cmd.data(), cmd.size()));
    if (mark == "$") return c;
    if (std::find(kPastedCommands.begin(), kPastedCommands.end(), first_word(c)) != kPastedCommands.end())
      return c;
    return std::nullopt;
  }
  // A command echoed on its own line, as tools and scripts print them before the output
  // (`cat /usr/local/Ascend/driver/version.info`, `pip list | grep torch-npu`,
  // `/usr/local/Ascend/driver/tools/hccn_tool -i 0 -ip -g`, `npu-smi info -t health`).
  std::string_view t = trimmed(line);
  if (t.empty() || t.size() >= 200 || t.back() == ':') return std::nullopt;
  std::string_view word = t.substr(0, t.find_first_of(" \t"));
  if (word.find(':') != std::string_view::npos) return std::nullopt;
  // A program's error about the command it ran (Go's `npu-smi set ...: npu-smi not found in`,
  // `cat /x: No such file or directory`) quotes the command but is its output, not an echo.
  if (t.find(": ") != std::string_view::npos && JobTextForms::is_error(job_text_forms_for("").roles(t)))
    return std::nullopt;
  std::string_view prog = base_name(word);
  std::string_view rest = trimmed(t.substr(word.size()));
  std::string_view arg = rest.substr(0, rest.find_first_of(" \t"));
  if (prog == "cat" && !arg.empty() && (arg[0] == '/' || arg[0] == '~')) return t;
  if ((prog == "pip" || prog == "pip3") && (arg == "list" || arg == "show" || arg == "freeze")) return t;
  if (prog == "hccn_tool" && arg == "-i") return t;
  if (prog == "npu-smi" && (arg == "info" || arg == "set" || arg == "-v")) return t;
  if ((prog == "dmesg" || prog == "journalctl" || prog == "msnpureport") &&
      (rest.empty() || rest[0] == '-' || rest[0] == '|'))
    return t;
  return std::nullopt;
}

std::vector<SegmentSpan> split_segments(std::string_view text, bool whole) {
  std::vector<LineMark> marks;
  marks.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  std::vector<std::string_view> commands;  // of prompt lines, in order
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (!whole) break;
      nl = text.size();
    }
    std::string_view line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineMark m{pos, K::unknown, false};
    if (auto cmd = prompt_command(line)) {
      m.prompt = true;
      commands.push_back(*cmd);
    } else if (line.find_first_not_of(" \t") != std::string_view::npos) {
      m.shape = line_shape_kind(line);
      if (m.shape == K::unknown && table_line(line)) m.shape = K::npu_smi_info;
    }
    marks.push_back(m);
    pos = nl + 1;
  }
  uint64_t end_of_text = whole ? text.size() : std::min<uint64_t>(pos, text.size());

  std::vector<SegmentSpan> out;
  size_t next_command = 0;
  auto open = [&](size_t i) {
    SegmentSpan s;
    s.first_line = i + 1;
    s.first_offset = marks[i].offset;
    s.prompt = marks[i].prompt;
    if (s.prompt) s.command = commands[next_command++];
    out.push_back(s);
  };
  auto close = [&](size_t i_end) {  // the segment ends before line index i_end
    SegmentSpan& s = out.back();
    s.last_line = i_end;
    s.end_offset = i_end < marks.size() ? marks[i_end].offset : end_of_text;
  };
  for (size_t i = 0; i < marks.size(); ++i) {
    const LineMark& m = marks[i];
    if (out.empty()) {
      open(i);
    } else if (m.prompt) {
      close(i);
      open(i);
    } else if (m.shape != K::unknown && out.back().shapes != K::unknown &&
               group_of(m.shape) != group_of(out.back().shapes)) {
      // A new kind starts only when the next line with a shape (before any prompt) has it too:
      // one stray line does not split a segment.
      size_t j = i + 1;
      while (j < marks.size() && !marks[j].prompt && marks[j].shape == K::unknown) ++j;
      if (j < marks.size() && !marks[j].prompt && group_of(marks[j].shape) == group_of(m.shape)) {
        close(i);
        open(i);
      }
    }
    SegmentSpan& s = out.back();
    if (m.shape != K::unknown) {
      ++s.shaped;
      if (s.shapes == K::unknown) s.shapes = m.shape;
    }
  }
  if (!out.empty()) close(marks.size());
  return out;
}

SegmentKind segment_kind(const SegmentSpan& span, std::string_view body) {
  // A tool's output is its kind; a file shown with cat is what its content says, else what
  // its path says (`cat version.info` of the driver holds driver keys).
  std::optional<SourceKind> by_command = span.prompt ? kind_from_command(span.command) : std::nullopt;
  bool shows_file = by_command && is_file_viewer(first_word(span.command));
  auto command_reason = [&] { return fmt::format("the output of `{}`", span.command.substr(0, 60)); };
  if (by_command && !shows_file) return {*by_command, command_reason()};
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return {K::unknown, "no output"};
  SniffResult sniffed = sniff_content(body, true);
  if (sniffed.kind != K::unknown) return {sniffed.kind, std::move(sniffed.reason)};
  if (by_command) return {*by_command, command_reason()};
  switch (group_of(span.shapes)) {
    case 1: return {K::python_log, fmt::format("job output: {} of its lines have a shape", span.shaped)};
    case 3: return {K::npu_smi_info, "npu-smi table rows"};
    default: break;
  }
  // A few lines that look like a tool's rows in a page of other text (`Name: config` in a
  // config file) are not that tool's output: its lines must be a quarter of the segment.
  const uint64_t lines = span.last_line >= span.body_line() ? span.last_line - span.body_line() + 1 : 0;
  if (span.shapes != K::unknown && span.shapes != K::proc_environ && span.shaped >= 2 &&
      uint64_t{span.shaped} * 4 >= lines)
    return {span.shapes, fmt::format("{} of its lines are {} lines", span.shaped, to_string(span.shapes))};
  return {K::unknown, std::move(sniffed.reason)};
}

std::optional<std::string> mixed_text_reason(std::string_view head, bool whole, SourceKind sniffed) {
  std::vector<SegmentSpan> spans = split_segments(head, whole);
  size_t prompts = 0, known = 0, shaped = 0, big_groups = 0;
  int last_big_group = -1, last_pair_group = -1;
  size_t pair_groups = 0;
  bool has_report = false;
  std::string kinds;
  for (const auto& s : spans) {
    prompts += s.prompt;
    shaped += s.shaped;
    // A run counts from 3 lines with a shape. A framework report's version lines are
    // distinctive enough to count from 2, and so are the runs beside one (MindSpore's
    // run_check, then 2 plog lines).
    bool report = group_of(s.shapes) == group_of(K::framework_env);
    has_report = has_report || (report && s.shaped >= 2);
    if (s.shaped >= 2 && s.shapes != K::proc_environ && group_of(s.shapes) != last_pair_group) {
      ++pair_groups;
      last_pair_group = group_of(s.shapes);
    }
    if (s.shaped >= 3 && s.shapes != K::proc_environ && group_of(s.shapes) != last_big_group) {
      ++big_groups;
      last_big_group = group_of(s.shapes);
    }
    std::string_view body = head.substr(s.first_offset, s.end_offset - s.first_offset);
    if (s.prompt) body = body.find('\n') == std::string_view::npos ? std::string_view() : body.substr(body.find('\n') + 1);
    SegmentKind k = segment_kind(s, body);
    if (k.kind == K::unknown) continue;
    ++known;
    if (kinds.size() < 120) kinds += fmt::format("{}{}", kinds.empty() ? "" : ", ", to_string(k.kind));
  }
  if (known == 0) return std::nullopt;
  std::string what = fmt::format("{} segment{} ({})", spans.size(), spans.size() == 1 ? "" : "s", kinds);
  if (prompts > 0)
    return fmt::format("mixed paste: {} shell prompt line{}, {}", prompts, prompts == 1 ? "" : "s", what);
  if (sniffed == K::unknown && shaped >= 2) return fmt::format("mixed text: {}", what);
  if (big_groups >= 2 || (has_report && pair_groups >= 2))
    return fmt::format("mixed text: runs of several kinds, {}", what);
  return std::nullopt;
}

}  // namespace triage
