#include "fleet/summary_reader.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/time.h"
#include "reports/display_width.h"
#include "reports/summary_report.h"

namespace triage::fleet {

namespace {

// A value that breaks the schema: where (JSON Pointer) and what was expected.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using simdjson::dom::element;
using simdjson::dom::object;

element field(const object& o, const std::string& at, std::string_view key) {
  element e;
  if (o.at_key(key).get(e)) throw Bad(at + "/" + std::string(key) + ": missing");
  return e;
}

// Every string of a summary is made printable as it is read (display_width.h): a host name
// holding a newline or an escape sequence would otherwise print as lines of its own or drive
// the terminal in every format of `fleet` and in its messages (issue 33).
std::string str(const object& o, const std::string& at, std::string_view key) {
  std::string_view s;
  if (field(o, at, key).get_string().get(s)) throw Bad(at + "/" + std::string(key) + ": expected a string");
  return printable_utf8(s);
}

int64_t integer(const object& o, const std::string& at, std::string_view key) {
  int64_t v;
  if (field(o, at, key).get_int64().get(v)) throw Bad(at + "/" + std::string(key) + ": expected an integer");
  return v;
}

std::optional<int64_t> integer_or_null(const object& o, const std::string& at, std::string_view key) {
  element e = field(o, at, key);
  if (e.is_null()) return std::nullopt;
  int64_t v;
  if (e.get_int64().get(v)) throw Bad(at + "/" + std::string(key) + ": expected an integer or null");
  return v;
}

// A time in microseconds since the epoch, within the analyzer's range (model/time.h): a value
// at the int64 limits would print impossible dates and overflow the skew arithmetic.
int64_t in_time_range(int64_t v, const std::string& at, std::string_view key) {
  if (v < kMinUtcUs || v > kMaxUtcUs)
    throw Bad(at + "/" + std::string(key) + ": " + std::to_string(v) +
              " is outside the times the analyzer reads (1970-01-01 to 2200-12-31)");
  return v;
}

int64_t utc_us(const object& o, const std::string& at, std::string_view key) {
  return in_time_range(integer(o, at, key), at, key);
}

std::optional<int64_t> utc_us_or_null(const object& o, const std::string& at, std::string_view key) {
  auto v = integer_or_null(o, at, key);
  if (v) in_time_range(*v, at, key);
  return v;
}

// A clock difference in milliseconds: at most the span of the readable times.
int64_t skew_ms(const object& o, const std::string& at, std::string_view key) {
  int64_t v = integer(o, at, key);
  if (v < -kMaxUtcUs / 1000 || v > kMaxUtcUs / 1000)
    throw Bad(at + "/" + std::string(key) + ": " + std::to_string(v) +
              " ms is more than the span of the times the analyzer reads");
  return v;
}

object obj(element e, const std::string& at) {
  object o;
  if (e.get_object().get(o)) throw Bad(at + ": expected an object");
  return o;
}

// Calls f(object, pointer) for each element of the array `key` (each must be an object).
template <class F>
void each_object(const object& o, const std::string& at, std::string_view key, F&& f) {
  simdjson::dom::array a;
  std::string here = at + "/" + std::string(key);
  if (field(o, at, key).get_array().get(a)) throw Bad(here + ": expected an array");
  size_t i = 0;
  for (element e : a) {
    std::string p = here + "/" + std::to_string(i++);
    f(obj(e, p), p);
  }
}

// The same for an array a summary may lack (added after its first version): absent = empty.
template <class F>
void each_optional_object(const object& o, const std::string& at, std::string_view key, F&& f) {
  element e;
  if (o.at_key(key).get(e)) return;
  each_object(o, at, key, std::forward<F>(f));
}

template <class F>
void each_integer(const object& o, const std::string& at, std::string_view key, F&& f) {
  simdjson::dom::array a;
  std::string here = at + "/" + std::string(key);
  if (field(o, at, key).get_array().get(a)) throw Bad(here + ": expected an array");
  size_t i = 0;
  for (element e : a) {
    int64_t v;
    if (e.get_int64().get(v)) throw Bad(here + "/" + std::to_string(i) + ": expected an integer");
    ++i;
    f(v);
  }
}

NodeSummary read_node(const object& n, const std::string& at) {
  NodeSummary s;
  s.host = str(n, at, "host");
  simdjson::dom::array inputs;
  if (field(n, at, "inputs").get_array().get(inputs)) throw Bad(at + "/inputs: expected an array");
  for (element e : inputs) {
    std::string_view v;
    if (e.get_string().get(v)) throw Bad(at + "/inputs: expected strings");
    s.inputs.push_back(printable_utf8(v));
  }
  each_object(n, at, "boots", [&](const object& b, const std::string& p) {
    s.boots.push_back({str(b, p, "boot_id"), utc_us_or_null(b, p, "start_utc_us")});
  });
  each_object(n, at, "ranks", [&](const object& r, const std::string& p) {
    s.ranks.push_back({str(r, p, "rank"), integer(r, p, "pid"), integer_or_null(r, p, "device")});
  });
  each_integer(n, at, "devices", [&](int64_t v) { s.devices.push_back(v); });
  each_integer(n, at, "pids", [&](int64_t v) { s.pids.push_back(v); });
  each_object(n, at, "findings", [&](const object& f, const std::string& p) {
    NodeFinding x;
    x.id = str(f, p, "id");
    x.severity = str(f, p, "severity");
    x.klass = str(f, p, "class");
    x.role = str(f, p, "role");
    if (x.role != "origin" && x.role != "waiter" && x.role != "context")
      throw Bad(p + "/role: '" + x.role + "' is not origin, waiter or context");
    x.title = str(f, p, "title");
    x.first_utc_us = utc_us_or_null(f, p, "first_utc_us");
    x.last_utc_us = utc_us_or_null(f, p, "last_utc_us");
    x.clock = str(f, p, "clock");
    x.pid = integer_or_null(f, p, "pid");
    x.device = integer_or_null(f, p, "device");
    x.rank = str(f, p, "rank");
    s.findings.push_back(std::move(x));
  });
  each_object(n, at, "skews", [&](const object& k, const std::string& p) {
    s.skews.push_back({str(k, p, "source_a"), str(k, p, "source_b"), str(k, p, "method"),
                       skew_ms(k, p, "b_minus_a_ms")});
  });
  each_object(n, at, "versions", [&](const object& v, const std::string& p) {
    s.versions.push_back({str(v, p, "component"), str(v, p, "version")});
  });
  each_object(n, at, "fingerprints", [&](const object& v, const std::string& p) {
    int64_t items = integer(v, p, "items");
    if (items < 0) throw Bad(p + "/items: negative");
    s.fingerprints.push_back({str(v, p, "name"), str(v, p, "hash"), static_cast<uint64_t>(items)});
  });
  each_object(n, at, "collectives", [&](const object& c, const std::string& p) {
    int64_t count = integer(c, p, "count");
    if (count < 0) throw Bad(p + "/count: negative");
    s.collectives.push_back({str(c, p, "key"), utc_us(c, p, "first_utc_us"), str(c, p, "clock"),
                             static_cast<uint64_t>(count)});
  });
  // Issue 37: whom the node's ranks wait on, and the node's own addresses. Summaries written
  // before have neither: they load with none.
  each_optional_object(n, at, "waits", [&](const object& w, const std::string& p) {
    if (s.waits.size() >= kMaxNodeWaitEdges) throw Bad(p + ": more than " + std::to_string(kMaxNodeWaitEdges) + " wait edges");
    NodeWaitEdge e;
    e.signature = str(w, p, "signature");
    e.waiter_rank = str(w, p, "waiter_rank");
    e.waiter_pid = integer_or_null(w, p, "waiter_pid");
    e.waiter_device = integer_or_null(w, p, "waiter_device");
    e.waiter_address = str(w, p, "waiter_address");
    e.target_rank = str(w, p, "target_rank");
    e.target_address = str(w, p, "target_address");
    if (e.target_rank.empty() && e.target_address.empty()) throw Bad(p + ": names neither target_rank nor target_address");
    e.first_utc_us = utc_us_or_null(w, p, "first_utc_us");
    e.clock = str(w, p, "clock");
    e.waiter_first_error_utc_us = utc_us_or_null(w, p, "waiter_first_error_utc_us");
    int64_t count = integer(w, p, "count");
    if (count < 0) throw Bad(p + "/count: negative");
    e.count = static_cast<uint64_t>(count);
    s.waits.push_back(std::move(e));
  });
  each_optional_object(n, at, "addresses", [&](const object& a, const std::string& p) {
    if (s.addresses.size() >= kMaxNodeAddresses) throw Bad(p + ": more than " + std::to_string(kMaxNodeAddresses) + " addresses");
    s.addresses.push_back({str(a, p, "ip"), integer_or_null(a, p, "device"), str(a, p, "rank"), str(a, p, "source")});
  });
  return s;
}

}  // namespace

struct SummaryReader::Impl {
  simdjson::dom::parser parser;
};

SummaryReader::SummaryReader() : impl_(new Impl) {}
SummaryReader::~SummaryReader() { delete impl_; }

bool SummaryReader::read_file(const std::string& path, std::vector<LoadedNode>& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open";
    return false;
  }
  // A summary is a few kB per node: a file this large is something else, not read into memory.
  std::error_code ec;
  if (auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxSummaryBytes) {
    error = path + ": " + std::to_string(size) + " bytes is too large for a summary (at most " +
            std::to_string(kMaxSummaryBytes) + ")";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = path + ": read error";
    return false;
  }
  return read_text(ss.str(), path, out, error);
}

bool SummaryReader::read_text(const std::string& text, const std::string& name, std::vector<LoadedNode>& out,
                              std::string& error) {
  element doc;
  if (auto err = impl_->parser.parse(text).get(doc)) {
    error = name + ": not JSON (" + std::string(simdjson::error_message(err)) + ")";
    return false;
  }
  std::vector<LoadedNode> nodes;
  try {
    object root = obj(doc, "");
    std::string schema = str(root, "", "schema");
    if (schema != kSummarySchema)
      throw Bad("/schema: '" + schema + "' is not " + std::string(kSummarySchema) +
                " (write it with: ascend-triage analyze --format summary BUNDLE -o FILE)");
    each_object(root, "", "nodes", [&](const object& n, const std::string& p) {
      nodes.push_back({read_node(n, p), name});
    });
  } catch (const Bad& b) {
    error = name + ": " + b.what();
    return false;
  }
  for (auto& n : nodes) out.push_back(std::move(n));
  return true;
}

}  // namespace triage::fleet
