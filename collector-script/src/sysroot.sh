# shellcheck shell=bash
# --sysroot DIR --kernel KVER: a dead host's disk. Its phases read files under the image and
# tell tools where the image is; what needs the live host is recorded as skipped.

# Records bundle path $1 as skipped: a live-host step a sysroot collection cannot make.
skip_live() {
  reset_result
  step_gate host || return 0
  [ -n "$R_STATUS" ] || { R_STATUS=skipped R_REASON=option R_ERROR=sysroot; }
  record_item "$1" "$2" ""
}

gen_sysroot_txt() { printf 'collection=sysroot\nsysroot=%s\nkernel=%s\n' "$OPT_SYSROOT" "$OPT_KERNEL"; }

phase_sysroot_system() {
  step_gen system/sysroot.txt gen_sysroot_txt
  MANIFEST_NOTES+=("sysroot collection: files read under $OPT_SYSROOT, kernel $OPT_KERNEL; no process, device or live-kernel steps")
  skip_live system/uname.txt ""
  step_copy system/os-release /etc/os-release
  skip_live system/cmdline /proc/cmdline
  step_func system/time.txt /etc/localtime bg_sysroot_time_txt
  resolve_in_root "$ROOT" /etc/localtime || RESOLVED=/etc/localtime
  step_copy system/localtime.tzif "$RESOLVED"
  skip_live system/boot.txt /proc/sys/kernel/random/boot_id
  step_func system/kernels.tsv /lib/modules bg_kernels_tsv
  skip_live system/pci-devices.tsv /sys/bus/pci/devices
  skip_live system/lspci.txt ""
  skip_live system/devices.txt /dev/davinci
  skip_live mounts/mountinfo.txt /proc/self/mountinfo
}

# system/time.txt with the image's zone: /etc/localtime is usually an absolute link, which
# must resolve inside the image; bg_time_txt reads it through a link in the work directory.
bg_sysroot_time_txt() {
  local tz=$WORK/tzroot
  mkdir -p "$tz/etc" || exit 66
  if resolve_in_root "$ROOT" /etc/localtime && [ -f "$ROOT$RESOLVED" ]; then
    ln -sfn "$ROOT$RESOLVED" "$tz/etc/localtime"
  fi
  [ -f "$ROOT/etc/timezone" ] && cp "$ROOT/etc/timezone" "$tz/etc/timezone"
  ROOT=$tz bg_time_txt
}

# The kernel journal of the image (journalctl -D), its syslog files, nothing of the live
# kernel. Boot -0 is the image's last boot (with -D, boot 0 would be the live host's).
phase_sysroot_kernel() {
  local n f jd=$ROOT/var/log/journal
  skip_live kernel/dmesg.txt ""
  skip_live kernel/tainted /proc/sys/kernel/tainted
  skip_live kernel/secure-boot.txt ""
  if [ -d "$jd" ]; then
    step_exec kernel/boots.txt host journalctl -D "$jd" --list-boots --utc --no-pager
    sysroot_journal_step 0
    if [ -f "$BUNDLE/kernel/boots.txt" ]; then
      for ((n = 1; n <= OPT_BOOTS; n++)); do
        grep -q -E "^ *-$n " "$BUNDLE/kernel/boots.txt" && sysroot_journal_step "$n"
      done
    fi
  else
    reset_result
    R_STATUS=absent R_REASON=source_missing R_ERROR=not_found
    record_item kernel/journal-b0.jsonl /var/log/journal ""
  fi
  STEP_KEEP=1 step_func kernel/syslog /var/log bg_list_named /var/log 'messages*' 'kern.log*' 'syslog*'
  if [ -n "$R_OUT" ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_func "kernel/syslog/${f##*/}" "$f" bg_copy_capped "$f" "$LOG_CAP"
    done < "$R_OUT"
  fi
}

# Boot -$1 of the image's journal as kernel/journal-b0.jsonl, journal-b-1.jsonl, ...
sysroot_journal_step() {
  local path=kernel/journal-b0.jsonl argv
  ((${1} > 0)) && path=kernel/journal-b-$1.jsonl
  argv=(journalctl -D "$ROOT/var/log/journal" -k -b "-$1" -o json --all --no-pager)
  tool_path journalctl
  if [ -z "$TP" ]; then step_exec "$path" host "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step host "$path" "$TP" "$J" bg_exec_capped "$LOG_CAP" "$TP" "${argv[@]:1}"
}

# Module files of the image: the tree, modules.dep, configs and initramfs as on a live host;
# modinfo -b and modprobe -d resolve against the image for kernel --kernel.
phase_sysroot_modules() {
  local m
  step_gen modules/ascend-names.txt gen_ascend_names
  skip_live modules/lsmod.txt ""
  skip_live modules/proc-modules.txt /proc/modules
  skip_live modules/sysfs.tsv /sys/module
  step_func modules/tree.tsv /lib/modules bg_tree_tsv
  step_func modules/modules.dep.txt /lib/modules bg_modules_dep
  modules_known
  KVERS=("$OPT_KERNEL")
  for m in "${MODNAMES[@]}"; do
    step_exec "modules/modinfo/$OPT_KERNEL/$m.txt" host modinfo -b "$ROOT" -k "$OPT_KERNEL" "$m"
    step_exec "modules/modprobe-deps/$OPT_KERNEL/$m.txt" host modprobe -d "$ROOT" -S "$OPT_KERNEL" --show-depends "$m"
  done
  copy_listed modules/config /etc/modprobe.d /usr/lib/modprobe.d /run/modprobe.d /etc/depmod.d \
    /lib/depmod.d /etc/modules-load.d
  initramfs_steps
  skip_live modules/dkms-status.txt ""
  step_func modules/dkms-tree.txt /var/lib/dkms/davinci_ascend bg_dkms_tree
}

# What a dead host cannot give: its processes and its devices.
phase_sysroot_live() {
  skip_live processes /proc
  skip_live ascend/npu-smi-info.txt ""
  skip_live ascend/npu-smi-map.txt ""
}
