# ascend-fd parity (issue 37, docs/ascend-fd.md): on ascend-fd's own root-cluster system-test
# inputs (tests/data/ascend-fd-st/, Apache-2.0), analyze of a case's worker directories leads
# with the root worker and device that ascend-fd's tests require (the README there).
add_test(NAME "ascend_fd.parity: root worker and device on ascend-fd's system-test inputs"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ascend-fd/parity.sh $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
set_tests_properties("ascend_fd.parity: root worker and device on ascend-fd's system-test inputs" PROPERTIES
  TIMEOUT 120 ENVIRONMENT "TZ=UTC")
