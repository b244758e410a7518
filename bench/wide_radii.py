#!/usr/bin/env python3
"""Writes an extended XYZ start for the wide-spread radii benchmark
(docs/performance-notes.md): a periodic 3D box of side L with `nbig`
spheres of radius `rbig` and `nsmall` of radius `rsmall`, placed at random
without overlap, velocities left to `temperature=` on the command line.

usage: bench/wide_radii.py OUT.xyz [nbig nsmall rbig rsmall packing_of_big seed]"""
import math
import random
import sys


def main():
    out = sys.argv[1]
    nbig, nsmall = int(sys.argv[2]) if len(sys.argv) > 2 else 300, int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    rbig = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    rsmall = float(sys.argv[5]) if len(sys.argv) > 5 else 0.1
    packing = float(sys.argv[6]) if len(sys.argv) > 6 else 0.2
    rng = random.Random(int(sys.argv[7]) if len(sys.argv) > 7 else 1)
    L = (nbig * 4.0 / 3.0 * math.pi * rbig ** 3 / packing) ** (1.0 / 3.0)
    cell = 2.0 * rbig
    ncell = max(1, int(L // cell))
    grid = {}
    spheres = []

    def key(x):
        return tuple(int(c / L * ncell) % ncell for c in x)

    def free(x, r):
        kc = key(x)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for j in grid.get(((kc[0] + dx) % ncell, (kc[1] + dy) % ncell, (kc[2] + dz) % ncell), ()):
                        y, s = spheres[j]
                        d2 = 0.0
                        for k in range(3):
                            d = x[k] - y[k]
                            d -= L * round(d / L)
                            d2 += d * d
                        if d2 < (r + s + 1e-3) ** 2:
                            return False
        return True

    for count, r in ((nbig, rbig), (nsmall, rsmall)):
        for _ in range(count):
            while True:
                x = [rng.uniform(0.0, L) for _ in range(3)]
                if free(x, r):
                    break
            grid.setdefault(key(x), []).append(len(spheres))
            spheres.append((x, r))
    with open(out, "w") as f:
        f.write(f"{len(spheres)}\n")
        f.write(f'Lattice="{L!r} 0 0 0 {L!r} 0 0 0 {L!r}" '
                'Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1 pbc="T T T" Time=0 dim=3\n')
        for x, r in spheres:
            f.write(f"S {x[0]!r} {x[1]!r} {x[2]!r} 0 0 0 {r!r}\n")
    print(f"L = {L:.6g}, N = {len(spheres)}", file=sys.stderr)


if __name__ == "__main__":
    main()
