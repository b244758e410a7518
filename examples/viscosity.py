"""Teaching example: how viscous is a hard-sphere fluid? The shear
viscosity of 2,000 spheres at packing 0.2 by the Einstein-Helfand route.
carom.Stress keeps the exact time integral S of the pressure tensor times
the volume (each sphere's m v v^T between contacts, r_ab dp^T at each
contact), sampled here every 0.05. The shear stress carries momentum
across planes: over a lag, S_xy changes by D, and

    eta(lag) = < D^2 > / (2 V kT lag)

(averaged over every start and over xy, xz and yz) rises towards the
viscosity as the lag grows past the time the stress stays correlated (a
few mean free times). It gets there only as 1/lag (eta(lag) = eta - c/lag:
lag eta(lag) is a straight line of slope eta), so eta is taken from the
slope of lag eta(lag) over the long lags, as diffusion.py takes D from the
slope of the mean-square displacement. It is compared with Enskog's theory,
    eta_E = eta_0 (1/chi + 16/5 phi + 64/25 (1 + 12/pi) phi^2 chi),
eta_0 = 5/16 sqrt(m kT/pi)/sigma^2, chi Carnahan-Starling's contact
value: molecular dynamics has found the viscosity near it at moderate
packings such as this one and above it in denser fluids (Alder, Gass and
Wainwright, 1970). The trace of S gives the pressure too, checked against
the world's collision virial. Plots eta(lag) when given a file name;
a number is the length of the run (2000 time units, under a minute).

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/viscosity.py viscosity.png
"""

import sys

import numpy as np

import carom

picture, duration = None, 2000.0
for argument in sys.argv[1:]:
    try:
        duration = float(argument)
    except ValueError:
        picture = argument

n, eta, interval = 2000, 0.2, 0.05
length = carom.box_length_for_packing(3, n, 0.5, eta)
scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=7)
stress = carom.Stress()
world = scene.create_world(on_contact=stress)  # the observer runs in C, at every contact
world.advance_to(20.0)  # melt the lattice
kT, volume = world.temperature(), world.volume()
world.reset_stats()
stress.start(world)
t0 = world.time()
count = int(round(duration / interval)) + 1
samples = np.empty((count, 3, 3))
for k in range(count):
    world.advance_to(t0 + k * interval)
    samples[k] = stress.integral(world)

z = np.trace(samples[-1]) / (3 * n * kT * (world.time() - t0))
z_cs = (1 + eta + eta**2 - eta**3) / (1 - eta) ** 3
collisions = world.get_stats().collisions
print(f"{n} spheres at packing {eta}, kT = {kT:.4f}: {collisions} collisions in {duration:g} "
      f"time units (mean free time {n * duration / (2 * collisions):.3f})")
print(f"Z = {z:.6f} from trace(S) / (3 N kT t) (collision virial {world.compressibility():.6f}, "
      f"Carnahan-Starling {z_cs:.4f})")

enskog = carom.viscosity_enskog(eta, 1.0, kT, 1.0)
lags = [m for m in 2 ** np.arange(9) if m < count]  # 0.05 to 12.8
rows = [carom.viscosity(samples, interval, volume, kT, m) for m in lags]
times = np.array(lags) * interval
values = np.array([value for value, _ in rows])
print("    lag   eta(lag)   error   / Enskog")
for t, (value, error) in zip(times, rows):
    print(f"{t:7.2f}   {value:.4f}   {error:.4f}   {value / enskog:.3f}")
late = times >= 1.6
slope, intercept = np.polyfit(times[late], times[late] * values[late], 1)
print(f"eta = {slope:.4f} from the slope of lag eta(lag) over lags 1.6-12.8 "
      f"(Enskog {enskog:.4f}, ratio {slope / enskog:.3f})")

if picture:
    import matplotlib

    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.5, 4.5))
    axes.errorbar(times, values, yerr=[error for _, error in rows], fmt="o", capsize=3,
                  label=f"carom: eta(lag), {n:,} spheres, packing {eta}")
    fine = np.geomspace(times[late][0], times[-1], 50)
    axes.semilogx(fine, slope + intercept / fine, "-", label="slope of lag eta(lag): eta - c/lag")
    axes.axhline(slope, color="grey", linewidth=0.8, label=f"eta from the slope: {slope:.3f}")
    axes.axhline(enskog, linestyle=":", color="black", label=f"Enskog: {enskog:.3f}")
    axes.set_xlabel("lag")
    axes.set_ylabel("eta(lag) = <D²> / (2 V kT lag)")
    axes.set_ylim(0, 1.3 * max(enskog, values.max()))
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(picture, dpi=100)
    print(f"picture: {picture}")
