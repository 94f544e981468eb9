#include <catch2/catch.hpp>

#include "bundle/member_name.h"
#include "bundle/path_glob.h"

using namespace triage;

TEST_CASE("member names are normalised inside the bundle", "[bundle][names]") {
  auto n = normalise_member_name("./system/uname.txt");
  CHECK(n.path == "system/uname.txt");
  CHECK_FALSE(n.unsafe);

  n = normalise_member_name("/etc/passwd");
  CHECK(n.path == "etc/passwd");
  CHECK(n.unsafe);

  n = normalise_member_name("../../root/.ssh/id_rsa");
  CHECK(n.path == "root/.ssh/id_rsa");
  CHECK(n.unsafe);

  n = normalise_member_name("logs/../../../x");
  CHECK(n.path == "x");
  CHECK(n.unsafe);

  n = normalise_member_name("a//b/./c/");
  CHECK(n.path == "a/b/c");
  CHECK_FALSE(n.unsafe);

  n = normalise_member_name("..");
  CHECK(n.path.empty());
  CHECK(n.unsafe);
}

TEST_CASE("compression is detected by magic, not by name", "[bundle][names]") {
  CHECK(detect_compression(std::string_view("\x1f\x8b\x08\x00", 4)) == Compression::gzip);
  CHECK(detect_compression("\x28\xb5\x2f\xfd\x04") == Compression::zstd);
  CHECK(detect_compression(std::string_view("\xfd" "7zXZ\0\0", 7)) == Compression::xz);
  CHECK(detect_compression("BZh91AY&SY") == Compression::bzip2);
  CHECK(detect_compression("BZh9 is text") == Compression::none);
  CHECK(detect_compression("[ERROR] RUNTIME(1,x):") == Compression::none);
  CHECK(detect_compression("") == Compression::none);

  CHECK(strip_compression_suffix("kernel/syslog/messages-20250301.gz", Compression::gzip) ==
        "kernel/syslog/messages-20250301");
  CHECK(strip_compression_suffix("a/plog.log.zst", Compression::zstd) == "a/plog.log");
  CHECK(strip_compression_suffix("a/plog.log", Compression::zstd) == "a/plog.log");
  CHECK(strip_compression_suffix("a/x.gz", Compression::zstd) == "a/x.gz");
}

TEST_CASE("bundle root names and components", "[bundle][names]") {
  CHECK(is_bundle_root_name("ascend-bundle-node-a-20250305T173000Z"));
  CHECK_FALSE(is_bundle_root_name("ascend-bundle-"));
  CHECK_FALSE(is_bundle_root_name("bundle"));
  CHECK(first_component("a/b/c") == "a");
  CHECK(first_component("abc").empty());
  CHECK(strip_first_component("a/b/c") == "b/c");
  CHECK(base_name("a/b/c.txt") == "c.txt");
}

TEST_CASE("path globs: * within a component, ** across components", "[bundle][names]") {
  CHECK(glob_match("system/uname.txt", "system/uname.txt"));
  CHECK_FALSE(glob_match("system/uname.txt", "system/uname.txt.err"));
  CHECK(glob_match("kernel/journal-b*.jsonl", "kernel/journal-b-1.jsonl"));
  CHECK(glob_match("logs/**/plog/plog-*.log", "logs/host/root/ascend/log/debug/plog/plog-1_2.log"));
  CHECK(glob_match("logs/**/plog/plog-*.log", "logs/plog/plog-1_2.log"));
  CHECK_FALSE(glob_match("logs/**/plog/plog-*.log", "logs/host/plog/other.log"));
  CHECK(glob_match("**/*.err", "system/lspci.txt.err"));
  CHECK(glob_match("**/*.err", "x.err"));
  CHECK_FALSE(glob_match("probes/*.json", "probes/logs/a.json"));
  CHECK(glob_match("ascend/npu-smi-usages-*-*.*.txt", "ascend/npu-smi-usages-0-1.2.txt"));
  CHECK(glob_match("extra/**", "extra/a/b/c"));
  CHECK_FALSE(glob_match("extra/**", "extras/a"));
}
