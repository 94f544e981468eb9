#include <catch2/catch.hpp>
#include <sstream>

#include "reports/json_writer.h"

using namespace triage;

TEST_CASE("json writer escapes control bytes and invalid UTF-8", "[json]") {
  std::ostringstream out;
  JsonWriter::write_string(out, std::string("a\"b\\\n\x01\xff\xe4\xb8\xad", 10));
  CHECK(out.str() == "\"a\\\"b\\\\\\n\\u0001\\u00ff\xe4\xb8\xad\"");
}

TEST_CASE("json writer nests objects and arrays", "[json]") {
  std::ostringstream out;
  JsonWriter w(out, false);
  w.begin_object().field("a", 1).key("b").begin_array().value("x").value(true).null().end_array();
  w.end_object();
  CHECK(out.str() == R"({"a":1,"b":["x",true,null]})");
}
