// system/lspci.txt: `lspci -D -nn -k`. A function line "0000:01:00.0 Class name [1200]:
// Vendor Device [19e5:d802] (rev 20)", then indented "Subsystem:", "Kernel driver in use:",
// "Kernel modules:" lines.
#include <cctype>

#include "model/strings.h"
#include "parsers/common/text_file.h"
#include "parsers/tools/module_parsers.h"

namespace triage {
namespace {
bool hex_run(std::string_view s) {
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// The last "[vvvv:dddd]" of the line, and the first "[cccc]" (class).
bool function_ids(std::string_view t, std::string& vendor, std::string& device,
                  std::string& cls) {
  for (size_t pos = t.find('['); pos != std::string_view::npos; pos = t.find('[', pos + 1)) {
    std::string_view rest = t.substr(pos + 1);
    if (rest.size() >= 10 && rest[4] == ':' && rest[9] == ']' && hex_run(rest.substr(0, 4)) &&
        hex_run(rest.substr(5, 4))) {
      vendor = ascii_lower(rest.substr(0, 4));
      device = ascii_lower(rest.substr(5, 4));
    } else if (cls.empty() && rest.size() >= 5 && rest[4] == ']' && hex_run(rest.substr(0, 4))) {
      cls = ascii_lower(rest.substr(0, 4));
    }
  }
  return !vendor.empty();
}

}  // namespace

void parse_lspci(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& pci = ctx.facts.modules.pci;
  size_t first = pci.size();
  bool in_function = false;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    bool indented = line.text.front() == '\t' || line.text.front() == ' ';
    if (!indented) {
      size_t sp = t.find(' ');
      PciFunction p;
      p.from_lspci = true;
      p.address = ascii_lower(t.substr(0, sp));
      if (sp == std::string_view::npos || p.address.find(':') == std::string::npos ||
          !function_ids(t.substr(sp), p.vendor, p.device, p.class_code)) {
        in_function = false;
        note_malformed(ctx, line);
        return;
      }
      if (p.address.size() == 7) p.address = "0000:" + p.address;  // lspci without -D
      p.evidence = evidence_at(ctx, line);
      pci.push_back(std::move(p));
      in_function = true;
      ++ctx.stats.parsed;
      return;
    }
    if (!in_function || pci.size() <= first) {
      note_malformed(ctx, line);
      return;
    }
    PciFunction& p = pci.back();
    if (t.substr(0, 21) == "Kernel driver in use:") {
      p.driver = trim(t.substr(21));
    } else if (t.substr(0, 15) == "Kernel modules:") {
      for (auto& m : split_list(t.substr(15), ", ")) p.kernel_modules.push_back(m);
    }
    ++ctx.stats.parsed;  // Subsystem: and other indented lines are part of the format
  });
  ctx.facts.modules.have_lspci = pci.size() > first;
}

}  // namespace triage
