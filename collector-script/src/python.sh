# shellcheck shell=bash
# Python packages and the collector's own environment. Package lists come from metadata files
# (dist-info, egg-info, egg-link) read through each process's root: nothing is executed but
# `python3 -I -S` (no site hooks) for the default interpreter's directories, and, only with
# --pip, pip itself (which starts site hooks: customer code).

# The environment, packages and (with --pip) pip listings: after the process steps, since
# they read the collected maps, environ and cmdline.
python_steps() {
  local pid
  step_func env/collector-env "" bg_collector_env
  for pid in "${TARGET_PIDS[@]}"; do
    step_func "processes/$pid/packages.tsv" "/proc/$pid/root" bg_proc_packages "$pid"
    step_func "processes/$pid/torch_npu-version.py" "/proc/$pid/root" bg_proc_torch_npu_version "$pid"
  done
  step_py collector/python3-paths.txt python3 -I -S -c "$PY_PATHS_CODE"
  if [ "$R_STATUS" = ok ]; then
    step_func python/packages.tsv python3 bg_default_packages
  elif [ -n "$R_STATUS" ]; then
    record_as_before python/packages.tsv python3
  fi
  if ((OPT_PIP)); then
    pip_steps
  else
    record_skipped_option python/pip-list.json
    record_skipped_option python/pip-show.txt
    for pid in "${TARGET_PIDS[@]}"; do record_skipped_option "processes/$pid/pip-list.json"; done
  fi
}

# The packages `pip show` is asked about with --pip.
PIP_SHOW_PACKAGES=(torch torch_npu torchvision torchaudio numpy apex deepspeed mindspeed
  transformers accelerate)

PY_PATHS_CODE='import sys, site
print("version=%d.%d" % sys.version_info[:2])
print("prefix=" + sys.prefix)
for p in getattr(site, "getsitepackages", lambda: [])(): print("site=" + p)
u = getattr(site, "getusersitepackages", None)
if u: print("user=" + u())'

# Whether variable $1 of the collector's own environment goes into env/collector-env.
collector_env_name() {
  case $1 in
    ASCEND_*|HCCL_*|HCCN_*|PATH|PYTHONPATH|LD_LIBRARY_PATH|LD_PRELOAD|*TASK_QUEUE*|PYTORCH_NPU_*|ACL_*) return 0 ;;
  esac
  return 1
}

# env/collector-env: the environment the collector was started with (its own
# /proc/<pid>/environ, which its later exports do not change), filtered and redacted.
bg_collector_env() {
  local src=/proc/$$/environ rec
  need_readable "$src"
  while IFS= read -r -d '' rec || [ -n "$rec" ]; do
    collector_env_name "${rec%%=*}" || continue
    if ((OPT_REDACT)); then redact_env_entry "$rec"; else R=$rec; fi
    printf '%s\0' "$R"
  done < "$src"
}

# V with leading and trailing blanks (and a CR) removed.
trim_value() {
  V=${1%$'\r'}
  while [[ $V == [[:blank:]]* ]]; do V=${V#?}; done
  while [[ $V == *[[:blank:]] ]]; do V=${V%?}; done
}

# MD_NAME, MD_VERSION = the Name: and Version: headers of metadata file $1 (its header block
# only: the long description after the first empty line is not read).
read_metadata() {
  local line n=0
  MD_NAME="" MD_VERSION=""
  [ -f "$1" ] && [ -r "$1" ] || return 1
  while ((n < 400)) && IFS= read -r line; do
    n=$((n + 1))
    [ -n "${line%$'\r'}" ] || break
    case $line in
      Name:*) [ -n "$MD_NAME" ] || { trim_value "${line#Name:}"; MD_NAME=$V; } ;;
      Version:*) [ -n "$MD_VERSION" ] || { trim_value "${line#Version:}"; MD_VERSION=$V; } ;;
    esac
    [ -n "$MD_NAME" ] && [ -n "$MD_VERSION" ] && break
  done < "$1"
  return 0
}

# TSV rows (name, version, location, kind) of the packages in directory $2 as the process
# names it, $3 the same directory as the collector reaches it, $1 the process's root; $4 = 1
# for the directory of the process's script, whose egg-info is a project checkout in use
# (setup.py develop): kind editable.
list_site_packages() {
  local root=$1 loc=$2 dir=$3 checkout=${4:-0} e base stem md kind where p f
  for e in "$dir"/*.dist-info "$dir"/*.egg-info "$dir"/*.egg-link; do
    [ -e "$e" ] || continue
    base=${e##*/} where=$loc md=""
    case $base in
      *.dist-info)
        kind=dist-info md=$e/METADATA
        # An editable install (pip install -e): its code lives where direct_url.json says.
        if [ -f "$e/direct_url.json" ] && grep -q '"editable": *true' "$e/direct_url.json" 2>/dev/null; then
          kind=editable
          p=$(sed -n 's#.*"url": *"file://\([^"]*\)".*#\1#p' "$e/direct_url.json" 2>/dev/null | head -n 1)
          [ -n "$p" ] && where=$p
        fi ;;
      *.egg-info)
        kind=egg-info
        ((checkout)) && kind=editable
        if [ -d "$e" ]; then md=$e/PKG-INFO; else md=$e; fi ;;
      *.egg-link)
        # setup.py develop: the first line names the project directory, whose *.egg-info
        # holds the metadata.
        kind=editable
        p=""
        IFS= read -r p < "$e" 2>/dev/null
        trim_value "$p"; p=$V
        [ -n "$p" ] && where=$p
        case $p in
          /*)
            if resolve_in_root "$root" "$p"; then
              for f in "$root$RESOLVED"/*.egg-info; do
                if [ -d "$f" ]; then md=$f/PKG-INFO; else md=$f; fi
                break
              done
            fi ;;
        esac ;;
    esac
    read_metadata "$md"
    # Without metadata, the directory's own name: name-version.dist-info.
    stem=${base%.*}
    if [ -z "$MD_NAME" ]; then
      MD_NAME=$stem
      [[ $stem == *-* ]] && MD_NAME=${stem%%-*}
    fi
    if [ -z "$MD_VERSION" ] && [[ $stem == *-* ]] && [ "$kind" != editable ]; then
      MD_VERSION=${stem#*-}
      MD_VERSION=${MD_VERSION%%-*}
    fi
    tsv_row "$MD_NAME" "$MD_VERSION" "$where" "$kind"
  done
}

# packages.tsv: the packages of directories $3... seen through root $1 ($2: the directory of
# the process's script, or empty), sorted by name; exit 65 when none of them exists.
bg_packages_tsv() {
  local root=$1 script=$2 d seen=$'\n' any=0 tab=$'\t'
  shift 2
  : > "$STEP_BASE.rows"
  for d in ${script:+"$script"} "$@"; do
    case $d in /*) ;; *) continue ;; esac
    resolve_in_root "$root" "$d" || continue
    [ -d "$root$RESOLVED" ] || continue
    [[ $seen == *$'\n'"$RESOLVED"$'\n'* ]] && continue
    seen+=$RESOLVED$'\n'
    any=1
    list_site_packages "$root" "$d" "$root$RESOLVED" "$([ "$d" = "$script" ] && echo 1 || echo 0)" >> "$STEP_BASE.rows"
  done
  ((any)) || { echo "no package directory exists: $*" >&2; exit 65; }
  tsv_row name version location kind
  sort -f -t "$tab" -k1,1 -k3,3 "$STEP_BASE.rows"
  rm -f "$STEP_BASE.rows"
}

# PY_SCRIPT_DIR = the directory of the script process $1 runs (sys.path[0]: the working
# directory for -m and -c), from its collected cmdline and its cwd link (or PWD); a0 = its
# argv[0].
proc_script_dir() {
  local b=$BUNDLE/processes/$1 args=() a cwd="" i=1 script=""
  PY_SCRIPT_DIR=""
  [ -f "$b/cmdline" ] || return 0
  while IFS= read -r -d '' a || [ -n "$a" ]; do args+=("$a"); done < "$b/cmdline"
  a0=${args[0]}
  case ${a0##*/} in python*) ;; *) return 0 ;; esac
  cwd=$(readlink "$ROOT/proc/$1/cwd" 2>/dev/null)
  if [ -z "$cwd" ] && [ -f "$b/environ" ]; then
    while IFS= read -r -d '' a || [ -n "$a" ]; do case $a in PWD=/*) cwd=${a#PWD=} ;; esac; done < "$b/environ"
  fi
  while ((i < ${#args[@]})); do
    a=${args[i]}
    case $a in
      -m|-c) script=$cwd/-; break ;;
      -W|-X|-Q) i=$((i + 2)); continue ;;
      -*) i=$((i + 1)); continue ;;
      *) script=$a; break ;;
    esac
  done
  [ -n "$script" ] || return 0
  case $script in /*) ;; *) [ -n "$cwd" ] || return 0; script=$cwd/$script ;; esac
  PY_SCRIPT_DIR=${script%/*}
  PY_SCRIPT_DIR=${PY_SCRIPT_DIR:-/}
}

# What process $1's Python is, from its collected maps, environ, cmdline and exe.txt (no
# host file is read): PY_VER (3.10), PY_EXE (the interpreter as the process started it, a
# path inside its root), PY_TNPU (the torch_npu directory of its mapped libtorch_npu.so),
# PY_DIRS (its package directories, the one holding torch_npu first; existence unchecked).
proc_python() {
  local b=$BUNDLE/processes/$1 p d rec home="" pypath="" venv="" conda="" nouser="" a0="" exe=""
  local sites=() prefixes=() tnpu_site="" v pre
  PY_VER="" PY_EXE="" PY_TNPU="" PY_DIRS=() PY_PATH=""
  if [ -f "$b/maps" ]; then
    while read -r _ _ _ _ _ p; do
      p=${p% (deleted)}
      case $p in /*) ;; *) continue ;; esac
      if [ -z "$PY_VER" ] && [[ $p =~ python(3\.[0-9]+) ]]; then PY_VER=${BASH_REMATCH[1]}; fi
      case $p in */libtorch_npu.so*) [ -n "$PY_TNPU" ] || PY_TNPU=${p%/lib/libtorch_npu.so*} ;; esac
      d=""
      case $p in
        */site-packages/*) d=${p%%/site-packages/*}/site-packages ;;
        */dist-packages/*) d=${p%%/dist-packages/*}/dist-packages ;;
      esac
      [ -n "$d" ] || continue
      [[ " ${sites[*]} " == *" $d "* ]] || sites+=("$d")
      case $p in */libtorch_npu.so*) tnpu_site=$d ;; esac
    done < "$b/maps"
  fi
  if [ -f "$b/environ" ]; then
    while IFS= read -r -d '' rec || [ -n "$rec" ]; do
      case $rec in
        HOME=*) home=${rec#*=} ;;
        PYTHONPATH=*) pypath=${rec#*=} ;;
        VIRTUAL_ENV=*) venv=${rec#*=} ;;
        CONDA_PREFIX=*) conda=${rec#*=} ;;
        PYTHONNOUSERSITE=?*) nouser=1 ;;
        PATH=*) PY_PATH=${rec#*=} ;;
      esac
    done < "$b/environ"
  fi
  proc_script_dir "$1"
  [ -f "$b/exe.txt" ] && IFS= read -r exe < "$b/exe.txt"
  exe=${exe% (deleted)}
  # The interpreter it was started as (a venv's bin/python is a link that exe resolves away).
  case ${a0##*/} in
    python*) PY_EXE=$a0 ;;
  esac
  [ -n "$PY_EXE" ] || case ${exe##*/} in python*) PY_EXE=$exe ;; esac
  if [ -z "$PY_VER" ]; then
    for p in "$PY_EXE" "$exe"; do
      [[ ${p##*/} =~ ^python(3\.[0-9]+)$ ]] && { PY_VER=${BASH_REMATCH[1]}; break; }
    done
  fi
  [ -n "$tnpu_site" ] && PY_DIRS+=("$tnpu_site")
  for d in "${sites[@]}"; do [ "$d" = "$tnpu_site" ] || PY_DIRS+=("$d"); done
  # PYTHONPATH, then the user's site, then the installation's own directories.
  pypath=$pypath:
  while [ -n "$pypath" ]; do
    d=${pypath%%:*} pypath=${pypath#*:}
    case $d in /*) PY_DIRS+=("$d") ;; esac
  done
  [ -z "$PY_VER" ] || [ -n "$nouser" ] || [ -z "$home" ] || PY_DIRS+=("$home/.local/lib/python$PY_VER/site-packages")
  for p in "$PY_EXE" "$exe"; do
    case $p in /*/bin/*) pre=${p%/bin/*}; prefixes+=("${pre:-/}") ;; esac
  done
  [ -n "$venv" ] && prefixes+=("$venv")
  [ -n "$conda" ] && prefixes+=("$conda")
  if [ -n "$PY_VER" ]; then
    v=python$PY_VER
    for pre in "${prefixes[@]}"; do
      pre=${pre%/}
      PY_DIRS+=("$pre/local/lib/$v/dist-packages" "$pre/local/lib/$v/site-packages"
        "$pre/local/lib64/$v/site-packages" "$pre/lib/python3/dist-packages"
        "$pre/lib/$v/dist-packages" "$pre/lib64/$v/site-packages" "$pre/lib/$v/site-packages")
    done
  fi
}

# processes/<pid>/packages.tsv of process $1, read through its root.
bg_proc_packages() {
  proc_python "$1"
  ((${#PY_DIRS[@]})) || { echo "process $1 shows no Python (maps, exe, cmdline)" >&2; exit 65; }
  bg_packages_tsv "$ROOT/proc/$1/root" "$PY_SCRIPT_DIR" "${PY_DIRS[@]}"
}

# processes/<pid>/torch_npu-version.py: torch_npu/version.py beside the mapped
# libtorch_npu.so, else in the first package directory that has one.
bg_proc_torch_npu_version() {
  local root=$ROOT/proc/$1/root d cands=()
  proc_python "$1"
  [ -n "$PY_TNPU" ] && cands+=("$PY_TNPU/version.py")
  for d in "${PY_DIRS[@]}"; do cands+=("$d/torch_npu/version.py"); done
  for d in "${cands[@]}"; do
    case $d in /*) ;; *) continue ;; esac
    resolve_in_root "$root" "$d" || continue
    if [ -f "$root$RESOLVED" ]; then
      need_readable "$root$RESOLVED"
      exec cat "$root$RESOLVED"
    fi
  done
  echo "no torch_npu/version.py through /proc/$1/root" >&2
  exit 65
}

# The interpreter of process $1 as a path inside its root, for the --pip listings: the one
# it was started as, found on its PATH when it was started by name.
bg_proc_interpreter() {
  local root=$ROOT/proc/$1/root p d
  proc_python "$1"
  p=$PY_EXE
  case $p in
    "") echo "process $1 shows no Python interpreter" >&2; exit 65 ;;
    */*) ;;
    *)
      d=$PY_PATH:
      while [ -n "$d" ]; do
        if [[ ${d%%:*} == /* ]] && resolve_in_root "$root" "${d%%:*}/$p" && [ -x "$root$RESOLVED" ]; then
          p=${d%%:*}/$p
          break
        fi
        d=${d#*:}
      done ;;
  esac
  case $p in /*) ;; *) echo "interpreter $p not found on the process's PATH" >&2; exit 65 ;; esac
  if ! resolve_in_root "$root" "$p" || [ ! -x "$root$RESOLVED" ]; then
    echo "no interpreter $p through /proc/$1/root" >&2
    exit 65
  fi
  printf '%s\n' "$p"
}

# The directories the default python3 lists (collector/python3-paths.txt), for
# python/packages.tsv.
bg_default_packages() {
  local f=$BUNDLE/collector/python3-paths.txt line dirs=()
  [ -f "$f" ] || exit_missing_or_denied "$f"
  while IFS= read -r line; do
    case $line in site=/*|user=/*) dirs+=("${line#*=}") ;; esac
  done < "$f"
  ((${#dirs[@]})) || { echo "python3 listed no package directory" >&2; exit 65; }
  bg_packages_tsv "$ROOT" "" "${dirs[@]}"
}

# A tool run from the collector's temporary directory: `python -m` puts the working
# directory on sys.path, and the user's may hold anything.
bg_exec_in_tmp() {
  cd "${TMPDIR:-/}" || exit 66
  bg_exec "$@"
}

# step_py PATH TOOL ARGS...: like step_exec, run from the temporary directory, with
# STEP_LIMIT three timeouts (pip reads every installed package's metadata).
step_py() {
  local path=$1 execj
  shift
  json_argv "$@"; execj=$J
  tool_path "$1"
  if [ -z "$TP" ]; then
    reset_result
    step_gate host || return 0
    [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
    record_item "$path" "" "$execj"
    return 0
  fi
  shift
  STEP_LIMIT=$((OPT_TIMEOUT * 3)) run_step host "$path" "$TP" "$execj" bg_exec_in_tmp "$TP" "$@"
}

# --pip: pip list and pip show of the default python3 and of each process's interpreter,
# with the process's PYTHONPATH and HOME; a process in a mount namespace of its own through
# chroot into its root (root only).
pip_steps() {
  local pid py rec env_args pre pipenv=(PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1)
  step_py python/pip-list.json env "${pipenv[@]}" python3 -m pip list --format=json
  step_py python/pip-show.txt env "${pipenv[@]}" python3 -m pip show "${PIP_SHOW_PACKAGES[@]}"
  for pid in "${TARGET_PIDS[@]}"; do
    ((INTERRUPTED)) && break
    STEP_KEEP=1 step_func "processes/$pid/pip-list.json" "/proc/$pid/root" bg_proc_interpreter "$pid"
    py=""
    [ "$R_STATUS" = ok ] && [ -s "$R_OUT" ] && IFS= read -r py < "$R_OUT"
    if [ -z "$py" ]; then
      [ -n "$R_STATUS" ] || continue
      [ "$R_STATUS" = ok ] && R_STATUS=absent R_REASON=source_missing R_ERROR=not_found
      [ -n "$R_ERRF" ] && store_err "$R_ERRF" "processes/$pid/pip-list.json"
      record_as_before "processes/$pid/pip-list.json" "/proc/$pid/root"
      record_as_before "processes/$pid/pip-show.txt" "/proc/$pid/root"
      continue
    fi
    env_args=(-u PYTHONPATH)
    if [ -f "$BUNDLE/processes/$pid/environ" ]; then
      while IFS= read -r -d '' rec || [ -n "$rec" ]; do
        case $rec in PYTHONPATH=*|HOME=*) env_args+=("$rec") ;; esac
      done < "$BUNDLE/processes/$pid/environ"
    fi
    if [ "${PID_ORIGIN[$pid]}" = host ]; then
      pre=("$ROOT$py")
    else
      pre=()
      if ((EUID != 0)); then
        reset_result
        R_STATUS=denied R_REASON=permission R_ERROR=chroot_needs_root
        record_item "processes/$pid/pip-list.json" "/proc/$pid/root" ""
        record_as_before "processes/$pid/pip-show.txt" "/proc/$pid/root"
        continue
      fi
      tool_path chroot
      pre=("${TP:-chroot}" "$ROOT/proc/$pid/root" "$py")
    fi
    step_py "processes/$pid/pip-list.json" env "${env_args[@]}" "${pipenv[@]}" "${pre[@]}" -m pip list --format=json
    step_py "processes/$pid/pip-show.txt" env "${env_args[@]}" "${pipenv[@]}" "${pre[@]}" -m pip show "${PIP_SHOW_PACKAGES[@]}"
  done
}
