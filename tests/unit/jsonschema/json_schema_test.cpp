// The JSON Schema subset validator (jsonschema/, docs/json-schema.md): each keyword accepts
// what it should and names path and rule for what it rejects; a schema outside the subset
// does not compile.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "jsonschema/schema.h"

using triage::jsonschema::Schema;

namespace {

std::unique_ptr<Schema> compile(const std::string& text) {
  std::vector<std::string> errors;
  auto s = Schema::compile(text, errors);
  std::string all = text + "\n";
  for (const auto& e : errors) all += e + "\n";
  INFO(all);
  REQUIRE(s);
  CHECK(errors.empty());
  return s;
}

// The violations of `json`, each as "path: rule: message".
std::vector<std::string> violations(const Schema& s, const std::string& json) {
  std::vector<std::string> out;
  for (const auto& v : s.validate(json)) out.push_back(v.to_string());
  return out;
}

// The one violation of `json`, which must exist and start with `prefix` ("path: rule").
void rejects(const Schema& s, const std::string& json, const std::string& prefix) {
  auto v = violations(s, json);
  INFO(json);
  std::string all;
  for (const auto& x : v) all += x + "\n";
  INFO(all);
  REQUIRE(v.size() == 1);
  CHECK(v[0].rfind(prefix, 0) == 0);
}

std::vector<std::string> schema_errors(const std::string& text) {
  std::vector<std::string> errors;
  auto s = Schema::compile(text, errors);
  CHECK_FALSE(s);
  return errors;
}

bool has(const std::vector<std::string>& v, const std::string& part) {
  for (const auto& s : v)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("json schema: types, including integer and type lists", "[jsonschema]") {
  auto s = compile(R"({"type": "object", "required": [], "properties": {
      "i": {"type": "integer"}, "n": {"type": "number"}, "s": {"type": "string"},
      "b": {"type": "boolean"}, "z": {"type": "null"}, "a": {"type": "array"},
      "o": {"type": "object"}, "sn": {"type": ["string", "null"]}}})");
  CHECK(violations(*s, R"({"i": 3, "n": 2.5, "s": "x", "b": true, "z": null, "a": [], "o": {},
                          "sn": null})").empty());
  CHECK(violations(*s, R"({"i": 3.0, "n": 7, "sn": "y"})").empty());  // 3.0 is an integer
  rejects(*s, R"({"i": 3.5})", "/i: type: expected integer, got number");
  rejects(*s, R"({"i": "3"})", "/i: type: expected integer, got string");
  rejects(*s, R"({"n": "1"})", "/n: type: expected number, got string");
  rejects(*s, R"({"s": 1})", "/s: type: expected string, got integer");
  rejects(*s, R"({"b": 0})", "/b: type: expected boolean");
  rejects(*s, R"({"z": false})", "/z: type: expected null, got boolean");
  rejects(*s, R"({"a": {}})", "/a: type: expected array, got object");
  rejects(*s, R"({"o": []})", "/o: type: expected object, got array");
  rejects(*s, R"({"sn": 1})", "/sn: type: expected string or null, got integer");
  rejects(*s, R"([])", "(root): type: expected object, got array");
}

TEST_CASE("json schema: required, properties, additionalProperties", "[jsonschema]") {
  auto s = compile(R"({"type": "object", "required": ["a", "b/c"], "additionalProperties": false,
      "properties": {"a": {"type": "object", "required": [], "additionalProperties": {"type": "integer"}},
                     "b/c": {}}})");
  CHECK(violations(*s, R"({"a": {"x": 1, "y": 2}, "b/c": "anything"})").empty());
  rejects(*s, R"({"b/c": 1})", "/a: required: the property is missing");
  rejects(*s, R"({"a": {}})", "/b~1c: required:");  // JSON Pointer escaping
  rejects(*s, R"({"a": {}, "b/c": 1, "extra": 1})", "/extra: additionalProperties: the property is not allowed");
  rejects(*s, R"({"a": {"x": "1"}, "b/c": 1})", "/a/x: type: expected integer");
  // Every violation is reported, in document order.
  auto v = violations(*s, R"({"a": {"x": "1", "y": true}, "z": 0})");
  REQUIRE(v.size() == 4);
  CHECK(v[0].starts_with("/b~1c: required"));
  CHECK(v[1].starts_with("/a/x: type"));
  CHECK(v[2].starts_with("/a/y: type"));
  CHECK(v[3].starts_with("/z: additionalProperties"));
}

TEST_CASE("json schema: items, minItems, enum, const, pattern, minimum, maximum", "[jsonschema]") {
  auto s = compile(R"({"type": "array", "minItems": 1, "items": {"type": "object", "required": ["k"],
      "properties": {"k": {"enum": ["a", 1, null, [1, 2], {"x": 1}]}, "c": {"const": 1},
                     "p": {"type": "string", "pattern": "^[a-z]+/[a-z]+$"},
                     "r": {"type": "integer", "minimum": -2, "maximum": 10}}}})");
  CHECK(violations(*s, R"([{"k": "a"}, {"k": 1.0, "c": 1.0}, {"k": null}, {"k": [1, 2]},
                           {"k": {"x": 1}, "p": "ab/cd", "r": -2}, {"k": "a", "r": 10}])").empty());
  rejects(*s, "[]", "(root): minItems: 0 items, at least 1 required");
  rejects(*s, R"([{"k": "a"}, {"k": "b"}])", "/1/k: enum: \"b\" is not one of");
  rejects(*s, R"([{"k": [2, 1]}])", "/0/k: enum:");
  rejects(*s, R"([{"k": {"x": 2}}])", "/0/k: enum:");
  rejects(*s, R"([{"k": "a", "c": 2}])", "/0/c: const: 2 is not 1");
  rejects(*s, R"([{"k": "a", "p": "ab/cd/ef"}])", "/0/p: pattern:");
  rejects(*s, R"([{"k": "a", "r": -3}])", "/0/r: minimum: -3 is below -2");
  rejects(*s, R"([{"k": "a", "r": 11}])", "/0/r: maximum: 11 is above 10");
}

TEST_CASE("json schema: $ref to $defs, recursive", "[jsonschema]") {
  auto s = compile(R"({"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "required": ["v"],
      "additionalProperties": false,
      "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}})");
  CHECK(violations(*s, R"({"v": 1, "kids": [{"v": 2, "kids": [{"v": 3}]}]})").empty());
  rejects(*s, R"({"v": 1, "kids": [{"v": 2, "kids": [{"v": "3"}]}]})", "/kids/0/kids/0/v: type:");
  rejects(*s, R"({"v": 1, "kids": [{"w": 2, "v": 2}]})", "/kids/0/w: additionalProperties:");
}

TEST_CASE("json schema: a document that is not JSON, and the violation cap", "[jsonschema]") {
  auto s = compile(R"({"type": "array", "items": {"type": "string"}})");
  rejects(*s, "[1,", "(root): json: not JSON");
  rejects(*s, "", "(root): json: not JSON");
  std::string many = "[1";
  for (int i = 0; i < 500; ++i) many += ",1";
  many += "]";
  CHECK(s->validate(many, 7).size() == 7);
}

TEST_CASE("json schema: a schema outside the subset does not compile", "[jsonschema]") {
  CHECK(has(schema_errors(R"({"type": "object", "oneOf": []})"), "#/oneOf: unknown keyword"));
  CHECK(has(schema_errors(R"({"properties": {"a": {"format": "date"}}})"), "#/properties/a/format: unknown keyword"));
  CHECK(has(schema_errors(R"({"type": "text"})"), "#/type: unknown type 'text'"));
  CHECK(has(schema_errors(R"({"required": "a"})"), "#/required:"));
  CHECK(has(schema_errors(R"({"pattern": "(unclosed"})"), "#/pattern: does not compile as RE2"));
  CHECK(has(schema_errors(R"({"$ref": "#/$defs/none", "$defs": {}})"), "#/$ref: no definition 'none'"));
  CHECK(has(schema_errors(R"({"$ref": "other.json#/x"})"), "#/$ref: only"));
  CHECK(has(schema_errors(R"({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}})"),
            "a cycle of references"));
  CHECK(has(schema_errors(R"({"properties": {"a": {"$defs": {}}}})"), "#/properties/a/$defs: $defs only at the root"));
  CHECK(has(schema_errors(R"({"items": [{}]})"), "#/items: the array form"));
  CHECK(has(schema_errors(R"({"minItems": -1})"), "#/minItems:"));
  CHECK(has(schema_errors(R"({"enum": []})"), "#/enum:"));
  CHECK(has(schema_errors("{"), "#: not JSON"));
  CHECK(has(schema_errors("3"), "#: a schema is an object or a boolean"));
  // Annotations are allowed and change nothing.
  auto s = compile(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "x",
                       "title": "t", "description": "d", "$comment": "c", "type": "integer"})");
  CHECK(violations(*s, "1").empty());
  rejects(*s, "true", "(root): type:");
}
