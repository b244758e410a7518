"""Continuous collision detection, shown: a bullet (radius 1 mm) at 1,000
m/s against a wall of 10 x 10 steel balls (radius 5 cm, immovable, in the
plane x = 5 m). Checking for overlaps 60 times a second, as a game loop
that only moves and tests would, the bullet jumps 16.7 m between looks
and is never seen touching the wall: it passes through. carom finds the
contact at its time, t = (5 - 0.05 - 0.001 - 0.5) / 1000 s, and bounces the
bullet back.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 examples/bullet.py
"""

import math

import numpy as np

import carom

speed, bullet_radius, ball_radius = 1000.0, 0.001, 0.05
wall = np.array([[5.0, 2.0 + 0.1 * a + ball_radius, 2.0 + 0.1 * b + ball_radius]
                 for a in range(10) for b in range(10)])
start = np.array([0.5, wall[44][1], wall[44][2]])  # aimed at ball 44's centre

# A game loop at 60 Hz: move, then look for overlaps.
dt, seen = 1.0 / 60.0, 0
for step in range(1, 61):
    x = start + np.array([speed * dt * step, 0.0, 0.0])
    seen += int(np.any(np.linalg.norm(wall - x, axis=1) < ball_radius + bullet_radius))
print(f"stepping at 60 Hz: {seen} overlaps seen in 60 steps (the bullet went through)")

# carom: every contact at its time.
hits = []
world = carom.World(dim=3, box=(20, 5, 5), boundary="walls", on_contact=hits.append)
for centre in wall:
    world.add_sphere(centre, radius=ball_radius, mass=math.inf)
bullet = world.add_sphere(start, velocity=(speed, 0, 0), radius=bullet_radius, mass=0.01)
world.advance_to(0.009)
first = hits[0]
expected = (wall[44][0] - ball_radius - bullet_radius - start[0]) / speed
print(f"carom: the bullet meets wall ball {min(first.i, first.j)} at t = {first.time:.9f} s "
      f"(expected {expected:.9f} s), {len(hits)} contact(s) by t = 9 ms, "
      f"bullet now moving at {world.get_sphere(bullet).velocity[0]:.1f} m/s")
