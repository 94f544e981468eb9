// Validating a document against a compiled schema: a depth-first walk that records each
// violation with the JSON Pointer of the value and the keyword it breaks.
#include <charconv>
#include <cmath>

#include "jsonschema/schema_nodes.h"

namespace triage::jsonschema {

namespace {

using namespace simdjson;

std::string type_names(uint8_t mask) {
  static constexpr std::pair<uint8_t, std::string_view> kNames[] = {
      {kObject, "object"}, {kArray, "array"},     {kString, "string"}, {kInteger, "integer"},
      {kNumber, "number"}, {kBoolean, "boolean"}, {kNull, "null"}};
  std::string out;
  for (const auto& [bit, name] : kNames)
    if (mask & bit) out += (out.empty() ? "" : " or ") + std::string(name);
  return out;
}

// The type of a value as a mask: an integer is also a number, and so is 2.0 (JSON Schema).
uint8_t type_of(dom::element v) {
  switch (v.type()) {
    case dom::element_type::ARRAY: return kArray;
    case dom::element_type::OBJECT: return kObject;
    case dom::element_type::INT64:
    case dom::element_type::UINT64: return kInteger | kNumber;
    case dom::element_type::DOUBLE: {
      double d = v.get_double().value_unsafe();
      return std::isfinite(d) && std::floor(d) == d ? (kInteger | kNumber) : kNumber;
    }
    case dom::element_type::STRING: return kString;
    case dom::element_type::BOOL: return kBoolean;
    case dom::element_type::NULL_VALUE: return kNull;
  }
  return 0;
}

double number_of(dom::element v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64().value_unsafe());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64().value_unsafe());
  return v.get_double().value_unsafe();
}

bool equal(dom::element a, dom::element b) {
  uint8_t ta = type_of(a), tb = type_of(b);
  if ((ta & kNumber) && (tb & kNumber)) {
    if ((ta & kInteger) && (tb & kInteger) && a.is_int64() && b.is_int64())
      return a.get_int64().value_unsafe() == b.get_int64().value_unsafe();
    return number_of(a) == number_of(b);
  }
  if (ta != tb) return false;
  switch (a.type()) {
    case dom::element_type::STRING: return a.get_string().value_unsafe() == b.get_string().value_unsafe();
    case dom::element_type::BOOL: return a.get_bool().value_unsafe() == b.get_bool().value_unsafe();
    case dom::element_type::NULL_VALUE: return true;
    case dom::element_type::ARRAY: {
      dom::array x = a.get_array().value_unsafe(), y = b.get_array().value_unsafe();
      if (x.size() != y.size()) return false;
      for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
        if (!equal(*i, *j)) return false;
      return true;
    }
    case dom::element_type::OBJECT: {
      dom::object x = a.get_object().value_unsafe(), y = b.get_object().value_unsafe();
      if (x.size() != y.size()) return false;
      for (auto f : x) {
        dom::element other;
        if (y.at_key(f.key).get(other) || !equal(f.value, other)) return false;
      }
      return true;
    }
    default: return false;
  }
}

// A value (element or array) as JSON for a message, cut short.
template <class Json>
std::string shown(Json v, size_t max = 80) {
  std::string s = simdjson::minify(v);
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

struct Walker {
  const Schema::Impl& s;
  size_t max;
  std::vector<Violation>& out;
  std::string path;

  bool full() const { return out.size() >= max; }
  void add(std::string_view rule, std::string message) {
    if (!full()) out.push_back({path, std::string(rule), std::move(message)});
  }

  void check(int idx, dom::element v) {
    if (full()) return;
    const Node& n = s.nodes[static_cast<size_t>(idx)];
    if (n.reject) return add("false", "no value is allowed here");
    if (n.ref >= 0) check(n.ref, v);
    uint8_t t = type_of(v);
    if (n.types && !(n.types & t))
      return add("type", "expected " + type_names(n.types) + ", got " +
                                 type_names(t & kInteger ? uint8_t{kInteger} : t));
    if (n.enum_values) {
      bool any = false;
      for (auto e : *n.enum_values) any = any || equal(v, e);
      if (!any) add("enum", shown(v) + " is not one of " + shown(*n.enum_values, 200));
    }
    if (n.const_value && !equal(v, *n.const_value))
      add("const", shown(v) + " is not " + shown(*n.const_value));
    if (n.pattern && (t & kString)) {
      std::string_view str = v.get_string().value_unsafe();
      if (!RE2::PartialMatch(re2::StringPiece(str.data(), str.size()), *n.pattern))
        add("pattern", shown(v) + " does not match " + n.pattern->pattern());
    }
    if (t & kNumber) {
      double d = number_of(v);
      if (n.minimum && d < *n.minimum) add("minimum", shown(v) + " is below " + shown_number(*n.minimum));
      if (n.maximum && d > *n.maximum) add("maximum", shown(v) + " is above " + shown_number(*n.maximum));
    }
    if (t & kArray) array(n, v.get_array().value_unsafe());
    if (t & kObject) object(n, v.get_object().value_unsafe());
  }

  static std::string shown_number(double d) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
  }

  void array(const Node& n, dom::array a) {
    if (a.size() < n.min_items)
      add("minItems", std::to_string(a.size()) + " items, at least " + std::to_string(n.min_items) + " required");
    if (n.items < 0) return;
    size_t i = 0;
    for (auto e : a) {
      size_t old = path.size();
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof buf, i++);
      path += '/';
      path.append(buf, r.ptr);
      check(n.items, e);
      path.resize(old);
    }
  }

  void object(const Node& n, dom::object o) {
    size_t old = path.size();
    for (const auto& name : n.required) {
      dom::element ignored;
      if (o.at_key(name).get(ignored) == SUCCESS) continue;
      path += '/';
      append_pointer_token(path, name);
      add("required", "the property is missing");
      path.resize(old);
    }
    for (auto f : o) {
      int child = n.additional;
      bool named = false;
      for (const auto& [name, c] : n.properties)
        if (name == f.key) {
          child = c, named = true;
          break;
        }
      path += '/';
      append_pointer_token(path, f.key);
      if (!named && child >= 0 && s.nodes[static_cast<size_t>(child)].reject)
        add("additionalProperties", "the property is not allowed here");
      else if (child >= 0)
        check(child, f.value);
      path.resize(old);
    }
  }
};

}  // namespace

std::vector<Violation> Schema::validate(std::string_view json, size_t max_violations) const {
  std::vector<Violation> out;
  dom::parser parser;
  padded_string text(json);
  dom::element root;
  if (auto err = parser.parse(text).get(root)) {
    out.push_back({"", "json", std::string("not JSON: ") + error_message(err)});
    return out;
  }
  Walker w{*impl_, max_violations, out, {}};
  w.check(0, root);
  return out;
}

}  // namespace triage::jsonschema
