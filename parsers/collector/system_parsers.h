#pragma once
// Host identity, time and boot: system/uname.txt, os-release, cmdline, time.txt,
// localtime.tzif, boot.txt. Small text files, read whole; blank and comment lines count as
// parsed (they are part of the format).
#include "parsers/common/parser.h"

namespace triage {

void parse_uname(ParseContext& ctx, ByteSource& src);
void parse_os_release(ParseContext& ctx, ByteSource& src);
void parse_kernel_cmdline(ParseContext& ctx, ByteSource& src);
void parse_time_txt(ParseContext& ctx, ByteSource& src);
// system/localtime.tzif, and processes/<pid>/localtime.tzif for that process.
void parse_localtime_tzif(ParseContext& ctx, ByteSource& src);
void parse_boot_txt(ParseContext& ctx, ByteSource& src);

// After the whole bundle is read: host name (manifest, else uname), collection time
// (manifest, else time.txt epoch), host zone (time.txt tz_posix, else the TZif footer, else
// time.txt utc_offset).
void finalize_system(BundleFacts& facts, const AnalyzeOptions& options);

}  // namespace triage
