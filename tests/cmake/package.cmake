# Installing like other tools (packaging/): the bash completion and the man page against the
# binary's own help, and the Debian package built, installed (dpkg -i on a scratch root),
# run on a sample and removed. The .deb test needs root; exit 77 (skipped) otherwise.
find_program(BASH_PROGRAM bash REQUIRED)
set(PACKAGE_TEST_DIR ${PROJECT_SOURCE_DIR}/tests/package)
add_test(NAME package.completion
  COMMAND ${BASH_PROGRAM} ${PACKAGE_TEST_DIR}/test_completion.sh
          ${PROJECT_SOURCE_DIR}/packaging/ascend-triage.bash-completion $<TARGET_FILE:ascend-triage>)
set_tests_properties(package.completion PROPERTIES TIMEOUT 120)
if(ASCEND_TRIAGE_MAN_PAGE)
  add_test(NAME package.man_page
    COMMAND ${BASH_PROGRAM} ${PACKAGE_TEST_DIR}/test_man_page.sh
            ${PROJECT_BINARY_DIR}/packaging/ascend-triage.1.gz $<TARGET_FILE:ascend-triage>)
  set_tests_properties(package.man_page PROPERTIES TIMEOUT 60)
  # cpack copies the build tree's install into a staging area and compresses it: minutes on a
  # loaded machine.
  add_test(NAME package.deb
    COMMAND ${BASH_PROGRAM} ${PACKAGE_TEST_DIR}/test_deb.sh ${PROJECT_BINARY_DIR}
            ${PROJECT_SOURCE_DIR} $<TARGET_FILE:ascend-triage> ${PROJECT_VERSION})
  set_tests_properties(package.deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
