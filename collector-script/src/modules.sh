# shellcheck shell=bash
# Phase modules: the Ascend kernel modules loaded (lsmod, /proc/modules, /sys/module) and
# installed (/lib/modules tree, modules.dep, modinfo, modprobe, configs, initramfs, DKMS).

phase_modules() {
  step_gen modules/ascend-names.txt gen_ascend_names
  step_exec modules/lsmod.txt host lsmod
  step_copy modules/proc-modules.txt /proc/modules
  step_func modules/sysfs.tsv /sys/module bg_sysfs_tsv
  # Every module file of every kernel is hashed and read: more time than one tool call.
  STEP_LIMIT=$((OPT_TIMEOUT * 4)) step_func modules/tree.tsv /lib/modules bg_tree_tsv
  step_func modules/modules.dep.txt /lib/modules bg_modules_dep
  module_tool_steps
  copy_listed modules/config /etc/modprobe.d /lib/modprobe.d /usr/lib/modprobe.d /run/modprobe.d \
    /etc/depmod.d /lib/depmod.d /etc/modules-load.d
  initramfs_steps
  step_exec modules/dkms-status.txt host dkms status
  step_func modules/dkms-tree.txt /var/lib/dkms/davinci_ascend bg_dkms_tree
}

gen_ascend_names() { printf '%s\n' "${ASCEND_MODULE_PATTERNS[@]}"; }

bg_sysfs_tsv() {
  local d name version srcversion build_id initstate taint refcnt holders h note
  [ -d "$ROOT/sys/module" ] || exit_missing_or_denied "$ROOT/sys/module"
  tsv_row name version srcversion build_id initstate taint refcnt holders
  for d in "$ROOT"/sys/module/*; do
    name=${d##*/}
    is_ascend_module "$name" || continue
    read_value "$d/version"; version=$V
    read_value "$d/srcversion"; srcversion=$V
    read_value "$d/initstate"; initstate=$V
    read_value "$d/taint"; taint=$V
    read_value "$d/refcnt"; refcnt=$V
    build_id=""
    note=$d/notes/.note.gnu.build-id
    if [ -r "$note" ]; then
      build_id=$(od -An -v -tx1 -j16 "$note" 2>/dev/null | tr -d ' \n')
    fi
    holders=""
    for h in "$d"/holders/*; do
      [ -e "$h" ] || [ -L "$h" ] || continue
      holders+="${holders:+,}${h##*/}"
    done
    tsv_row "$name" "$version" "$srcversion" "$build_id" "$initstate" "$taint" "$refcnt" "$holders"
  done
}

# "srcversion<TAB>vermagic<TAB>build_id" of module file $1 (compression $2), read from its
# decompressed content: a temporary file under the output directory (TMPDIR), removed after.
module_strings() {
  local dec f bid="" hex
  case $2 in
    none) dec=() ;;
    gz) dec=(gzip -dc) ;;
    xz) have xz || return 0; dec=(xz -dc) ;;
    zst) have zstd || return 0; dec=(zstd -dcq) ;;
    *) return 0 ;;
  esac
  if ((${#dec[@]})); then
    f=${TMPDIR:-/tmp}/module.$BASHPID
    "${dec[@]}" < "$1" > "$f" 2>/dev/null || { rm -f "$f"; return 0; }
  else
    f=$1
  fi
  # The GNU build-id note: readelf where it reads the file, else the note's bytes (namesz 4,
  # descsz 20, type 3, "GNU\0", then the 20-byte id), looked for in the first 64 KiB: a
  # module's notes are its first sections, and a whole module in hex is megabytes of text.
  if have readelf; then
    bid=$(readelf -n "$f" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\).*/\1/p' | head -n 1)
  fi
  if [ -z "$bid" ]; then
    hex=$(head -c 65536 "$f" 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
    case $hex in
      *040000001400000003000000474e5500????????????????????????????????????????*)
        hex=${hex#*040000001400000003000000474e5500}
        bid=${hex:0:40} ;;
    esac
  fi
  tr '\0' '\n' < "$f" 2>/dev/null | awk -v bid="$bid" '
    !s && /^srcversion=/ { s = substr($0, 12) }
    !v && /^vermagic=/ { v = substr($0, 10) }
    s && v { exit }
    END { printf "%s\t%s\t%s", s, v, bid }'
  [ "$f" = "$1" ] || rm -f "$f"
}

bg_tree_tsv() {
  local kd kver f base mod hp type lt lm rp exists comp size tm tc sha sv vm bi strs st
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  tsv_row kver module path type link_target resolved_path target_exists compression size \
    link_mtime target_mtime target_ctime sha256 srcversion build_id vermagic
  for kd in "$ROOT"/lib/modules/*; do
    [ -d "$kd" ] || continue
    kver=${kd##*/}
    find "$kd" \( -type f -o -type l \) -name '*.ko*' -print0 |
      while IFS= read -r -d '' f; do
        base=${f##*/}
        mod=${base%%.ko*}
        mod=${mod//-/_}
        is_ascend_module "$mod" || continue
        hp=${f#"$ROOT"}
        type=f lt="" lm=""
        if [ -L "$f" ]; then
          type=l
          lt=$(readlink "$f")
          ((HAVE_STAT)) && lm=$(stat -c %Y "$f" 2>/dev/null)
        fi
        resolve_in_root "$ROOT" "$hp"
        rp=$RESOLVED
        exists=0 size="" tm="" tc="" sha="" sv="" vm="" bi=""
        case ${rp:-$hp} in
          *.ko) comp=none ;;
          *.ko.xz) comp=xz ;;
          *.ko.zst) comp=zst ;;
          *.ko.gz) comp=gz ;;
          *) comp="" ;;
        esac
        if [ -n "$rp" ] && [ -f "$ROOT$rp" ]; then
          exists=1
          if ((HAVE_STAT)); then
            st=$(stat -c '%s %Y %Z' "$ROOT$rp" 2>/dev/null)
            # shellcheck disable=SC2086  # three numbers
            set -- $st
            size=$1 tm=$2 tc=$3
          else
            file_size "$ROOT$rp"; size=$SIZE
          fi
          hash_file "$ROOT$rp"; sha=$HASH
          strs=$(module_strings "$ROOT$rp" "$comp")
          sv=${strs%%$'\t'*}
          vm=${strs#*$'\t'}
          bi=${vm#*$'\t'}
          vm=${vm%%$'\t'*}
        fi
        tsv_row "$kver" "$mod" "$hp" "$type" "$lt" "$rp" "$exists" "$comp" "$size" "$lm" \
          "$tm" "$tc" "$sha" "$sv" "$bi" "$vm"
      done
  done
}

# Lines of each kernel's modules.dep that name an Ascend module, prefixed "<kver>:".
bg_modules_dep() {
  local kd re='(^|/)(drv_|ascend_|asdrv_|dbl_|vdrv_|ts_agent|ts_debug|debug_switch|npu_peermem|tc_pcidev|ubdevshm)' any=0
  [ -d "$ROOT/lib/modules" ] || exit_missing_or_denied "$ROOT/lib/modules"
  for kd in "$ROOT"/lib/modules/*; do
    [ -f "$kd/modules.dep" ] || continue
    any=1
    grep -E "$re" "$kd/modules.dep" | sed "s#^#${kd##*/}:#"
  done
  ((any)) || { echo "no modules.dep under /lib/modules" >&2; exit 65; }
  return 0
}

# KVERS = the running kernel and the boot default (from system/kernels.tsv); MODNAMES = the
# Ascend modules loaded or installed (from modules/sysfs.tsv and modules/tree.tsv).
modules_known() {
  local f k
  KVERS=() MODNAMES=()
  declare -A known=()
  f=$BUNDLE/system/kernels.tsv
  if [ -f "$f" ]; then
    while IFS=$'\t' read -r k run boot _; do
      [ "$k" = kver ] && continue
      if [ "$run" = 1 ] || [ "$boot" = 1 ]; then KVERS+=("$k"); fi
    done < "$f"
  fi
  for f in sysfs tree; do
    [ -f "$BUNDLE/modules/$f.tsv" ] || continue
    while IFS=$'\t' read -r a b _; do
      [ "$f" = tree ] && a=$b
      case $a in name|module|"") continue ;; esac
      [ -n "${known[$a]}" ] && continue
      known[$a]=1
      MODNAMES+=("$a")
    done < "$BUNDLE/modules/$f.tsv"
  done
}

module_tool_steps() {
  local k m
  modules_known
  for k in "${KVERS[@]}"; do
    for m in "${MODNAMES[@]}"; do
      step_exec "modules/modinfo/$k/$m.txt" host modinfo -k "$k" "$m"
      step_exec "modules/modprobe-deps/$k/$m.txt" host modprobe -S "$k" --show-depends "$m"
    done
  done
  for m in "${MODNAMES[@]}"; do
    step_exec "modules/modprobe-dry-run/$m.txt" host modprobe -n -v "$m"
  done
}

initramfs_steps() {
  local k tool=""
  tool_path lsinitrd; [ -n "$TP" ] && tool=$TP
  if [ -z "$tool" ]; then tool_path lsinitramfs; tool=$TP; fi
  for k in "${KVERS[@]}"; do
    if [ -z "$tool" ]; then
      reset_result
      step_gate host || return 0
      [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
      record_item "modules/initramfs-$k.txt" "/boot" ""
      continue
    fi
    step_func "modules/initramfs-$k.txt" /boot bg_initramfs "$k" "$tool"
  done
}

# Ascend entries of the initramfs of kernel $1 ($2 = lsinitrd or lsinitramfs).
bg_initramfs() {
  local k=$1 tool=$2 img="" f
  for f in "/boot/initramfs-$k.img" "/boot/initrd.img-$k" "/boot/initrd-$k"; do
    [ -e "$ROOT$f" ] && { img=$ROOT$f; break; }
  done
  [ -n "$img" ] || { echo "no initramfs for $k" >&2; exit 65; }
  need_readable "$img"
  "$tool" "$img" > "$STEP_BASE.full" || return $?
  grep -E 'drv_|ascend|asdrv_|dbl_|davinci|npu' "$STEP_BASE.full"
  rm -f "$STEP_BASE.full"
  return 0
}

bg_dkms_tree() {
  local d=$ROOT/var/lib/dkms/davinci_ascend
  [ -d "$d" ] || exit_missing_or_denied "$d"
  find "$d/" -maxdepth 6 -printf '%M %s %TY-%Tm-%Td %TH:%TM %p\t%l\n' | sed "s#^\([^/]*\)$ROOT/#\1/#"
}
