// Compiling a schema: every keyword is checked here, once, so that validation never meets a
// keyword it does not know (docs/json-schema.md lists the subset).
#include <map>
#include <set>

#include "jsonschema/schema_nodes.h"

namespace triage::jsonschema {

namespace {

using namespace simdjson;

constexpr std::pair<std::string_view, uint8_t> kTypeNames[] = {
    {"null", kNull},     {"boolean", kBoolean}, {"object", kObject}, {"array", kArray},
    {"number", kNumber}, {"string", kString},   {"integer", kInteger}};

// Keywords that describe and never constrain.
const std::set<std::string_view> kAnnotations = {"$schema", "$id", "$comment", "title",
                                                 "description"};

constexpr std::string_view kDefsPrefix = "#/$defs/";

struct Compiler {
  Schema::Impl& s;
  std::vector<std::string>& errors;
  std::map<std::string, int, std::less<>> defs;
  std::vector<std::pair<int, std::string>> refs;  // node, definition name

  void fail(const std::string& where, const std::string& what) {
    errors.push_back(where + ": " + what);
  }

  static std::string child(const std::string& where, std::string_view keyword) {
    std::string w = where + "/";
    append_pointer_token(w, keyword);
    return w;
  }

  int node(dom::element e, const std::string& where, bool root = false) {
    int idx = static_cast<int>(s.nodes.size());
    s.nodes.emplace_back();
    s.nodes[idx].where = where;
    bool b;
    if (e.get_bool().get(b) == SUCCESS) {
      s.nodes[idx].reject = !b;
      return idx;
    }
    dom::object o;
    if (e.get_object().get(o)) {
      fail(where, "a schema is an object or a boolean");
      return idx;
    }
    for (auto field : o) keyword(idx, field.key, field.value, where, root);
    return idx;
  }

  void type(int idx, dom::element v, const std::string& where) {
    auto add = [&](dom::element t) {
      std::string_view name;
      if (t.get_string().get(name)) return fail(where + "/type", "a type name is a string");
      for (const auto& [n, bit] : kTypeNames)
        if (n == name) {
          s.nodes[idx].types |= bit;
          return;
        }
      fail(where + "/type", "unknown type '" + std::string(name) + "'");
    };
    dom::array a;
    if (v.get_array().get(a) == SUCCESS) {
      if (a.size() == 0) fail(where + "/type", "an empty list of types");
      for (auto t : a) add(t);
    } else {
      add(v);
    }
  }

  void keyword(int idx, std::string_view k, dom::element v, const std::string& where, bool root) {
    const std::string at = child(where, k);
    if (kAnnotations.count(k)) return;
    if (k == "type") return type(idx, v, where);
    if (k == "required") {
      dom::array a;
      if (v.get_array().get(a)) return fail(at, "must be an array of property names");
      for (auto n : a) {
        std::string_view name;
        if (n.get_string().get(name)) return fail(at, "must be an array of property names");
        s.nodes[idx].required.emplace_back(name);
      }
      return;
    }
    if (k == "properties" || (k == "$defs" && root)) {
      dom::object o;
      if (v.get_object().get(o)) return fail(at, "must be an object of schemas");
      for (auto f : o) {
        int c = node(f.value, child(at, f.key));
        if (k == "properties") s.nodes[idx].properties.emplace_back(std::string(f.key), c);
        else defs.emplace(std::string(f.key), c);
      }
      return;
    }
    if (k == "$defs") return fail(at, "$defs only at the root of the schema");
    if (k == "additionalProperties" || k == "items") {
      if (v.is_array()) return fail(at, "the array form is not in the subset (one schema for every element)");
      int c = node(v, at);
      (k == "items" ? s.nodes[idx].items : s.nodes[idx].additional) = c;
      return;
    }
    if (k == "enum") {
      dom::array a;
      if (v.get_array().get(a) || a.size() == 0) return fail(at, "must be a non-empty array");
      s.nodes[idx].enum_values = a;
      return;
    }
    if (k == "const") {
      s.nodes[idx].const_value = v;
      return;
    }
    if (k == "pattern") {
      std::string_view p;
      if (v.get_string().get(p)) return fail(at, "must be a string (an RE2 pattern)");
      RE2::Options opts;
      opts.set_log_errors(false);
      auto re = std::make_unique<RE2>(re2::StringPiece(p.data(), p.size()), opts);
      if (!re->ok()) return fail(at, "does not compile as RE2: " + re->error());
      s.nodes[idx].pattern = std::move(re);
      return;
    }
    if (k == "minimum" || k == "maximum") {
      if (!v.is_number()) return fail(at, "must be a number");
      double d = 0;
      if (v.is_int64()) d = static_cast<double>(v.get_int64().value_unsafe());
      else if (v.is_uint64()) d = static_cast<double>(v.get_uint64().value_unsafe());
      else d = v.get_double().value_unsafe();
      (k == "minimum" ? s.nodes[idx].minimum : s.nodes[idx].maximum) = d;
      return;
    }
    if (k == "minItems") {
      uint64_t n;
      if (v.get_uint64().get(n)) return fail(at, "must be a non-negative integer");
      s.nodes[idx].min_items = n;
      return;
    }
    if (k == "$ref") {
      std::string_view r;
      if (v.get_string().get(r) || !r.starts_with(kDefsPrefix) ||
          r.substr(kDefsPrefix.size()).find('/') != std::string_view::npos)
        return fail(at, "only \"#/$defs/NAME\" references are in the subset");
      refs.emplace_back(idx, std::string(r.substr(kDefsPrefix.size())));
      return;
    }
    fail(at, "unknown keyword (not in the subset of docs/json-schema.md, so it would go unchecked)");
  }

  void resolve() {
    for (const auto& [idx, name] : refs) {
      auto it = defs.find(name);
      if (it == defs.end()) fail(s.nodes[idx].where + "/$ref", "no definition '" + name + "' in $defs");
      else s.nodes[idx].ref = it->second;
    }
    // A chain of $refs that comes back to its start would validate forever.
    for (size_t i = 0; i < s.nodes.size(); ++i) {
      int j = static_cast<int>(i);
      size_t steps = 0;
      while (s.nodes[j].ref >= 0 && steps <= s.nodes.size()) j = s.nodes[j].ref, ++steps;
      if (steps > s.nodes.size()) {
        fail(s.nodes[i].where + "/$ref", "a cycle of references that never reaches a value");
        return;
      }
    }
  }
};

}  // namespace

Schema::Schema(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Schema::~Schema() = default;

std::unique_ptr<Schema> Schema::compile(std::string_view text, std::vector<std::string>& errors) {
  auto impl = std::make_unique<Impl>();
  dom::element root;
  padded_string json(text);
  if (auto err = impl->parser.parse(json).get(root)) {
    errors.push_back(std::string("#: not JSON: ") + error_message(err));
    return nullptr;
  }
  size_t before = errors.size();
  Compiler c{*impl, errors, {}, {}};
  c.node(root, "#", true);
  c.resolve();
  if (errors.size() != before) return nullptr;
  return std::unique_ptr<Schema>(new Schema(std::move(impl)));
}

std::string Violation::to_string() const {
  return (path.empty() ? std::string("(root)") : path) + ": " + rule + ": " + message;
}

}  // namespace triage::jsonschema
