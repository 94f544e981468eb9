#!/bin/bash
# The collector, this harness, the tests and the stubs pass shellcheck.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
H=""
need_tool shellcheck
cd "$LIB_DIR" || exit 1
shellcheck "$COLLECTOR" || fail "shellcheck: ascend-collect.sh"
shellcheck -x -P SCRIPTDIR lib.sh test_*.sh || fail "shellcheck: tests"
shellcheck -x -P SCRIPTDIR stubs/_hang.sh stubs/npu-smi stubs/dmesg stubs/journalctl stubs/lsmod \
  stubs/uname stubs/hccn_tool stubs/python3 stubs/timeout-that-never-exits \
  stubs/python-probe stubs/msnpureport stubs/dkms stubs/lsinitramfs stubs/lspci stubs/modinfo \
  stubs/modprobe stubs/py-spy || fail "shellcheck: stubs"
finish
