"""Teaching example: a granular mixture cools with its two species at
different temperatures. Grains of species 0 bounce off each other
elastically, grains of species 1 lose energy among themselves (restitution
e11), and unlike grains meet with e01 = (1 + e11) / 2: carom's
World.set_pair_restitution. Species 1 loses energy faster, species 0
hands it some of its own in every unlike collision, and the two settle
into a common rate of cooling with species 0 the hotter (no
equipartition: a granular gas is not in equilibrium).

For Maxwellian velocities the ratio T0/T1 of that homogeneous cooling
state follows from asking that both species cool at the same rate
(Garzo and Dufty, Phys. Rev. E 60, 5706, 1999; tests/test_granular.c
derives the rates). The script runs 8,000 spheres of equal size and mass
(half of each species, packing 0.1, 3D) for several e11, measures T0/T1
while the energy falls from 1/e to 1/e^3 of its start, and prints and
draws it against that prediction. In our run the measured ratios were
1.055, 1.113, 1.162 and 1.261 for e11 = 0.9, 0.8, 0.7 and 0.5, from 0.3%
to 1% above the prediction (the cooling state's velocities are not quite
Maxwellian), and 1.00 for the elastic mixture.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/granular_mixture.py mixture.png
"""

import math
import sys

import matplotlib

matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import carom  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "granular_mixture.png"
n, eta = 8000, 0.1
restitutions = (1.0, 0.9, 0.8, 0.7, 0.5)


def cooling_rate(i, kt, e):
    """Species i's cooling rate (a common factor left out), equal masses
    and diameters, half of each species: the sum over the partners j of
    (1 + e_ij) s^3 / T_i [(1 - e_ij) / 4 + (T_i - T_j) / (2 s^2 m)]."""
    rate = 0.0
    for j in (0, 1):
        s2 = kt[i] + kt[j]  # T_i / m + T_j / m, m = 1
        rate += 0.5 * 0.5 * (1 + e[i][j]) / kt[i] * s2 ** 1.5 * (
            0.5 * (1 - e[i][j]) / 2 + (kt[i] - kt[j]) / (2 * s2))
    return rate


def predicted_ratio(e):
    """T0/T1 at which both species cool at the same rate (bisection)."""
    lo, hi = 0.01, 100.0
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if cooling_rate(0, (mid, 1.0), e) > cooling_rate(1, (mid, 1.0), e):
            hi = mid
        else:
            lo = mid
    return math.sqrt(lo * hi)


def species_temperatures(world):
    scene = carom.Scene.from_world(world)
    v2 = (scene.velocity ** 2).sum(axis=1) * scene.mass
    return [v2[scene.species == s].mean() / 3 for s in (0, 1)]


length = carom.box_length_for_packing(3, n, 0.5, eta)
scene = carom.Scene(3, length).random(n, 0.5, seed=5).maxwell_velocities(1.0, seed=6)
scene.species = np.arange(n) % 2
start = scene.create_world()
start.advance_to(3.0)  # an equilibrium gas to start from
equilibrium = carom.Scene.from_world(start)

measured, predicted = [], []
for e11 in restitutions:
    e01 = (1 + e11) / 2
    table = ((1.0, e01), (e01, e11))
    gas = equilibrium.create_world()
    gas.set_pair_restitution(1, 1, e11)
    gas.set_pair_restitution(0, 1, e01)
    e0, dt, ratios = gas.kinetic_energy(), 0.02, []
    # Cooling: sample while the energy falls from 1/e to 1/e^3. Elastic:
    # it does not cool, and 300 samples (equipartition) will do.
    while gas.kinetic_energy() > e0 * math.exp(-3) and len(ratios) < (300 if e11 == 1.0 else 2000):
        gas.advance_to(gas.time() + dt)
        if e11 == 1.0 or gas.kinetic_energy() < e0 * math.exp(-1):
            t0, t1 = species_temperatures(gas)
            ratios.append(t0 / t1)
            dt *= 1.01  # the gas slows down
    measured.append(float(np.mean(ratios)))
    predicted.append(predicted_ratio(table))
    print(f"e11 = {e11:.1f}, e01 = {e01:.2f}: T0/T1 = {measured[-1]:.4f} "
          f"(Maxwellian prediction {predicted[-1]:.4f}, ratio "
          f"{measured[-1] / predicted[-1]:.4f}) over {len(ratios)} samples")

figure, axes = plt.subplots(figsize=(6.5, 4.5))
fine = np.linspace(0.4, 1.0, 61)
axes.plot(fine, [predicted_ratio(((1.0, (1 + x) / 2), ((1 + x) / 2, x))) for x in fine], "-",
          label="homogeneous cooling state (Maxwellian)")
axes.plot(restitutions, measured, "o", label=f"carom: {n} spheres, packing {eta}")
axes.set_xlabel("restitution of species 1 among itself, e11")
axes.set_ylabel("T0 / T1")
axes.legend()
figure.tight_layout()
figure.savefig(out, dpi=100)
print(f"picture: {out}")
