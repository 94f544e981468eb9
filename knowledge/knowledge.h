#pragma once
// Knowledge as data: log signatures (knowledge/signatures/*.json), error codes
// (knowledge/error-codes.tsv), device RAS event ids (knowledge/device-events.tsv), NPU PCI ids
// (knowledge/pci-ids.tsv) and the version tables (knowledge/versions/*.tsv, parsed by the
// version-matrix analysis). The files are built into the binary and can be overridden file by
// file with --knowledge DIR. Format: docs/knowledge.md.
#include <re2/re2.h>
#include <re2/set.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "knowledge/lazy_regex.h"
#include "knowledge/literal_prefilter.h"

namespace triage {

// Which parsed text a signature is matched against: plog and device logs (the message after
// the plog header), kernel logs of every form incl. the journal (the kernel message), job
// output (the line after its wrapper prefix), npu-smi output (the line as printed).
enum SignatureSource : uint8_t { kSigPlog = 1, kSigKernel = 2, kSigJob = 4, kSigNpuSmi = 8 };
std::string_view signature_source_name(SignatureSource s);

struct Signature {
  std::string id;
  std::string pattern;      // RE2, matched unanchored against the message of a line
  std::string severity;     // info | warning | error | critical
  std::string category;
  std::string title;
  std::string explanation;
  std::vector<std::string> next_steps;
  uint8_t sources = 0;              // SignatureSource bits; required, never defaulted
  // Where a match leads (docs/knowledge.md): "benign" (start-up noise, never an error),
  // "own" (the log-signature finding reports it), or the id of the finding that cites it.
  std::string outcome;
  std::vector<std::string> modules; // plog modules it applies to (empty = any)
  // Ids of broader signatures this one replaces on a line both match: a socket *close*
  // failure also matches the general socket-failure pattern, but is teardown, not set-up.
  std::vector<std::string> supersedes;
  // The MindCluster ascend-fd rule a generated fragment signature stands for (signatures/
  // ascend-fd-*.json): a fallback, dropped on a line a hand-written signature also matches.
  std::string ascend_fd;
  std::vector<std::string> samples_match;
  std::vector<std::string> samples_near_miss;
  std::string file;  // the knowledge file it came from
  // Compiled on first use (built-in files) or at load (others, so that their errors are
  // reported); false when the pattern does not compile.
  LazyRegex re;
};

struct ErrorCodeInfo {
  std::string code;     // "507015", "EZ9999", "0x26"
  std::string kind;     // acl | runtime | message | retcode | hccl | drv | dcmi
  std::string name;     // macro or title (ACL_ERROR_RT_AICORE_EXCEPTION)
  std::string meaning;
  std::string component;      // what reports it: runtime, HCCL, driver (HAL), GE, ...
  std::string failure_class;  // a verdict hypothesis id, device-memory, device-access or unknown
  std::string next_check;
  std::string source;   // upstream repository@commit and file, or page URL
};

// The failure classes an error code may name (column `class`): the verdict's hypothesis ids
// that a code can point at, two finer device classes, and `unknown`.
bool is_failure_class(std::string_view c);

// knowledge/device-events.tsv: a RAS / fault-manager event id the device logs, and the
// device-exception kind it belongs to.
struct DeviceEventInfo {
  std::string event_id;        // "0x80e01809" (lower case)
  std::string exception_kind;  // a device-exception kind: hbm-ecc, aicore-timeout, ...
  std::string name;
  std::string meaning;
  std::string source;
};

// knowledge/pci-ids.tsv: PCI functions that are NPUs (Kunpeng on-board devices share 19e5).
struct PciIdInfo {
  std::string vendor, device;  // lower-case hex without 0x
  std::string model;           // "910B"
  std::string source;
};

struct KnowledgeFile {
  std::string name;     // file name relative to the knowledge root ("signatures/plog.json")
  std::string content;
};

// Matches many signatures against one text: a literal prefilter (knowledge/literal_prefilter.h)
// drops the lines that hold none of the signatures' required strings, one RE2::Set pass over
// the rest decides which signatures can match, and only those run with captures. The set is
// compiled on first use (a job paste never consults the kernel set), and the prefilter only
// after kPrefilterAfter lines: building it costs as much as running the set on tens of
// thousands of lines, so a paste of a few lines never pays for it. Either gives the same answers.
class SignatureMatcher {
 public:
  static constexpr uint64_t kPrefilterAfter = 16384;

  SignatureMatcher() = default;
  SignatureMatcher(const std::vector<Signature>& all, SignatureSource source);
  SignatureMatcher(SignatureMatcher&&) = default;
  SignatureMatcher& operator=(SignatureMatcher&&) = default;

  // Indices (into the vector given at construction) of the signatures matching `text`
  // for a line of `module` (plog; "" for kernel). `out` is reused: no allocation once warm.
  void match(std::string_view text, std::string_view module, std::vector<int>& scratch,
             std::vector<int>& out) const;
  // Whether any signature can match `text` (module filters not applied). Allocates nothing.
  bool any(std::string_view text) const;
  // any() without the literal prefilter: the set's DFA alone (the prefilter's tests compare them).
  bool any_unfiltered(std::string_view text) const;
  const LiteralPrefilter& prefilter() const;
  bool empty() const;

 private:
  struct Compiled {
    std::unique_ptr<RE2::Set> set;
    LiteralPrefilter prefilter;  // false only when no member can match
    std::vector<int> members;    // set index -> signature index
    std::vector<std::vector<std::string>> member_modules;  // set index -> module filter
    std::vector<std::vector<int>> member_supersedes;       // set index -> signature indices it replaces
    std::vector<uint8_t> member_fallback;                  // set index -> 1 for an ascend_fd signature
  };
  struct Candidate {  // a signature of this source, as the set will take it
    int index;
    std::string pattern;
    std::vector<std::string> modules;
    std::vector<int> supersedes;
    uint8_t fallback;
  };
  struct Lazy {  // a mutex, not std::call_once: see knowledge/lazy_regex.h
    std::vector<Candidate> candidates;  // let go once compiled
    std::mutex mu;
    std::atomic<bool> done{false};
    Compiled compiled;
    mutable std::atomic<uint64_t> unfiltered_calls{0};  // any() calls before the prefilter
  };
  const Compiled& compiled() const;
  std::shared_ptr<Lazy> lazy_;
};

struct KnowledgeBase {
  std::string origin;  // "built-in" or "built-in + DIR"
  std::vector<Signature> signatures;
  std::vector<ErrorCodeInfo> error_codes;
  std::vector<DeviceEventInfo> device_events;
  std::vector<PciIdInfo> pci_ids;
  // versions/*.tsv as text (after overrides), by file name; parsed by correlator/version_tables.
  std::vector<KnowledgeFile> version_files;
  std::vector<std::string> errors;  // "file: message" for anything that did not load
  SignatureMatcher plog_matcher, kernel_matcher, job_matcher, npu_smi_matcher;

  const ErrorCodeInfo* find_code(std::string_view code) const;
  const Signature* find_signature(std::string_view id) const;
  const DeviceEventInfo* find_device_event(std::string_view event_id) const;  // any case
  const PciIdInfo* find_pci_id(std::string_view vendor, std::string_view device) const;
  const KnowledgeFile* find_version_file(std::string_view name) const;
};

// Files built into the binary (generated from knowledge/ at build time).
const std::vector<KnowledgeFile>& builtin_knowledge_files();

// Reads the knowledge files of DIR (signatures/*.json, *.tsv); errors are appended.
std::vector<KnowledgeFile> read_knowledge_dir(const std::string& dir,
                                              std::vector<std::string>& errors);

// Builds a knowledge base from files: later files replace earlier ones of the same name.
KnowledgeBase build_knowledge(const std::vector<KnowledgeFile>& files, std::string origin);

// The knowledge for a --knowledge value ("" = built-in). Built once per directory and
// shared (thread-safe); lives until the program ends.
const KnowledgeBase& knowledge_for(const std::string& dir);

// Loading single files (used by build_knowledge and by `knowledge check`).
// `compile_now` false: patterns compile on first use, and one that does not compile is not
// reported (for the built-in files, which the tests check).
void parse_signature_file(std::string_view content, const std::string& name,
                          std::vector<Signature>& out, std::vector<std::string>& errors,
                          bool compile_now = true);
void parse_error_code_file(std::string_view content, const std::string& name,
                           std::vector<ErrorCodeInfo>& out, std::vector<std::string>& errors);

void parse_device_event_file(std::string_view content, const std::string& name,
                             std::vector<DeviceEventInfo>& out, std::vector<std::string>& errors);
void parse_pci_id_file(std::string_view content, const std::string& name,
                       std::vector<PciIdInfo>& out, std::vector<std::string>& errors);

// knowledge/mappings/*.tsv: another tool's fault rules and which signature, code or device
// event of ours covers each (docs/knowledge.md). Documentation data: the analyzer does not
// load it; `knowledge check` and the tests do.
struct FaultRuleMapping {
  std::string rule_id, pattern, ours, status, note;  // status: covered|partial|not-applicable|missing
};
void parse_fault_rule_mapping(std::string_view content, const std::string& name,
                              std::vector<FaultRuleMapping>& out, std::vector<std::string>& errors);

// Result of `knowledge check FILE`: every problem found, and what was checked.
struct KnowledgeCheck {
  std::vector<std::string> problems;
  size_t signatures = 0, samples = 0, error_codes = 0;
  bool ok() const { return problems.empty(); }
};
// The text a signature sample is matched on (sets `module` for plog samples). The line
// grammars live above this stage, so the caller passes them in: ingest/knowledge_check.h.
using SampleTextFn = std::string_view (*)(std::string_view sample, uint8_t sources,
                                          std::string_view& module);
// `name` decides the kind: *.json = signatures, *.tsv = error codes.
KnowledgeCheck check_knowledge_file(std::string_view content, const std::string& name,
                                    SampleTextFn sample_text);

}  // namespace triage
