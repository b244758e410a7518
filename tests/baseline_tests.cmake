# The time-stepped baseline (bench/baselines) against carom's exact contacts.
add_executable(test_stepped ${CMAKE_CURRENT_SOURCE_DIR}/test_stepped.c)
target_link_libraries(test_stepped PRIVATE carom_stepped carom_lib m)
add_test(NAME test_stepped COMMAND test_stepped)
# Kinetic sweep-and-prune (bench/baselines) against carom's contacts.
add_executable(test_ksap ${CMAKE_CURRENT_SOURCE_DIR}/test_ksap.c)
target_link_libraries(test_ksap PRIVATE carom_ksap carom_lib m)
add_test(NAME test_ksap COMMAND test_ksap)
# The point octree of the stepped baseline against a plain scan.
add_executable(test_octree ${CMAKE_CURRENT_SOURCE_DIR}/test_octree.c)
target_link_libraries(test_octree PRIVATE carom_stepped carom_lib m)
add_test(NAME test_octree COMMAND test_octree)
# Stepped continuous detection (bench/baselines) against carom's contacts.
add_executable(test_swept ${CMAKE_CURRENT_SOURCE_DIR}/test_swept.c)
target_link_libraries(test_swept PRIVATE carom_stepped carom_lib m)
add_test(NAME test_swept COMMAND test_swept)
# seed 003's frame-by-frame algorithms (bench/baselines) against carom.
add_executable(test_frames ${CMAKE_CURRENT_SOURCE_DIR}/test_frames.c)
target_link_libraries(test_frames PRIVATE carom_frames carom_lib m)
add_test(NAME test_frames COMMAND test_frames)
# Balls rolling on a plane (seed 001's collision tree) against carom.
add_executable(test_rolling ${CMAKE_CURRENT_SOURCE_DIR}/test_rolling.c)
target_link_libraries(test_rolling PRIVATE carom_ksap carom_lib m)
add_test(NAME test_rolling COMMAND test_rolling)
