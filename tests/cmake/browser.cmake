# The HTML report in headless Chromium: renders the incident report to a PNG and shows that
# the XSS fixture's payloads never run (tests/browser/). Alone (RUN_SERIAL): Chromium is
# heavy. Skipped (77) without chromium, except with CI=true, where it fails.
find_program(BASH_PROGRAM bash REQUIRED)
add_test(NAME "browser: html report in headless chromium"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/browser/test_html_in_chromium.sh
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
set_tests_properties("browser: html report in headless chromium" PROPERTIES
  RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "TZ=UTC")
add_test(NAME "browser: focus chart shows the stall"
  COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/browser/test_focus_chart.sh
          $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR})
set_tests_properties("browser: focus chart shows the stall" PROPERTIES
  RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "TZ=UTC")
