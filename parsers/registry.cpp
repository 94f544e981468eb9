#include "parsers/kernel_parser.h"
#include "parsers/parser.h"
#include "parsers/plog_parser.h"

namespace triage {

// One line per parsed kind. Kinds not listed are inventoried only.
ParseFn parser_for(SourceKind kind) {
  switch (kind) {
    case SourceKind::plog: return parse_plog;
    case SourceKind::device_log: return parse_plog;
    case SourceKind::device_log_export: return parse_device_export;
    case SourceKind::journal_json: return parse_journal_json;
    case SourceKind::journal_text: return parse_journal_text;
    case SourceKind::dmesg: return parse_dmesg;
    case SourceKind::dmesg_human: return parse_dmesg_human;
    case SourceKind::syslog: return parse_syslog;
    default: return nullptr;
  }
}

}  // namespace triage
