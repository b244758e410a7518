# Unit and reference tests of the engine (C programs, one per file).
function(carom_add_test name)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c)
  target_link_libraries(${name} PRIVATE carom_lib m)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  add_test(NAME ${name} COMMAND ${name})
endfunction()

carom_add_test(test_roots)
carom_add_test(test_predict)
carom_add_test(test_reference)
carom_add_test(test_conservation)
carom_add_test(test_physics)
carom_add_test(test_driven)
carom_add_test(test_lists)
carom_add_test(test_prefetch)
carom_add_test(test_split_build)
carom_add_test(test_event_queue)
carom_add_test(test_morton)
carom_add_test(test_reorder)
carom_add_test(test_rebuild)
carom_add_test(test_callbacks)
carom_add_test(test_stuck)
carom_add_test(test_random_ops)
# Without the checks it tests, a callback's NaN velocity makes an advance
# run forever: fail in minutes, not at CTest's default of 25.
set_tests_properties(test_callbacks PROPERTIES TIMEOUT 120)
# Without the check it tests, a squeezed sphere makes an advance run forever.
set_tests_properties(test_stuck PROPERTIES TIMEOUT 120)
