# The include rule (docs/architecture.md): every `#include "..."` of the stage folders runs
# down the stage order of tests/layers/stages.tsv, zero exceptions. The control tree holds
# three wrong includes that the check must reject, so a check that passes everything fails.
find_program(BASH_PROGRAM bash REQUIRED)
add_test(NAME "layers: every include runs down the stages"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/layers/check-includes.sh
          ${PROJECT_SOURCE_DIR}/tests/layers/stages.tsv ${PROJECT_SOURCE_DIR})
add_test(NAME "layers: the control's wrong includes are rejected"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/layers/check-includes.sh
          ${PROJECT_SOURCE_DIR}/tests/layers/stages.tsv ${PROJECT_SOURCE_DIR}/tests/layers/control
          --expect-violations 3)
set_tests_properties("layers: every include runs down the stages"
  "layers: the control's wrong includes are rejected" PROPERTIES TIMEOUT 120)

# Tests on the source's path (docs/architecture.md, "Add a parser" and "Add a finding"):
# every parser and analysis header has tests/unit/<its path>_test.cpp or a row with a reason
# in tests/layers/untested.tsv; every analysis is a row of the table; the control tree holds
# five faults the check must find.
add_test(NAME "tests: every parser and analysis has a test on its path"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/layers/check-test-paths.sh
          ${PROJECT_SOURCE_DIR}/tests/layers/untested.tsv ${PROJECT_SOURCE_DIR})
add_test(NAME "tests: the control's misplaced and missing tests are found"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/layers/check-test-paths.sh
          ${PROJECT_SOURCE_DIR}/tests/layers/control-tests/untested.tsv
          ${PROJECT_SOURCE_DIR}/tests/layers/control-tests --expect-violations 5)
set_tests_properties("tests: every parser and analysis has a test on its path"
  "tests: the control's misplaced and missing tests are found" PROPERTIES TIMEOUT 60)
