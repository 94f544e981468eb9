# Collector tests: bash scripts in tests/collector/, each against a fake host built from raw
# state (no NPU). Exit 77 = skipped (e.g. not root for the unprivileged run); a loaded CI
# machine may need minutes per run, hence the generous limits. The hang tests measure
# elapsed time loosely (each bound is the run's own --deadline or more), so they run one at a
# time (a resource lock) but beside other tests: as RUN_SERIAL they left a core idle for
# about 6 of the suite's 11 minutes.
find_program(BASH_PROGRAM bash REQUIRED)
set(COLLECTOR_SCRIPT ${PROJECT_SOURCE_DIR}/collector-script/ascend-collect.sh)
set(COLLECTOR_TEST_DIR ${PROJECT_SOURCE_DIR}/tests/collector)

foreach(name helpers basic processes files caps redaction options nonroot python total_cap bash42 compat42 shellcheck build
    no_npu owned_files owned_open secret_rules secrets_hostile)
  add_test(NAME collector.${name}
    COMMAND ${BASH_PROGRAM} ${COLLECTOR_TEST_DIR}/test_${name}.sh ${COLLECTOR_SCRIPT}
            $<TARGET_FILE:ascend-triage>)
  set_tests_properties(collector.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 420)
endforeach()

foreach(name hang_npu_smi hang_timeout hang_proc_fifo hang_tools hang_archive disk_full deadline abandoned killed
    collective_evidence owned_paths_hang)
  add_test(NAME collector.${name}
    COMMAND ${BASH_PROGRAM} ${COLLECTOR_TEST_DIR}/test_${name}.sh ${COLLECTOR_SCRIPT}
            $<TARGET_FILE:ascend-triage>)
  set_tests_properties(collector.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 240 RESOURCE_LOCK collector_hang)
endforeach()

# --sysroot (two collections, so a longer bound on a loaded machine), then the
# probes and the device-log export, which stop hung stubs after short timeouts: run alone.
add_test(NAME collector.sysroot
  COMMAND ${BASH_PROGRAM} ${COLLECTOR_TEST_DIR}/test_sysroot.sh ${COLLECTOR_SCRIPT}
          $<TARGET_FILE:ascend-triage>)
set_tests_properties(collector.sysroot PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
foreach(name probes probes_abandoned device_logs)
  add_test(NAME collector.${name}
    COMMAND ${BASH_PROGRAM} ${COLLECTOR_TEST_DIR}/test_${name}.sh ${COLLECTOR_SCRIPT}
            $<TARGET_FILE:ascend-triage>)
  set_tests_properties(collector.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180 RUN_SERIAL TRUE)
endforeach()
# The round trip collects a fake host built from a sample and analyses it: a longer run.
add_test(NAME collector.round_trip
  COMMAND ${BASH_PROGRAM} ${COLLECTOR_TEST_DIR}/test_round_trip.sh ${COLLECTOR_SCRIPT}
          $<TARGET_FILE:ascend-triage>)
set_tests_properties(collector.round_trip PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
