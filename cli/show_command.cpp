// `ascend-triage show ADDRESS [-C N]`: the lines around a piece of evidence, read from inside the
// bundle as `analyze` reads it (the same input reader, decompression and UTF-16 handling),
// streaming and stopping after the last line shown. Bundle text is made printable (no control
// byte reaches the terminal) and long lines are cut with a note.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <filesystem>
#include <optional>
#include <vector>

#include "bundle/decompress_source.h"
#include "bundle/input_reader.h"
#include "bundle/line_reader.h"
#include "bundle/member_name.h"
#include "bundle/stored_source.h"
#include "bundle/utf16_source.h"
#include "cli/commands.h"
#include "cli/show_address.h"
#include "reports/display_width.h"

namespace triage::cli {

namespace {

constexpr size_t kShownBytes = 2000;  // of one line; a terminal line past that helps no one
constexpr int kMaxContext = 1000;

struct Shown {
  std::string lines;  // ready to print
  std::string error;  // the line is past the end (nothing printed then)
  std::string damage; // the data ended early or was corrupt
};

std::string shown_text(const Line& l) {
  std::string_view text = l.text;
  uint64_t full = l.overlong ? l.full_length : text.size();
  if (text.size() <= kShownBytes && !l.overlong) return printable_utf8(text);
  size_t cut = std::min(text.size(), kShownBytes);
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole characters
  return fmt::format("{} [line cut: first {} of {} bytes shown]", printable_utf8(text.substr(0, cut)), cut, full);
}

// Lines line-context..line+context of `data`, numbered, the asked-for line marked with '>'.
Shown context_lines(ByteSource& data, const std::string& name, uint64_t line, uint64_t context) {
  StoredSource stored(data);
  Compression compression = detect_compression(stored.peek(10));
  std::optional<DecompressSource> decompressed;
  ByteSource* src = &stored;
  if (compression != Compression::none) src = &decompressed.emplace(stored, compression);
  Utf16Source text(*src);
  text.detect();
  LineReader reader(text);
  uint64_t first = line > context ? line - context : 1, last = line + context, count = 0;
  int width = static_cast<int>(std::to_string(last).size());
  Shown shown;
  Line l;
  while (reader.next(l)) {
    count = l.number;
    if (l.number < first) continue;
    if (l.number > last) break;
    shown.lines += fmt::format("{} {:>{}}  {}\n", l.number == line ? '>' : ' ', l.number, width, shown_text(l));
  }
  shown.damage = reader.error();
  if (count < line) {
    shown.error = fmt::format("'{}' has {} line{}; line {} is past its end", printable_utf8(name), count,
                              count == 1 ? "" : "s", line);
    shown.lines.clear();
  }
  return shown;
}

// Finds the member the address names (every regular member of a single-file input matches).
class ShowSink final : public MemberSink {
 public:
  ShowSink(const ShowAddress& a, uint64_t context, std::string name)
      : a_(a), context_(context), name_(std::move(name)), wanted_(normalise_member_name(a.member).path) {}
  void on_input(const InputDescription& input) override { form_ = input.form; }
  bool on_member(const MemberHeader& h, ByteSource* data) override {
    if (h.type != EntryType::file || data == nullptr) return true;
    if (form_ == InputForm::single_file) {
      if (!a_.member.empty()) return false;  // a plain file holds no entries
    } else if (a_.member.empty() || !matches(h.raw_name) || ++copies_ < a_.copy) {
      return !a_.member.empty();
    }
    shown = context_lines(*data, name_, a_.line, context_);
    found = true;
    return false;  // read no further
  }
  void on_member_warning(std::string_view) override {}
  void on_input_damaged(std::string_view, uint64_t, std::string_view message) override {
    damage = std::string(message);
  }

  InputForm form_ = InputForm::single_file;
  bool found = false;
  Shown shown;
  std::string damage;

 private:
  // As the reports print it (control bytes as \xNN), as stored, or the same path normalised.
  bool matches(const std::string& raw) const {
    if (raw == a_.member || escape_control_bytes(raw) == a_.member) return true;
    return !wanted_.empty() && normalise_member_name(raw).path == wanted_;
  }
  const ShowAddress& a_;
  uint64_t context_;
  std::string name_;
  std::string wanted_;
  uint64_t copies_ = 0;
};

int fail(const std::string& why) {
  std::cerr << "ascend-triage show: " << why << '\n';
  return kExitCannotAnalyse;
}

int show(const std::string& text, int context) {
  ShowAddress a;
  if (std::string why = parse_show_address(text, a); !why.empty()) return fail(why);
  std::string path = a.file, name = a.member.empty() ? a.file : a.file + "!" + a.member;
  InputDescription described;
  std::string dir_member;
  {  // BUNDLE!PATH of a directory: the entry is a file of it, opened directly.
    std::error_code ec;
    if (!a.member.empty() && std::filesystem::is_directory(a.file, ec)) {
      NormalisedName n = normalise_member_name(a.member);
      if (n.unsafe || n.path.empty()) return fail(fmt::format("'{}' is not a path inside '{}'", a.member, a.file));
      path = a.file + "/" + n.path;
      if (!std::filesystem::exists(path, ec)) return fail(fmt::format("no entry '{}' in '{}'", a.member, a.file));
      a.member.clear();
    }
  }
  ShowSink sink(a, static_cast<uint64_t>(context), name);
  if (std::string why = read_input(path, sink, described); !why.empty())
    return fail(fmt::format("cannot read '{}': {}", path, why));
  if (!sink.found) {
    if (sink.form_ == InputForm::archive && a.member.empty())
      return fail(fmt::format("'{}' is an archive: name an entry in it, {}!PATH:{}", a.file, a.file, a.line));
    if (sink.form_ == InputForm::single_file && !a.member.empty())
      return fail(fmt::format("'{}' is not an archive or a directory, so it has no entry '{}'", a.file, a.member));
    std::string copy = a.copy > 1 ? fmt::format(" (copy {})", a.copy) : "";
    std::string damaged = sink.damage.empty() ? "" : " (reading stopped early: " + sink.damage + ")";
    return fail(fmt::format("no entry '{}'{} in '{}'{}", a.member, copy, a.file, damaged));
  }
  if (!sink.shown.error.empty()) return fail(sink.shown.error);
  std::cout << printable_utf8(name) << ':' << a.line << '\n' << sink.shown.lines;
  if (!sink.shown.damage.empty())
    std::cerr << "ascend-triage show: warning: the entry is damaged: " << sink.shown.damage << '\n';
  return kExitClean;
}

}  // namespace

Command add_show_command(CLI::App& app, GlobalOptions&) {
  struct Args {
    std::string address;
    int context = 3;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("show", "Print the lines around a piece of evidence, from inside the bundle");
  cmd->add_option("ADDRESS", args->address,
                  "Where the evidence is, as the report prints it: BUNDLE!PATH:LINE (an archive's entry), "
                  "BUNDLE/PATH:LINE (a directory's) or FILE:LINE (a loose file)")
      ->required();
  cmd->add_option("-C,--context", args->context, "Lines shown before and after LINE")
      ->check(CLI::Range(0, kMaxContext))
      ->capture_default_str();
  return {cmd, [args](const GlobalOptions&) { return show(args->address, args->context); }};
}

}  // namespace triage::cli
