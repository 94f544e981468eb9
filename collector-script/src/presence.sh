# shellcheck shell=bash
# NPU presence: whether this host shows an Ascend NPU at all, from what the run collected (no
# host file is read here). A collector run on the wrong host, or in a container started
# without devices, says so in its result line and in manifest.json's "npu_presence":
#
#   ascend_modules_loaded  rows of modules/sysfs.tsv (Ascend kernel modules loaded)
#   driver_installed       ascend/driver-version.info was found
#   device_nodes           /dev/davinci* nodes in system/devices.txt
#   npu_pci_devices        rows of system/pci-devices.tsv with an Ascend NPU's PCI id
#   npu_processes          target processes (found in /proc, or given with -p)
#   state                  npu_visible: a device node or an NPU process is seen;
#                          devices_not_visible: a driver or NPU PCI device, but no device
#                            node and no NPU process (a container without devices?);
#                          no_npu: none of the five; unknown: what decides was not collected
#
# Each count or flag is null when its file could not be collected (denied, timed out, or not
# attempted, as in a --sysroot collection).

# ISTATUS = the status of the last item recorded for bundle path $1 ("" when none).
item_status() {
  local line
  ISTATUS=""
  line=$(grep -F "{\"path\":\"$1\"," "$ITEMS" 2>/dev/null | tail -n 1)
  [[ $line =~ \"status\":\"([a-z_]+)\" ]] && ISTATUS=${BASH_REMATCH[1]}
}

# N = the data rows of TSV bundle file $1 for which awk condition $2 holds (its header gives
# the column names: $c["vendor"]); "" when the item is neither ok nor absent, 0 when absent.
count_rows() {
  item_status "$1"
  case $ISTATUS in
    ok) N=$(awk -F'\t' "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2 { n++ } END { print n + 0 }" "$BUNDLE/$1" 2>/dev/null) ;;
    absent) N=0 ;;
    *) N="" ;;
  esac
}

check_npu_presence() {
  local ids="" id
  NP_MODULES="" NP_DRIVER="" NP_NODES="" NP_PCI="" NP_PROCS=""
  count_rows modules/sysfs.tsv 1; NP_MODULES=$N
  item_status ascend/driver-version.info
  case $ISTATUS in ok) NP_DRIVER=true ;; absent) NP_DRIVER=false ;; esac
  item_status system/devices.txt
  case $ISTATUS in
    ok) NP_NODES=$(grep -c -F ' /dev/davinci' "$BUNDLE/system/devices.txt" 2>/dev/null) ;;
    absent) NP_NODES=0 ;;
  esac
  for id in "${NPU_PCI_DEVICE_IDS[@]}"; do ids+="${ids:+|}$id"; done
  count_rows system/pci-devices.tsv "tolower(\$c[\"vendor\"]) == \"0x19e5\" && tolower(\$c[\"device\"]) ~ /^($ids)\$/"
  NP_PCI=$N
  [ -n "$OPT_SYSROOT" ] || NP_PROCS=${#TARGET_PIDS[@]}
  if [[ ${NP_NODES:-0} -gt 0 || ${NP_PROCS:-0} -gt 0 ]]; then
    NP_STATE=npu_visible
  elif [ -z "$NP_NODES" ] || [ -z "$NP_PROCS" ]; then
    NP_STATE=unknown
  elif [[ ${NP_MODULES:-0} -gt 0 || $NP_DRIVER == true || ${NP_PCI:-0} -gt 0 ]]; then
    NP_STATE=devices_not_visible
  elif [ -z "$NP_MODULES" ] || [ -z "$NP_DRIVER" ] || [ -z "$NP_PCI" ]; then
    NP_STATE=unknown
  else
    NP_STATE=no_npu
  fi
}

# The manifest's "npu_presence" line (ends with a comma: more fields follow).
manifest_npu_presence() {
  printf '"npu_presence": {"state": "%s", "ascend_modules_loaded": %s, "driver_installed": %s, "device_nodes": %s, "npu_pci_devices": %s, "npu_processes": %s},\n' \
    "$NP_STATE" "${NP_MODULES:-null}" "${NP_DRIVER:-null}" "${NP_NODES:-null}" "${NP_PCI:-null}" "${NP_PROCS:-null}"
}

# What the result line says instead of "complete" or "partial" on a host without an NPU;
# empty otherwise.
npu_presence_result() {
  case $NP_STATE in
    no_npu) NP_RESULT="no NPU here: no Ascend driver, no /dev/davinci* node, no Huawei NPU PCI device, no NPU process (the wrong host, or a container started without devices)" ;;
    devices_not_visible) NP_RESULT="no NPU device visible: no /dev/davinci* node and no NPU process, though the Ascend driver or an NPU PCI device is there (a container started without devices?)" ;;
    *) NP_RESULT="" ;;
  esac
}
