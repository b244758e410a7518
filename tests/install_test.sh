#!/usr/bin/env bash
# Installs carom into a scratch prefix and builds examples/two_spheres.c
# against it with pkg-config, as another C project would; then checks
# what the example prints (spheres 0 and 1 meet at t=2.5, in either order;
# sphere 0 at x=3 at t=4), and examples/cradle.c (contacts pulled after
# each frame) and examples/spawner.c (scene queries in a game loop); then
# runs the Python example with the installed Python
# package, which must find the installed library by itself.
set -euo pipefail
build_dir=$1
source_dir=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
pcdir=$(dirname "$(find "$prefix" -name carom.pc | head -n 1)")
export PKG_CONFIG_PATH=$pcdir
cc -std=c11 -Wall -Wextra -Werror "$source_dir/examples/two_spheres.c" \
   $(pkg-config --cflags carom) $(pkg-config --libs --static carom) -o "$prefix/two_spheres"
out=$(LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}" "$prefix/two_spheres")
echo "$out"
grep -Eq "t=2.500000: spheres (0 and 1|1 and 0) meet" <<<"$out"
grep -q "t=4: sphere 0 at x=3.000000 moving at -1.000000" <<<"$out"

# The example that pulls contacts after each frame (record_contacts).
cc -std=c11 -Wall -Wextra -Werror "$source_dir/examples/cradle.c" \
   $(pkg-config --cflags carom) $(pkg-config --libs --static carom) -o "$prefix/cradle"
out=$(LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}" "$prefix/cradle")
grep -q "^frame 4: 4 contacts$" <<<"$out"
grep -q "^  t=3.040000: balls 3 and 4$" <<<"$out"
grep -q "^  t=5.500000: ball 4 and wall 1$" <<<"$out"
grep -q "^  t=7.990000: balls 0 and 1$" <<<"$out"

# Scene queries in a game loop: balls spawned only where the sphere and
# obstacle queries say they fit (the world refusing one is an error).
cc -std=c11 -Wall -Wextra -Werror "$source_dir/examples/spawner.c" \
   $(pkg-config --cflags carom) $(pkg-config --libs --static carom) -o "$prefix/spawner"
out=$(LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}" "$prefix/spawner")
echo "$out"
spawned=$(sed -n 's/^spawned \([0-9]*\) balls in 240 frames$/\1/p' <<<"$out")
[ "${spawned:-0}" -ge 100 ]
grep -Eq "^places taken: [1-9][0-9]* by balls, walls [1-9][0-9]*, planes [1-9][0-9]*, triangles [1-9][0-9]*" <<<"$out"
grep -q "^deepest overlap now: 0 of a contact distance$" <<<"$out"
grep -q "^a ray down from (6, 6, 15.9) meets triangle 0 at z=5.500000$" <<<"$out"

# The installed Python package finds the installed library by itself.
python=/usr/bin/python3
if ! "$python" -c "import numpy" 2>/dev/null; then
  echo "install test: Debian's python3-numpy missing, the Python package not checked" >&2
  exit 1
fi
out=$(cd "$prefix" && env -u CAROM_LIBRARY PYTHONPATH="$prefix/lib/python3/dist-packages" \
      "$python" "$source_dir/examples/two_spheres.py")
echo "$out"
grep -Eq "t=2.500000: spheres (0 and 1|1 and 0) meet" <<<"$out"
grep -q "t=4: sphere 0 at x=3.000000 moving at -1.000000" <<<"$out"
(cd "$prefix" && env -u CAROM_LIBRARY PYTHONPATH="$prefix/lib/python3/dist-packages" \
   "$python" -c "import carom._library as l; print(l._find_library())") | grep -q "^$prefix/"
