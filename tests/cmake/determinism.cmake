# Deterministic reports (issue 23): every sample bundle and four corpus excerpts give the same
# `analyze --format json` as a directory, as .tar.zst with members sorted, reversed and
# shuffled, as .tar.gz and as .zip (tests/determinism/input_forms.py). Differences still open
# are listed with a reason in tests/determinism/known-differences.tsv. 77 = skipped (no zstd).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
file(GLOB DETERMINISM_SAMPLE_DESCRIPTIONS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*.md)
set(determinism_inputs "")
foreach(desc ${DETERMINISM_SAMPLE_DESCRIPTIONS})
  get_filename_component(sample ${desc} NAME_WE)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/samples/${sample})
    list(APPEND determinism_inputs ${PROJECT_SOURCE_DIR}/samples/${sample})
  endif()
endforeach()
# Excerpts of several files: a plog with its stdout, a device-log export tree, npu-smi with a
# traceback, a plog alone.
foreach(excerpt
    ascend-pytorch-29-tbe-common-plog-stdout
    ascend-pytorch-144-ez3002-transdata-soc104
    mind-cluster-faultdiag-testdata-hisi-logs-device-1-lockup
    vllm-ascend-9447-hccp-ra-socket-batch-close)
  list(APPEND determinism_inputs ${PROJECT_SOURCE_DIR}/tests/data/real/${excerpt})
endforeach()
add_test(NAME "determinism: the report does not depend on input form or member order"
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/determinism/input_forms.py
          --bin $<TARGET_FILE:ascend-triage> --work ${CMAKE_CURRENT_BINARY_DIR}/determinism-work
          --expected ${PROJECT_SOURCE_DIR}/tests/determinism/known-differences.tsv
          ${determinism_inputs})
set_tests_properties("determinism: the report does not depend on input form or member order"
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "TZ=UTC")

# One or two threads (issue 22): the same JSON bytes over 5 runs of --threads 2, on the same
# inputs, on a generated bundle of many 256 KiB chunks, on stdin, and with the limits that stop
# the reader early (tests/determinism/threads.py).
add_test(NAME "determinism: the report does not depend on the thread count"
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/determinism/threads.py
          --bin $<TARGET_FILE:ascend-triage> --work ${CMAKE_CURRENT_BINARY_DIR}/threads-work
          --gen ${PROJECT_SOURCE_DIR}/bench/gen_bundle.py
          ${determinism_inputs})
set_tests_properties("determinism: the report does not depend on the thread count"
  PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 ENVIRONMENT "TZ=UTC")
