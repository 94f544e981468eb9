# The corpus of real excerpts (tests/data/real/*/SOURCE.md): every `expect:` fact is extracted
# by `ascend-triage facts` (tests/real/test_corpus.py; known gaps in tests/real/known-failures.tsv).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME "corpus: expected facts are extracted"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/real/test_corpus.py
                   --bin $<TARGET_FILE:ascend-triage>)
endif()
