# Log parsers and knowledge (issue 5): process-level tests.

# Per-line allocations: its own executable because it replaces the global operator new.
add_executable(plog_alloc_test ${CMAKE_CURRENT_SOURCE_DIR}/cmake/plog_alloc_test.cpp)
target_link_libraries(plog_alloc_test PRIVATE triage_core)
target_compile_definitions(plog_alloc_test PRIVATE TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
add_test(NAME "plog parser allocates nothing per line" COMMAND plog_alloc_test)

# Every knowledge file passes `knowledge check`, one test per file, and the built-in set
# as a whole (ids unique across files).
file(GLOB_RECURSE KNOWLEDGE_FILES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/knowledge/*.json ${PROJECT_SOURCE_DIR}/knowledge/*.tsv)
foreach(f ${KNOWLEDGE_FILES})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${f})
  add_test(NAME "knowledge check ${rel}" COMMAND ascend-triage knowledge check ${f})
endforeach()
add_test(NAME "knowledge check (built-in set)" COMMAND ascend-triage knowledge check)

# Every ascend-fd rule the mapping counts covered by a signature is found by analyze from
# its bare fragments in a line of its log kind (issue 37; gaps in
# tests/real/ascend-fd-fragments-known.tsv).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME "knowledge: ascend-fd rule fragments are found"
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/ascend_fd_fragments.py
                   --bin $<TARGET_FILE:ascend-triage>)
endif()
