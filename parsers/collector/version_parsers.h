#pragma once
// Parsers of the library-provenance facts (model/facts_libraries.h): process maps, mountinfo
// and cgroup, the Ascend version and install files, the CANN index, paths.tsv, packages.tsv
// and torch_npu's version.py.
#include <string>
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

void parse_proc_maps(ParseContext& ctx, ByteSource& src);
void parse_proc_mountinfo(ParseContext& ctx, ByteSource& src);
void parse_host_mountinfo(ParseContext& ctx, ByteSource& src);
void parse_proc_cgroup(ParseContext& ctx, ByteSource& src);
// driver / firmware version.info, ascend_install.info, CANN version.info, *_install.info,
// version.cfg (key=value; NNAL's "key : value" form too).
void parse_driver_version_info(ParseContext& ctx, ByteSource& src);
void parse_firmware_version_info(ParseContext& ctx, ByteSource& src);
void parse_ascend_install_info(ParseContext& ctx, ByteSource& src);
void parse_cann_version_file(ParseContext& ctx, ByteSource& src);
void parse_cann_index_tsv(ParseContext& ctx, ByteSource& src);
void parse_cann_paths_tsv(ParseContext& ctx, ByteSource& src);
void parse_packages_tsv(ParseContext& ctx, ByteSource& src);
void parse_torch_npu_version_py(ParseContext& ctx, ByteSource& src);
void parse_pip_show(ParseContext& ctx, ByteSource& src);
// env/collector-env (the collector's own environment, info only).
void parse_collector_env(ParseContext& ctx, ByteSource& src);
// `pip list --format=json` (processes/<pid>/pip-list.json, python/pip-list.json).
void parse_pip_list_json(ParseContext& ctx, ByteSource& src);

// Decodes mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash);
// anything else is kept as written.
std::string decode_mount_escapes(std::string_view s);

}  // namespace triage
