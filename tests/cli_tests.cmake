# Tests of the scene library (C) and of the `carom` command (driven by
# tests/cli_test.py, which runs the built binary on the files in tests/data).
add_executable(test_scene ${CMAKE_CURRENT_SOURCE_DIR}/test_scene.c)
target_link_libraries(test_scene PRIVATE carom_lib m)
add_test(NAME test_scene COMMAND test_scene)
