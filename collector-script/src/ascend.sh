# shellcheck shell=bash
# Phase ascend: the Ascend install (install info, driver and firmware versions, CANN installs
# and their component versions, paths named by the processes' variables, seclog, hccn.conf).

phase_ascend() {
  local p drv=/usr/local/Ascend id dir kind f rel line
  step_copy ascend/ascend_install.info /etc/ascend_install.info
  if [ -f "$BUNDLE/ascend/ascend_install.info" ]; then
    p=$(sed -n 's/^Driver_Install_Path_Param=//p' "$BUNDLE/ascend/ascend_install.info" | head -n 1)
    case $p in /*) drv=${p%/} ;; esac
  fi
  step_copy ascend/driver-version.info "$drv/driver/version.info"
  step_copy ascend/firmware-version.info "$drv/firmware/version.info"
  step_func ascend/cann/index.tsv /usr/local/Ascend bg_cann_index /usr/local/Ascend "$drv" /etc/Ascend
  if [ -f "$BUNDLE/ascend/cann/index.tsv" ]; then
    while IFS=$'\t' read -r id dir kind _ _ _ f; do
      [ "$id" = id ] && continue
      [[ $id =~ ^c[0-9]+$ ]] || continue
      rel=${f#"$dir"/}
      step_copy "ascend/cann/$id/$rel" "$f"
      for line in version.cfg version.info; do
        [ -e "$ROOT$dir/$line" ] && step_copy "ascend/cann/$id/$line" "$dir/$line"
      done
      cann_component_versions "$id" "$dir" "$kind"
    done < "$BUNDLE/ascend/cann/index.tsv"
  fi
  step_func ascend/paths.tsv /usr/local/Ascend bg_paths_tsv "${TARGET_PIDS[@]}"
  STEP_KEEP=1 step_func ascend/seclog /var/log/ascend_seclog bg_list_named /var/log/ascend_seclog '*'
  if [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ]; then
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      step_func "ascend/seclog/${f##*/}" "$f" bg_copy_capped "$f" "$LOG_CAP"
    done < "$R_OUT"
  elif [ -n "$R_STATUS" ] && [ "$R_STATUS" != absent ]; then
    [ -n "$R_ERRF" ] && store_err "$R_ERRF" ascend/seclog
    record_item ascend/seclog /var/log/ascend_seclog ""
  fi
  step_copy ascend/hccn.conf /etc/hccn.conf
}

# ascend/cann/index.tsv rows, one install a line: every *_install.info within a bounded
# depth of the install roots; copies of each install's info files are made by the caller.
bg_cann_index() {
  local r f dir kind ver id=0 rd base seen=" " any=0
  tsv_row id install_dir kind version resolved_dir seen_from info_file
  for r in "$@"; do
    [ -d "$ROOT$r" ] || continue
    any=1
    while IFS= read -r -d '' f; do
      f=${f#"$ROOT"}
      dir=${f%/*}
      case $dir in *-linux) dir=${dir%/*} ;; esac
      base=${f##*/}
      case $base in
        ascend_toolkit_*) kind=toolkit ;;
        ascend_cann_*) kind=cann ;;
        ascend_nnal_*|*nnal*) kind=nnal ;;
        ascend_nnae_*|*nnae*) kind=nnae ;;
        *ops*|*opp*) kind=ops ;;
        *) kind=cann ;;
      esac
      ver=$(sed -n 's/^[Vv]ersion=//p' "$ROOT$f" 2>/dev/null | head -n 1)
      resolve_in_root "$ROOT" "$dir"; rd=$RESOLVED
      [[ $seen == *" $rd/$base "* ]] && continue
      seen+="$rd/$base "
      id=$((id + 1))
      tsv_row "c$id" "$dir" "$kind" "$ver" "$rd" host "$f"
    done < <(find "$ROOT$r/" -maxdepth 4 -name '*_install.info' -print0 2>/dev/null)
  done
  ((any)) || { echo "no CANN install root ($*)" >&2; exit 65; }
  return 0
}

# Copies the share/info/<component>/version.info files of CANN install $2 (index id $1,
# kind $3) to ascend/cann/<id>/share/info/...: the ops ones for an ops install, the others
# for the toolkit (both kinds may share one directory).
cann_component_versions() {
  local id=$1 dir=$2 kind=$3 f comp
  STEP_KEEP=1 step_func "ascend/cann/$id/share/info" "$dir/share/info" bg_list_files "$dir/share/info" 2
  [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ] || return 0
  while IFS= read -r -d '' f; do
    f=${f#"$ROOT"}
    case $f in */share/info/*/version.info) ;; *) continue ;; esac
    comp=${f%/version.info}
    comp=${comp##*/}
    case $kind:$comp in
      ops:ops*|ops:opp*) ;;
      ops:*|*:ops*|*:opp*) continue ;;
    esac
    step_copy "ascend/cann/$id/${f#"$dir"/}" "$f"
  done < "$R_OUT"
}

# ascend/paths.tsv: the Ascend links and every directory named by an Ascend variable,
# LD_LIBRARY_PATH or PYTHONPATH of a collected process (from its collected environ), each
# resolved through that process's root.
bg_paths_tsv() {
  local pid env rec name val p via t seen=" "
  tsv_row path exists type resolved_path seen_from
  path_row() {
    local via=$1 p=$2 from=$3 rp e=0 t=-
    [[ $seen == *" $from:$p "* ]] && return 0
    seen+="$from:$p "
    resolve_in_root "$ROOT$via" "$p"; rp=$RESOLVED
    if [ -L "$ROOT$via$p" ]; then t=l; elif [ -d "$ROOT$via$p" ]; then t=d; elif [ -e "$ROOT$via$p" ]; then t=f; fi
    [ -e "$ROOT$via$rp" ] && e=1
    tsv_row "$p" "$e" "$t" "$rp" "$from"
  }
  for p in /usr/local/Ascend/ascend-toolkit/latest /usr/local/Ascend/cann /usr/local/Ascend/latest \
    /usr/local/Ascend/nnal/atb/latest /usr/local/Ascend/driver; do
    if [ -e "$ROOT$p" ] || [ -L "$ROOT$p" ]; then path_row "" "$p" host; fi
  done
  for pid in "$@"; do
    env=$BUNDLE/processes/$pid/environ
    [ -f "$env" ] || continue
    via=/proc/$pid/root
    [ "${PID_ORIGIN[$pid]}" = host ] && via=""
    while IFS= read -r -d '' rec || [ -n "$rec" ]; do
      name=${rec%%=*} val=${rec#*=}
      case $name in ASCEND_*|LD_LIBRARY_PATH|PYTHONPATH) ;; *) continue ;; esac
      val=$val:
      while [ -n "$val" ]; do
        p=${val%%:*} val=${val#*:}
        case $p in /*) path_row "$via" "$p" "pid:$pid" ;; esac
      done
    done < "$env"
  done
}
