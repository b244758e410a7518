"""Teaching example: Widom and Rowlinson's mixture separates into two
phases when it is dense enough. Spheres of two species, A and B, each
pass through the spheres of their own species (carom's species and
set_pass_through) and bounce off those of the other: nothing but the
excluded volume between unlike spheres. Mixed, each sphere is kept out of
the room around the other species; apart, it is not, so above a critical
density the mixture gains entropy by separating, and it does so by
itself. Grand-canonical Monte Carlo puts the critical point of the
equimolar 3D mixture at a total density rho sigma^3 = 0.7486 (R. Vink,
J. Chem. Phys. 124, 094502, 2006).

The script runs 4,000 spheres (half A, half B, mixed at random on a
lattice) at total densities 0.5 to 1.1 and prints an order parameter
after each stretch of time: the box cut into 4^3 cells, the mean of
|x_A - 1/2| over them (x_A the share of A in a cell). Below the critical
density it stays near the value of a mixed fluid (about 0.1: the cells
hold about 60 spheres, and unlike spheres repel); above, it grows as
domains of one species form and coarsen (towards 0.5 for two slabs).
A box of 4,000 spheres blurs the transition: near the critical density
the composition already fluctuates on the scale of the cells. In our
runs (time 60, seeds 1 and 2): 0.5 -> 0.09, 0.11; 0.6 -> 0.13, 0.13;
0.7 -> 0.18, 0.15; 0.9 -> 0.21, 0.21; 1.1 -> 0.27, 0.29, still growing.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/widom_rowlinson.py
"""

import math

import numpy as np

import carom

n, cells, seed = 4000, 4, 1
densities = (0.5, 0.6, 0.7, 0.9, 1.1)
stretches = (5.0, 20.0, 60.0)


def order_parameter(world, length):
    """Mean |x_A - 1/2| over the cells x cells x cells sub-boxes."""
    scene = carom.Scene.from_world(world)
    index = np.floor(scene.position / length * cells).astype(int) % cells
    cell = (index[:, 0] * cells + index[:, 1]) * cells + index[:, 2]
    is_a = scene.species == 0
    count = np.bincount(cell, minlength=cells ** 3)
    count_a = np.bincount(cell, weights=is_a, minlength=cells ** 3)
    full = count > 0
    return float(np.mean(np.abs(count_a[full] / count[full] - 0.5)))


def mixture(density):
    """The equimolar mixture at total density rho sigma^3 (sigma = 1)."""
    length = (n / density) ** (1.0 / 3.0)
    scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=seed)
    species = np.zeros(n, dtype=np.uint32)
    species[np.random.default_rng(seed).permutation(n)[: n // 2]] = 1
    scene.species = species
    world = scene.create_world()
    world.set_pass_through(0, 0)  # like spheres pass through each other,
    world.set_pass_through(1, 1)  # unlike ones collide
    return world, length


def main():
    print("rho sigma^3  packing  " + "  ".join("t=%-5g" % t for t in stretches))
    results = {}
    for density in densities:
        world, length = mixture(density)
        row = []
        for t in stretches:
            world.advance_to(t)
            row.append(order_parameter(world, length))
        results[density] = row
        packing = density * math.pi / 6
        print("%-11.2f  %-7.3f  " % (density, packing) + "  ".join("%-7.3f" % m for m in row))
    print("critical density (Vink 2006): 0.7486")
    return results


if __name__ == "__main__":
    main()
