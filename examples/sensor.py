"""Teaching example: sensors that count a gas (World.set_sense). Eight
sensing spheres of radius R, fixed (infinite mass, at rest), sit in a
hard-sphere fluid of 4,000 spheres of radius r. The fluid's spheres
collide with each other but pass through the sensors, and every time one
comes to touch a sensor from outside (its centre crosses into the sphere
of radius R + r around the sensor's) the contact is reported, and so is
its end when the centre crosses out (Contact.parting). The spheres a
sensor overlaps where it is placed are reported at the next advance's
start, with their depth. Being ghosts, the sensors change nothing.

Kinetic theory gives the count however dense the fluid is: in
equilibrium the centres are spread evenly (density n) and their
velocities are Maxwell's whatever the positions, so the rate at which
centres cross into a sphere of radius s is the flux n <v> / 4 through
each unit of its surface, times 4 pi s^2: n pi s^2 <v>, with the mean
speed <v> = sqrt(8 kT / (pi m)). The script prints the count against
that, at packing 0.3 over 40 time units by default (the arguments). In
our runs the ratio was 0.971, 1.001 and 0.999 at packings 0.05, 0.3 and
0.45 over 40 (900 to 8,600 crossings), and 0.991, 1.005 and 1.003 over
400, 400 and 200 (9,500 to 58,000). The differences are the
counts' spread, which in a dense fluid is larger than a Poisson count's
(a centre near a sensor's surface crosses it again and again).

From the reports in and out the script follows how many centres are
inside the sensors at every instant, and prints the mean against
n (4/3) pi s^3, what a ghost sensor holds on average in a uniform
fluid. By Little's law the mean stay of a centre inside is that number
over the rate of crossings: (4/3) s / <v> at any density (in an ideal
gas, Cauchy's mean chord 4V/S over the speed); the script prints the
stay measured so. In the same runs the number inside was 0.965, 1.000
and 1.002 of the uniform fluid's over 40, 0.990, 1.000 and 1.002 over
the longer runs; the stay 0.994, 0.999 and 1.002 of Little's over 40,
0.999, 0.994 and 0.999 over the longer runs.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/sensor.py [packing [duration]]
"""

import math
import sys

import carom

packing = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
n, r, big_r, sensors = 4000, 0.5, 2.0, 8
duration = float(sys.argv[2]) if len(sys.argv) > 2 else 40.0
length = carom.box_length_for_packing(3, n, r, packing)
scene = carom.Scene(3, length).lattice(n, r).maxwell_velocities(1.0, seed=1)
world = scene.create_world(record_contacts=True)
world.advance_to(5)  # melt the lattice
kT = 2.0 / 3.0 * world.kinetic_energy() / n  # unit masses
# The sensors (species 1) sense the fluid (species 0) and pass through
# each other; they may be placed over the fluid's spheres.
world.set_sense(0, 1)
world.set_pass_through(1, 1)
for k in range(sensors):
    corner = [(k >> axis) & 1 for axis in range(3)]
    world.add_sphere([length * (0.25 + 0.5 * c) for c in corner], radius=big_r,
                     mass=math.inf, species=1)
world.reset_stats()
# Each piece's reports of sensing pairs (impulse 0), in time order: in
# (the first at the start, with a depth: those placed inside), and out.
crossings, inside, held, last, steps = 0, 0, 0.0, 5.0, int(duration * 10)
for k in range(1, steps + 1):
    world.advance_to(5 + duration * k / steps)
    c = world.recorded_contacts()
    c = c[(c["kind"] == 0) & (c["impulse"] == 0.0)]
    for t, parting, depth in zip(c["time"], c["parting"], c["depth"]):
        held += inside * (t - last)
        last = t
        inside += -1 if parting else 1
        crossings += not parting and depth == 0.0
held += inside * (5 + duration - last)
stats = world.get_stats()
density = n / length**3
s = big_r + r
expected = sensors * density * math.pi * s * s * math.sqrt(8 * kT / math.pi) * duration
print(f"packing {packing}: {stats.collisions} collisions, kT {kT:.4f}")
print(f"sensed {crossings} crossings into {sensors} sensors in {duration:g} time "
      f"units (kinetic theory: {expected:.0f}, ratio {crossings / expected:.4f})")
mean_inside = held / duration / sensors
uniform = density * 4.0 / 3.0 * math.pi * s**3
print(f"{stats.sensed_partings} crossings out; {mean_inside:.3f} centres inside a sensor on "
      f"average (uniform fluid: {uniform:.3f}, ratio {mean_inside / uniform:.4f})")
stay = held / crossings
little = 4.0 / 3.0 * s / math.sqrt(8 * kT / math.pi)
print(f"mean stay inside by Little's law {stay:.4f} ((4/3) s / <v>: {little:.4f}, "
      f"ratio {stay / little:.4f})")
