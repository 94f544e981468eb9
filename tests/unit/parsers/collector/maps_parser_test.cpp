#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("maps: files merged per path, spaces, (deleted), anonymous and special regions") {
  std::string data =
      "aaaad0a10000-aaaad0ce3000 r-xp 00000000 103:02 4779541                    /usr/bin/python3.10\n"
      "aaaad0cf2000-aaaad0cf8000 r--p 002e2000 103:02 4779541                    /usr/bin/python3.10\n"
      "aaaad0d43000-aaaad0d66000 rw-p 00000000 00:00 0 \n"
      "aaab0f4c1000-aaab9d2e7000 rw-p 00000000 00:00 0                           [heap]\n"
      "ffff80000000-ffff80010000 r-xp 00000000 103:02 12 /opt/my libs/libx.so\n"
      "ffff80020000-ffff80030000 r-xp 00000000 103:02 13 /usr/local/Ascend/cann-8.5.0/aarch64-linux/lib64/libascendcl.so (deleted)\n"
      "ffff80030000-ffff80040000 r-xp 00000000 103:02 14 /usr/local/Ascend/driver/lib64/driver/libascend_hal.so\n"
      "ffffc0000000-ffffc0021000 rw-p 00000000 00:00 0                           [stack]\n"
      "not a maps line\n";
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::proc_maps, "processes/4242/maps", data, facts);
  CHECK(st.lines == 9);
  CHECK(st.parsed == 8);
  CHECK(st.malformed == 1);
  const ProcessLibraries& p = facts.libraries.by_pid.at(4242);
  CHECK(p.has_maps);
  REQUIRE(p.files.size() == 4);
  CHECK(p.files[0].path == "/usr/bin/python3.10");
  CHECK(p.files[0].evidence.line == 1);
  CHECK(p.files[1].path == "/opt/my libs/libx.so");
  CHECK(p.files[2].path == "/usr/local/Ascend/cann-8.5.0/aarch64-linux/lib64/libascendcl.so");
  CHECK(p.files[2].deleted);
  CHECK_FALSE(p.files[3].deleted);
  CHECK(p.anonymous_regions == 1);
  CHECK(p.special_regions == 2);
}

TEST_CASE("maps: a tool's error text is not collected, not an empty map") {
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::proc_maps, "processes/7/maps",
                           "cat: /proc/7/maps: Permission denied\n", facts);
  CHECK_FALSE(st.not_collected.empty());
  CHECK((facts.libraries.by_pid.count(7) == 0 || !facts.libraries.by_pid.at(7).has_maps));
}
