#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds carom and runs the default scene
# (`carom run`: 3D hard spheres, printing a summary). Extra arguments are
# passed to `carom run`, e.g. `bash scripts/run-default.sh n=10000 --json`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/bin/carom run "$@"
