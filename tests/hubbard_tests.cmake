# Hubbard's broad phase (bench/baselines) against a fine-sampling reference.
add_executable(test_hubbard ${CMAKE_CURRENT_SOURCE_DIR}/test_hubbard.c)
target_link_libraries(test_hubbard PRIVATE carom_hubbard carom_lib m)
add_test(NAME test_hubbard COMMAND test_hubbard)
