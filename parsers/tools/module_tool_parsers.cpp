// Module tool outputs: lsmod, /proc/modules, modinfo (full, -n, -F), modprobe
// --show-depends and -n -v, modules.dep lines, modprobe/depmod configuration, initramfs
// listings. Small files read whole (text_file.h); the module name and kernel come from the
// entry path where the contract puts them there.
#include "parsers/tools/module_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

std::vector<std::string> split_list(std::string_view s, std::string_view seps) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find_first_of(seps, pos);
    if (end == std::string_view::npos) end = s.size();
    if (end > pos) out.emplace_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::string module_name_of_path(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view ext : {".ko.xz", ".ko.zst", ".ko.gz", ".ko"})
    if (base.size() > ext.size() && base.substr(base.size() - ext.size()) == ext) {
      base.remove_suffix(ext.size());
      break;
    }
  std::string name(base);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

ModulePathParts module_path_parts(std::string_view path) {
  ModulePathParts parts;
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base.size() > 4 && base.substr(base.size() - 4) == ".txt") base.remove_suffix(4);
  parts.name = base;
  if (slash != std::string_view::npos) {
    std::string_view dir = path.substr(0, slash);
    size_t prev = dir.rfind('/');
    std::string_view last = prev == std::string_view::npos ? dir : dir.substr(prev + 1);
    if (last != "modprobe-dry-run" && last != "modinfo" && last != "modprobe-deps")
      parts.kver = last;
  }
  return parts;
}

namespace {

// Splits at runs of blanks.
std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < s.size()) {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
    size_t end = pos;
    while (end < s.size() && s[end] != ' ' && s[end] != '\t') ++end;
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

void parse_modprobe_output(ParseContext& ctx, ByteSource& src, bool dry_run) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  ModulePathParts parts = module_path_parts(ctx.entry.path);
  ModprobeResolution r;
  r.kver = dry_run ? "" : parts.kver;
  r.module = parts.name;
  r.dry_run = dry_run;
  r.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    auto w = words(t);
    ModprobeStep step;
    if (w.size() >= 2 && w[0] == "insmod") {
      step.path = w[1];
      size_t at = t.find(w[1]) + w[1].size();
      step.params = trim(t.substr(at));
      step.name = module_name_of_path(step.path);
    } else if (w.size() == 2 && w[0] == "builtin") {
      step.builtin = true;
      step.name = w[1];
    } else if (!w.empty() && (w[0] == "rmmod" || w[0] == "install" || w[0] == "softdep")) {
      ++ctx.stats.unrecognised;  // configured commands: kept out of the chain
      return;
    } else {
      note_malformed(ctx, line);
      return;
    }
    step.evidence = evidence_at(ctx, line);
    r.steps.push_back(std::move(step));
    ++ctx.stats.parsed;
  });
  ctx.facts.modules.resolutions.push_back(std::move(r));
}

}  // namespace

void parse_lsmod(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    auto w = words(line.text);
    if (w.empty() || (w.size() >= 2 && w[0] == "Module" && w[1] == "Size")) {
      ++ctx.stats.parsed;
      return;
    }
    LoadedModule m;
    m.name = w[0];
    if (w.size() >= 2) m.size = parse_int(w[1]);
    if (w.size() >= 3) m.use_count = parse_int(w[2]);
    if (w.size() < 3 || w.size() > 4 || !m.size || !m.use_count) {
      note_malformed(ctx, line);
      return;
    }
    if (w.size() == 4) m.used_by = split_list(w[3], ",");
    m.evidence = evidence_at(ctx, line);
    ctx.facts.modules.loaded.push_back(std::move(m));
    ++ctx.stats.parsed;
  });
}

void parse_proc_modules(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    auto w = words(line.text);
    if (w.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    // name size refcount deps state address [(taint)]
    if (w.size() < 5 || w.size() > 7) {
      note_malformed(ctx, line);
      return;
    }
    LoadedModule m;
    m.from_proc = true;
    m.name = w[0];
    m.size = parse_int(w[1]);
    m.use_count = parse_int(w[2]);
    if (!m.size || !m.use_count) {
      note_malformed(ctx, line);
      return;
    }
    if (w[3] != "-") m.used_by = split_list(w[3], ",");
    m.state = w[4];
    if (w.size() == 7 && w[6].size() >= 2 && w[6].front() == '(' && w[6].back() == ')')
      m.taint = w[6].substr(1, w[6].size() - 2);
    m.evidence = evidence_at(ctx, line);
    ctx.facts.modules.loaded.push_back(std::move(m));
    ++ctx.stats.parsed;
  });
}

void parse_modinfo(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  ModulePathParts parts = module_path_parts(ctx.entry.path);
  ModinfoFacts m;
  m.kver = parts.kver;
  m.module = parts.name;
  m.form = "full";
  m.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  uint64_t nonblank = 0;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    ++nonblank;
    size_t colon = t.find(':');
    bool keyed = colon != std::string_view::npos && colon > 0 &&
                 t.substr(0, colon).find_first_of(" /\t") == std::string_view::npos;
    if (!keyed) {
      // `modinfo -n` prints one path; `modinfo -F field` one value.
      if (nonblank == 1 && m.filename.empty()) {
        if (t.front() == '/') {
          m.form = "filename-only";
          m.filename = t;
        } else {
          m.form = "field";
          m.value = t;
        }
        m.evidence = evidence_at(ctx, line);
        ++ctx.stats.parsed;
      } else {
        note_malformed(ctx, line);
      }
      return;
    }
    std::string_view key = t.substr(0, colon), value = trim(t.substr(colon + 1));
    if (key == "filename") {
      m.filename = value;
      m.evidence = evidence_at(ctx, line);
    } else if (key == "srcversion") {
      m.srcversion = value;
    } else if (key == "vermagic") {
      m.vermagic = value;
    } else if (key == "name") {
      m.name = value;
    } else if (key == "depends") {
      m.depends = split_list(value, ",");
    } else if (key == "alias") {
      m.aliases.emplace_back(value);
    }
    ++ctx.stats.parsed;  // every other key (license, parm, sig_*, ...) is part of the format
  });
  if (nonblank > 0) ctx.facts.modules.modinfo.push_back(std::move(m));
}

void parse_modprobe_show_depends(ParseContext& ctx, ByteSource& src) {
  parse_modprobe_output(ctx, src, false);
}

void parse_modprobe_dry_run(ParseContext& ctx, ByteSource& src) {
  parse_modprobe_output(ctx, src, true);
}

void parse_modules_dep(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    // "<kver>:<path>: deps"; kernel releases hold no ':'.
    size_t k = t.find(':');
    size_t p = k == std::string_view::npos ? k : t.find(':', k + 1);
    if (k == 0 || p == std::string_view::npos || p == k + 1) {
      note_malformed(ctx, line);
      return;
    }
    ModulesDepLine d;
    d.kver = t.substr(0, k);
    d.path = t.substr(k + 1, p - k - 1);
    d.module = module_name_of_path(d.path);
    for (auto w : words(t.substr(p + 1))) d.deps.emplace_back(w);
    d.evidence = evidence_at(ctx, line);
    ctx.facts.modules.dep_lines.push_back(std::move(d));
    ++ctx.stats.parsed;
  });
}

void parse_modprobe_config(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  std::string_view path = ctx.entry.path;
  constexpr std::string_view kPrefix = "modules/config";
  std::string file(path.substr(0, kPrefix.size()) == kPrefix ? path.substr(kPrefix.size()) : path);
  bool modules_load = file.find("modules-load.d") != std::string::npos;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.front() == '#' || t.front() == ';') {
      ++ctx.stats.parsed;
      return;
    }
    ModuleConfigLine c;
    c.file = file;
    if (modules_load) {  // one module name per line
      c.command = "load";
      c.args = t;
    } else {
      auto w = words(t);
      c.command = w[0];
      c.args = trim(t.substr(w[0].size()));
    }
    c.evidence = evidence_at(ctx, line);
    ctx.facts.modules.config.push_back(std::move(c));
    ++ctx.stats.parsed;
  });
}

void parse_initramfs_list(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  std::string_view t0 = text;
  while (!t0.empty() && (t0.back() == '\n' || t0.back() == '\r' || t0.back() == ' ')) t0.remove_suffix(1);
  if (t0 == "denied") {
    ctx.stats.not_collected = "permission: initramfs image is root-only";
    ctx.stats.unrecognised += count_lines(text);
    return;
  }
  std::string_view path = ctx.entry.path;
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::string kver;
  if (base.substr(0, 10) == "initramfs-" && base.size() > 14)
    kver = base.substr(10, base.size() - 14);
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    ++ctx.stats.parsed;
    if (!t.empty()) ctx.facts.modules.initramfs.emplace_back(kver, evidence_at(ctx, line));
  });
}

}  // namespace triage
