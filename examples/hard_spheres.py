"""A hard-sphere fluid: the pressure from the collision virial against
Carnahan-Starling. Run from a build with
    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python python3 examples/hard_spheres.py [packing]"""

import sys

import carom

packing = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
n = 4000
length = carom.box_length_for_packing(3, n, 0.5, packing)
scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=1)
world = scene.create_world()
world.advance_to(5)  # melt the lattice
world.reset_stats()
world.advance_to(25)
stats = world.get_stats()
eta = packing
z_cs = (1 + eta + eta**2 - eta**3) / (1 - eta) ** 3
print(f"packing {packing}: {stats.collisions} collisions in {stats.elapsed:g} time units")
print(f"Z = {world.compressibility():.4f} (Carnahan-Starling {z_cs:.4f})")
