# Tests of the scene library (C) and of the `carom` command. The command
# tests are cases of tests/cli_test.py (one CTest test each); bad-input
# cases are named bad_<what> and use the files in tests/data.
add_executable(test_scene ${CMAKE_CURRENT_SOURCE_DIR}/test_scene.c)
target_link_libraries(test_scene PRIVATE carom_lib m)
add_test(NAME test_scene COMMAND test_scene)

find_program(CAROM_PYTHON3 python3)
if(CAROM_PYTHON3)
  set(_cli_script ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_cli_script})
  execute_process(COMMAND ${CAROM_PYTHON3} ${_cli_script} --list
                  OUTPUT_VARIABLE _cli_cases OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _cli_list_status)
  if(NOT _cli_list_status EQUAL 0)
    message(FATAL_ERROR "tests/cli_test.py --list failed")
  endif()
  foreach(_case IN LISTS _cli_cases)
    add_test(NAME cli_${_case}
             COMMAND ${CAROM_PYTHON3} ${_cli_script} $<TARGET_FILE:carom>
                     ${CMAKE_CURRENT_SOURCE_DIR}/data
                     ${CMAKE_CURRENT_BINARY_DIR}/cli_work/${_case} ${_case})
    set_tests_properties(cli_${_case} PROPERTIES TIMEOUT 120 LABELS cli)
  endforeach()
  # With Assimp, meshes are loaded (mesh=); without, their refusal is checked.
  if(CAROM_HAVE_MESH)
    set_tests_properties(cli_mesh PROPERTIES ENVIRONMENT "CAROM_HAVE_MESH=1")
  endif()
  # The benchmark program's options and output (behaviour, not speed).
  add_test(NAME bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/bench_test.py
                   $<TARGET_FILE:carom-bench> ${CMAKE_CURRENT_BINARY_DIR}/bench_work)
  set_tests_properties(bench_options PROPERTIES TIMEOUT 120 LABELS cli)
  # The baselines' benchmark program's options and output.
  add_test(NAME stepped_bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/stepped_bench_test.py
                   $<TARGET_FILE:carom-stepped-bench> ${CMAKE_CURRENT_BINARY_DIR}/stepped_bench_work)
  set_tests_properties(stepped_bench_options PROPERTIES TIMEOUT 120 LABELS cli)
  add_test(NAME frames_bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/frames_bench_test.py
                   $<TARGET_FILE:carom-frames-bench> ${CMAKE_CURRENT_BINARY_DIR}/frames_bench_work)
  set_tests_properties(frames_bench_options PROPERTIES TIMEOUT 120 LABELS cli)
  add_test(NAME rolling_bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/rolling_bench_test.py
                   $<TARGET_FILE:carom-rolling-bench> ${CMAKE_CURRENT_BINARY_DIR}/rolling_bench_work)
  set_tests_properties(rolling_bench_options PROPERTIES TIMEOUT 120 LABELS cli)
  add_test(NAME query_bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/query_bench_test.py
                   $<TARGET_FILE:carom-query-bench> ${CMAKE_CURRENT_BINARY_DIR}/query_bench_work)
  set_tests_properties(query_bench_options PROPERTIES TIMEOUT 120 LABELS cli)
  add_test(NAME segments_bench_options
           COMMAND ${CAROM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/segments_bench_test.py
                   $<TARGET_FILE:carom-segments-bench> ${CMAKE_CURRENT_BINARY_DIR}/segments_bench_work)
  set_tests_properties(segments_bench_options PROPERTIES TIMEOUT 120 LABELS cli)
else()
  message(WARNING "python3 not found: the tests of the carom command are skipped")
endif()
