#pragma once
// processes/<pid>/...: environ and cmdline (NUL-separated as in /proc, or newline-separated
// when pasted by hand), tz.txt, stat, fd.tsv. The pid comes from the entry's path.
//
// For the NUL-separated files, stats.lines counts physical lines (newlines) like every
// other entry, while parsed / unrecognised / malformed count records (NUL-separated
// entries); stats.variant says which separator was found.
#include <optional>
#include <string>
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

// The pid of "processes/<pid>/..." (also with a leading directory); nullopt otherwise.
std::optional<int64_t> pid_from_entry_path(std::string_view path);
// The process of this entry, created on first use; nullptr (and every line counted
// unrecognised by the caller) when the path names no pid.
ProcessInfo* process_of_entry(ParseContext& ctx);
// Reads a small process file whole into `text` and returns its process; nullptr when the
// entry yields no facts (no pid in the path, or a tool's error text), every line counted.
ProcessInfo* read_process_file(ParseContext& ctx, ByteSource& src, std::string& text,
                               size_t cap = size_t{4} << 20);

void parse_proc_environ(ParseContext& ctx, ByteSource& src);
void parse_proc_cmdline(ParseContext& ctx, ByteSource& src);
void parse_proc_tz_txt(ParseContext& ctx, ByteSource& src);
void parse_proc_stat(ParseContext& ctx, ByteSource& src);
void parse_proc_fd_tsv(ParseContext& ctx, ByteSource& src);
// Slow, not stuck (cpu_load_parser.cpp): system/loadavg, pressure-cpu, cpu-online; the
// process's schedstat and the *_ctxt_switches lines of its status.
void parse_cpu_load(ParseContext& ctx, ByteSource& src);
void parse_proc_schedstat(ParseContext& ctx, ByteSource& src);
void parse_proc_status(ParseContext& ctx, ByteSource& src);

// After the whole bundle is read: each process's start time (stat start ticks, clk_tck,
// btime) and zone (tz.txt: TZ, else tz_posix, else its localtime.tzif, else utc_offset).
void finalize_processes(BundleFacts& facts);

}  // namespace triage
