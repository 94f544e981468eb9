// Module, PCI and kernel-state parsers on realistic and broken text.
#include <catch2/catch.hpp>

#include "model_test_support.h"
#include "parsers/tools/module_parsers.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("sysfs.tsv: resident modules with and without srcversion; a bad build id is malformed") {
  BundleFacts facts;
  auto st = run_kind(SourceKind::module_sysfs_tsv, "modules/sysfs.tsv",
                     "name\tversion\tsrcversion\tbuild_id\tinitstate\ttaint\trefcnt\tholders\n"
                     "drv_pcie_host\t\t143E15B42DA1F6564FD2D98A\t8F9B308B7856e38c\tlive\tOE\t3\tdrv_devmng_host,ts_agent\n"
                     "drv_seclib_host\t\t\tfbf7bde2\tlive\tOE\t14\t\n"
                     "ts_agent\t\t\tnot-hex\tlive\tOE\t0\t\n"
                     "short\trow\n",
                     facts);
  REQUIRE(facts.modules.resident.size() == 2);
  CHECK(facts.modules.resident[0].build_id == "8f9b308b7856e38c");
  CHECK(facts.modules.resident[0].holders == std::vector<std::string>{"drv_devmng_host", "ts_agent"});
  CHECK(facts.modules.resident[1].srcversion.empty());
  CHECK(facts.modules.resident[1].refcnt == 14);
  CHECK(st.lines == 5);
  CHECK(st.parsed == 3);
  CHECK(st.malformed == 2);
}

TEST_CASE("tree.tsv: files, links, compression; module name from the path when the column is empty") {
  BundleFacts facts;
  auto st = run_kind(
      SourceKind::module_tree_tsv, "modules/tree.tsv",
      "kver\tmodule\tpath\ttype\tlink_target\tresolved_path\ttarget_exists\tcompression\tsize\tlink_mtime\ttarget_mtime\ttarget_ctime\tsha256\tsrcversion\tbuild_id\tvermagic\n"
      "6.1.0\t\t/lib/modules/6.1.0/updates/drv-pcie-host.ko.xz\tf\t\t/lib/modules/6.1.0/updates/drv-pcie-host.ko.xz\t1\txz\t40000\t\t1700000000\t1700000000\tab\t\tAABB\t6.1.0 SMP\n"
      "6.1.0\tts_agent\t/lib/modules/6.1.0/updates/dkms/ts_agent.ko\tl\t/var/lib/dkms/x/1.0/6.1.0/aarch64/module/ts_agent.ko\t\t0\t\t\t1690000000\t\t\t\t\t\t\n"
      "6.1.0\tx\t/p\tq\t\t\t\t\t\t\t\t\t\t\t\t\n",
      facts);
  REQUIRE(facts.modules.files.size() == 2);
  CHECK(facts.modules.files[0].module == "drv_pcie_host");
  CHECK(facts.modules.files[0].compression == "xz");
  CHECK(facts.modules.files[0].build_id == "aabb");
  CHECK(facts.modules.files[1].is_link);
  CHECK(facts.modules.files[1].target_exists == false);
  CHECK(st.malformed == 1);
  CHECK(st.parsed == 3);
}

TEST_CASE("kernels.tsv and pci-devices.tsv") {
  BundleFacts facts;
  run_kind(SourceKind::kernels_tsv, "system/kernels.tsv",
           "kver\trunning\tboot_default\tinitramfs_mtime\tmodules_dep_mtime\n"
           "5.15.0-105-generic\t0\t1\t1779230477\t1779230469\n"
           "5.15.0-119-generic\t1\t0\t1787992304\t1788415777\n",
           facts);
  REQUIRE(facts.modules.kernels.size() == 2);
  CHECK(facts.modules.running_kernel()->kver == "5.15.0-119-generic");
  CHECK(facts.modules.boot_kernel()->kver == "5.15.0-105-generic");
  auto st = run_kind(SourceKind::pci_devices_tsv, "system/pci-devices.tsv",
                     "address\tvendor\tdevice\tclass\tdriver\tlink_width\n"
                     "0000:01:00.0\t0x19e5\t0xD802\t0x120000\t\t16\n"
                     "0000:00:00.0\t19e5\ta120\t060400\tpcieport\t8\n"
                     "0000:02:00.0\t\td802\t120000\t\t16\n",
                     facts);
  REQUIRE(facts.modules.pci.size() == 2);
  CHECK(facts.modules.pci[0].vendor == "19e5");
  CHECK(facts.modules.pci[0].device == "d802");
  CHECK(facts.modules.pci[0].driver.empty());
  CHECK(st.malformed == 1);
}

TEST_CASE("lspci -D -nn -k: ids, driver in use, kernel modules") {
  BundleFacts facts;
  auto st = run_kind(SourceKind::lspci, "system/lspci.txt",
                     "0000:00:00.0 PCI bridge [0604]: Huawei Technologies Co., Ltd. HiSilicon PCIe Root Port with Gen4 [19e5:a120] (rev 21)\n"
                     "\tKernel driver in use: pcieport\n"
                     "0000:01:00.0 Processing accelerators [1200]: Huawei Technologies Co., Ltd. Device [19e5:d802] (rev 20)\n"
                     "\tSubsystem: Huawei Technologies Co., Ltd. Device [19e5:3004]\n"
                     "\tKernel modules: drv_pcie_host\n"
                     "garbage line\n",
                     facts);
  REQUIRE(facts.modules.pci.size() == 2);
  CHECK(facts.modules.pci[0].driver == "pcieport");
  CHECK(facts.modules.pci[1].device == "d802");
  CHECK(facts.modules.pci[1].class_code == "1200");
  CHECK(facts.modules.pci[1].driver.empty());
  CHECK(facts.modules.pci[1].kernel_modules == std::vector<std::string>{"drv_pcie_host"});
  CHECK(st.malformed == 1);
  CHECK(st.parsed == 5);
}

TEST_CASE("modinfo: full, -n and -F forms; name and kernel from the entry path") {
  BundleFacts facts;
  run_kind(SourceKind::modinfo, "modules/modinfo/5.15.0-119-generic/drv_pcie_host.txt",
           "filename:       /lib/modules/5.15.0-119-generic/updates/dkms/drv_pcie_host.ko\n"
           "license:        GPL\n"
           "srcversion:     143E15B42DA1F6564FD2D98A\n"
           "alias:          pci:v000019E5d0000D802sv*sd*bc*sc*i*\n"
           "depends:        ascend_soc_platform,drv_seclib_host\n"
           "vermagic:       5.15.0-119-generic SMP mod_unload modversions aarch64\n",
           facts);
  run_kind(SourceKind::modinfo, "modules/modinfo/6.1.0/ts_agent.txt",
           "/lib/modules/6.1.0/extra/ts_agent.ko.xz\n", facts);
  auto err = run_kind(SourceKind::modinfo, "modules/modinfo/6.1.0/drv_x.txt",
                      "modinfo: ERROR: Module drv_x not found.\n", facts);
  REQUIRE(facts.modules.modinfo.size() == 2);
  const auto& m = facts.modules.modinfo[0];
  CHECK(m.kver == "5.15.0-119-generic");
  CHECK(m.module == "drv_pcie_host");
  CHECK(m.depends == std::vector<std::string>{"ascend_soc_platform", "drv_seclib_host"});
  CHECK(m.aliases.size() == 1);
  CHECK(facts.modules.modinfo[1].form == "filename-only");
  CHECK(facts.modules.modinfo[1].filename == "/lib/modules/6.1.0/extra/ts_agent.ko.xz");
  CHECK_FALSE(err.not_collected.empty());
}

TEST_CASE("modprobe --show-depends and -n -v: insmod with params, builtin, empty = loaded") {
  BundleFacts facts;
  auto st = run_kind(SourceKind::modprobe_show_depends,
                     "modules/modprobe-deps/5.15.0-119-generic/drv_pcie_host.txt",
                     "builtin crc32\n"
                     "insmod /lib/modules/5.15.0-119-generic/updates/drv_seclib_host.ko \n"
                     "insmod /lib/modules/5.15.0-119-generic/updates/dkms/drv_pcie_host.ko.zst debug=1 x=2\n"
                     "what is this\n",
                     facts);
  run_kind(SourceKind::modprobe_dry_run, "modules/modprobe-dry-run/drv_seclib_host.txt", "", facts);
  REQUIRE(facts.modules.resolutions.size() == 2);
  const auto& r = facts.modules.resolutions[0];
  CHECK(r.kver == "5.15.0-119-generic");
  CHECK(r.module == "drv_pcie_host");
  REQUIRE(r.steps.size() == 3);
  CHECK(r.steps[0].builtin);
  CHECK(r.steps[2].name == "drv_pcie_host");
  CHECK(r.steps[2].params == "debug=1 x=2");
  CHECK(st.malformed == 1);
  CHECK(facts.modules.resolutions[1].dry_run);
  CHECK(facts.modules.resolutions[1].steps.empty());
}

TEST_CASE("modules.dep lines, lsmod, /proc/modules, dkms status in both formats") {
  BundleFacts facts;
  auto st = run_kind(SourceKind::modules_dep, "modules/modules.dep.txt",
                     "5.15.0-119-generic:updates/dbl_dev_identity.ko: updates/dbl_algorithm.ko\n"
                     "5.15.0-119-generic:updates/drv_seclib_host.ko:\n"
                     "no colon here\n",
                     facts);
  REQUIRE(facts.modules.dep_lines.size() == 2);
  CHECK(facts.modules.dep_lines[0].module == "dbl_dev_identity");
  CHECK(facts.modules.dep_lines[0].deps == std::vector<std::string>{"updates/dbl_algorithm.ko"});
  CHECK(st.malformed == 1);

  run_kind(SourceKind::lsmod, "modules/lsmod.txt",
           "Module                  Size  Used by\n"
           "drv_pcie_host         1200128  3 drv_devmng_host,ts_agent\n"
           "ts_agent   720896  0\n",
           facts);
  run_kind(SourceKind::proc_modules, "modules/proc-modules.txt",
           "drv_davinci_intf_host 106496 0 - Live 0xffff800050f47000 (OE)\n", facts);
  REQUIRE(facts.modules.loaded.size() == 3);
  CHECK(facts.modules.loaded[0].used_by.size() == 2);
  CHECK(facts.modules.loaded[2].state == "Live");
  CHECK(facts.modules.loaded[2].taint == "OE");

  auto ds = run_kind(SourceKind::dkms_status, "modules/dkms-status.txt",
                     "davinci_ascend/1.0, 5.15.0-119-generic, aarch64: installed\n"
                     "davinci_ascend, 0.9, 5.15.0-105-generic, aarch64: installed (WARNING! Diff between built and installed module!)\n"
                     "davinci_ascend/2.0: added\n"
                     "nonsense\n",
                     facts);
  REQUIRE(facts.modules.dkms.size() == 3);
  CHECK(facts.modules.dkms[0].version == "1.0");
  CHECK(facts.modules.dkms[0].kver == "5.15.0-119-generic");
  CHECK(facts.modules.dkms[1].old_format);
  CHECK(facts.modules.dkms[1].version == "0.9");
  CHECK(facts.modules.dkms[2].state == "added");
  CHECK(ds.malformed == 1);
}

TEST_CASE("devices.txt, tainted, secure boot, config, initramfs") {
  BundleFacts facts;
  run_kind(SourceKind::devices_txt, "system/devices.txt",
           "crw-rw---- 1 HwHiAiUser HwHiAiUser 237, 0 Sep  1 08:12 /dev/davinci0\n"
           "crw-rw---- 1 HwHiAiUser HwHiAiUser 238, 0 Sep  1 08:12 /dev/davinci_manager\n",
           facts);
  REQUIRE(facts.modules.device_nodes);
  CHECK(facts.modules.device_nodes->size() == 2);
  CHECK((*facts.modules.device_nodes)[0].path == "/dev/davinci0");
  run_kind(SourceKind::tainted, "kernel/tainted", "12288\n", facts);
  CHECK(facts.modules.tainted == 12288);
  run_kind(SourceKind::secure_boot, "kernel/secure-boot.txt", "SecureBoot disabled\n", facts);
  CHECK(facts.modules.secure_boot == false);
  run_kind(SourceKind::modprobe_config, "modules/config/etc/modprobe.d/blacklist.conf",
           "# comment\nblacklist drv_pcie_host\noptions x y=1\n", facts);
  REQUIRE(facts.modules.config.size() == 2);
  CHECK(facts.modules.config[0].file == "/etc/modprobe.d/blacklist.conf");
  CHECK(facts.modules.config[0].command == "blacklist");
  auto st = run_kind(SourceKind::initramfs_list, "modules/initramfs-6.1.0.txt", "denied\n", facts);
  CHECK_FALSE(st.not_collected.empty());
  run_kind(SourceKind::initramfs_list, "modules/initramfs-6.1.0.txt",
           "usr/lib/modules/6.1.0/updates/drv_pcie_host.ko\n", facts);
  REQUIRE(facts.modules.initramfs.size() == 1);
  CHECK(facts.modules.initramfs[0].first == "6.1.0");
}
