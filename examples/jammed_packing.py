"""Physics example: a random close packing by Lubachevsky-Stillinger
compression. 500 spheres at packing 0.3 grow (world.set_growth) at 1% a
time unit, their velocities scaled back to kT = 1 every 20 collisions a
sphere, until the pressure diverges (Z = PV/NkT above 10^6): the packing
jams near 0.64. A jammed packing of frictionless spheres is isostatic:
leaving out the rattlers (spheres held by fewer than 4 contacts, which
rattle in cages of their neighbours), each sphere touches 2 d = 6 others
on average.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/jammed_packing.py
"""

import numpy as np

import carom

n = 500
length = carom.box_length_for_packing(3, n, 0.5, 0.3)
scene = carom.Scene(3, length).random(n, 0.5, seed=9).maxwell_velocities(1.0, seed=10)
world = scene.create_world()
world.set_growth(0.01)
z = 0.0
while z < 1e6:
    world.reset_stats()
    world.step_events(20 * n)
    z = world.compressibility()
    velocity = carom.Scene.from_world(world).velocity
    factor = 1 / np.sqrt(world.temperature())
    for sphere, v in zip(world.ids(), velocity):
        world.set_velocity(int(sphere), v * factor)
world.set_growth(0)
print(f"jammed at packing {world.packing_fraction():.4f} (Z = {z:.3g}, t = {world.time():.2f})")

# Contacts: pairs closer than 1e-4 of their contact distance (minimum image).
packing = carom.Scene.from_world(world)
x, r = packing.position, packing.radius
d = x[:, None, :] - x[None, :, :]
d -= length * np.round(d / length)
gap = np.sqrt(np.sum(d * d, axis=2)) / (r[:, None] + r[None, :]) - 1
touching = (gap < 1e-4) & ~np.eye(n, dtype=bool)
held = np.ones(n, dtype=bool)
while True:  # rattlers out, until every sphere left has 4 contacts or more
    contacts = (touching & held[None, :]).sum(axis=1)
    rattling = held & (contacts < 4)
    if not rattling.any():
        break
    held &= ~rattling
mean = contacts[held].mean()
print(f"rattlers {n - held.sum()} of {n}; mean contacts of the rest {mean:.3f} "
      f"(isostatic: 6)")
