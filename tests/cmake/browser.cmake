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
# Issue 38: every sample's HTML in Chromium: no two timeline labels overlap (getBBox), and no
# Markdown shows literally (tests/browser/test_html_labels.sh, with a control page each).
foreach(check labels markdown)
  if(check STREQUAL labels)
    set(name "browser: timeline labels do not overlap")
  else()
    set(name "browser: no literal markdown in html")
  endif()
  add_test(NAME "${name}"
    COMMAND ${BASH_PROGRAM} ${PROJECT_SOURCE_DIR}/tests/browser/test_html_labels.sh
            $<TARGET_FILE:ascend-triage> ${PROJECT_SOURCE_DIR} ${check})
  set_tests_properties("${name}" PROPERTIES RUN_SERIAL TRUE SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "TZ=UTC")
endforeach()
