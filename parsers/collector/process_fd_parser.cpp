// processes/<pid>/fd.tsv: `fd, target` from readlink of /proc/<pid>/fd/* (which davinci
// nodes and plog files the process holds).
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/common/tsv.h"

namespace triage {

void parse_proc_fd_tsv(ParseContext& ctx, ByteSource& src) {
  TsvReader tsv(src, ctx.stats, entry_name(ctx), ctx.options.limits.max_line_bytes);
  ProcessInfo* p = process_of_entry(ctx);
  if (!tsv.read_header()) return;
  int fd_col = tsv.column("fd"), target_col = tsv.column("target");
  if (!p || fd_col < 0 || target_col < 0) {
    if (p) p->notes.push_back("fd.tsv has no fd/target columns");
    tsv.skip_rest_unrecognised();
    return;
  }
  p->has_fds = true;
  while (tsv.next()) {
    auto fd = tsv.integer(fd_col);
    if (!fd || *fd < 0 || !tsv.known(target_col)) {
      tsv.count_malformed("fd or target missing");
      continue;
    }
    p->fds.push_back(FdEntry{*fd, std::string(tsv.field(target_col))});
    tsv.count_parsed();
  }
}

}  // namespace triage
