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

# No silent error (issue 20, docs/findings/unexplained.md): every excerpt with error lines
# ends with a finding at warning or above (explained, or unexplained-errors); healthy
# excerpts stay at exit 0. The perturbation tests remove one signature and require its lines
# to surface in unexplained-errors, never silence; the knowledge test requires `knowledge
# check` to reject signatures that lead nowhere (four planted problems, three good ones).
add_test(NAME unexplained.corpus_silence
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/unexplained/corpus_silence.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/tests/data/real)
add_test(NAME unexplained.signature_outcomes_rejected
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/unexplained/expect_rejected.sh $<TARGET_FILE:ascend-triage>
          ${PROJECT_SOURCE_DIR}/tests/unexplained/bad-outcomes.json)
# Perturbation: remove one signature; its lines must surface in unexplained-errors (exit 1).
# Benign start-up noise on the healthy sample (exit 0 before), and an `own` signature on a
# corpus excerpt whose report detail it matches.
foreach(case
    "capability_probe|plog|startup/capability-probe|0|${PROJECT_SOURCE_DIR}/samples/healthy-first-step-compile"
    "option_default|plog|startup/option-default|0|${PROJECT_SOURCE_DIR}/samples/healthy-first-step-compile"
    "ra_socket|collective|hccl/ra-socket-close,hccl/ra-socket||${PROJECT_SOURCE_DIR}/tests/data/real/vllm-ascend-9447-hccp-ra-socket-batch-close/plog.txt")
  # (driver/memory-exhausted was a case until device-memory/exhausted began to read the
  # same "out of memory" reports without it: its lines stay explained, which is not silence.)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 file)
  list(GET parts 2 sig)
  list(GET parts 3 rc)
  list(GET parts 4 input)
  set(expect "")
  if(NOT rc STREQUAL "")
    set(expect --expect-exit-before ${rc})
  endif()
  add_test(NAME unexplained.perturb.${name}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/unexplained/perturb_signature.py
            $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/knowledge/signatures/${file}.json
            ${sig} ${expect} ${input})
endforeach()
# The verdict on the corpus: an excerpt with a thread-stated cause-class has that hypothesis
# first; a cause-class none excerpt has insufficient evidence first with a command (or, when
# healthy, no fault). Known misses are listed with a reason in
# tests/real/verdict-expected-failures.tsv; a listed excerpt that passes fails the test too.
# It also asks that the stated cause be among the hypotheses the findings support
# (tests/real/verdict-not-among.tsv lists where none does).
add_test(NAME corpus.verdict
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/verdict_corpus.py
          --bin $<TARGET_FILE:ascend-triage> --corpus ${PROJECT_SOURCE_DIR}/tests/data/real
          --expected ${PROJECT_SOURCE_DIR}/tests/real/verdict-expected-failures.tsv
          --not-among ${PROJECT_SOURCE_DIR}/tests/real/verdict-not-among.tsv)

# Perturbations: flip the one line that decides (tests/real/perturbation-cases.tsv), the
# verdict's first hypothesis flips with it.
add_test(NAME corpus.verdict_perturbation
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/verdict_perturbation.py
          --bin $<TARGET_FILE:ascend-triage> --root ${PROJECT_SOURCE_DIR}
          --cases ${PROJECT_SOURCE_DIR}/tests/real/perturbation-cases.tsv)

# An error-level line is never silent (issue 36): every excerpt whose files hold a line with
# an error level in a common form (Python logging, vLLM, `[ERROR]`, glog, loguru; a plain
# regex of the script's own) has a report that neither says "No fault found" nor exits 2,
# and no healthy excerpt raises a warning. Excerpts that still fail are listed with a reason
# in tests/real/error-levels-known.tsv; a listed excerpt that passes fails the test too.
add_test(NAME corpus.error_levels
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/error_levels.py
          --bin $<TARGET_FILE:ascend-triage> --corpus ${PROJECT_SOURCE_DIR}/tests/data/real
          --known ${PROJECT_SOURCE_DIR}/tests/real/error-levels-known.tsv)
# Sanitized, each takes a third of the corpus (see tests/cmake/real.cmake).
if(ASCEND_SANITIZE)
  set_tests_properties(corpus.verdict PROPERTIES ENVIRONMENT "CORPUS_SAMPLE=2/3")
  set_tests_properties(corpus.error_levels PROPERTIES ENVIRONMENT "CORPUS_SAMPLE=1/3")
endif()

# "In short" fits a ticket (issue 38): at most 5 lines of 100 columns on every sample and on
# thirteen excerpts of different classes, naming the device, rank, pid, host and time each
# input's lines carry (values read from the inputs, cited in the script). Names not given yet
# are listed with the reason in tests/real/in-short-known.tsv; a listed one given fails.
add_test(NAME corpus.in_short
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/in_short.py
          --bin $<TARGET_FILE:ascend-triage> --samples ${PROJECT_SOURCE_DIR}/samples
          --corpus ${PROJECT_SOURCE_DIR}/tests/data/real
          --known ${PROJECT_SOURCE_DIR}/tests/real/in-short-known.tsv)

# One finding per event (issue 38): on every sample no two findings open on the same evidence
# line, except pairs listed in tests/real/shared-leading-line-known.tsv as two events sharing it
# (two readings of one event are folded: knowledge/same-event.tsv).
add_test(NAME samples.one_finding_per_event
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/real/one_finding_per_event.py
          --bin $<TARGET_FILE:ascend-triage> --samples ${PROJECT_SOURCE_DIR}/samples
          --known ${PROJECT_SOURCE_DIR}/tests/real/shared-leading-line-known.tsv)
