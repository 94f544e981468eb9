#pragma once
// Small readers the sample tests use to check samples/ against the bundle contract on their
// own, without the project's parsers (which are written elsewhere and tested on these samples).
#include <nettle/sha2.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace samples_test {

namespace fs = std::filesystem;

inline const std::vector<std::string>& bundle_samples() {
  static const std::vector<std::string> names = {
      "incident-910b-before-reboot", "incident-910b-after-reboot", "healthy-first-step-compile",
      "healthy-after-reinstall"};
  return names;
}
inline const std::string kLooseSample = "incident-loose-files";
// Directories of several small bundles (nodeN/), for fleet triage (tests/fleet/samples.sh).
inline const std::vector<std::string>& fleet_samples() {
  static const std::vector<std::string> names = {"fleet-4node", "fleet-4node-node1", "fleet-4node-skew"};
  return names;
}

inline fs::path sample_path(const std::string& name) { return fs::path(SAMPLES_DIR) / name; }

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Every regular file under `dir`, as generic paths relative to it, sorted.
inline std::vector<std::string> list_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string sha256_hex(std::string_view data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) {
    out.push_back(hex[b >> 4]);
    out.push_back(hex[b & 15]);
  }
  return out;
}

inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

// Lines without their '\n'; a final line without '\n' is kept (callers check endings apart).
inline std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out = split(text, '\n');
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
inline bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

struct Tsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // raw (escaped) fields
  std::vector<std::string> problems;           // rows of the wrong width, bad escapes

  std::optional<size_t> column(std::string_view name) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    return std::nullopt;
  }
};

// The contract's TSV: a header line, tab-separated fields escaping \\, \t, \n, \r.
inline Tsv read_tsv(const fs::path& p) {
  Tsv t;
  std::string text = read_file(p);
  std::vector<std::string> ls = lines_of(text);
  if (ls.empty()) {
    t.problems.push_back("empty file");
    return t;
  }
  t.header = split(ls[0], '\t');
  for (size_t i = 1; i < ls.size(); ++i) {
    if (ls[i].find('\r') != std::string::npos) t.problems.push_back("line " + std::to_string(i + 1) + ": raw CR");
    auto fields = split(ls[i], '\t');
    if (fields.size() != t.header.size())
      t.problems.push_back("line " + std::to_string(i + 1) + ": " + std::to_string(fields.size()) +
                           " fields, header has " + std::to_string(t.header.size()));
    for (const auto& f : fields)
      for (size_t k = 0; k < f.size(); ++k)
        if (f[k] == '\\') {
          if (k + 1 >= f.size() || std::string_view("\\tnr").find(f[k + 1]) == std::string_view::npos)
            t.problems.push_back("line " + std::to_string(i + 1) + ": bad escape");
          ++k;
        }
    t.rows.push_back(std::move(fields));
  }
  return t;
}

// key=value lines (time.txt, boot.txt, tz.txt).
inline std::map<std::string, std::string> read_kv(const fs::path& p) {
  std::map<std::string, std::string> out;
  for (const auto& l : lines_of(read_file(p))) {
    auto eq = l.find('=');
    if (eq != std::string::npos) out[l.substr(0, eq)] = l.substr(eq + 1);
  }
  return out;
}

struct ExpectedKind {
  std::string sample, path, kind;
};

inline std::vector<ExpectedKind> read_expected_kinds() {
  Tsv t = read_tsv(fs::path(SAMPLES_DIR) / "expected-kinds.tsv");
  if (t.header != std::vector<std::string>{"sample", "path", "kind"} || !t.problems.empty())
    throw std::runtime_error("expected-kinds.tsv: bad header or rows");
  std::vector<ExpectedKind> out;
  for (auto& r : t.rows) out.push_back({r[0], r[1], r[2]});
  return out;
}

// ---- manifest -------------------------------------------------------------------------------

struct ManifestItem {
  std::set<std::string> keys;
  std::string path, source, status, reason, sha256, started_utc, source_mtime_utc, error;
  std::string exec_json, kept_ranges_json;  // compact JSON text ("null" when null)
  std::optional<uint64_t> bytes;
  std::optional<int64_t> rc, duration_ms;
  bool truncated = false;

  bool operator==(const ManifestItem&) const = default;
};

struct Manifest {
  std::set<std::string> keys;
  std::string format, collector_version, host, collected_at_utc, finished_utc, locale;
  int64_t format_version = 0;
  std::vector<ManifestItem> items;
};

inline std::string opt_string(simdjson::ondemand::value v) {
  if (v.is_null()) return "";
  return std::string(std::string_view(v.get_string()));
}

inline std::string json_text(simdjson::ondemand::value v) {
  return std::string(std::string_view(simdjson::to_json_string(v)));
}

// Throws simdjson_error on malformed JSON; unknown keys are kept in `keys` only.
inline ManifestItem parse_item(simdjson::ondemand::object obj) {
  ManifestItem it;
  for (auto field : obj) {
    std::string key(std::string_view(field.unescaped_key()));
    it.keys.insert(key);
    simdjson::ondemand::value v = field.value();
    if (key == "path") it.path = opt_string(v);
    else if (key == "source") it.source = opt_string(v);
    else if (key == "status") it.status = opt_string(v);
    else if (key == "reason") it.reason = opt_string(v);
    else if (key == "sha256") it.sha256 = opt_string(v);
    else if (key == "started_utc") it.started_utc = opt_string(v);
    else if (key == "source_mtime_utc") it.source_mtime_utc = opt_string(v);
    else if (key == "error") it.error = opt_string(v);
    else if (key == "exec") it.exec_json = json_text(v);
    else if (key == "kept_ranges") it.kept_ranges_json = json_text(v);
    else if (key == "bytes") { if (!v.is_null()) it.bytes = uint64_t(v.get_uint64()); }
    else if (key == "rc") { if (!v.is_null()) it.rc = int64_t(v.get_int64()); }
    else if (key == "duration_ms") { if (!v.is_null()) it.duration_ms = int64_t(v.get_int64()); }
    else if (key == "truncated") it.truncated = bool(v.get_bool());
  }
  return it;
}

inline Manifest read_manifest(const fs::path& bundle) {
  Manifest m;
  simdjson::padded_string json = simdjson::padded_string::load((bundle / "manifest.json").string());
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc = parser.iterate(json);
  for (auto field : doc.get_object()) {
    std::string key(std::string_view(field.unescaped_key()));
    m.keys.insert(key);
    simdjson::ondemand::value v = field.value();
    if (key == "format") m.format = opt_string(v);
    else if (key == "format_version") m.format_version = int64_t(v.get_int64());
    else if (key == "collector_version") m.collector_version = opt_string(v);
    else if (key == "host") m.host = opt_string(v);
    else if (key == "collected_at_utc") m.collected_at_utc = opt_string(v);
    else if (key == "finished_utc") m.finished_utc = opt_string(v);
    else if (key == "locale") m.locale = opt_string(v);
    else if (key == "items")
      for (auto item : v.get_array()) m.items.push_back(parse_item(item.get_object()));
  }
  return m;
}

inline std::vector<ManifestItem> read_items_jsonl(const fs::path& bundle) {
  std::vector<ManifestItem> out;
  std::string text = read_file(bundle / "manifest.items.jsonl");
  simdjson::ondemand::parser parser;
  for (const auto& line : lines_of(text)) {
    simdjson::padded_string padded(line);
    simdjson::ondemand::document doc = parser.iterate(padded);
    out.push_back(parse_item(doc.get_object()));
  }
  return out;
}

inline bool status_has_file(const std::string& s) {
  return s == "ok" || s == "timed_out" || s == "failed" || s == "abandoned";
}
inline bool status_explains_absence(const std::string& s) {
  return s == "absent" || s == "denied" || s == "skipped" || s == "failed" || s == "timed_out" ||
         s == "abandoned";
}

}  // namespace samples_test
