# shellcheck shell=bash
# Phase system: kernel release, OS, boot, time zone, kernels, PCI devices and device nodes,
# the CPU load.

phase_system() {
  step_exec system/uname.txt host uname -a
  step_copy system/os-release /etc/os-release
  step_copy system/cmdline /proc/cmdline
  step_func system/time.txt "" bg_time_txt
  step_copy system/localtime.tzif /etc/localtime
  step_func system/boot.txt /proc/sys/kernel/random/boot_id bg_boot_txt
  step_func system/kernels.tsv /lib/modules bg_kernels_tsv
  step_func system/pci-devices.tsv /sys/bus/pci/devices bg_pci_tsv
  step_exec system/lspci.txt host lspci -D -nn -k
  step_func system/devices.txt /dev/davinci bg_devices_txt
  # CPU contention (issue 37, slow not stuck): load, pressure (kernels with PSI) and CPUs online.
  step_copy system/loadavg /proc/loadavg
  step_copy system/pressure-cpu /proc/pressure/cpu
  step_copy system/cpu-online /sys/devices/system/cpu/online
  step_copy mounts/mountinfo.txt /proc/self/mountinfo
}

bg_time_txt() {
  local tzfile=$ROOT/etc/localtime epoch utc loc off name="" link posix="" hdr clk=""
  epoch_now; epoch=$EPOCH
  iso_utc "$epoch"; utc=$ISO
  if [ -r "$tzfile" ]; then export TZ=":$tzfile"; else export TZ=UTC0; fi
  printf -v loc '%(%Y-%m-%dT%H:%M:%S)T' "$epoch"
  printf -v off '%(%z)T' "$epoch"
  if [ -L "$tzfile" ]; then
    link=$(readlink "$tzfile" 2>/dev/null)
    case $link in */zoneinfo/*) name=${link##*/zoneinfo/} ;; esac
  fi
  if [ -z "$name" ] && [ -r "$ROOT/etc/timezone" ]; then
    IFS= read -r name < "$ROOT/etc/timezone"
  fi
  if [ -r "$tzfile" ]; then
    # Only TZif version 2 and later end with the POSIX TZ string as their last line.
    IFS= read -r -n 5 hdr < "$tzfile"
    case $hdr in
      TZif[2-9])
        posix=$(tail -n 1 "$tzfile")
        [[ $posix =~ ^[[:print:]]+$ ]] || posix=""
        ;;
    esac
  fi
  have getconf && clk=$(getconf CLK_TCK 2>/dev/null)
  printf 'epoch=%s\nutc=%s\nlocal=%s\nutc_offset=%s\ntimezone=%s\ntz_posix=%s\nclk_tck=%s\n' \
    "$epoch" "$utc" "$loc${off:0:3}:${off:3:2}" "$off" "$name" "$posix" "$clk"
}

bg_boot_txt() {
  local boot_id="" btime="" up="" rest found=0
  if IFS= read -r boot_id < "$ROOT/proc/sys/kernel/random/boot_id"; then found=1; fi
  if [ -r "$ROOT/proc/stat" ]; then
    btime=$(awk '$1 == "btime" { print $2; exit }' "$ROOT/proc/stat") && found=1
  fi
  if read -r up rest < "$ROOT/proc/uptime"; then found=1; fi
  ((found)) || exit_missing_or_denied "$ROOT/proc/stat"
  printf 'boot_id=%s\nbtime=%s\nuptime_s=%s\n' "$boot_id" "$btime" "$up"
}

bg_kernels_tsv() {
  local kd k run boot="" im dm f bd
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  read_value "$ROOT/proc/sys/kernel/osrelease"; run=$V
  if [ -z "$ROOT" ] && have grubby; then
    boot=$(grubby --default-kernel 2>/dev/null)
    boot=${boot##*/vmlinuz-}
  fi
  tsv_row kver running boot_default initramfs_mtime modules_dep_mtime
  for kd in "$ROOT"/lib/modules/*; do
    [ -d "$kd" ] || continue
    k=${kd##*/} im="" dm="" bd=""
    [ -n "$boot" ] && { [ "$k" = "$boot" ] && bd=1 || bd=0; }
    if ((HAVE_STAT)); then
      for f in "$ROOT/boot/initramfs-$k.img" "$ROOT/boot/initrd.img-$k" "$ROOT/boot/initrd-$k"; do
        [ -f "$f" ] && { im=$(stat -c %Y "$f" 2>/dev/null); break; }
      done
      [ -f "$kd/modules.dep" ] && dm=$(stat -c %Y "$kd/modules.dep" 2>/dev/null)
    fi
    tsv_row "$k" "$([ "$k" = "$run" ] && echo 1 || echo 0)" "$bd" "$im" "$dm"
  done
}

bg_pci_tsv() {
  local d drv w
  [ -d "$ROOT/sys/bus/pci/devices" ] || exit_missing_or_denied "$ROOT/sys/bus/pci/devices"
  tsv_row address vendor device class driver link_width
  for d in "$ROOT"/sys/bus/pci/devices/*; do
    [ -e "$d" ] || continue
    drv=""
    [ -L "$d/driver" ] && { drv=$(readlink "$d/driver"); drv=${drv##*/}; }
    read_value "$d/current_link_width"; w=$V
    read_value "$d/vendor"; local v=$V
    read_value "$d/device"; local dv=$V
    read_value "$d/class"; local c=$V
    tsv_row "${d##*/}" "$v" "$dv" "$c" "$drv" "$w"
  done
}

bg_devices_txt() {
  local f nodes=()
  for f in "$ROOT"/dev/davinci* "$ROOT/dev/devmm_svm" "$ROOT/dev/hisi_hdc"; do
    if [ -e "$f" ] || [ -L "$f" ]; then nodes+=("$f"); fi
  done
  ((${#nodes[@]})) || { echo "no /dev/davinci*, /dev/devmm_svm or /dev/hisi_hdc" >&2; exit 65; }
  [ -n "$ROOT" ] || exec ls -l "${nodes[@]}"
  # Under a root other than /, the nodes' paths as the host names them.
  # shellcheck disable=SC2012  # ls -l is the format the contract names
  ls -l "${nodes[@]}" | while IFS= read -r f; do printf '%s\n' "${f/" $ROOT/dev/"/ /dev/}"; done
}
