#!/usr/bin/env bash
# Installs, with Debian's apt-get, what building and testing carom needs:
# a C compiler, CMake, pkg-config and Debian's python3 (used by the CLI
# tests) with NumPy, pytest and Matplotlib (the Python package, its tests
# and its plotting example); HDF5 for H5MD trajectories, and h5py to read
# them back; Assimp for triangle meshes (mesh=); for the optional viewer
# SDL2, OpenGL (Mesa's software renderer), libpng, Xvfb and xdotool; and
# clang with its libFuzzer runtime for replaying the fuzz targets'
# inputs. Does nothing when everything is already there.
set -euo pipefail
packages=(build-essential cmake pkg-config python3
  # the Python package (python/), its tests and its plotting example
  python3-numpy python3-pytest python3-matplotlib
  # H5MD trajectories (trajectory=FILE.h5), and reading them back in the tests
  libhdf5-dev python3-h5py
  # triangle meshes (mesh=FILE: OBJ, STL, PLY, ...)
  libassimp-dev
  # carom view / carom render (tools/viewer) and their tests under Xvfb
  libsdl2-dev libgl-dev libpng-dev libx11-dev libgl1-mesa-dri xvfb xauth xdotool
  # the fuzz targets' replay (scripts/test.sh)
  clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
