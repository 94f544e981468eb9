# Paste readers (mixed pastes, driver messages, tables): allocations per line, in a program
# of its own because it replaces the global operator new.
add_executable(paste_alloc_test ${CMAKE_CURRENT_SOURCE_DIR}/alloc/paste_alloc_test.cpp)
target_link_libraries(paste_alloc_test PRIVATE triage_core)
add_test(NAME "paste readers allocate nothing per line" COMMAND paste_alloc_test)
