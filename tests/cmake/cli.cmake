# Habits of the command line (docs/cli.md): standard input as an input, the progress line
# on a terminal (and its silence elsewhere).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
# About four runs per single-file excerpt: 104 s in the release build with 263 excerpts, 583 s
# in the sanitized one (each start costs 0.8 s there: the signatures' literal prefilter is
# built at start), which grew by about 3 s per excerpt and held CI near its 45 minutes. The
# sanitized build pipes every third excerpt (the pipe's code path is the same for all); the
# release build pipes them all.
set(stdin_every "")
if(ASCEND_SANITIZE)
  set(stdin_every --every 3)
endif()
add_test(NAME cli.stdin_like_file
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_stdin.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/tests/data/real ${stdin_every})
set_tests_properties(cli.stdin_like_file PROPERTIES TIMEOUT 900)
add_test(NAME cli.progress_only_on_a_terminal
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_progress.py
          $<TARGET_FILE:ascend-triage>)
set_tests_properties(cli.progress_only_on_a_terminal PROPERTIES TIMEOUT 120)
# No bundle text drives a terminal (docs/security.md): every subcommand, stdout and stderr.
add_test(NAME cli.no_terminal_control_from_bundles
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_terminal_guard.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/samples)
set_tests_properties(cli.no_terminal_control_from_bundles PROPERTIES TIMEOUT 300)
add_test(NAME cli.redact_every_format
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_redact.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/samples ${PROJECT_SOURCE_DIR}/tests/data/real)
# `baseline` and `diff` (docs/diff.md): exit codes, the cited changes first, every format.
add_test(NAME cli.diff_baseline
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_diff.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/samples)
set_tests_properties(cli.diff_baseline PROPERTIES TIMEOUT 180)
# --redact of inventory, facts, diff and fleet; the secret rules and learned peers (issue 33).
add_test(NAME cli.redact_commands
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cli/test_redact_commands.py
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR}/samples)
set_tests_properties(cli.redact_commands PROPERTIES TIMEOUT 300)
