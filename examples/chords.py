"""Teaching example: scene queries (world.cast_sphere) measure a hard-
sphere fluid's free paths, and stereology says what they must average.

Draw a straight line at random through a material made of two phases:
it crosses each phase in chords. Whatever the material looks like, if it
is the same everywhere and in every direction, the mean chord through a
phase is fixed by two numbers only: the phase's volume fraction phi and
the area of its boundary per unit volume S (Cauchy's formula): pi phi / S
in 2D, 4 phi / S in 3D. For the space between hard spheres of radius r
at packing fraction eta, number density n: phi = 1 - eta and
S = n 2 pi r (2D) or n 4 pi r^2 (3D), so the mean free chord is
(1 - eta) / (2 n r) in 2D and (1 - eta) / (pi n r^2) in 3D, at any
density and with any correlations between the spheres.

The script melts a lattice into a fluid, then casts rays from random
points of the spheres' surfaces into the space between them. Random
lines cross a surface more often the more squarely they meet it, so the
rays leave at an angle theta to the outward normal drawn with density
proportional to cos theta (2D) or cos theta sin theta (3D); each ray
ignores the sphere it leaves and stops at the first sphere it meets
(every periodic image counts). It prints the mean chord against the
formula for a few packings, in 2D and 3D: they agree within the
sampling error (about 1%).

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/chords.py
"""

import math
import random

import carom

RADIUS = 0.5


def fluid(dim, n, packing, seed):
    length = carom.box_length_for_packing(dim, n, RADIUS, packing)
    scene = carom.Scene(dim, length).lattice(n, RADIUS).maxwell_velocities(1.0, seed=seed)
    world = scene.create_world()
    world.advance_to(10)  # melt the lattice
    return world, length


def outward_direction(rng, dim, normal):
    """A unit vector at angle theta to normal, theta with density ~ cos
    (2D) or cos sin (3D): the directions of random lines crossing a
    surface element."""
    if dim == 2:
        theta = math.asin(2 * rng.random() - 1)
        c, s = math.cos(theta), math.sin(theta)
        return (c * normal[0] - s * normal[1], s * normal[0] + c * normal[1])
    cos_theta = math.sqrt(rng.random())
    sin_theta = math.sqrt(1 - cos_theta ** 2)
    phi = 2 * math.pi * rng.random()
    # two unit vectors at right angles to the normal
    helper = (1.0, 0.0, 0.0) if abs(normal[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = cross(normal, helper)
    u = scale(u, 1 / math.sqrt(dot(u, u)))
    v = cross(normal, u)
    return tuple(cos_theta * normal[k] + sin_theta * (math.cos(phi) * u[k] + math.sin(phi) * v[k])
                 for k in range(3))


def random_unit(rng, dim):
    while True:
        x = [rng.gauss(0, 1) for _ in range(dim)]
        norm = math.sqrt(dot(x, x))
        if norm > 1e-12:
            return tuple(c / norm for c in x)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def scale(a, f):
    return tuple(f * x for x in a)


def mean_chord(dim, packing, rays=20000, n=2000, seed=1):
    """The mean of `rays` chords from the sphere surfaces of a fluid, and
    Cauchy's value for it."""
    world, length = fluid(dim, n, packing, seed)
    rng = random.Random(seed)
    ids = world.ids()
    density = n / length ** dim
    expected = ((1 - packing) / (2 * density * RADIUS) if dim == 2
                else (1 - packing) / (math.pi * density * RADIUS ** 2))
    reach = 40 * expected  # rays longer than that are rare: exp(-40)
    total, count = 0.0, 0
    for _ in range(rays):
        sphere = rng.choice(ids)
        centre = world.get_sphere(sphere).position[:dim]
        normal = random_unit(rng, dim)
        start = tuple(centre[k] + RADIUS * normal[k] for k in range(dim))
        direction = outward_direction(rng, dim, normal)
        hit = world.cast_sphere(start, scale(direction, reach), ignore=sphere)
        if hit is None or hit.kind != "sphere":
            continue  # (never, at these densities)
        total += hit.fraction * reach
        count += 1
    return total / count, expected, count


def main():
    for dim in (2, 3):
        for packing in ((0.1, 0.4, 0.6) if dim == 2 else (0.1, 0.3, 0.45)):
            mean, expected, count = mean_chord(dim, packing)
            print(f"{dim}D, packing {packing}: mean chord {mean:.4f} over {count} rays, "
                  f"Cauchy {expected:.4f}, ratio {mean / expected:.4f}")


if __name__ == "__main__":
    main()
