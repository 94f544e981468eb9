#pragma once
// probes/<name>.json (contract fields) and its .stdout, .stderr, .status, .threads.txt.
// Each file adds to DeviceFacts::probes under the probe's name (the file name's stem).
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

void parse_probe_json(ParseContext& ctx, ByteSource& src);
void parse_probe_stdout(ParseContext& ctx, ByteSource& src);
void parse_probe_stderr(ParseContext& ctx, ByteSource& src);
// .status and .threads.txt: their presence is the fact (the probe's state when it timed out).
void parse_probe_side_file(ParseContext& ctx, ByteSource& src);

// "probes/rand.threads.txt" -> "rand"; "" when the path is not a probe file.
std::string_view probe_name_of(std::string_view path);

}  // namespace triage
