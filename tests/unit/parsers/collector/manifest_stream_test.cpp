// manifest.json read one item at a time (issue 35): the splitter on strings, escapes and
// nesting, near misses and hostile documents; the streamed reader against the whole-document
// reader; a large damaged manifest; the input stage's index built from the same parse.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "model_test_support.h"
#include "parsers/collector/manifest_json_internal.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/collector/manifest_splitter.h"
#include "parsers/common/text_file.h"

using namespace triage;
using triage::test::run_kind;
using Kind = ManifestSplitter::Part::Kind;

namespace {

struct Split {
  std::vector<std::string> fields, items;  // "key=value", the item's text
  std::vector<uint64_t> item_lines, item_offsets;
  std::vector<std::string> windows;
  std::string damage;  // empty when the document ended well
  uint64_t damage_line = 0;
  bool not_object = false;
  uint64_t lines = 0, bytes = 0;
};

Split split_doc(std::string_view text, size_t max_value = 1 << 20, size_t window = 16) {
  StringSource src(text);
  ManifestSplitter s(src, max_value, window, 1 << 20, size_t{1} << 30);
  Split out;
  ManifestSplitter::Part p;
  while (s.next(p)) {
    if (p.kind == Kind::field) out.fields.push_back(std::string(p.key) + "=" + std::string(p.text));
    if (p.kind == Kind::item) {
      out.items.emplace_back(p.text);
      out.item_lines.push_back(p.line);
      out.item_offsets.push_back(p.offset);
      out.windows.emplace_back(p.window);
      CHECK(p.index == out.items.size());
    }
    if (p.kind == Kind::damaged) {
      out.damage = std::string(p.text);
      out.damage_line = p.line;
      out.not_object = p.not_object;
    }
  }
  s.drain();
  out.lines = s.lines(), out.bytes = s.bytes();
  return out;
}

// A manifest of n items, one per line (pretty) or all on one line.
std::string many_items(size_t n, bool one_line, size_t pad = 0) {
  std::string s = "{\"format\": \"ascend-bundle\", \"format_version\": 1, \"items\": [";
  for (size_t i = 0; i < n; ++i) {
    if (i) s += ",";
    if (!one_line) s += "\n  ";
    s += "{\"path\": \"logs/plog-" + std::to_string(i) + ".log\", \"status\": \"ok\", \"bytes\": " +
         std::to_string(100 + i) + ", \"source\": \"" + std::string(pad, 'x') + "\"}";
  }
  s += one_line ? "]}" : "\n]}\n";
  return s;
}

// The whole-document reader, as a parser.
void read_whole(ParseContext& ctx, ByteSource& src) {
  std::string text = read_all(src, size_t{1} << 30);
  ctx.stats.bytes = text.size();
  ctx.stats.lines = count_lines(text);
  read_whole_manifest_json(ctx, text);
}

}  // namespace

TEST_CASE("splitter: fields whole, items one by one, strings and nesting respected", "[manifest][stream]") {
  std::string doc =
      "{\"format\": \"a}b]\\\"c\", \"nested\": {\"x\": [1, {\"y\": \"]\"}]},\n"
      "\"items\": [ {\"path\": \"a\\\\\", \"exec\": [\"[\", \"{\"]},\n{\"path\": \"b\"} , \"str,]\", 42 ,null],"
      " \"n\": -1.5e3 }";
  Split s = split_doc(doc);
  CHECK(s.damage.empty());
  CHECK(s.fields == std::vector<std::string>{"\"format\"=\"a}b]\\\"c\"",
                                             "\"nested\"={\"x\": [1, {\"y\": \"]\"}]}", "\"n\"=-1.5e3"});
  CHECK(s.items == std::vector<std::string>{"{\"path\": \"a\\\\\", \"exec\": [\"[\", \"{\"]}", "{\"path\": \"b\"}",
                                            "\"str,]\"", "42", "null"});
  CHECK(s.item_lines == std::vector<uint64_t>{2, 3, 3, 3, 3});
  CHECK(doc.substr(s.item_offsets[1], 5) == "{\"pat");
  CHECK(s.windows[1] == "{\"path\": \"b\"} , ");  // the window runs past the item, as the excerpt did
  CHECK(s.lines == 3);
  CHECK(s.bytes == doc.size());
}

TEST_CASE("splitter: near misses end with a named damage, never a crash", "[manifest][stream]") {
  CHECK(split_doc("{}").damage.empty());
  CHECK(split_doc("{\"items\": []}").items.empty());
  CHECK(split_doc(" \n{\"items\": []}  trailing ignored").damage.empty());
  CHECK(split_doc("").not_object);
  CHECK(split_doc("[1, 2]").not_object);
  CHECK(split_doc("\xef\xbb\xbf{}").not_object);  // a byte-order mark is not JSON
  CHECK(split_doc("{\"items\": [{\"path\": \"a\"}").damage == "cut short");
  CHECK(split_doc("{\"items\": [{\"path\": \"a").damage == "cut short in item 1");
  CHECK(split_doc("{\"items\": [{\"path\": \"a\"},").damage == "cut short");
  CHECK(split_doc("{\"items\": [{\"a\": 1},]}").damage == "an item is missing");
  CHECK(split_doc("{\"items\": [{\"a\": 1} {\"b\": 2}]}").damage == "expected ',' or ']' after an item");
  CHECK(split_doc("{\"host\" \"x\"}").damage == "expected ':' after a key");
  CHECK(split_doc("{\"host\": \"x\",}").damage == "expected a key");
  CHECK(split_doc("{\"host\": \"x\" \"y\"}").damage == "expected ',' or '}' after a field");
  CHECK(split_doc("{host: 1}").damage == "expected a key");
  CHECK(split_doc("{\"host\": \"unterminated}").damage == "cut short in field \"host\"");
  Split cut = split_doc("{\"items\": [\n{\"path\": \"a\"},\n{\"path\": \"b");
  CHECK(cut.items.size() == 1);
  CHECK(cut.damage_line == 3);  // the line where the cut item starts
}

TEST_CASE("splitter: hostile values are capped, nesting costs nothing", "[manifest][stream]") {
  std::string big_item = "{\"items\": [{\"path\": \"a\"}, {\"source\": \"" + std::string(5000, 'x') + "\"}]}";
  Split s = split_doc(big_item, 4096);
  CHECK(s.items.size() == 1);
  CHECK(s.damage == "item 2 is longer than 4096 bytes");
  CHECK(s.bytes == big_item.size());  // read to the end all the same, and counted
  CHECK(split_doc("{\"" + std::string(10000, 'k') + "\": 1}", 4096).damage == "a key longer than 4096 bytes");
  CHECK(split_doc("{\"future\": \"" + std::string(10000, 'v') + "\"}", 4096).damage ==
        "field \"future\" is longer than 4096 bytes");
  // a million open brackets: scanned in a counter, no recursion, stopped by the cap
  std::string deep = "{\"items\": [" + std::string(1000000, '[') + "]}";
  CHECK(split_doc(deep, 1 << 16).damage == "item 1 is longer than 65536 bytes");
  // blanks between values are not held
  std::string blanks = "{\"items\": [{\"path\": \"a\"}" + std::string(3 << 20, ' ') + ", {\"path\": \"b\"}]}";
  CHECK(split_doc(blanks, 4096).items.size() == 2);
}

TEST_CASE("manifest.json streamed reads what the whole-document reader read", "[manifest][stream]") {
  for (bool one_line : {false, true}) {
    std::string doc = many_items(300, one_line);
    BundleFacts streamed, whole;
    ParseStats s1 = run_kind(SourceKind::manifest_json, "manifest.json", doc, streamed);
    ParseStats s2 = triage::test::run_parser(read_whole, "manifest.json", doc, whole);
    REQUIRE(streamed.manifest.json_items.size() == 300);
    REQUIRE(whole.manifest.json_items.size() == 300);
    for (size_t i = 0; i < 300; ++i) {
      const ManifestItem& a = streamed.manifest.json_items[i];
      const ManifestItem& b = whole.manifest.json_items[i];
      CHECK(a.path == b.path);
      CHECK(a.bytes == b.bytes);
      CHECK(a.evidence.line == b.evidence.line);
      CHECK(a.evidence.offset == b.evidence.offset);
      CHECK(a.evidence.excerpt == b.evidence.excerpt);
    }
    CHECK(streamed.manifest.notes == whole.manifest.notes);
    CHECK(s1.lines == s2.lines);
    CHECK(s1.parsed == s2.parsed);
    CHECK(s1.malformed == 0);
  }
}

TEST_CASE("a large damaged manifest.json keeps the items before the damage", "[manifest][stream]") {
  std::string doc = many_items(20000, false);  // about 1.6 MB: past the size reread whole
  REQUIRE(doc.size() > (1 << 20));
  std::string cut = doc.substr(0, doc.find("plog-15000.log"));
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::manifest_json, "manifest.json", cut, facts);
  CHECK(facts.manifest.json_items.size() == 15000);
  CHECK(facts.manifest.notes.back() ==
        "manifest.json is damaged from line 15002 (cut short in item 15001); 15000 items read before it");
  CHECK(st.parsed == 15001);
  CHECK(st.parsed + st.malformed == st.lines);

  // one item past the 1 MiB cap: an error naming the item, the items before it kept
  std::string huge = many_items(20000, false);
  size_t at = huge.find("\"source\": \"\"", huge.find("plog-12000.log"));
  huge.insert(at + 11, std::string(size_t{2} << 20, 'x'));
  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::manifest_json, "manifest.json", huge, f2);
  CHECK(f2.manifest.json_items.size() == 12000);
  CHECK(f2.manifest.notes.back().find("(item 12001 is longer than 1048576 bytes); 12000 items read") !=
        std::string::npos);
  CHECK(s2.parsed + s2.malformed == s2.lines);

  // not JSON at all, and large
  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::manifest_json, "manifest.json", std::string(2 << 20, 'z') + "\n", f3);
  CHECK(s3.malformed == 1);
  CHECK(f3.manifest.notes == std::vector<std::string>{"manifest.json is not a JSON object"});
}

TEST_CASE("the input stage indexes the items the manifest parser read", "[manifest][stream][classify]") {
  testing::TempDir dir;
  std::string root = dir / "ascend-bundle-node-20260301T120000Z";
  std::string doc = many_items(2000, true);
  testing::write_file(root + "/manifest.json", doc);
  testing::write_file(root + "/logs/plog-7.log", "x\n");
  LoadResult result = testing::load({root});
  REQUIRE(result.evidence.bundles.size() == 1);
  const BundleFacts& b = result.evidence.bundles[0];
  CHECK(b.inventory.manifest_entry == "manifest.json");
  CHECK(b.manifest.items.size() == 2000);
  const InventoryEntry* e = testing::find_entry(b, "logs/plog-7.log");
  REQUIRE(e);
  // the manifest says 107 bytes for plog-7.log: the index found the item
  CHECK(e->manifest_note.find("the manifest says 107") != std::string::npos);
}
