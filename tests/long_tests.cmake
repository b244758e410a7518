# Long runs (issue 3): >= 10^7 collisions at packing 0.45 with every
# optimisation on; energy, overlaps and Z against Carnahan-Starling.
# About 20-60 s in the Release build on the project's 2-core machine;
# CAROM_TEST_QUICK=1 (the sanitizer pass) runs a short version.
# Run alone with: ctest -L long
add_executable(test_long_run ${CMAKE_CURRENT_SOURCE_DIR}/test_long_run.c)
target_link_libraries(test_long_run PRIVATE carom_lib m)
add_test(NAME test_long_run COMMAND test_long_run)
set_tests_properties(test_long_run PROPERTIES TIMEOUT 600 LABELS long)
