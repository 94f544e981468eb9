// ascend/cann/index.tsv (id, install_dir, kind, version, resolved_dir, seen_from) and
// ascend/paths.tsv (path, exists, type, resolved_path, seen_from): the collector's view of
// the CANN installs and of the paths the environment names, from the host or a process.
#include "parsers/common/tsv.h"
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {

void parse_cann_index_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader r(src, ctx.stats, entry_name(ctx));
  if (!r.read_header()) return;
  int id = r.column("id"), dir = r.column("install_dir"), kind = r.column("kind"),
      ver = r.column("version"), res = r.column("resolved_dir"), seen = r.column("seen_from");
  if (dir < 0 || ver < 0) {
    r.skip_rest_unrecognised();
    return;
  }
  while (r.next()) {
    if (!r.known(dir)) {
      r.count_malformed("no install_dir");
      continue;
    }
    CannIndexRow row;
    row.id = std::string(r.field(id));
    row.install_dir = std::string(r.field(dir));
    row.kind = std::string(r.field(kind));
    row.version = std::string(r.field(ver));
    row.resolved_dir = std::string(r.field(res));
    row.seen_from = std::string(r.field(seen));
    row.evidence = make_evidence(r.entry(), r.line().number, r.line().offset, r.line().text);
    ctx.facts.libraries.cann_index.push_back(std::move(row));
    r.count_parsed();
  }
}

void parse_cann_paths_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader r(src, ctx.stats, entry_name(ctx));
  if (!r.read_header()) return;
  int path = r.column("path"), exists = r.column("exists"), type = r.column("type"),
      res = r.column("resolved_path"), seen = r.column("seen_from");
  if (path < 0 || exists < 0) {
    r.skip_rest_unrecognised();
    return;
  }
  while (r.next()) {
    if (!r.known(path)) {
      r.count_malformed("no path");
      continue;
    }
    PathCheck pc;
    pc.path = std::string(r.field(path));
    pc.exists = r.boolean(exists);
    pc.type = std::string(r.field(type));
    pc.resolved_path = std::string(r.field(res));
    pc.seen_from = r.known(seen) ? std::string(r.field(seen)) : std::string("host");
    pc.evidence = make_evidence(r.entry(), r.line().number, r.line().offset, r.line().text);
    ctx.facts.libraries.paths.push_back(std::move(pc));
    r.count_parsed();
  }
}

}  // namespace triage
