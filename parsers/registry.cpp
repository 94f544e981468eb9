#include "parsers/parser.h"
#include "parsers/python_parser.h"

namespace triage {

// One line per parsed kind. Kinds not listed are inventoried only.
ParseFn parser_for(SourceKind kind) {
  switch (kind) {
    case SourceKind::python_log: return parse_python_log;
    default: return nullptr;
  }
}

}  // namespace triage
