// Ascend version and install files: driver / firmware version.info, /etc/ascend_install.info,
// CANN share/info/<component>/version.info, <arch>-linux/ascend_<kind>_install.info and
// version.cfg are key=value; NNAL's version.info writes "Ascend-cann-atb : 8.2.RC1".
// Values keep their quotes stripped ("9.1" for required_package_toolkit_version="9.1").
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {
namespace {

std::string_view unquote(std::string_view v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return v.substr(1, v.size() - 2);
  return v;
}

// "ascend/cann/c1/share/info/runtime/version.info" -> id c1, component runtime;
// ".../ascend_toolkit_install.info" -> component toolkit.
void locate_cann(std::string_view path, VersionFile& vf) {
  static constexpr std::string_view kCann = "ascend/cann/";
  size_t at = path.find(kCann);
  if (at != std::string_view::npos) {
    std::string_view rest = path.substr(at + kCann.size());
    vf.cann_id = std::string(rest.substr(0, rest.find('/')));
  }
  size_t info = path.find("share/info/");
  if (info != std::string_view::npos) {
    std::string_view rest = path.substr(info + 11);
    vf.component = std::string(rest.substr(0, rest.find('/')));
    return;
  }
  std::string_view base = path.substr(path.rfind('/') + 1);
  if (base.starts_with("ascend_") && base.ends_with("_install.info"))
    vf.component = std::string(base.substr(7, base.size() - 7 - 13));
  else if (base == "version.cfg")
    vf.component = "version.cfg";
}

}  // namespace

namespace {

enum class Target { driver, firmware, install, cann };

void parse_into(ParseContext& ctx, ByteSource& src, Target target) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  if (refuse_tool_error(ctx, text)) return;
  VersionFile vf;
  vf.entry = ctx.entry.path;
  locate_cann(ctx.entry.path, vf);
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.front() == '#') {
      ++ctx.stats.parsed;
      return;
    }
    size_t sep = t.find('=');
    if (sep == std::string_view::npos) sep = t.find(" : ");
    if (sep == std::string_view::npos || sep == 0) {
      note_malformed(ctx, line);
      return;
    }
    size_t vstart = t[sep] == '=' ? sep + 1 : sep + 3;
    vf.lines.push_back(KeyValueLine{std::string(trim(t.substr(0, sep))),
                                    std::string(unquote(trim(t.substr(vstart)))),
                                    evidence_at(ctx, line)});
    ++ctx.stats.parsed;
  });
  // A pasted *_install.info (a collect_env's CANN block) has no file name: its package says.
  if (vf.component.empty() && vf.get("package_name").starts_with("Ascend-cann-"))
    vf.component = vf.get("package_name").substr(12);
  LibraryFacts& lf = ctx.facts.libraries;
  switch (target) {
    case Target::driver: lf.driver_version = std::move(vf); break;
    case Target::firmware: lf.firmware_version = std::move(vf); break;
    case Target::install: lf.ascend_install = std::move(vf); break;
    case Target::cann: lf.cann_files.push_back(std::move(vf)); break;
  }
}

}  // namespace

void parse_driver_version_info(ParseContext& ctx, ByteSource& src) {
  parse_into(ctx, src, Target::driver);
}
void parse_firmware_version_info(ParseContext& ctx, ByteSource& src) {
  parse_into(ctx, src, Target::firmware);
}
void parse_ascend_install_info(ParseContext& ctx, ByteSource& src) {
  parse_into(ctx, src, Target::install);
}
void parse_cann_version_file(ParseContext& ctx, ByteSource& src) {
  parse_into(ctx, src, Target::cann);
}

}  // namespace triage
