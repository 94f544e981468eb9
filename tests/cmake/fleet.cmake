# Fleet triage (docs/fleet.md): the generated 4-node samples through the map and the reduce
# (orders, skew, the node-1 variant, bad summaries), the map with GNU parallel, and the map as
# a Slurm job array on a single-node Slurm this test starts and stops (serial: it runs
# daemons; its own timeout). 77 = skipped (tests/prerequisites.sh: never under CI=true).
add_test(NAME "fleet: samples, argument orders, skew, bad summaries"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fleet/samples.sh $<TARGET_FILE:ascend-triage>
          $<TARGET_FILE:json_schema_check> ${PROJECT_SOURCE_DIR})
set_tests_properties("fleet: samples, argument orders, skew, bad summaries" PROPERTIES
  TIMEOUT 300 ENVIRONMENT "TZ=UTC")
add_test(NAME "fleet: map with GNU parallel, reduce"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fleet/parallel.sh $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
set_tests_properties("fleet: map with GNU parallel, reduce" PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "TZ=UTC")
add_test(NAME "fleet: map as a Slurm job array, reduce"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fleet/slurm.sh $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
set_tests_properties("fleet: map as a Slurm job array, reduce" PROPERTIES
  RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 420 ENVIRONMENT "TZ=UTC")
# The summary's contract: every golden `--format summary` report is valid against
# docs/schemas/summary.schema.json (samples.sh also checks the fleet samples' summaries and
# that the schema rejects a wrong type).
file(GLOB GOLDEN_SUMMARIES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/golden/*/report.summary.json)
foreach(summary ${GOLDEN_SUMMARIES})
  get_filename_component(dir ${summary} DIRECTORY)
  get_filename_component(sample ${dir} NAME)
  add_test(NAME "summary schema: golden ${sample}/report.summary.json is valid"
    COMMAND json_schema_check ${PROJECT_SOURCE_DIR}/docs/schemas/summary.schema.json ${summary})
endforeach()
