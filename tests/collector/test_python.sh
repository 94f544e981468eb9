#!/bin/bash
# Python packages from metadata files, read through each process's root (nothing of the
# process's is run): dist-info, egg-info (file and directory), an editable install by
# direct_url.json and by egg-link, CRLF headers, a long description that is not read; the
# torch_npu/version.py beside the mapped libtorch_npu.so, in a container from ITS root even
# through an absolute link there; the default python3's directories from `python3 -I -S`;
# env/collector-env filtered and redacted; and with --pip the pip listings, run from the
# collector's temporary directory with pip's quiet environment and the process's PYTHONPATH.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_analyzer

fake_host_new
fake_container_process 5151 4026532501
cp "$LIB_DIR/stubs/python3" "$H/bin/python3"
chmod 755 "$H/bin/python3"

# The host's training process: python3.9 with torch_npu mapped from /usr/local.
S=/usr/local/lib/python3.9/site-packages
printf '%s\n' "ffff8e000000-ffff8e400000 r-xp 00000000 fd:00 7001 $S/torch_npu/lib/libtorch_npu.so" \
  "ffff8f000000-ffff8f400000 r-xp 00000000 fd:00 7002 $S/torch/lib/libtorch_cpu.so (deleted)" >> "$SYSROOT/proc/$TRAIN_PID/maps"
printf 'PYTHONPATH=/opt/extra:relative/dir\0' >> "$SYSROOT/proc/$TRAIN_PID/environ"
plant "$S/torch-2.1.0.dist-info/METADATA" 'Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0\nSummary: Tensors\n\nVersion: 9.9.9 (a line of the description)\n'
plant "$S/torch_npu-2.1.0.post8.dist-info/METADATA" 'Metadata-Version: 2.1\r\nName: torch_npu\r\nVersion:  2.1.0.post8\r\n\r\n'
plant "$S/torch_npu/version.py" "__version__ = '2.1.0.post8'\ngit_version = 'abc123'\n"
plant "$S/det_toolkit-0.3.0.dist-info/METADATA" 'Metadata-Version: 2.1\nName: det-toolkit\nVersion: 0.3.0\n'
plant "$S/det_toolkit-0.3.0.dist-info/direct_url.json" '{"dir_info": {"editable": true}, "url": "file:///root/work/det"}'
plant "$S/nometa-1.2.dist-info/RECORD" ''
plant "$S/mylib.egg-link" '/opt/mylib\n.\n'
plant /opt/mylib/mylib.egg-info/PKG-INFO 'Metadata-Version: 1.1\nName: mylib\nVersion: 0.9.dev1\n'
plant /usr/lib64/python3.9/site-packages/six-1.16.0-py3.9.egg-info 'Metadata-Version: 1.2\nName: six\nVersion: 1.16.0\n'
plant /opt/extra/yaml_tool-2.0.dist-info/METADATA 'Name: yaml-tool\nVersion: 2.0\n'
# Its interpreter, started by name: found on its PATH (/usr/bin) for --pip.
mkdir -p "$SYSROOT/usr/bin"
cp "$LIB_DIR/stubs/python3" "$SYSROOT/usr/bin/python3.9"
chmod 755 "$SYSROOT/usr/bin/python3.9"
ln -s python3.9 "$SYSROOT/usr/bin/python3"

# The container: the same site path, but its own torch_npu, through an absolute link that
# exists only inside its root.
C=$SYSROOT/containers/5151
mkdir -p "$C/opt/venv/site"
ln -s /opt/venv/site "$C/usr/local/lib/python3.9/site-packages" 2>/dev/null ||
  { mkdir -p "$C/usr/local/lib/python3.9"; ln -s /opt/venv/site "$C/usr/local/lib/python3.9/site-packages"; }
plant /containers/5151/opt/venv/site/torch_npu-2.5.1.dist-info/METADATA 'Name: torch_npu\nVersion: 2.5.1\n'
plant /containers/5151/opt/venv/site/torch_npu/version.py "__version__ = '2.5.1'\n"

EXTRA_ENV=(ASCEND_LAUNCH_BLOCKING=1 HCCL_CONNECT_TIMEOUT=1200 TASK_QUEUE_ENABLE=2
  PYTHONPATH=/opt/extra HCCL_AUTH_TOKEN=hcclTOKENSECRET HF_TOKEN=hfTOKENSECRET OTHER_VAR=1)
run_collect --timeout 10 --safe-mode --pip
expect_rc 0
unpack_archive
check_bundle

tab=$'\t'
want="name${tab}version${tab}location${tab}kind
det-toolkit${tab}0.3.0${tab}/root/work/det${tab}editable
mylib${tab}0.9.dev1${tab}/opt/mylib${tab}editable
nometa${tab}1.2${tab}$S${tab}dist-info
six${tab}1.16.0${tab}/usr/lib64/python3.9/site-packages${tab}egg-info
torch${tab}2.1.0${tab}$S${tab}dist-info
torch_npu${tab}2.1.0.post8${tab}$S${tab}dist-info
yaml-tool${tab}2.0${tab}/opt/extra${tab}dist-info"
expect_item "processes/$TRAIN_PID/packages.tsv" ok
[ "$(cat "$B/processes/$TRAIN_PID/packages.tsv")" = "$want" ] ||
  fail "processes/$TRAIN_PID/packages.tsv: $(cat "$B/processes/$TRAIN_PID/packages.tsv")"
expect_item "processes/$TRAIN_PID/torch_npu-version.py" ok
cmp -s "$B/processes/$TRAIN_PID/torch_npu-version.py" "$SYSROOT$S/torch_npu/version.py" || fail "host torch_npu-version.py"
expect_item processes/5151/packages.tsv ok
[ "$(cat "$B/processes/5151/packages.tsv")" = "name${tab}version${tab}location${tab}kind
torch_npu${tab}2.5.1${tab}$S${tab}dist-info" ] || fail "container packages.tsv: $(cat "$B/processes/5151/packages.tsv")"
expect_grep processes/5151/torch_npu-version.py "^__version__ = '2.5.1'$"

# The default python3: its directories from -I -S, the packages read by the collector.
expect_item collector/python3-paths.txt ok
expect_item python/packages.tsv ok
expect_grep python/packages.tsv "^torch_npu${tab}2.1.0.post8${tab}$S${tab}dist-info$"
expect_grep python/packages.tsv "^six${tab}1.16.0${tab}"
grep -q 'yaml-tool' "$B/python/packages.tsv" && fail "python/packages.tsv took the process's PYTHONPATH"

# The collector's own environment: filtered, redacted, NUL-separated.
expect_item env/collector-env ok
ce=$(tr '\0' '\n' < "$B/env/collector-env")
for e in ASCEND_LAUNCH_BLOCKING=1 HCCL_CONNECT_TIMEOUT=1200 TASK_QUEUE_ENABLE=2 PYTHONPATH=/opt/extra \
  HCCL_AUTH_TOKEN='<redacted>' "PATH=$H/bin" "ASCEND_COLLECT_ROOT=$SYSROOT"; do
  printf '%s\n' "$ce" | grep -qxF -e "$e" || fail "env/collector-env lacks $e: $ce"
done
case $ce in *OTHER_VAR*|*HF_TOKEN*|*LANG=*|*SECRET*) fail "env/collector-env keeps what it should not: $ce" ;; esac
[ "$(tail -c 1 "$B/env/collector-env" | od -An -tu1 | tr -d ' ')" = 0 ] || fail "env/collector-env is not NUL-terminated"
grep -q '"env_secret"' "$B/manifest.json" || fail "manifest does not report the env_secret redaction"

# --pip: the default python3 and the host process's interpreter, found on its PATH.
for p in python/pip-list.json python/pip-show.txt "processes/$TRAIN_PID/pip-list.json" "processes/$TRAIN_PID/pip-show.txt"; do
  expect_item "$p" ok
done
expect_grep "processes/$TRAIN_PID/pip-list.json" '"name": "torch-npu"'
expect_grep python/pip-show.txt '^Name: torch-npu$'
expect_grep python/pip-show.txt.err 'Package(s) not found'
item_line "processes/$TRAIN_PID/pip-list.json" | grep -q "\"exec\":\\[\"env\",\"-u\",\"PYTHONPATH\",\"HOME=/root\",\"PYTHONPATH=/opt/extra:relative/dir\",\"PIP_DISABLE_PIP_VERSION_CHECK=1\",\"PIP_NO_CACHE_DIR=1\",\"PYTHONDONTWRITEBYTECODE=1\",\"$SYSROOT/usr/bin/python3\",\"-m\",\"pip\",\"list\",\"--format=json\"\\]" ||
  fail "process pip exec: $(item_line "processes/$TRAIN_PID/pip-list.json")"
# Every run from the collector's temporary directory; pip with pip's quiet environment.
while IFS= read -r l; do
  case $l in *" cwd=$OUT/."*".work/tmp "*) ;; *) fail "python3 run outside the temporary directory: $l" ;; esac
  case $l in *" pip cwd="*" PIP_DISABLE_PIP_VERSION_CHECK=unset "*) fail "pip run without pip's environment: $l" ;; esac
done < "$H/state/python-runs"
grep -q "^$SYSROOT/usr/bin/python3 pip .*PYTHONPATH=/opt/extra:relative/dir HOME=/root$" "$H/state/python-runs" ||
  fail "the process's pip ran without its PYTHONPATH: $(cat "$H/state/python-runs")"
[ "$(grep -c -- '-m pip' "$H/state/calls")" = 4 ] || fail "pip calls: $(grep -- '-m pip' "$H/state/calls")"
# The container's interpreter is not on a PATH it has: said so, not run with the host's.
expect_item processes/5151/pip-list.json absent source_missing
expect_item processes/5151/pip-show.txt absent source_missing

# The analyzer recognises the new entries.
"$ANALYZER" inventory "$ARCHIVE" > "$H/inventory.txt" 2>&1
sed -n '/^Not recognised/,$p' "$H/inventory.txt" | grep -a -E '^  (env|python|processes)/' > "$H/unknown.txt"
[ -s "$H/unknown.txt" ] && fail "entries the analyzer does not recognise: $(cat "$H/unknown.txt")"
"$ANALYZER" analyze --format json "$ARCHIVE" > "$H/analysis.json" 2>&1
grep -q '2.1.0.post8' "$H/analysis.json" || say "note: the analysis does not mention torch_npu 2.1.0.post8"
finish
