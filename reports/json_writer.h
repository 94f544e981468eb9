#pragma once
// A small streaming JSON writer (simdjson 3.0 on Debian 12 has no builder). Strings from
// bundles may hold any bytes: invalid UTF-8 is written as \u00XX per byte, as the bundle
// contract does, so output is always valid JSON.
#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace triage {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t n);
  JsonWriter& value(uint64_t n);
  JsonWriter& value(int n) { return value(static_cast<int64_t>(n)); }
  JsonWriter& value(bool b);
  JsonWriter& null();

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  static void write_string(std::ostream& out, std::string_view s);

 private:
  void before_value();
  void newline();
  std::ostream& out_;
  bool pretty_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
};

}  // namespace triage
