// system/uname.txt: `uname -a`, e.g.
// "Linux node1 5.10.0-136.12.0.86.oe2203sp1.aarch64 #1 SMP Tue Dec 27 17:50:15 CST 2022 aarch64 aarch64 aarch64 GNU/Linux"
// The version field holds blanks, and GNU uname leaves out processor and platform when
// unknown, so the machine is found by name rather than by position.
#include <array>
#include <vector>

#include "parsers/collector/system_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

constexpr std::array<std::string_view, 14> kMachines = {
    "x86_64", "aarch64", "arm64",   "armv7l",  "armv8l", "i386",   "i686",
    "ppc64le", "ppc64",  "s390x",  "riscv64", "loongarch64", "mips64", "sw_64"};

bool is_machine(std::string_view t) {
  for (auto m : kMachines)
    if (t == m) return true;
  return false;
}

std::string join(const std::vector<std::string_view>& t, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) {
    if (i > from) s += ' ';
    s += t[i];
  }
  return s;
}

bool parse_uname_line(std::string_view line, UnameInfo& u) {
  std::vector<std::string_view> t;
  size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    size_t end = pos;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    if (end > pos) t.push_back(line.substr(pos, end - pos));
    pos = end;
  }
  if (t.size() < 3) return false;
  u.kernel_name = t[0];
  u.nodename = t[1];
  u.release = t[2];
  size_t machine = t.size();
  for (size_t i = 3; i < t.size(); ++i)
    if (is_machine(t[i])) {
      machine = i;
      break;
    }
  size_t os = t.size();
  if (t.size() > 3 && (t.back().find("Linux") != std::string_view::npos || t.back() == "GNU"))
    os = t.size() - 1, u.os = t.back();
  if (machine < t.size()) {
    u.machine = t[machine];
    u.version = join(t, 3, machine);
  } else {
    u.version = join(t, 3, os);
  }
  return true;
}

}  // namespace

void parse_uname(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  bool done = false;
  for_each_line(text, [&](const TextLine& line) {
    if (trim(line.text).empty()) {
      ++ctx.stats.parsed;
      return;
    }
    if (done) {
      ++ctx.stats.unrecognised;  // uname -a prints one line
      return;
    }
    UnameInfo u;
    if (!parse_uname_line(trim(line.text), u)) {
      note_malformed(ctx, line);
      return;
    }
    done = true;
    u.evidence = evidence_at(ctx, line);
    ctx.facts.system.kernel_release = u.release;
    ctx.facts.system.evidence.push_back(u.evidence);
    ctx.facts.system.uname = std::move(u);
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
