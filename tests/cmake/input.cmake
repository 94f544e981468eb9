# Input stage: the 300 MB line test writes a large file and measures the analyzer's peak
# memory, so it runs alone (RUN_SERIAL), outside the parallel unit-test run.
# --warn NoTests: a tag that matches no test case is an error, not a silent pass.
add_test(NAME "input: 300 MB line, peak RSS under 64 MiB" COMMAND unit_tests --warn NoTests "[rss]")
set_tests_properties("input: 300 MB line, peak RSS under 64 MiB" PROPERTIES
  RUN_SERIAL TRUE ENVIRONMENT "TZ=UTC" TIMEOUT 300)
# The guard of the test above: without --warn NoTests a tag matching nothing passes silently
# (exit 0); with it, Catch2 exits 2. A misspelt tag must fail, so this one must fail too.
add_test(NAME "input: a tag that matches no test fails (--warn NoTests)"
         COMMAND unit_tests --warn NoTests "[rss-no-such-tag]")
set_tests_properties("input: a tag that matches no test fails (--warn NoTests)" PROPERTIES
  WILL_FAIL TRUE TIMEOUT 60)
