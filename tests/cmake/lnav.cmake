# lnav formats (packaging/lnav/, docs/lnav.md): installed into a scratch HOME with `lnav -i`,
# loaded with every sample checked (`lnav -W -C`: no error, no warning), and real excerpts of
# tests/data/real/ read headless as their format, row for row with the levels and fields a plain
# regex finds (tests/lnav/test_formats.py). A few seconds. 77 = skipped without lnav
# (tests/prerequisites.sh; never under CI=true). `ctest -L lnav` runs it alone.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME "lnav: the formats load, their samples and real excerpts parse"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lnav/test_formats.py ${PROJECT_SOURCE_DIR})
set_tests_properties("lnav: the formats load, their samples and real excerpts parse" PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS lnav)
