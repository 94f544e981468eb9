# The JSON report's contract (issue 25): docs/schemas/report.schema.json, in the subset of
# docs/json-schema.md. Every golden report is valid against it (the goldens are what
# `analyze --format json` writes for every sample); tests/unit/reports/report_schema_test.cpp holds
# the negative tests. json_schema_check is the validator as a command: SCHEMA FILE...
add_executable(json_schema_check ${CMAKE_CURRENT_SOURCE_DIR}/cmake/json_schema_check.cpp)
target_link_libraries(json_schema_check PRIVATE triage_core)
file(GLOB GOLDEN_JSON_REPORTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/golden/*/report.json)
foreach(report ${GOLDEN_JSON_REPORTS})
  get_filename_component(dir ${report} DIRECTORY)
  get_filename_component(sample ${dir} NAME)
  add_test(NAME "report schema: golden ${sample}/report.json is valid"
    COMMAND json_schema_check ${PROJECT_SOURCE_DIR}/docs/schemas/report.schema.json ${report})
endforeach()
# The command itself must reject: one field of a small report has the wrong type.
add_test(NAME "report schema: json_schema_check rejects a report with a wrong type"
  COMMAND json_schema_check ${PROJECT_SOURCE_DIR}/docs/schemas/report.schema.json
          ${CMAKE_CURRENT_SOURCE_DIR}/data/schemas/report-wrong-type.json)
set_tests_properties("report schema: json_schema_check rejects a report with a wrong type" PROPERTIES
  PASS_REGULAR_EXPRESSION "report-wrong-type.json: /verdict/ranked/0/score: type: expected integer, got string")
# Beyond the goldens: the report of every test bundle and of every real paste of the corpus.
find_program(BASH_PROGRAM bash REQUIRED)
file(GLOB SCHEMA_TEST_INPUTS CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/data/*-bundle ${CMAKE_CURRENT_SOURCE_DIR}/data/real/*/SOURCE.md)
list(TRANSFORM SCHEMA_TEST_INPUTS REPLACE "/SOURCE.md$" "")
add_test(NAME "report schema: reports of the test bundles and the real pastes are valid"
  COMMAND ${BASH_PROGRAM} ${CMAKE_CURRENT_SOURCE_DIR}/schemas/reports-valid.sh
          $<TARGET_FILE:ascend-triage> $<TARGET_FILE:json_schema_check>
          ${PROJECT_SOURCE_DIR}/docs/schemas/report.schema.json ${SCHEMA_TEST_INPUTS})
# Under ASan it runs every excerpt: 250 s on a clean clone of c47b708 (353 excerpts, 172 s at
# 333 a session before), too close to the 300 s default to stay green as the corpus grows.
set_tests_properties("report schema: reports of the test bundles and the real pastes are valid"
  PROPERTIES TIMEOUT 900)
