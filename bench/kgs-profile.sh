#!/usr/bin/env bash
# Where the time of scenario=kgs-forces N = 1000 goes: perf's default
# cpu-clock sampling (no hardware counters on the measuring machine).
#
# usage: bench/kgs-profile.sh BUILD_DIR
#
# Two recordings of `carom run scenario=kgs-forces n=1000 seed=1`:
#   1. perf record -g, time 100 (the 15 s of the paper give ~1000 samples
#      only): self time per function. The Release build has no frame
#      pointers, so -g's call chains are broken and only the self column
#      is kept;
#   2. perf record --call-graph dwarf at 1999 Hz, time 30: inclusive time
#      (a function and everything it calls).
# Writes bench/results/kgs-profile.txt; the perf.data files stay in
# BUILD_DIR/kgs-profile/.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1/bin/carom" ]; then
    echo "usage: $0 BUILD_DIR   (BUILD_DIR/bin/carom must exist)" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT="$REPO/bench/results/kgs-profile.txt"
DIR="$BUILD/kgs-profile"
mkdir -p "$DIR"
SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
COMMIT=${COMMIT:-$(git -C "${SRC:-/nonexistent}" rev-parse --short HEAD 2>/dev/null || echo unknown)}

FLAT=(run scenario=kgs-forces n=1000 time=100 seed=1 --json)
DWARF=(run scenario=kgs-forces n=1000 time=30 seed=1 --json)

perf record -q -g -o "$DIR/flat.data" "$BUILD/bin/carom" "${FLAT[@]}" >"$DIR/flat.json"
perf record -q --call-graph dwarf,16384 -F 1999 -o "$DIR/dwarf.data" "$BUILD/bin/carom" \
    "${DWARF[@]}" >"$DIR/dwarf.json"

{
    echo "# kgs-forces N = 1000 profile, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)),"
    echo "# load average $(cut -d' ' -f1-3 /proc/loadavg), commit $COMMIT"
    echo
    echo "## self time: perf record -g BUILD_DIR/bin/carom ${FLAT[*]}"
    perf report -i "$DIR/flat.data" --no-children --stdio -g none --percent-limit 0.7 \
        --sort symbol 2>/dev/null | grep -v '^$' | grep -v '^# *$' | grep -v 'Tip:'
    echo
    echo "## inclusive time: perf record --call-graph dwarf,16384 -F 1999 BUILD_DIR/bin/carom ${DWARF[*]}"
    perf report -i "$DIR/dwarf.data" --children --stdio -g none --percent-limit 3 \
        --sort symbol 2>/dev/null | grep -v '^$' | grep -v '^# *$' | grep -v 'Tip:'
} >"$OUT"
echo "wrote $OUT"
