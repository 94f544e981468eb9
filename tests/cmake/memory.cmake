# Flat memory (issue 22): the analyzer's peak RSS on a generated journal and on one twice as
# long; it measures memory, so it runs alone (RUN_SERIAL), outside the parallel unit tests.
add_test(NAME "memory: a journal twice as long needs less than 12 MiB more" COMMAND unit_tests --warn NoTests "[rss-growth]")
set_tests_properties("memory: a journal twice as long needs less than 12 MiB more" PROPERTIES
  RUN_SERIAL TRUE ENVIRONMENT "TZ=UTC" TIMEOUT 120)
