// manifest.json and manifest.items.jsonl: the contract's encoding, every field of an item,
// damaged and partial input, newer format versions, tool error text.
#include <catch2/catch.hpp>
#include <string>

#include "model_test_support.h"
#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_parsers.h"

using namespace triage;
using triage::test::newlines;
using triage::test::run_kind;

namespace {

const std::string kManifest = R"({
  "format": "ascend-bundle",
  "format_version": 1,
  "collector_version": "0.3.0",
  "host": "node-07",
  "collected_at_utc": "2026-03-01T12:00:00Z",
  "finished_utc": "2026-03-01T12:03:20Z",
  "args": ["--timeout", "20", "--out", "/tmp/\u00e4\u00b8\u00ad"],
  "uid": 0,
  "groups": ["root", 27],
  "sudo_user": "",
  "locale": "zh_CN.UTF-8",
  "in_container": false,
  "redaction": {"env_secret": 3, "url_credential": 0},
  "future_field": {"nested": [1, 2, {"x": null}]},
  "items": [
    {"path": "system/uname.txt", "source": "uname -a", "exec": ["uname", "-a"], "status": "ok", "reason": null, "rc": 0, "started_utc": "2026-03-01T12:00:01Z", "duration_ms": 3, "bytes": 101, "sha256": "AB12", "source_mtime_utc": null, "truncated": false, "kept_ranges": null, "error": null},
    {"path": "system/lspci.txt", "source": "lspci -D -nn -k", "exec": ["lspci", "-D", "-nn", "-k"], "status": "absent", "reason": "tool_missing", "rc": null, "started_utc": 1772366402, "duration_ms": null, "bytes": null, "sha256": null, "truncated": false},
    {"path": "kernel/syslog/messages", "source": "/var/log/messages", "exec": null, "status": "ok", "bytes": 2097152, "truncated": true, "kept_ranges": [[0, 1048576], [52428800, 53477376]], "source_mtime_utc": "2026-03-01T11:59:00Z"},
    {"path": "logs/host/root/\u00d6\u00d0\u00ce\u00c4/plog-1.log", "source": "/root/\u00d6\u00d0\u00ce\u00c4/plog-1.log", "exec": null, "status": "ok"},
    {"path": "ascend/npu-smi-info.txt", "exec": ["npu-smi", "info"], "status": "timed_out", "reason": "deadline", "rc": 124, "duration_ms": 20000, "error": "killed"},
    {"path": "ascend/npu-smi-map.txt", "exec": ["npu-smi", "info", "-m"], "status": "skipped", "reason": "device_unresponsive"},
    {"source": "no path here", "status": "ok"},
    {"path": "processes/4242/environ", "status": "paused", "rc": "zero"},
    "not an object"
  ]
}
)";

}  // namespace

TEST_CASE("contract strings: \\u00XX is a raw byte", "[manifest]") {
  std::string out;
  CHECK(decode_contract_string(R"("\u00d6\u00d0\u00ce\u00c4")", out));
  CHECK(out == "\xd6\xd0\xce\xc4");  // GBK for 中文, as the bytes of the file name
  CHECK(decode_contract_string(R"("a\"b\\c\/d\n\t\u0001"  )", out));
  CHECK(out == std::string("a\"b\\c/d\n\t\x01"));
  CHECK(decode_contract_string(R"("\u4e2d\ud83d\ude00")", out));  // tolerated: UTF-8
  CHECK(out == "\xe4\xb8\xad\xf0\x9f\x98\x80");
  CHECK_FALSE(decode_contract_string(R"("\x")", out));
  CHECK_FALSE(decode_contract_string(R"("\u00g0")", out));
  CHECK_FALSE(decode_contract_string(R"("\ud83d")", out));
  CHECK_FALSE(decode_contract_string(R"(abc)", out));
}

TEST_CASE("manifest.json: run fields and every item field", "[manifest]") {
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::manifest_json, "manifest.json", kManifest, facts);
  const ManifestFacts& m = facts.manifest;
  CHECK(stats.lines == newlines(kManifest));
  CHECK(stats.parsed == stats.lines);
  CHECK(stats.malformed == 0);
  CHECK(m.has_manifest_json);
  CHECK(m.format == "ascend-bundle");
  CHECK(m.format_version == 1);
  CHECK(m.collector_version == "0.3.0");
  CHECK(m.host == "node-07");
  CHECK(m.collected_at_utc_us == int64_t{1772366400} * 1000000);
  CHECK(m.finished_utc_us == int64_t{1772366600} * 1000000);
  CHECK(m.args == std::vector<std::string>{"--timeout", "20", "--out", "/tmp/\xe4\xb8\xad"});
  CHECK(m.uid == 0);
  CHECK(m.groups == std::vector<std::string>{"root", "27"});
  CHECK(m.locale == "zh_CN.UTF-8");
  CHECK(m.in_container == false);
  REQUIRE(m.redaction.size() == 2);
  CHECK(m.redaction[0] == std::pair<std::string, std::string>{"env_secret", "3"});

  REQUIRE(m.json_items.size() == 6);
  const ManifestItem& uname = m.json_items[0];
  CHECK(uname.path == "system/uname.txt");
  CHECK(uname.source == "uname -a");
  REQUIRE(uname.exec);
  CHECK(*uname.exec == std::vector<std::string>{"uname", "-a"});
  CHECK(uname.status == ItemStatus::ok);
  CHECK(uname.rc == 0);
  CHECK(uname.started_utc_us == int64_t{1772366401} * 1000000);
  CHECK(uname.bytes == 101);
  CHECK(uname.sha256 == "ab12");  // lower-cased
  CHECK_FALSE(uname.source_mtime_utc_us);
  CHECK(uname.evidence.line == 17);
  CHECK(uname.evidence.entry == "bundle/manifest.json");
  CHECK(uname.evidence.excerpt.find("system/uname.txt") != std::string::npos);

  const ManifestItem& lspci = m.json_items[1];
  CHECK(lspci.status == ItemStatus::absent);
  CHECK(lspci.reason == "tool_missing");
  CHECK_FALSE(lspci.rc);
  CHECK_FALSE(lspci.bytes);
  CHECK(lspci.started_utc_us == int64_t{1772366402} * 1000000);  // epoch seconds tolerated

  const ManifestItem& messages = m.json_items[2];
  CHECK_FALSE(messages.exec);  // a file copy
  CHECK(messages.truncated);
  REQUIRE(messages.kept_ranges.size() == 2);
  CHECK(messages.kept_ranges[1] == std::pair<uint64_t, uint64_t>{52428800, 53477376});
  CHECK(messages.source_mtime_utc_us == int64_t{1772366340} * 1000000);

  CHECK(m.json_items[3].path == "logs/host/root/\xd6\xd0\xce\xc4/plog-1.log");
  CHECK(m.json_items[4].status == ItemStatus::timed_out);
  CHECK(m.json_items[4].rc == 124);
  CHECK(m.json_items[4].error == "killed");
  CHECK(m.json_items[5].status == ItemStatus::skipped);
  CHECK(m.json_items[5].reason == "device_unresponsive");

  // The item without a path, the one with a bad rc and the string: skipped, and said so.
  REQUIRE(m.notes.size() == 3);
  CHECK(m.notes[0] == "manifest.json line 23: item 7 skipped: item without a path");
  CHECK(m.notes[1] == "manifest.json line 24: item 8 skipped: bad value for \"rc\"");
  CHECK(m.notes[2] == "manifest.json line 25: item 9 is not an object");
}

TEST_CASE("manifest.json: unknown status kept as other", "[manifest]") {
  CHECK(parse_item_status("paused") == ItemStatus::other);
  CHECK(parse_item_status("abandoned") == ItemStatus::abandoned);
  CHECK(to_string(ItemStatus::timed_out) == "timed_out");
}

TEST_CASE("manifest.json: a newer format_version is read with a note", "[manifest]") {
  const std::string v2 =
      "{\"format\":\"ascend-bundle\",\"format_version\":2,\"host\":\"n1\",\"new_thing\":[1],"
      "\"items\":[{\"path\":\"a\",\"status\":\"ok\",\"new_field\":{\"k\":1}}]}\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::manifest_json, "manifest.json", v2, facts);
  CHECK(stats.parsed == 1);
  CHECK(facts.manifest.host == "n1");
  CHECK(facts.manifest.json_items.size() == 1);
  REQUIRE(facts.manifest.notes.size() == 1);
  CHECK(facts.manifest.notes[0] ==
        "manifest.json format_version 2 is newer than this analyzer knows (1): read what is "
        "known, ignored the rest");
}

TEST_CASE("manifest.json: damaged, foreign, and tool error text", "[manifest]") {
  // Cut short by a killed run: items before the cut are kept.
  std::string cut = kManifest.substr(0, kManifest.find("\"path\": \"ascend/npu-smi-map.txt\""));
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::manifest_json, "manifest.json", cut, facts);
  CHECK(stats.lines == newlines(cut) + 1);
  CHECK(stats.malformed >= 1);
  CHECK(stats.parsed + stats.malformed == stats.lines);
  CHECK(facts.manifest.host == "node-07");
  CHECK(facts.manifest.json_items.size() == 5);  // the five complete items before the cut
  CHECK(facts.manifest.notes.back() ==
        "manifest.json is damaged from line 21 (cut short); 5 items read before it");
  CHECK(stats.malformed == stats.lines - 20);

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::manifest_json, "manifest.json", "[1, 2]\n", f2);
  CHECK(s2.malformed == 1);
  CHECK(f2.manifest.notes == std::vector<std::string>{"manifest.json is not a JSON object"});

  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::manifest_json, "manifest.json",
                           "cat: manifest.json: No such file or directory\n", f3);
  CHECK(s3.not_collected == "source_missing: cat: manifest.json: No such file or directory");
  CHECK(s3.unrecognised == 1);
  CHECK(f3.manifest.json_items.empty());

  BundleFacts f4;
  run_kind(SourceKind::manifest_json, "manifest.json", "{\"format\":\"other\",\"items\":[]}", f4);
  CHECK(f4.manifest.notes == std::vector<std::string>{
                                 "manifest.json format is \"other\", not \"ascend-bundle\"",
                                 "manifest.json has no format_version: read as version 1"});
}

TEST_CASE("manifest.items.jsonl: items per line, partial last line dropped and counted", "[manifest]") {
  const std::string jsonl =
      "{\"path\":\"system/uname.txt\",\"status\":\"ok\",\"bytes\":101}\n"
      "\n"
      "{\"path\":\"kernel/dmesg.txt\",\"status\":\"denied\",\"reason\":\"permission\",\"rc\":1}\n"
      "not json at all\n"
      "{\"status\":\"ok\"}\n"
      "{\"path\":\"ascend/npu-smi-info.txt\",\"status\":\"abandoned\",\"reason\":\"deadline\"}\n"
      "{\"path\":\"ascend/hccn.conf\",\"sta";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::manifest_items_jsonl, "manifest.items.jsonl", jsonl, facts);
  const ManifestFacts& m = facts.manifest;
  CHECK(stats.lines == newlines(jsonl) + 1);
  CHECK(stats.parsed == 3);
  CHECK(stats.unrecognised == 1);  // the blank line
  CHECK(stats.malformed == 3);     // not json, no path, the partial line
  CHECK(stats.bytes == jsonl.size());
  CHECK(m.jsonl_partial_lines_dropped == 1);
  REQUIRE(m.jsonl_items.size() == 3);
  CHECK(m.jsonl_items[1].status == ItemStatus::denied);
  CHECK(m.jsonl_items[1].evidence.line == 3);
  CHECK(m.jsonl_items[2].status == ItemStatus::abandoned);
  REQUIRE(stats.samples_of_malformed.size() == 3);
  CHECK(stats.samples_of_malformed[2].excerpt.rfind("partial last line dropped: ", 0) == 0);
  CHECK(stats.samples_of_malformed[1].excerpt.rfind("item without a path", 0) == 0);
  CHECK(m.notes.size() == 1);

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::manifest_items_jsonl, "manifest.items.jsonl",
                           "sh: 1: cannot create manifest.items.jsonl: Permission denied\n", f2);
  CHECK(s2.not_collected.rfind("permission: ", 0) == 0);
  CHECK(f2.manifest.jsonl_items.empty());
}

TEST_CASE("finalize: manifest.json's items, else the JSONL's", "[manifest]") {
  BundleFacts only_jsonl;
  run_kind(SourceKind::manifest_items_jsonl, "manifest.items.jsonl",
           "{\"path\":\"a\",\"status\":\"ok\"}\n{\"path\":\"b\",\"status\":\"failed\"}\n", only_jsonl);
  finalize_manifest(only_jsonl);
  CHECK(only_jsonl.manifest.items.size() == 2);
  CHECK(only_jsonl.manifest.items_origin == "manifest.items.jsonl");
  CHECK(only_jsonl.manifest.notes.back() ==
        "no manifest.json (the collector did not finish?): items from manifest.items.jsonl");

  BundleFacts both;
  run_kind(SourceKind::manifest_items_jsonl, "manifest.items.jsonl", "{\"path\":\"a\",\"status\":\"ok\"}\n", both);
  run_kind(SourceKind::manifest_json, "manifest.json",
           "{\"format_version\":1,\"items\":[{\"path\":\"a\",\"status\":\"ok\"},{\"path\":\"b\",\"status\":\"ok\"}]}", both);
  finalize_manifest(both);
  CHECK(both.manifest.items.size() == 2);
  CHECK(both.manifest.items_origin == "manifest.json");
  CHECK(both.manifest.notes.back() ==
        "manifest.json lists 2 items, manifest.items.jsonl 1: used manifest.json's");
}

TEST_CASE("finalize: sizes and sha256 against the inventory", "[manifest]") {
  BundleFacts facts;
  facts.host = "node-07";
  run_kind(SourceKind::manifest_json, "manifest.json", R"({"format_version":1,"items":[
{"path":"system/uname.txt","status":"ok","bytes":101,"sha256":"aaaa"},
{"path":"system/os-release","status":"ok","bytes":50,"sha256":"bbbb"},
{"path":"system/cmdline","status":"ok","bytes":10,"sha256":"cccc"},
{"path":"kernel/dmesg.txt","status":"ok","bytes":10},
{"path":"system/lspci.txt","status":"absent","reason":"tool_missing"},
{"path":"ascend/device-logs","status":"ok"},
{"path":"probes/rand.json","status":"ok","bytes":null,"sha256":null}
]})",
           facts);
  auto add = [&](const char* path, uint64_t size, const char* sha) {
    InventoryEntry& e = facts.inventory.entries.emplace_back();
    e.info.path = path;
    e.info.display = std::string("bundle/") + path;
    e.info.size = size;
    e.sha256 = sha;
  };
  add("system/uname.txt", 101, "AAAA");  // same (case differs)
  add("system/os-release", 50, "ffff");  // sha256 differs
  add("system/cmdline", 11, "cccc");     // size differs
  add("ascend/device-logs/device-0/log.txt", 5, "");  // a directory item
  add("probes/rand.json", 7, "1234");   // nothing recorded to compare
  finalize_manifest(facts);
  REQUIRE(facts.input_findings.size() == 2);
  const Finding& sum = facts.input_findings[0];
  CHECK(sum.id == "input-damaged/checksum");
  CHECK(sum.severity == Severity::warning);
  CHECK(sum.host == "node-07");
  CHECK(*sum.find_value("files") == "2");
  CHECK(sum.observed.find("system/os-release: sha256 bbbb in the manifest, ffff in the bundle") !=
        std::string::npos);
  CHECK(sum.observed.find("system/cmdline: 10 bytes in the manifest, 11 in the bundle") !=
        std::string::npos);
  CHECK(sum.evidence.size() == 4);
  CHECK(sum.evidence[0].entry == "bundle/manifest.json");
  CHECK(sum.evidence[0].line == 3);
  CHECK(sum.evidence[1].entry == "bundle/system/os-release");
  CHECK_FALSE(sum.does_not_prove.empty());
  const Finding& miss = facts.input_findings[1];
  CHECK(miss.id == "bundle/missing-entry");
  CHECK(*miss.find_value("files") == "1");  // kernel/dmesg.txt; lspci was absent anyway
  CHECK(miss.observed.find("kernel/dmesg.txt") != std::string::npos);
  CHECK(miss.observed.find("lspci") == std::string::npos);
  REQUIRE(miss.evidence.size() == 1);
  CHECK(miss.evidence[0].line == 5);
}
