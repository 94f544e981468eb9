# Golden reports: every sample (samples/<name>/ with samples/<name>.md) in every format,
# compared byte for byte with tests/golden/<name>/report.*, under UTC and under a zone eight
# hours east: the reports must not depend on the analyst's zone. Regenerate with
# `bash scripts/regen-goldens.sh build` (refused when CI=true; a test checks that).
find_program(BASH_PROGRAM bash REQUIRED)
file(GLOB GOLDEN_SAMPLE_DESCRIPTIONS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*.md)
foreach(desc ${GOLDEN_SAMPLE_DESCRIPTIONS})
  get_filename_component(sample ${desc} NAME_WE)
  if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/samples/${sample})
    continue()
  endif()
  foreach(zone UTC XXX-8)
    add_test(NAME "golden: ${sample} TZ=${zone}"
      COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/golden/compare.sh
              $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR} ${sample})
    set_tests_properties("golden: ${sample} TZ=${zone}" PROPERTIES ENVIRONMENT "TZ=${zone}" TIMEOUT 120)
  endforeach()
endforeach()
# The report formats live in one table (reports/formats.cpp, printed by `ascend-triage
# formats`): the goldens follow it, and the docs must list exactly its formats.
add_test(NAME "golden: README.md and docs/cli.md list exactly the report formats"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/golden/check-format-docs.sh
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
add_test(NAME "golden: regen-goldens.sh refuses with CI=true"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/golden/test_regen_refuses_in_ci.sh
          ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties("golden: regen-goldens.sh refuses with CI=true" PROPERTIES TIMEOUT 180)
