// modules/sysfs.tsv, modules/tree.tsv, system/kernels.tsv, system/pci-devices.tsv: the
// collector's TSV files, columns by header name (parsers/common/tsv.h).
#include <cctype>

#include "model/strings.h"
#include "parsers/common/text_file.h"
#include "parsers/common/tsv.h"
#include "parsers/tools/module_parsers.h"

namespace triage {
namespace {
EvidenceRef row_evidence(const TsvReader& tsv) {
  return make_evidence(tsv.entry(), tsv.line().number, tsv.line().offset, tsv.line().text);
}

// Hex ids as "19e5": lower case, without a 0x prefix.
std::string hex_id(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  return ascii_lower(s);
}

bool is_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

void parse_module_sysfs_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader tsv(src, ctx.stats, entry_name(ctx), ctx.options.limits.max_line_bytes);
  if (!tsv.read_header()) return;
  int name = tsv.column("name");
  if (name < 0) {
    tsv.skip_rest_unrecognised();
    return;
  }
  int version = tsv.column("version"), srcv = tsv.column("srcversion"),
      bid = tsv.column("build_id"), init = tsv.column("initstate"), taint = tsv.column("taint"),
      ref = tsv.column("refcnt"), holders = tsv.column("holders");
  ctx.facts.modules.have_sysfs = true;
  while (tsv.next()) {
    if (!tsv.known(name)) {
      tsv.count_malformed("module name missing");
      continue;
    }
    if (tsv.known(bid) && !is_hex(tsv.raw(bid))) {
      tsv.count_malformed("build_id is not hex");
      continue;
    }
    ResidentModule m;
    m.name = tsv.field(name);
    m.version = tsv.field(version);
    m.srcversion = tsv.field(srcv);
    m.build_id = ascii_lower(tsv.field(bid));
    m.initstate = tsv.field(init);
    m.taint = tsv.field(taint);
    m.refcnt = tsv.integer(ref);
    m.holders = split_list(tsv.field(holders), ", ");
    m.evidence = row_evidence(tsv);
    ctx.facts.modules.resident.push_back(std::move(m));
    tsv.count_parsed();
  }
}

void parse_module_tree_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader tsv(src, ctx.stats, entry_name(ctx), ctx.options.limits.max_line_bytes);
  if (!tsv.read_header()) return;
  int kver = tsv.column("kver"), module = tsv.column("module"), path = tsv.column("path");
  if (kver < 0 || path < 0) {
    tsv.skip_rest_unrecognised();
    return;
  }
  int type = tsv.column("type"), target = tsv.column("link_target"),
      resolved = tsv.column("resolved_path"), exists = tsv.column("target_exists"),
      comp = tsv.column("compression"), size = tsv.column("size"),
      lmt = tsv.column("link_mtime"), tmt = tsv.column("target_mtime"),
      tct = tsv.column("target_ctime"), sha = tsv.column("sha256"),
      srcv = tsv.column("srcversion"), bid = tsv.column("build_id"),
      vermagic = tsv.column("vermagic");
  ctx.facts.modules.have_tree = true;
  while (tsv.next()) {
    if (!tsv.known(kver) || !tsv.known(path)) {
      tsv.count_malformed("kver or path missing");
      continue;
    }
    std::string_view t = tsv.raw(type);
    if (!t.empty() && t != "f" && t != "l") {
      tsv.count_malformed("type is neither f nor l");
      continue;
    }
    ModuleFile f;
    f.kver = tsv.field(kver);
    f.path = tsv.field(path);
    f.module = tsv.known(module) ? std::string(tsv.field(module)) : module_name_of_path(f.path);
    f.is_link = t == "l";
    f.link_target = tsv.field(target);
    f.resolved_path = tsv.field(resolved);
    f.target_exists = tsv.boolean(exists);
    f.compression = tsv.field(comp);
    f.size = tsv.integer(size);
    f.link_mtime = tsv.integer(lmt);
    f.target_mtime = tsv.integer(tmt);
    f.target_ctime = tsv.integer(tct);
    f.sha256 = ascii_lower(tsv.field(sha));
    f.srcversion = tsv.field(srcv);
    f.build_id = ascii_lower(tsv.field(bid));
    f.vermagic = tsv.field(vermagic);
    f.evidence = row_evidence(tsv);
    ctx.facts.modules.files.push_back(std::move(f));
    tsv.count_parsed();
  }
}

void parse_kernels_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader tsv(src, ctx.stats, entry_name(ctx), ctx.options.limits.max_line_bytes);
  if (!tsv.read_header()) return;
  int kver = tsv.column("kver");
  if (kver < 0) {
    tsv.skip_rest_unrecognised();
    return;
  }
  int running = tsv.column("running"), boot = tsv.column("boot_default"),
      initrd = tsv.column("initramfs_mtime"), dep = tsv.column("modules_dep_mtime");
  while (tsv.next()) {
    if (!tsv.known(kver)) {
      tsv.count_malformed("kver missing");
      continue;
    }
    KernelDir k;
    k.kver = tsv.field(kver);
    k.running = tsv.boolean(running);
    k.boot_default = tsv.boolean(boot);
    k.initramfs_mtime = tsv.integer(initrd);
    k.modules_dep_mtime = tsv.integer(dep);
    k.evidence = row_evidence(tsv);
    ctx.facts.modules.kernels.push_back(std::move(k));
    tsv.count_parsed();
  }
}

void parse_pci_devices_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader tsv(src, ctx.stats, entry_name(ctx), ctx.options.limits.max_line_bytes);
  if (!tsv.read_header()) return;
  int addr = tsv.column("address"), vendor = tsv.column("vendor"), device = tsv.column("device");
  if (addr < 0 || vendor < 0 || device < 0) {
    tsv.skip_rest_unrecognised();
    return;
  }
  int cls = tsv.column("class"), drv = tsv.column("driver"), width = tsv.column("link_width");
  ctx.facts.modules.have_pci_tsv = true;
  while (tsv.next()) {
    std::string v = hex_id(tsv.field(vendor)), d = hex_id(tsv.field(device));
    if (!tsv.known(addr) || !is_hex(v) || !is_hex(d)) {
      tsv.count_malformed("address, vendor or device missing or not hex");
      continue;
    }
    PciFunction p;
    p.address = ascii_lower(tsv.field(addr));
    p.vendor = std::move(v);
    p.device = std::move(d);
    p.class_code = hex_id(tsv.field(cls));
    p.driver = tsv.field(drv);
    p.link_width = tsv.integer(width);
    p.evidence = row_evidence(tsv);
    ctx.facts.modules.pci.push_back(std::move(p));
    tsv.count_parsed();
  }
}

}  // namespace triage
