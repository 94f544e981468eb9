#pragma once
// processes/<pid>/rank-table.json (the file RANK_TABLE_FILE names) and
// processes/<pid>/py-spy-dump.txt (`py-spy dump --pid <pid>`, with --stacks). Facts go to
// BundleFacts::network (model/facts_network.h); the pid comes from the entry's path.
#include "parsers/common/parser.h"

namespace triage {

void parse_rank_table_json(ParseContext& ctx, ByteSource& src);
void parse_py_spy_dump(ParseContext& ctx, ByteSource& src);

}  // namespace triage
