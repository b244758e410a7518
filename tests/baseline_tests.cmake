# Tests of the comparison baselines (bench/baselines), each against carom
# or a plain reference: carom_add_baseline_test(NAME LIBRARY) builds
# NAME.c against the baseline's library.
function(carom_add_baseline_test name library)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c)
  target_link_libraries(${name} PRIVATE ${library} carom_lib m)
  add_test(NAME ${name} COMMAND ${name})
endfunction()

# Time-stepped detection against carom's exact contacts.
carom_add_baseline_test(test_stepped carom_stepped)
# Kinetic sweep-and-prune against carom's contacts.
carom_add_baseline_test(test_ksap carom_ksap)
# The point octree of the stepped baselines against a plain scan.
carom_add_baseline_test(test_octree carom_stepped)
# Stepped continuous detection against carom's contacts.
carom_add_baseline_test(test_swept carom_stepped)
# Seed 003's frame-by-frame algorithms against carom.
carom_add_baseline_test(test_frames carom_frames)
# Balls rolling on a plane (seed 001's collision tree) against carom.
carom_add_baseline_test(test_rolling carom_ksap)
