#pragma once
// `knowledge check` with the real line grammars: a signature sample is matched on the
// message of the plog or kernel line it parses as. The checks themselves are
// knowledge/check.cpp; the grammars are parsers/, above knowledge/, hence this join here.
#include <cstdint>
#include <string>
#include <string_view>

#include "knowledge/knowledge.h"

namespace triage {

// The message of a plog or kernel line when the sample parses as one, else the sample
// itself. Sets `module` for plog samples.
std::string_view sample_text(std::string_view sample, uint8_t sources, std::string_view& module);

// check_knowledge_file() with sample_text() as the line grammar.
KnowledgeCheck check_knowledge_file(std::string_view content, const std::string& name);

}  // namespace triage
