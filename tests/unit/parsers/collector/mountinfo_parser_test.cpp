#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model_test_support.h"
#include "parsers/collector/version_parsers.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("mountinfo: octal escapes, optional fields, the separator") {
  std::string data =
      "23 29 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
      "612 590 259:2 /data/empty\\040dir /usr/local/Ascend/cann rw,relatime master:1 shared:9 - ext4 /dev/nvme0n1p2 rw\n"
      "613 590 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X\n"
      "614 590 0:51 / /x rw\n"
      "\n";
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::proc_mountinfo, "processes/10/mountinfo", data, facts);
  CHECK(st.parsed == 3);
  CHECK(st.malformed == 1);  // no " - " separator
  CHECK(st.unrecognised == 1);
  const auto& m = facts.libraries.by_pid.at(10).mounts.entries;
  REQUIRE(m.size() == 3);
  CHECK(m[1].root == "/data/empty dir");
  CHECK(m[1].mount_point == "/usr/local/Ascend/cann");
  CHECK(m[1].fstype == "ext4");
  CHECK(m[1].source == "/dev/nvme0n1p2");
  CHECK(m[2].fstype == "overlay");
  CHECK(decode_mount_escapes("a\\011b\\134c\\12") == "a\tb\\c\\12");
}

TEST_CASE("host mountinfo and cgroup") {
  BundleFacts facts;
  run_kind(SourceKind::mountinfo, "mounts/mountinfo.txt",
           "25 29 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw\n", facts);
  CHECK(facts.libraries.host_mounts.present);
  CHECK(facts.libraries.host_mounts.entries.size() == 1);
  ParseStats st = run_kind(SourceKind::proc_cgroup, "processes/10/cgroup",
                           "12:pids:/kubepods/burstable/pod1/abc\n0::/kubepods/burstable/pod1/abc\nbad\n",
                           facts);
  CHECK(st.parsed == 2);
  CHECK(st.malformed == 1);
  CHECK(facts.libraries.by_pid.at(10).cgroup_paths.at(0) == "/kubepods/burstable/pod1/abc");
}
