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
