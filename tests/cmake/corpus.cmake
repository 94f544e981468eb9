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

# The verdict on the corpus: an excerpt with a thread-stated cause-class has that hypothesis
# first; a cause-class none excerpt has insufficient evidence first with a command (or, when
# healthy, no fault). Known misses are listed with a reason in
# tests/real/verdict-expected-failures.tsv; a listed excerpt that passes fails the test too.
add_test(NAME corpus.verdict
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/verdict_corpus.py
          --bin $<TARGET_FILE:ascend-triage> --corpus ${PROJECT_SOURCE_DIR}/tests/data/real
          --expected ${PROJECT_SOURCE_DIR}/tests/real/verdict-expected-failures.tsv)

# Perturbations: flip the one line that decides (tests/real/perturbation-cases.tsv), the
# verdict's first hypothesis flips with it.
add_test(NAME corpus.verdict_perturbation
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/verdict_perturbation.py
          --bin $<TARGET_FILE:ascend-triage> --root ${PROJECT_SOURCE_DIR}
          --cases ${PROJECT_SOURCE_DIR}/tests/real/perturbation-cases.tsv)
