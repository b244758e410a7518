"""Teaching example: grains flowing out of a silo, the hourglass
(examples/hourglass.py) in 3D. Eight fixed triangles (world.add_triangle)
make a square funnel in a walled box, from the box's sides down to a
square opening D sphere diameters wide; spheres fill it, fall under
gravity, lose energy in every contact (restitution 0.8) and drain
through the opening. A sphere that has fallen 3 diameters below the
opening is taken out and counted.

Beverloo's argument (see hourglass.py) in 3D: the grains crossing the
last arch over the opening fall freely by ~ D to a speed ~ sqrt(g D),
through an area ~ D^2: the rate grows as sqrt(g) (D - k d)^(5/2). The
script prints the count of spheres out against time for three openings,
checks that the count grows linearly in the middle of the discharge (the
rates over its second and third quarters agree within 25%) and that the
rate grows as D^(5/2) (the power fitted within 0.35 of 5/2).

In our run (1,500 spheres, seed 1) the power came out at 2.70, with
k = 0.27, and the rate fell by 6-12% from the second quarter to the
third. These spheres have no friction, and restitution_min_speed keeps
settled ones bouncing: they are partly a liquid (whose rate would grow
as D^2), and the flow still feels the fill a little.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/silo.py
"""

import math

import numpy as np

import carom

g, radius, e = 1.0, 0.5, 0.8
width = 14.0  # the box is width x width across
opening_z = 8.0  # the funnel's bottom
wall_angle = math.radians(60)  # the funnel's sides against the horizontal


def funnel(opening):
    """The funnel's eight triangles (two for each side) and the height of
    its rim, for an opening of the given width (in diameters)."""
    half = opening * 2 * radius / 2
    rise = (width / 2 - half) * math.tan(wall_angle)
    lo, hi = width / 2 - half, width / 2 + half
    rim = [(0.0, 0.0), (width, 0.0), (width, width), (0.0, width)]
    ring = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]
    triangles = []
    for k in range(4):
        n = (k + 1) % 4
        a, b = (*rim[k], opening_z + rise), (*rim[n], opening_z + rise)
        c, d = (*ring[n], opening_z), (*ring[k], opening_z)
        triangles += [(a, b, c), (a, c, d)]
    return triangles, opening_z + rise


def inside(point, opening, distance):
    """Whether point is inside the funnel (or above it) and farther than
    distance from its sides: each side is a plane through the opening's
    edge, leaning out at wall_angle."""
    half = opening * 2 * radius / 2
    x, y, z = point
    height = z - opening_z
    for offset in (x - width / 2, width / 2 - x, y - width / 2, width / 2 - y):
        # the side on this axis: offset + half = height / tan(angle) on it
        reach = half + height / math.tan(wall_angle)
        if (reach + offset) * math.sin(wall_angle) <= distance:
            return False
    return True


def silo(opening, n=1500, seed=1):
    """A world with the funnel of the given opening and n spheres on a
    loose cubic lattice in it and above it, nearly at rest (a random
    jiggle of 0.1)."""
    triangles, rim = funnel(opening)
    spacing = 2.2 * radius
    layers = math.ceil(n / (width / spacing) ** 2) + 4
    height = rim + layers * spacing + 2
    # Contacts slower than a fall by one radius are elastic: settled
    # grains chatter instead of collapsing in ever faster collisions.
    world = carom.World(dim=3, box=(width, width, height), boundary="walls",
                        gravity=(0, 0, -g), restitution=e, wall_restitution=e,
                        restitution_min_speed=math.sqrt(2 * g * radius))
    for a, b, c in triangles:
        world.add_triangle(a, b, c)
    rng = np.random.default_rng(seed)
    added, z = 0, opening_z + radius + 0.3
    steps = np.arange(radius + 0.1, width - radius, spacing)
    while added < n:
        for x in steps:
            for y in steps:
                if added < n and inside((x, y, z), opening, radius * 1.1):
                    world.add_sphere((x, y, z), velocity=rng.normal(0, 0.1, 3), radius=radius)
                    added += 1
        z += spacing
    return world


def discharge(opening, dt=0.5, t_end=300.0):
    """Runs the silo until it is empty (or t_end); returns the times
    (every dt), the number of spheres out by each, and the number of
    spheres."""
    world = silo(opening)
    n = world.sphere_count()
    times, out = [0.0], [0]
    while out[-1] < n and times[-1] < t_end:
        world.advance_to(times[-1] + dt)
        below = carom.Scene.from_world(world).position[:, 2] < opening_z - 3 * 2 * radius
        for sphere in world.ids()[below]:
            world.remove_sphere(int(sphere))
        times.append(world.time())
        out.append(n - world.sphere_count())
    return np.array(times), np.array(out), n


def quarter_rates(times, out, n):
    """The flow rate (spheres per time) over the second and third quarters
    of the discharge: n/4 over the time the count took to rise from n/4 to
    n/2, and from n/2 to 3n/4."""
    t = np.interp([n / 4, n / 2, 3 * n / 4], out, times)
    return (n / 4) / (t[1] - t[0]), (n / 4) / (t[2] - t[1])


if __name__ == "__main__":
    openings = (3, 4, 5)
    runs = {D: discharge(D) for D in openings}
    n = runs[openings[0]][2]
    print(f"spheres out of the silo ({n} spheres, restitution {e}), by time")
    print("   t" + "".join(f"  D = {D} d" for D in openings))
    longest = max(times[-1] for times, _, _ in runs.values())
    for t in np.arange(0, longest + 4, 4):
        counts = [int(np.interp(t, times, out)) for times, out, _ in runs.values()]
        print(f"{t:4.0f}" + "".join(f"  {c:7d}" for c in counts))
    print("opening  rate: 2nd quarter  3rd quarter  (ratio)")
    rates = []
    for D, (times, out, n) in runs.items():
        second, third = quarter_rates(times, out, n)
        rates.append((second + third) / 2)
        print(f"D = {D} d  {second:18.2f}  {third:11.2f}  ({third / second:.2f})")
        assert abs(third / second - 1) < 0.25  # a steady flow
    assert rates == sorted(rates)
    # Beverloo: rate ~ (D - k d)^(5/2); for a liquid the rate ~ D^2 only.
    exponent = np.polyfit(np.log(openings), np.log(rates), 1)[0]
    slope, intercept = np.polyfit(openings, np.power(rates, 2 / 5), 1)
    print(f"rate ~ D^{exponent:.2f} (Beverloo: 5/2, a liquid: 2); "
          f"with the power 5/2, k = {-intercept / slope:.2f}")
    assert abs(exponent - 2.5) < 0.35
