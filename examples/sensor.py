"""Teaching example: sensors that count a gas (World.set_sense). Eight
sensing spheres of radius R, fixed (infinite mass, at rest), sit in a
hard-sphere fluid of 4,000 spheres of radius r. The fluid's spheres
collide with each other but pass through the sensors, and every time one
comes to touch a sensor from outside (its centre crosses into the sphere
of radius R + r around the sensor's) the contact is reported and counted
(get_stats().sensed_contacts). Being ghosts, the sensors change nothing.

Kinetic theory gives the count however dense the fluid is: in
equilibrium the centres are spread evenly (density n) and their
velocities are Maxwell's whatever the positions, so the rate at which
centres cross into a sphere of radius s is the flux n <v> / 4 through
each unit of its surface, times 4 pi s^2: n pi s^2 <v>, with the mean
speed <v> = sqrt(8 kT / (pi m)). The script prints the count against
that, at packing 0.3 over 40 time units by default (the arguments). In
our runs the ratio was 1.012, 0.978 and 0.983 at packings 0.05, 0.3 and
0.45 over 40 (1,000 to 8,500 crossings), and 1.003, 0.997 and 0.997
over 400, 400 and 200 (10,000 to 57,000). The differences are the
counts' spread, which in a dense fluid is larger than a Poisson count's
(a centre near a sensor's surface crosses it again and again).

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
world = scene.create_world()
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
world.advance_to(5 + duration)
stats = world.get_stats()
density = n / length**3
s = big_r + r
expected = sensors * density * math.pi * s * s * math.sqrt(8 * kT / math.pi) * duration
print(f"packing {packing}: {stats.collisions} collisions, kT {kT:.4f}")
print(f"sensed {stats.sensed_contacts} crossings into {sensors} sensors in {duration:g} time "
      f"units (kinetic theory: {expected:.0f}, ratio {stats.sensed_contacts / expected:.4f})")
