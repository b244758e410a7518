"""Teaching example: grains flowing out of a hopper (the top of an
hourglass). Two fixed segments (world.add_segment) make a funnel in a
walled 2D box, with an opening of D disk diameters at its bottom; disks
fill it, fall under gravity, lose energy in every contact (restitution
0.8) and drain through the opening. A disk that has fallen 3
diameters below the opening is taken out and counted.

Water leaves a tank at a rate that grows with the depth above the hole,
and at a given depth only as the hole's width D. Grains leave a hopper
at a rate set by the opening alone: those over it rest on arches, and
only those crossing the last arch, of span ~ D, fall freely, by ~ D, to
a speed ~ sqrt(g D). Hence Beverloo's law, in 2D: the rate grows as
sqrt(g) (D - k d)^(3/2), d the diameter (k ~ 1-2 in experiments: the
grains along the edges of the opening do not flow). The script prints
the count of disks out against time for three openings, checks that the
count grows linearly in the middle of the discharge (the rates over its
second and third quarters agree within 25%) and that the rate grows as
D^(3/2) (the power fitted within 0.25 of 3/2).

In our runs (600 disks, seeds 1-7) the power came out at 1.41-1.49 (1.47
and k = -0.14 for the seed here), and the rate fell by 2-15% from the
second quarter to the third. These disks have no friction, and
restitution_min_speed keeps even settled ones bouncing: they are partly
a liquid, and the flow still feels the fill a little. With 1,200 disks
(runs 3-8 times as long) the rates were 8-15% higher and the power
1.46-1.50.

Rough disks (a tangential restitution beta as the first argument, for
disk-disk and disk-segment contacts alike; -1, smooth, by default) turn
as they touch, and their contacts take tangential speed too. They flow
more slowly (by 20-35% at beta = 0.5) and k turns positive: over seeds
1-4, k = 0.05-0.46 at beta = 0 and 0.44-0.61 at beta = 0.5 (powers
1.53-1.69). Still short of real grains' 1-2: these disks roll freely,
with no rolling resistance and here no Coulomb limit on the tangential
impulse (World's friction=).

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/hourglass.py [beta]
"""

import math
import sys

import numpy as np

import carom

g, radius, e = 1.0, 0.5, 0.8
beta = float(sys.argv[1]) if len(sys.argv) > 1 else -1.0  # tangential restitution
width, height = 30.0, 50.0  # the disks fill the funnel to y = 42
opening_y = 10.0  # the funnel's bottom
wall_angle = math.radians(60)  # the funnel's walls against the horizontal


def hopper(opening, n=600, seed=1):
    """A world with the funnel of the given opening (in diameters) and n
    disks on a loose lattice in it and above it, nearly at rest (a random
    jiggle of 0.1)."""
    # Contacts slower than a fall by one radius are elastic: settled
    # grains chatter instead of collapsing in ever faster collisions.
    world = carom.World(dim=2, box=(width, height), boundary="walls", gravity=(0, -g),
                        restitution=e, wall_restitution=e,
                        restitution_min_speed=math.sqrt(2 * g * radius),
                        tangential_restitution=beta, wall_tangential_restitution=beta)
    half = opening * 2 * radius / 2
    rise = (width / 2 - half) * math.tan(wall_angle)
    left = ((0.0, opening_y + rise), (width / 2 - half, opening_y))
    right = ((width, opening_y + rise), (width / 2 + half, opening_y))
    for a, b in (left, right):
        world.add_segment(a, b)
    rng = np.random.default_rng(seed)
    spacing = 2.2 * radius
    added, row = 0, 0
    while added < n:
        y = opening_y + radius + 0.3 + row * spacing * math.sqrt(3) / 2
        for x in np.arange(radius + 0.1 + (row % 2) * spacing / 2, width - radius, spacing):
            if added < n and clear_of((x, y), (left, right), radius * 1.1):
                world.add_sphere((x, y), velocity=rng.normal(0, 0.1, 2), radius=radius)
                added += 1
        row += 1
    return world


def clear_of(point, segments, distance):
    """Whether point is farther than distance from every segment and above
    the funnel's walls (inside the hopper)."""
    p = np.array(point)
    for a, b in segments:
        a, b = np.array(a), np.array(b)
        u = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0, 1)
        if np.linalg.norm(p - (a + u * (b - a))) <= distance:
            return False
        side = (b - a)[0] * (p - a)[1] - (b - a)[1] * (p - a)[0]
        if (side < 0) == (a[0] < b[0]):  # below the wall
            return False
    return True


def discharge(opening, dt=0.5, t_end=200.0):
    """Runs the hopper until it is empty (or t_end); returns the times
    (every dt), the number of disks out by each, and the number of disks."""
    world = hopper(opening)
    n = world.sphere_count()
    times, out = [0.0], [0]
    while out[-1] < n and times[-1] < t_end:
        world.advance_to(times[-1] + dt)
        for sphere in world.ids():
            if world.get_sphere(int(sphere)).position[1] < opening_y - 3 * 2 * radius:
                world.remove_sphere(int(sphere))
        times.append(world.time())
        out.append(n - world.sphere_count())
    return np.array(times), np.array(out), n


def quarter_rates(times, out, n):
    """The flow rate (disks per time) over the second and third quarters
    of the discharge: n/4 over the time the count took to rise from n/4 to
    n/2, and from n/2 to 3n/4."""
    t = np.interp([n / 4, n / 2, 3 * n / 4], out, times)
    return (n / 4) / (t[1] - t[0]), (n / 4) / (t[2] - t[1])


if __name__ == "__main__":
    openings = (4, 6, 8)
    runs = {D: discharge(D) for D in openings}
    n = runs[openings[0]][2]
    print(f"disks out of the hopper ({n} disks, restitution {e}"
          + (f", tangential restitution {beta}" if beta != -1.0 else "") + "), by time")
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
    # Beverloo: rate ~ (D - k d)^(3/2); for a liquid the rate ~ D only.
    exponent = np.polyfit(np.log(openings), np.log(rates), 1)[0]
    slope, intercept = np.polyfit(openings, np.power(rates, 2 / 3), 1)
    print(f"rate ~ D^{exponent:.2f} (Beverloo: 3/2, a liquid: 1); "
          f"with the power 3/2, k = {-intercept / slope:.2f}")
    assert abs(exponent - 1.5) < 0.25
