# Real-paste corpus (tests/data/real/): every SOURCE.md keeps its machine-readable contract
# (header keys and values, expect keys, each expect value found verbatim in the excerpt's
# files); the check prints the corpus counts. The second test runs the same check on a
# deliberately broken corpus (tests/real/bad-source/) and passes only when it reports exactly
# the planted problems, so a check that stopped checking would fail.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME corpus.sources
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/check_corpus.py
          ${PROJECT_SOURCE_DIR}/tests/data/real)
add_test(NAME corpus.sources_reject_broken
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/check_corpus.py
          ${PROJECT_SOURCE_DIR}/tests/real/bad-source)
set_tests_properties(corpus.sources_reject_broken PROPERTIES
  PASS_REGULAR_EXPRESSION "FAILED: 11 problem\\(s\\)")
