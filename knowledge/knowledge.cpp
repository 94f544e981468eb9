#include "knowledge/knowledge.h"
#include "knowledge/run_once.h"
#include "knowledge/self_loaded_tables.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "knowledge/finding_texts.h"
#include "knowledge/table_lines.h"

namespace triage {

namespace generated {
struct Blob {
  const char* name;
  const unsigned char* data;
  unsigned long size;
};
extern const Blob kKnowledgeBlobs[];
extern const unsigned long kKnowledgeBlobCount;
}  // namespace generated

const std::vector<KnowledgeFile>& builtin_knowledge_files() {
  static const std::vector<KnowledgeFile> files = [] {
    std::vector<KnowledgeFile> v;
    for (unsigned long i = 0; i < generated::kKnowledgeBlobCount; ++i) {
      const auto& b = generated::kKnowledgeBlobs[i];
      v.push_back({b.name, std::string(reinterpret_cast<const char*>(b.data), b.size)});
    }
    return v;
  }();
  return files;
}

static bool is_knowledge_file(const std::string& name) {
  return name.size() > 5 && (name.ends_with(".json") || name.ends_with(".tsv"));
}

std::vector<KnowledgeFile> read_knowledge_dir(const std::string& dir,
                                              std::vector<std::string>& errors) {
  namespace fs = std::filesystem;
  std::vector<KnowledgeFile> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    errors.push_back(dir + ": not a directory");
    return files;
  }
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string rel = fs::relative(it->path(), dir, ec).generic_string();
    if (!is_knowledge_file(rel)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    if (!in && !in.eof()) {
      errors.push_back(it->path().string() + ": cannot read");
      continue;
    }
    files.push_back({rel, ss.str()});
  }
  if (ec) errors.push_back(dir + ": " + ec.message());
  std::sort(files.begin(), files.end(),
            [](const KnowledgeFile& a, const KnowledgeFile& b) { return a.name < b.name; });
  return files;
}

// --- signatures (JSON) -------------------------------------------------------------------

namespace {

using namespace simdjson;

bool read_string_array(ondemand::value v, std::vector<std::string>& out) {
  ondemand::array arr;
  if (v.get_array().get(arr)) return false;
  for (auto item : arr) {
    std::string_view s;
    if (item.get_string().get(s)) return false;
    out.emplace_back(s);
  }
  return true;
}

const std::set<std::string_view> kSeverities = {"info", "warning", "error", "critical"};

// Problems of one file, each as "file: what".
struct Problems {
  const std::string& name;
  std::vector<std::string>& errors;
  void operator()(const std::string& what) const { errors.push_back(name + ": " + what); }
};

// "sources": ["plog", "kernel"] as bits.
bool read_sources(ondemand::value v, Signature& sig, const std::string& where, const Problems& fail) {
  std::vector<std::string> srcs;
  bool ok = read_string_array(v, srcs);
  sig.sources = 0;
  for (const auto& x : srcs) {
    if (x == "plog") sig.sources |= kSigPlog;
    else if (x == "kernel") sig.sources |= kSigKernel;
    else if (x == "job") sig.sources |= kSigJob;
    else if (x == "npu-smi") sig.sources |= kSigNpuSmi;
    else fail(where + ": unknown source '" + x + "' (plog, kernel, job, npu-smi)");
  }
  return ok;
}

// "samples": {"match": [...], "near_miss": [...]}.
bool read_samples(ondemand::value v, Signature& sig, const std::string& where, const Problems& fail) {
  ondemand::object so;
  if (v.get_object().get(so)) return false;
  bool ok = true;
  for (auto sf : so) {
    std::string_view sk;
    if (sf.unescaped_key().get(sk)) break;
    ondemand::value sv;
    if (sf.value().get(sv)) break;
    if (sk == "match") ok = read_string_array(sv, sig.samples_match) && ok;
    else if (sk == "near_miss") ok = read_string_array(sv, sig.samples_near_miss) && ok;
    else fail(where + ": unknown samples key '" + std::string(sk) + "'");
  }
  return ok;
}

// One key of a signature object; false when its value has the wrong type.
bool read_signature_field(std::string_view k, ondemand::value v, Signature& sig,
                          const std::string& where, const Problems& fail) {
  auto str = [&](std::string& dst) {
    std::string_view s;
    if (v.get_string().get(s)) {
      fail(where + ": " + std::string(k) + " is not a string");
      return false;
    }
    dst = std::string(s);
    return true;
  };
  if (k == "id") return str(sig.id);
  if (k == "pattern") return str(sig.pattern);
  if (k == "severity") return str(sig.severity);
  if (k == "category") return str(sig.category);
  if (k == "title") return str(sig.title);
  if (k == "explanation") return str(sig.explanation);
  if (k == "next_steps") return read_string_array(v, sig.next_steps);
  if (k == "modules") return read_string_array(v, sig.modules);
  if (k == "supersedes") return read_string_array(v, sig.supersedes);
  if (k == "sources") return read_sources(v, sig, where, fail);
  if (k == "outcome") return str(sig.outcome);
  if (k == "ascend_fd") return str(sig.ascend_fd);
  if (k == "samples") return read_samples(v, sig, where, fail);
  fail(where + ": unknown key '" + std::string(k) + "'");
  return true;
}

// The required fields and the pattern's compilation; a usable signature joins `out`.
void finish_signature(Signature sig, std::string where, std::vector<Signature>& out,
                      const Problems& fail, bool compile_now) {
  if (!sig.id.empty()) where = sig.id;
  if (sig.id.empty()) fail(where + ": no id");
  if (sig.pattern.empty()) fail(where + ": no pattern");
  if (!kSeverities.count(sig.severity))
    fail(where + ": severity must be info, warning, error or critical");
  if (sig.sources == 0) fail(where + ": no source (sources: plog, kernel, job, npu-smi)");
  if (sig.outcome.empty())
    fail(where + ": no outcome (benign, own, or the id of the finding that cites its lines)");
  if (sig.id.empty() || sig.pattern.empty()) return;
  RE2::Options opts;
  opts.set_log_errors(false);
  if (compile_now) {
    auto re = std::make_shared<const RE2>(sig.pattern, opts);
    if (!re->ok()) fail(where + ": pattern does not compile: " + re->error());
    sig.re = LazyRegex::compiled(std::move(re));
  } else {
    sig.re = LazyRegex(sig.pattern, opts);
  }
  out.push_back(std::move(sig));
}

// One element of "signatures".
void read_signature(simdjson_result<ondemand::value> item, size_t index, const std::string& name,
                    std::vector<Signature>& out, const Problems& fail, bool compile_now) {
  Signature sig;
  sig.file = name;
  std::string where = "signature #" + std::to_string(index);
  ondemand::object obj;
  if (item.get_object().get(obj)) return fail(where + ": not an object");
  bool ok = true;
  for (auto f : obj) {
    std::string_view k;
    ondemand::value v;
    if (f.unescaped_key().get(k) || f.value().get(v)) {
      ok = false;
      break;
    }
    ok = read_signature_field(k, v, sig, where, fail) && ok;
  }
  if (!ok) return fail(where + ": a field has the wrong type");
  finish_signature(std::move(sig), where, out, fail, compile_now);
}

}  // namespace

void parse_signature_file(std::string_view content, const std::string& name,
                          std::vector<Signature>& out, std::vector<std::string>& errors,
                          bool compile_now) {
  ondemand::parser parser;
  padded_string json(content);
  ondemand::document doc;
  Problems fail{name, errors};
  if (parser.iterate(json).get(doc)) return fail("not JSON");
  ondemand::object root;
  if (doc.get_object().get(root)) return fail("the top level is not an object");
  bool have_list = false;
  std::string format;
  for (auto field : root) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return fail("bad key");
    if (key == "format") {
      std::string_view f;
      if (field.value().get_string().get(f)) return fail("format is not a string");
      format = std::string(f);
    } else if (key == "signatures") {
      ondemand::array arr;
      if (field.value().get_array().get(arr)) return fail("signatures is not an array");
      have_list = true;
      size_t index = 0;
      for (auto item : arr) read_signature(item, index++, name, out, fail, compile_now);
    } else if (key == "version" || key == "comment") {
      // informational
    } else {
      fail("unknown top-level key '" + std::string(key) + "'");
    }
  }
  if (format != "ascend-triage-signatures") fail("format must be \"ascend-triage-signatures\"");
  if (!have_list) fail("no \"signatures\" array");
}

// --- error codes (TSV) -------------------------------------------------------------------

bool is_failure_class(std::string_view c) {
  static const std::set<std::string_view> kClasses = {
      "host-driver-installation", "cann-wheel-mismatch", "environment-paths", "mount-shadowing",
      "stale-process-mappings",   "device-hardware",     "collective-communication",
      "application-code",         "device-memory",       "device-access", "unknown"};
  return kClasses.count(c) > 0;
}

void parse_error_code_file(std::string_view content, const std::string& name,
                           std::vector<ErrorCodeInfo>& out, std::vector<std::string>& errors) {
  static const std::set<std::string_view> kKinds = {"acl",  "runtime", "message",
                                                    "retcode", "hccl", "drv", "dcmi"};
  constexpr int kColumns = 8;
  std::vector<std::string> columns;
  int ci[kColumns] = {-1, -1, -1, -1, -1, -1, -1, -1};
  static constexpr std::string_view kNames[kColumns] = {"code",      "kind",  "name",       "meaning",
                                                        "component", "class", "next_check", "source"};
  bool header_lacks = false;  // then one error, not one per row
  for_each_table_line(content, [&](size_t line_no, const std::vector<std::string_view>& fields) {
    if (header_lacks) return;
    std::string where = name + ":" + std::to_string(line_no);
    if (columns.empty()) {
      for (auto f : fields) columns.emplace_back(f);
      for (int k = 0; k < kColumns; ++k) {
        auto it = std::find(columns.begin(), columns.end(), kNames[k]);
        if (it == columns.end() && kNames[k] == "next_check")  // the column's earlier name
          it = std::find(columns.begin(), columns.end(), "advice");
        if (it == columns.end()) errors.push_back(where + ": header lacks column '" + std::string(kNames[k]) + "'");
        else ci[k] = static_cast<int>(it - columns.begin());
      }
      header_lacks = std::find(std::begin(ci), std::end(ci), -1) != std::end(ci);
      return;
    }
    if (fields.size() != columns.size())
      return errors.push_back(where + ": " + std::to_string(fields.size()) + " fields, header has " +
                              std::to_string(columns.size()));
    auto get = [&](int k) { return ci[k] < 0 ? std::string() : std::string(fields[static_cast<size_t>(ci[k])]); };
    ErrorCodeInfo e{get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7)};
    if (e.code.empty()) errors.push_back(where + ": empty code");
    if (!kKinds.count(e.kind)) errors.push_back(where + ": kind '" + e.kind + "' is not one of acl, runtime, message, retcode, hccl, drv, dcmi");
    if (e.meaning.empty()) errors.push_back(where + ": empty meaning");
    if (!is_failure_class(e.failure_class))
      errors.push_back(where + ": class '" + e.failure_class + "' is not a failure class (docs/knowledge.md)");
    if (e.next_check.empty()) errors.push_back(where + ": empty next_check");
    if (e.source.empty()) errors.push_back(where + ": empty source");
    out.push_back(std::move(e));
  });
  if (columns.empty()) errors.push_back(name + ": no header line");
}

// --- matcher -----------------------------------------------------------------------------

SignatureMatcher::SignatureMatcher(const std::vector<Signature>& all, SignatureSource source)
    : lazy_(std::make_shared<Lazy>()) {
  for (size_t i = 0; i < all.size(); ++i) {
    const Signature& s = all[i];
    if (!(s.sources & source) || s.re.failed_at_load()) continue;
    std::vector<int> replaced;
    for (const auto& id : s.supersedes)
      for (size_t j = 0; j < all.size(); ++j)
        if (all[j].id == id) replaced.push_back(static_cast<int>(j));
    lazy_->candidates.push_back(
        {static_cast<int>(i), s.pattern, s.modules, std::move(replaced), uint8_t(s.ascend_fd.empty() ? 0 : 1)});
  }
}

// A pattern the set does not take (it does not compile) is left out, as is every one when the
// set does not compile.
const SignatureMatcher::Compiled& SignatureMatcher::compiled() const {
  static const Compiled kNone;
  if (!lazy_) return kNone;
  Lazy& l = *lazy_;
  // Built aside and moved in, so that an exception (out of memory) leaves nothing half made.
  run_once(l.done, l.mu, [&l] {
    require_compile_headroom();
    Compiled c;
    RE2::Options opts;
    opts.set_log_errors(false);
    c.set = std::make_unique<RE2::Set>(opts, RE2::UNANCHORED);
    std::vector<std::string> patterns;
    for (const auto& cand : l.candidates) {
      if (c.set->Add(cand.pattern, nullptr) < 0) continue;
      patterns.push_back(cand.pattern);
      c.members.push_back(cand.index);
      c.member_modules.push_back(cand.modules);
      c.member_supersedes.push_back(cand.supersedes);
      c.member_fallback.push_back(cand.fallback);
    }
    if (c.members.empty() || !c.set->Compile()) {
      c = Compiled();
    } else if (!std::getenv("ASCEND_TRIAGE_NO_PREFILTER")) {
      // ASCEND_TRIAGE_NO_PREFILTER=1 runs every line through the set, as before the prefilter: the
      // benchmark's "before" on one binary (docs/performance.md); the reports are the same.
      c.prefilter = LiteralPrefilter(std::move(patterns), opts);
    }
    l.compiled = std::move(c);
    std::vector<Candidate>().swap(l.candidates);
  });
  return l.compiled;
}

const LiteralPrefilter& SignatureMatcher::prefilter() const { return compiled().prefilter; }

bool SignatureMatcher::empty() const { return compiled().members.empty(); }

bool SignatureMatcher::any(std::string_view text) const {
  const Compiled& c = compiled();
  if (!c.set) return false;
  // The first lines go to the set directly (a relaxed counter: which thread's line is the
  // last unfiltered one does not matter, the answer is the same).
  auto& calls = lazy_->unfiltered_calls;
  bool filter = calls.load(std::memory_order_relaxed) >= kPrefilterAfter;
  if (!filter) calls.fetch_add(1, std::memory_order_relaxed);
  return (!filter || c.prefilter.may_match(text)) &&
         c.set->Match(re2::StringPiece(text.data(), text.size()), nullptr);
}

bool SignatureMatcher::any_unfiltered(std::string_view text) const {
  const Compiled& c = compiled();
  return c.set && c.set->Match(re2::StringPiece(text.data(), text.size()), nullptr);
}

void SignatureMatcher::match(std::string_view text, std::string_view module,
                             std::vector<int>& scratch, std::vector<int>& out) const {
  out.clear();
  const Compiled& c = compiled();
  if (!c.set) return;  // not prefiltered: every caller asked any() first
  if (!c.set->Match(re2::StringPiece(text.data(), text.size()), &scratch)) return;
  for (int k : scratch) {
    int idx = c.members[static_cast<size_t>(k)];
    const auto& modules = c.member_modules[static_cast<size_t>(k)];
    if (!modules.empty() && !module.empty() &&
        std::find(modules.begin(), modules.end(), module) == modules.end())
      continue;
    out.push_back(idx);
  }
  // A generated ascend-fd fragment signature only speaks for a line no hand-written one knows.
  bool hand_written = false, fallback = false;
  for (int k : scratch) {
    int idx = c.members[static_cast<size_t>(k)];
    if (std::find(out.begin(), out.end(), idx) == out.end()) continue;
    (c.member_fallback[static_cast<size_t>(k)] ? fallback : hand_written) = true;
  }
  if (hand_written && fallback)
    for (int k : scratch)
      if (c.member_fallback[static_cast<size_t>(k)]) std::erase(out, c.members[static_cast<size_t>(k)]);
  // A narrower signature that matched removes the broader ones it names (in place: no allocation).
  for (int k : scratch)
    for (int replaced : c.member_supersedes[static_cast<size_t>(k)])
      if (std::find(out.begin(), out.end(), c.members[static_cast<size_t>(k)]) != out.end())
        std::erase(out, replaced);
  std::sort(out.begin(), out.end());
}

// --- knowledge base ----------------------------------------------------------------------

const ErrorCodeInfo* KnowledgeBase::find_code(std::string_view code) const {
  // Hex codes are stored lower-case without leading zeros ("0x7020014"); logs may write
  // "0x07020014" or "0X2A".
  std::string key(code);
  if (key.size() > 2 && key[0] == '0' && (key[1] == 'x' || key[1] == 'X')) {
    size_t i = 2;
    while (i + 1 < key.size() && key[i] == '0') ++i;
    std::string norm = "0x";
    for (size_t k = i; k < key.size(); ++k)
      norm += static_cast<char>(std::tolower(static_cast<unsigned char>(key[k])));
    key = norm;
  }
  for (const auto& e : error_codes)
    if (e.code == key) return &e;
  return nullptr;
}

const Signature* KnowledgeBase::find_signature(std::string_view id) const {
  for (const auto& s : signatures)
    if (s.id == id) return &s;
  return nullptr;
}

namespace {
// Whether `content` is the built-in file `name` as shipped: its patterns were compiled by the
// tests, so they compile on first use; an override's are compiled at load to report errors.
bool is_builtin_content(const std::string& name, const std::string& content) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == name) return f.content == content;
  return false;
}
}  // namespace

KnowledgeBase build_knowledge(const std::vector<KnowledgeFile>& files, std::string origin) {
  KnowledgeBase kb;
  kb.origin = std::move(origin);
  // Later files replace earlier ones of the same name.
  std::map<std::string, const KnowledgeFile*> by_name;
  for (const auto& f : files) by_name[f.name] = &f;
  std::set<std::string> ids;
  for (const auto& [fname, f] : by_name) {
    // The verdict rules and the finding catalogue have loaders of their own (correlator/verdict_*).
    // Mappings of other tools' rules are documentation data, checked but not loaded.
    // Schemas describe the JSON files; `knowledge check` applies them (knowledge/knowledge_schemas.h).
    if (fname.starts_with("verdict/") || fname.starts_with("mappings/") || fname.starts_with("schemas/"))
      continue;
    if (fname == "findings.tsv") {  // the catalogue before every area's words were data
      kb.errors.push_back(fname + ": no longer read: its rows belong in findings/<area>.tsv");
      continue;
    }
    if (fname.ends_with(".json")) {
      std::vector<Signature> sigs;
      parse_signature_file(f->content, fname, sigs, kb.errors, !is_builtin_content(fname, f->content));
      for (auto& s : sigs) {
        if (!ids.insert(s.id).second) {
          kb.errors.push_back(fname + ": duplicate signature id " + s.id + " (later one ignored)");
          continue;
        }
        kb.signatures.push_back(std::move(s));
      }
    } else if (fname.starts_with("findings/")) {
      // finding texts: loaded on their own (knowledge/finding_texts.h); a broken override's
      // problems are reported here with the others, and its built-in file stands instead
      std::vector<FindingText> texts;
      parse_finding_texts(f->content, fname, texts, kb.errors);
    } else if (fname.starts_with("versions/")) {
      if (fname.ends_with(".tsv")) kb.version_files.push_back(*f);  // parsed by version-matrix
    } else if (fname == "device-events.tsv") {
      parse_device_event_file(f->content, fname, kb.device_events, kb.errors);
    } else if (is_self_loaded_table(fname)) {
      // read by its own module (knowledge/self_loaded_tables.cpp names it)
    } else if (fname == "pci-ids.tsv") {
      parse_pci_id_file(f->content, fname, kb.pci_ids, kb.errors);
    } else if (fname.ends_with(".tsv")) {
      parse_error_code_file(f->content, fname, kb.error_codes, kb.errors);
    }
  }
  kb.plog_matcher = SignatureMatcher(kb.signatures, kSigPlog);
  kb.kernel_matcher = SignatureMatcher(kb.signatures, kSigKernel);
  kb.job_matcher = SignatureMatcher(kb.signatures, kSigJob);
  kb.npu_smi_matcher = SignatureMatcher(kb.signatures, kSigNpuSmi);
  return kb;
}

std::string_view signature_source_name(SignatureSource s) {
  switch (s) {
    case kSigPlog: return "plog";
    case kSigKernel: return "kernel";
    case kSigJob: return "job";
    case kSigNpuSmi: return "npu-smi";
  }
  return "unknown";
}

const KnowledgeBase& knowledge_for(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<KnowledgeBase>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dir);
  if (it != cache.end()) return *it->second;
  require_compile_headroom();
  std::vector<KnowledgeFile> files = builtin_knowledge_files();
  std::vector<std::string> errors;
  std::string origin = "built-in";
  if (!dir.empty()) {
    auto extra = read_knowledge_dir(dir, errors);
    for (auto& f : extra) files.push_back(std::move(f));
    origin += " + " + dir;
  }
  auto kb = std::make_unique<KnowledgeBase>(build_knowledge(files, origin));
  for (auto& e : errors) kb->errors.insert(kb->errors.begin(), e);
  auto& ref = *kb;
  cache.emplace(dir, std::move(kb));
  return ref;
}

}  // namespace triage
