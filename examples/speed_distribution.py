"""Teaching example: collisions turn any start into the Maxwell-Boltzmann
distribution. 2,000 disks all start at speed 1 in random directions;
after a few collisions each, their speeds follow
p(v) = (m v / kT) exp(-m v^2 / 2 kT), with kT = 1/2 here (2D, kT = KE/N).
Plots the histogram at a few times against that curve.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/speed_distribution.py speeds.png
"""

import sys

import matplotlib

matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import carom  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "speed_distribution.png"
n = 2000
scene = carom.Scene(2, carom.box_length_for_packing(2, n, 0.5, 0.3)).random(n, 0.5, seed=1)
scene.random_velocities(1.0, 1.0, seed=2)  # every speed exactly 1
world = scene.create_world()
kT = world.temperature()

edges = np.linspace(0, 3.6, 25)  # speed 1 inside a bin, not on an edge
middles = 0.5 * (edges[1:] + edges[:-1])
theory = middles / kT * np.exp(-middles**2 / (2 * kT))
figure, axes = plt.subplots(figsize=(7, 4.5))
for t in (0.0, 0.5, 2.0, 10.0):
    world.advance_to(t)
    speeds = np.linalg.norm(carom.Scene.from_world(world).velocity, axis=1)
    density, _ = np.histogram(speeds, bins=edges, density=True)
    per_disk = 2 * world.get_stats().collisions / n
    distance = np.sum(np.abs(density - theory)) * (edges[1] - edges[0])
    print(f"t = {t:4.1f}: {per_disk:5.2f} collisions per disk, "
          f"distance from Maxwell-Boltzmann {distance:.3f}")
    axes.stairs(density, edges, label=f"t = {t:g} ({per_disk:.1f} collisions per disk)")
axes.plot(middles, theory, "k--", label="Maxwell-Boltzmann, kT = 1/2")
axes.set_xlabel("speed")
axes.set_ylabel("probability density")
axes.set_ylim(0, 2.0)
axes.legend()
figure.tight_layout()
figure.savefig(out, dpi=100)
print(f"wrote {out}")
