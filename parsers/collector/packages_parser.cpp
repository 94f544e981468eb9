// packages.tsv (processes/<pid>/ for the job's interpreter, python/ for the collector's
// python3): name, version, location, kind. And processes/<pid>/torch_npu-version.py, the
// generated torch_npu/version.py: __version__ = '...' and git_version = '...'.
#include "model/pep440.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/common/tsv.h"
#include "parsers/collector/version_parsers.h"

namespace triage {

void parse_packages_tsv(ParseContext& ctx, ByteSource& src) {
  auto pid = pid_from_entry_path(ctx.entry.path);
  TsvReader r(src, ctx.stats, entry_name(ctx));
  if (!r.read_header()) return;
  int name = r.column("name"), ver = r.column("version"), loc = r.column("location"),
      kind = r.column("kind");
  if (name < 0 || ver < 0) {
    r.skip_rest_unrecognised();
    return;
  }
  LibraryFacts& lf = ctx.facts.libraries;
  std::vector<PackageRow>* out = nullptr;
  if (pid) {
    ProcessLibraries& p = lf.process(*pid);
    p.has_packages = true;
    out = &p.packages;
  } else {
    lf.has_default_packages = true;
    out = &lf.default_packages;
  }
  while (r.next()) {
    if (!r.known(name)) {
      r.count_malformed("no package name");
      continue;
    }
    PackageRow row;
    row.name = std::string(r.field(name));
    row.normalized = pep503_normalize(row.name);
    row.version = std::string(r.field(ver));
    row.location = std::string(r.field(loc));
    row.kind = std::string(r.field(kind));
    row.evidence = make_evidence(r.entry(), r.line().number, r.line().offset, r.line().text);
    out->push_back(std::move(row));
    r.count_parsed();
  }
}

void parse_torch_npu_version_py(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  ProcessLibraries& lib = ctx.facts.libraries.process(p->pid);
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.front() == '#') {
      ++ctx.stats.parsed;
      return;
    }
    auto kv = split_key_value(t);
    if (!kv) {
      ++ctx.stats.unrecognised;
      return;
    }
    std::string_view key = trim(kv->first), v = trim(kv->second);
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
      v = v.substr(1, v.size() - 2);
    if (key == "__version__") {
      lib.torch_npu_version = std::string(v);
      lib.torch_npu_version_evidence = evidence_at(ctx, line);
    } else if (key == "git_version") {
      lib.torch_npu_git = std::string(v);
    } else {
      ++ctx.stats.unrecognised;
      return;
    }
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
