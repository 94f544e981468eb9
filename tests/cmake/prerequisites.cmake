# The tools the tests need (tests/prerequisites.sh): with CI=true a missing one fails this
# test, so no test can pass CI by skipping; elsewhere it reports them and passes.
find_program(BASH_PROGRAM bash REQUIRED)
add_test(NAME prerequisites COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/prerequisites.sh)
set_tests_properties(prerequisites PROPERTIES TIMEOUT 30)
