# Foundation B (model, base parsers): tests that need a program of their own.

# The TSV reader allocates nothing per line (the program replaces the global operator new).
add_executable(tsv_alloc_test ${CMAKE_CURRENT_SOURCE_DIR}/alloc/tsv_alloc_test.cpp)
target_link_libraries(tsv_alloc_test PRIVATE triage_core)
add_test(NAME "tsv reader allocates nothing per line" COMMAND tsv_alloc_test)
