"""A wavy terrain as an OBJ mesh, for bench/mesh.sh.

usage: terrain.py K SIDE HEIGHT OUT

Writes 2 K^2 triangles (K x K squares, each cut along a diagonal; shared
edges) over [0, SIDE]^2, at heights HEIGHT + 0.12 SIDE sin(6 pi x / SIDE)
cos(4 pi y / SIDE): three crests along x, two along y, whatever K is.
"""
import math
import sys


def main():
    k, side, height, out = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    with open(out, "w") as f:
        for j in range(k + 1):
            for i in range(k + 1):
                x, y = side * i / k, side * j / k
                z = height + 0.12 * side * math.sin(6 * math.pi * x / side) * math.cos(
                    4 * math.pi * y / side)
                f.write(f"v {x:.9f} {y:.9f} {z:.9f}\n")
        for j in range(k):
            for i in range(k):
                a = j * (k + 1) + i + 1  # OBJ counts vertices from 1
                b, c = a + 1, a + k + 1
                f.write(f"f {a} {b} {c + 1}\nf {a} {c + 1} {c}\n")


main()
