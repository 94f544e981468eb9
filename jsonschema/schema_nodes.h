#pragma once
// The compiled form of a schema, shared by its compiler (schema_compile.cpp) and the
// validator (schema_validate.cpp). Nodes refer to each other by index: $ref may recurse.
#include <re2/re2.h>
#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jsonschema/schema.h"

namespace triage::jsonschema {

enum TypeBit : uint8_t {
  kNull = 1, kBoolean = 2, kObject = 4, kArray = 8, kNumber = 16, kString = 32, kInteger = 64
};

struct Node {
  bool reject = false;  // the schema `false`: no value is valid
  uint8_t types = 0;    // TypeBit mask; 0 = any type
  std::vector<std::string> required;
  std::vector<std::pair<std::string, int>> properties;  // name -> node
  int additional = -1;  // node for a property `properties` does not name; -1 = any value
  int items = -1;       // node for every element; -1 = any
  std::optional<simdjson::dom::array> enum_values;
  std::optional<simdjson::dom::element> const_value;
  std::unique_ptr<RE2> pattern;
  std::optional<double> minimum, maximum;
  uint64_t min_items = 0;
  int ref = -1;         // node of the #/$defs/... it refers to
  std::string where;    // "#/properties/signatures/items": names the node in schema errors
};

struct Schema::Impl {
  simdjson::dom::parser parser;  // owns the schema document: enum and const values point into it
  std::vector<Node> nodes;       // nodes[0] is the root
};

// Appends `key` to a JSON Pointer, escaped ("~" -> "~0", "/" -> "~1").
inline void append_pointer_token(std::string& path, std::string_view key) {
  for (char c : key) {
    if (c == '~') path += "~0";
    else if (c == '/') path += "~1";
    else path += c;
  }
}

}  // namespace triage::jsonschema
