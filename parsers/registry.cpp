#include "parsers/parser.h"

namespace triage {

// One line per parsed kind. Kinds not listed are inventoried only.
ParseFn parser_for(SourceKind kind) {
  switch (kind) {
    default: return nullptr;
  }
}

}  // namespace triage
