#include "ingest/registry.h"

#include <array>

#include "ingest/mixed_text.h"
#include "parsers/collector/kinds.h"
#include "parsers/job/error_lines.h"
#include "parsers/job/kinds.h"
#include "parsers/kernel/error_lines.h"
#include "parsers/kernel/kinds.h"
#include "parsers/plog/error_lines.h"
#include "parsers/plog/kinds.h"
#include "parsers/tools/kinds.h"

namespace triage {
namespace {

// Kinds that belong to no reader family: what the classifier could not name, links, and
// pastes of several kinds (split by ingest/mixed_text.cpp, each segment parsed as its kind).
constexpr KindRow kIngestKinds[] = {
      {SourceKind::unknown, nullptr, "not recognised", "not recognised: listed so the report names it"},
      {SourceKind::symlink, nullptr, "a symbolic link, recorded as data", "recorded as data, never followed"},
      {SourceKind::mixed_text, parse_mixed_text, "a paste of several kinds of text (prompts, job output, kernel log, tables): split into segments, each parsed as its kind", {}},
};

// Every family, in the order their finishing steps run: the collector's zones come first,
// and the plog family's hits are final before the kernel family adds its own and sorts.
constexpr ParserFamily kFamilies[] = {
    {"ingest", kIngestKinds, nullptr}, kCollectorFamily, kPlogFamily, kKernelFamily, kJobFamily,
    kToolsFamily,
};

constexpr size_t kKindCount = static_cast<size_t>(SourceKind::count_);

// Every SourceKind has exactly one row among the families: a new kind does not compile
// until its family lists it (as a parser, or with why it is only inventoried).
constexpr bool each_kind_once() {
  std::array<int, kKindCount> seen{};
  for (const ParserFamily& f : kFamilies)
    for (const KindRow& r : f.kinds) {
      if (r.kind == SourceKind::count_) return false;
      if (++seen[static_cast<size_t>(r.kind)] != 1) return false;
      if (r.description.empty() || (!r.parse && r.not_parsed.empty())) return false;
    }
  for (int n : seen)
    if (n != 1) return false;
  return true;
}
static_assert(each_kind_once(), "every SourceKind needs exactly one KindRow (parsers/*/kinds.h), "
                                "with a description, and a reason when it has no parser");

constexpr std::array<const KindRow*, kKindCount> rows_by_kind() {
  std::array<const KindRow*, kKindCount> by{};
  for (const ParserFamily& f : kFamilies)
    for (const KindRow& r : f.kinds) by[static_cast<size_t>(r.kind)] = &r;
  return by;
}
constexpr auto kRowsByKind = rows_by_kind();

}  // namespace

ParseFn parser_for(SourceKind kind) {
  size_t i = static_cast<size_t>(kind);
  return i < kKindCount ? kRowsByKind[i]->parse : nullptr;
}

std::string_view describe_kind(SourceKind kind) {
  size_t i = static_cast<size_t>(kind);
  return i < kKindCount ? kRowsByKind[i]->description : std::string_view{};
}

std::string_view not_parsed_reason(SourceKind kind) {
  size_t i = static_cast<size_t>(kind);
  return i < kKindCount ? kRowsByKind[i]->not_parsed : std::string_view{};
}

std::span<const ParserFamily> parser_families() { return kFamilies; }

std::span<const ErrorLineReader> error_line_readers() {
  static constexpr ErrorLineReader kReaders[] = {
      {"plog", true, plog_coded_error_lines},
      {"plog", false, plog_error_rows},
      {"kernel", false, kernel_error_lines},
      {"job", false, job_error_lines},
  };
  return kReaders;
}

}  // namespace triage
