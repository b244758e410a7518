#!/usr/bin/env bash
# Sets up a fresh Debian machine and runs carom's whole test suite twice:
# a Release build with warnings as errors, then a build with
# AddressSanitizer + UBSan (CAROM_TEST_QUICK=1 shortens the longest
# physics runs there; every test still runs). Last, the engine's reference
# tests run in a build that checks its invariants after every event
# (CAROM_TEST_VALIDATING=1 there skips what would take hours at that pace).
# Finally the fuzz targets (clang's libFuzzer, with the sanitizers) replay
# their seed files and every input that once made one fail
# (tests/fuzz/regressions); this fuzzes nothing new, so it is repeatable.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCAROM_WERROR=ON
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAROM_WERROR=ON -DCAROM_SANITIZE=ON
cmake --build build-asan -j"$jobs"
(cd build-asan && CAROM_TEST_QUICK=1 ctest --output-on-failure -j"$jobs")
cmake -S . -B build-validate -DCMAKE_BUILD_TYPE=Release -DCAROM_WERROR=ON -DCAROM_VALIDATE=ON
validated='test_reference test_driven test_drive_orbits test_lists test_reorder test_rebuild test_callbacks test_stuck test_random_ops test_set_position test_images test_growth test_planes test_segments test_segments_driven test_segments_periodic test_triangles test_triangles_driven test_triangles_periodic test_rough test_species test_sensing test_shear test_shear_images test_shear_sensing'
cmake --build build-validate -j"$jobs" --target $validated
(cd build-validate && CAROM_TEST_QUICK=1 CAROM_TEST_VALIDATING=1 ctest --output-on-failure -j"$jobs" \
   -R "^(${validated// /|})\$")
fuzz_targets='carom-fuzz-readers carom-fuzz-config carom-fuzz-world carom-fuzz-driven carom-fuzz-shear'
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAROM_WERROR=ON \
  -DCAROM_FUZZ=ON -DCAROM_SANITIZE=ON
cmake --build build-fuzz -j"$jobs" --target $fuzz_targets
(cd build-fuzz && ctest --output-on-failure -j"$jobs" -R '^carom-fuzz-')
