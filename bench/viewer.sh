#!/usr/bin/env bash
# Frame rate of `carom view` under Xvfb with Mesa's software OpenGL
# (llvmpipe), on seed 004's scene and seed 000's driven ones. Prints one markdown table row per case:
# frames drawn, mean frames/s, and how fast the simulation went compared
# with real time (simulated time / time of the frame loop).
#
# usage: bench/viewer.sh BUILD_DIR [FRAMES]   (default 1200 frames a case)
# needs: xvfb-run (Debian's xvfb), a build with the viewer (libsdl2-dev...)
set -euo pipefail
build=${1:?usage: bench/viewer.sh BUILD_DIR [FRAMES]}
frames=${2:-1200}
carom="$build/bin/carom"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seed 004 settled: 20 time units of falling, with no large sphere.
"$carom" render frames=21 fps=1 width=64 height=64 hud=off big=off \
  out="$work/settle" dump="$work/settled.xyz" > /dev/null
settled=(init="$work/settled.xyz" gravity=1 restitution=0.9 wall_restitution=0.9
         restitution_min_speed=1)

row() {
  local name=$1
  shift
  local line
  line=$(xvfb-run -a -s "-screen 0 1024x900x24" "$carom" view "$@" max_frames="$frames" \
         dump="$work/end.xyz")
  local sim
  sim=$(sed -n 2p "$work/end.xyz" | grep -o 'Time=[^ ]*' | cut -d= -f2)
  echo "$line" | awk -v name="$name" -v sim="$sim" '
    { gsub(",", ""); n = $2; fps = $4; seconds = n / fps;
      printf "| %s | %d | %.1f | %.2f |\n", name, n, fps, sim / seconds }'
}

echo "| case | frames | mean fps | simulated / real time |"
echo "| --- | --- | --- | --- |"
row "paused (drawing only)" paused=1
row "settled stacks, idle, large sphere (radius 12)" "${settled[@]}"
row "settled stacks, idle, large sphere of radius 4" "${settled[@]}" big_radius=4
row "settled stacks, idle, no large sphere" "${settled[@]}" big=off
row "seed 000: kgs-forces (1,000 driven spheres, 3D)" scenario=kgs-forces
row "seed 000: kgs-field (1,000 driven spheres, 3D)" scenario=kgs-field
row "hopper (1,476 disks, a funnel of two fixed segments, large sphere)" scenario=hopper
row "hopper, no large sphere" scenario=hopper big=off
row "silo (1,889 spheres, a funnel of eight fixed triangles, large sphere, 3D)" scenario=silo
row "silo, no large sphere" scenario=silo big=off
row "default: seed 004 from the start (falling)"
