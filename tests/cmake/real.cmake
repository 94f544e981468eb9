# The corpus of real excerpts (tests/data/real/*/SOURCE.md): every `expect:` fact is extracted
# by `ascend-triage facts` (tests/real/test_corpus.py; known gaps in tests/real/known-failures.tsv).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME "corpus: expected facts are extracted"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/real/test_corpus.py
                   --bin $<TARGET_FILE:ascend-triage>)
  # 49 s optimised; under ASan the 289 excerpts took longer than the 300 s default (session 24).
  set_tests_properties("corpus: expected facts are extracted" PROPERTIES TIMEOUT 900)
endif()

# The job-output reader and the shared prefix recogniser allocate nothing per line that
# carries no fact (own executable: it replaces the global operator new).
add_executable(job_output_alloc_test ${CMAKE_CURRENT_SOURCE_DIR}/alloc/job_output_alloc_test.cpp)
target_link_libraries(job_output_alloc_test PRIVATE triage_core)
add_test(NAME "job output reader allocates nothing per line" COMMAND job_output_alloc_test)

# Corpus literals (pids, operators, symbols of the expect: lines) stay out of the sources.
if(Python3_Interpreter_FOUND)
  add_test(NAME "corpus literals stay out of the sources"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/real/check_literals.py
                   ${PROJECT_SOURCE_DIR})
endif()

# Every expected fact also reaches the report (findings, verdict, bundle summaries; never the
# timeline alone): tests/real/facts_in_report.py, gaps in tests/real/facts-in-report-known.tsv.
if(Python3_Interpreter_FOUND)
  add_test(NAME "corpus: expected facts are in the report"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/real/facts_in_report.py
                   --bin $<TARGET_FILE:ascend-triage>)
  set_tests_properties("corpus: expected facts are in the report" PROPERTIES TIMEOUT 300)
endif()

# Per excerpt file and segment: the kind and the lines recognised by shape, as recorded in
# tests/real/shapes.tsv (tests/real/shapes.py; --update after review).
if(Python3_Interpreter_FOUND)
  add_test(NAME "corpus: kinds and shape counts per file and segment"
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/real/shapes.py
                   --bin $<TARGET_FILE:ascend-triage>)
  set_tests_properties("corpus: kinds and shape counts per file and segment" PROPERTIES TIMEOUT 300)
endif()

# Sanitized, `facts` and `inventory` (test_corpus.py) and `analyze --format json` (the report
# schema test) still run on every excerpt; the corpus tests that repeat those commands each take
# a third of the excerpts, a different third each (CORPUS_SAMPLE, tests/real/test_corpus.py).
# Their checks are all made in full by the optimised build. Each sanitized start costs about a
# second (the knowledge is compiled at start), and with 313 excerpts four more full passes held
# CI at 45 minutes (session 25).
if(ASCEND_SANITIZE AND Python3_Interpreter_FOUND)
  set_tests_properties("corpus: expected facts are in the report" PROPERTIES ENVIRONMENT "CORPUS_SAMPLE=0/3")
  set_tests_properties("corpus: kinds and shape counts per file and segment" PROPERTIES ENVIRONMENT "CORPUS_SAMPLE=1/3")
endif()

# Hostile zip archives (issue 23): unsafe names, a member stored twice, a symlink member, a
# truncated and a corrupted archive (tests/robustness/hostile_zip.py).
if(Python3_Interpreter_FOUND)
  add_test(NAME robustness.hostile_zip
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/robustness/hostile_zip.py
                   $<TARGET_FILE:ascend-triage>)
  set_tests_properties(robustness.hostile_zip PROPERTIES TIMEOUT 120)
endif()

# Hostile inputs, one ctest per case (tests/robustness/hostile_inputs.py): tar hard links, a
# gzip bomb past --max-entry-bytes, UTF-16 plogs, years 1970 and 2100, 10 million lines
# without a final newline, 1M one-line members, an error storm. Those that measure
# peak RSS: they run alone.
if(Python3_Interpreter_FOUND)
  foreach(case hardlink bomb utf16 years paste members storm kstorm jobstorm oom)
    add_test(NAME robustness.hostile_inputs.${case}
             COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/robustness/hostile_inputs.py
                     $<TARGET_FILE:ascend-triage> ${case})
    set_tests_properties(robustness.hostile_inputs.${case} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
  set_tests_properties(robustness.hostile_inputs.bomb robustness.hostile_inputs.paste
    robustness.hostile_inputs.members robustness.hostile_inputs.storm
    robustness.hostile_inputs.kstorm robustness.hostile_inputs.jobstorm robustness.hostile_inputs.oom PROPERTIES
    RUN_SERIAL TRUE TIMEOUT 600)
endif()
