#!/bin/bash
# A host without an NPU (the collector run on the wrong host): no Ascend driver, no device
# node, no Huawei NPU PCI device (a Huawei NIC and a Kunpeng accelerator are no NPU), no NPU
# process. The result line says so instead of "complete", and manifest.json's npu_presence
# says no_npu. Then a container started without devices: the driver and the PCI device are
# visible, no node and no process: devices_not_visible, said on its own line.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Removes what makes the fake host an NPU host's view from inside a container without
# devices: the device nodes and the training process.
strip_devices_and_process() {
  rm -rf "${SYSROOT:?}/dev" "${SYSROOT:?}/proc/$TRAIN_PID"
}

# --- 1. The wrong host --------------------------------------------------------------------
fake_host_new
strip_devices_and_process
rm -rf "$SYSROOT/sys/bus/pci/devices/0000:c1:00.0" "$SYSROOT/usr/local/Ascend" "$SYSROOT/etc/ascend_install.info"
for m in drv_pcie_host drv_devmm_host ascend_trs_core; do rm -rf "$SYSROOT/sys/module/$m"; done
plant /proc/modules 'nvme 57344 3 - Live 0xffff800009930000\n'
plant /sys/bus/pci/devices/0000:7d:00.0/vendor '0x19e5\n'
plant /sys/bus/pci/devices/0000:7d:00.0/device '0x1822\n'
plant /sys/bus/pci/devices/0000:7d:00.0/class '0x020000\n'
plant /sys/bus/pci/devices/0000:75:00.0/vendor '0x19e5\n'
plant /sys/bus/pci/devices/0000:75:00.0/device '0xa250\n'
plant /sys/bus/pci/devices/0000:75:00.0/class '0x120000\n'
fake_bin_remove npu-smi
fake_bin_remove hccn_tool
run_collect --timeout 10
expect_rc 0
unpack_archive
check_bundle
grep -q -F '"npu_presence": {"state": "no_npu", "ascend_modules_loaded": 0, "driver_installed": false, "device_nodes": 0, "npu_pci_devices": 0, "npu_processes": 0},' "$B/manifest.json" ||
  fail "npu_presence: $(grep npu_presence "$B/manifest.json")"
last=$(tail -n 1 "$STDERR_FILE")
case $last in
  "ascend-collect: result: no NPU here: no Ascend driver, no /dev/davinci* node, no Huawei NPU PCI device, no NPU process"*"(exit 0)") ;;
  *) fail "result line: $last" ;;
esac
grep -q 'result: complete' "$STDERR_FILE" && fail "a host without an NPU is called complete"

# --- 2. A container started without devices ----------------------------------------------
rm -rf "$H"
fake_host_new
strip_devices_and_process
stub_mode npu-smi error
run_collect --timeout 10
expect_rc 1
unpack_archive
check_bundle
grep -q -F '"npu_presence": {"state": "devices_not_visible", "ascend_modules_loaded": 3, "driver_installed": true, "device_nodes": 0, "npu_pci_devices": 1, "npu_processes": 0},' "$B/manifest.json" ||
  fail "npu_presence: $(grep npu_presence "$B/manifest.json")"
grep -q '^ascend-collect: no NPU device visible: no /dev/davinci\* node and no NPU process' "$STDERR_FILE" ||
  fail "no line says the devices are not visible: $(tail -n 3 "$STDERR_FILE")"
[ "$(tail -n 1 "$STDERR_FILE")" = "ascend-collect: result: partial (exit 1)" ] || fail "result line: $(tail -n 1 "$STDERR_FILE")"
finish
