"""Teaching example: how far does a hard sphere wander? The mean-square
displacement of 2,000 spheres at packing 0.2 grows as (3 kT/m) t^2 while
they fly free (shorter than the time between collisions), then as 6 D t
once collisions have randomised their directions. D is compared with
Enskog's theory, D_E = 3 / (8 rho sigma^2 g(sigma)) sqrt(kT / (pi m)):
molecular dynamics has long found D somewhat above it at this density
(correlated motion, Alder and Wainwright's long-time tail). Positions
come unwrapped (World(count_images=True)), so crossing the periodic box
does not look like a jump. Plots msd(t) on log-log axes.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/diffusion.py diffusion.png
"""

import math
import sys

import matplotlib

matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import carom  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "diffusion.png"
n, eta = 2000, 0.2
length = carom.box_length_for_packing(3, n, 0.5, eta)
scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=7)
world = scene.create_world(count_images=True)
world.advance_to(5.0)  # melt the lattice
kT = world.temperature()
start, t0 = world.unwrapped_positions(), world.time()

times = np.geomspace(0.002, 40.0, 30)
msd = []
for t in times:
    world.advance_to(t0 + t)
    moved = world.unwrapped_positions() - start
    msd.append(np.mean(np.sum(moved * moved, axis=1)))
msd = np.array(msd)

rho = 6 * eta / math.pi  # sigma = 1
g = (1 - eta / 2) / (1 - eta) ** 3  # Carnahan-Starling's contact value
enskog = 3 / (8 * rho * g) * math.sqrt(kT / math.pi)
late = times >= 10.0
slope = np.polyfit(times[late], msd[late], 1)[0]  # the diffusive part: 6 D
d = slope / 6
print(f"free flight: msd / (3 kT t^2) = {msd[0] / (3 * kT * times[0] ** 2):.4f} at t = {times[0]}")
print(f"D = {d:.4f} from the slope over t = 10-40 (Enskog {enskog:.4f}, ratio {d / enskog:.3f})")
print(f"{world.get_stats().collisions} collisions")

figure, axes = plt.subplots(figsize=(6.5, 4.5))
axes.loglog(times, msd, "o", label="carom, 2,000 spheres, packing 0.2")
axes.loglog(times, 3 * kT * times**2, "--", label="free flight: 3 kT t² / m")
axes.loglog(times, 6 * enskog * times, ":", label="Enskog: 6 D_E t")
axes.set_xlabel("t")
axes.set_ylabel("mean-square displacement")
axes.set_ylim(msd[0] / 3, msd[-1] * 3)
axes.legend()
figure.tight_layout()
figure.savefig(out, dpi=100)
print(f"picture: {out}")
