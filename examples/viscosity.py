"""Teaching example: how viscous is a hard-sphere fluid, and how well does
it conduct heat? The shear viscosity and the thermal conductivity of 2,000
spheres at packing 0.2 by the Einstein-Helfand route. carom.Stress keeps
the exact time integrals of the pressure tensor times the volume, S (each
sphere's m v v^T between contacts, r_ab dp^T at each contact), and of the
heat flux, Q (each sphere's e v, e = m v^2/2, between contacts, r_ab times
the energy carried from a to b at each), sampled here every 0.05. The
shear stress carries momentum across planes: over a lag, a shear part of
S (S_xy and the four others like it) changes by D, and

    eta(lag) = < D^2 > / (2 V kT lag);

the heat flux carries energy: Q_x changes by D_Q, and

    lambda(lag) = < D_Q^2 > / (2 V kT^2 lag)

(averaged over every start and over the parts, or the axes). Each rises
towards its coefficient as the lag grows past the time the flux stays
correlated (a few mean free times). It gets there only as 1/lag
(eta(lag) = eta - c/lag: lag eta(lag) is a straight line of slope eta),
so each is taken from the slope of lag eta(lag) over the long lags, as
diffusion.py takes D from the slope of the mean-square displacement. They
are compared with Enskog's theory,
    eta_E = eta_0 (1/chi + 16/5 phi + 64/25 (1 + 12/pi) phi^2 chi),
    lambda_E = lambda_0 ((1 + 12/5 phi chi)^2/chi + 512/(25 pi) phi^2 chi),
eta_0 = 5/16 sqrt(m kT/pi)/sigma^2, lambda_0 = 75/64 sqrt(kT/(pi m))/sigma^2
(k_B = 1), chi Carnahan-Starling's contact value: molecular dynamics has
found both near it at moderate packings such as this one (Alder, Gass and
Wainwright, 1970). Q is the heat flux because the momentum is zero and the
masses equal (no mass flows). The trace of S gives the pressure too,
checked against the world's collision virial. Plots both against lag, as
ratios to Enskog's, when given a file name; a number is the length of the
run (2000 time units, about a minute).

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
scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=7)  # momentum 0
stress = carom.Stress()
world = scene.create_world(on_contact=stress)  # the observer runs in C, at every contact
world.advance_to(20.0)  # melt the lattice
kT, volume = world.temperature(), world.volume()
world.reset_stats()
stress.start(world)
t0 = world.time()
count = int(round(duration / interval)) + 1
samples, heat = np.empty((count, 3, 3)), np.empty((count, 3))
for k in range(count):
    world.advance_to(t0 + k * interval)
    samples[k] = stress.integral(world)
    heat[k] = stress.heat_integral(world)

z = np.trace(samples[-1]) / (3 * n * kT * (world.time() - t0))
z_cs = (1 + eta + eta**2 - eta**3) / (1 - eta) ** 3
collisions = world.get_stats().collisions
print(f"{n} spheres at packing {eta}, kT = {kT:.4f}: {collisions} collisions in {duration:g} "
      f"time units (mean free time {n * duration / (2 * collisions):.3f})")
print(f"Z = {z:.6f} from trace(S) / (3 N kT t) (collision virial {world.compressibility():.6f}, "
      f"Carnahan-Starling {z_cs:.4f})")

enskog = {"eta": carom.viscosity_enskog(eta, 1.0, kT, 1.0),
          "lambda": carom.conductivity_enskog(eta, 1.0, kT, 1.0)}
lags = [m for m in 2 ** np.arange(9) if m < count]  # 0.05 to 12.8
times = np.array(lags) * interval
rows = {"eta": [carom.viscosity(samples, interval, volume, kT, m) for m in lags],
        "lambda": [carom.conductivity(heat, interval, volume, kT, m) for m in lags]}
values = {key: np.array([value for value, _ in rows[key]]) for key in rows}
errors = {key: np.array([error for _, error in rows[key]]) for key in rows}
print("    lag   eta(lag)   error   / Enskog   lambda(lag)   error   / Enskog")
for i, t in enumerate(times):
    print(f"{t:7.2f}   {values['eta'][i]:.4f}   {errors['eta'][i]:.4f}   "
          f"{values['eta'][i] / enskog['eta']:.3f}      {values['lambda'][i]:.4f}     "
          f"{errors['lambda'][i]:.4f}   {values['lambda'][i] / enskog['lambda']:.3f}")
late = times >= 1.6
fits = {key: np.polyfit(times[late], times[late] * values[key][late], 1) for key in rows}
for key in rows:
    slope = fits[key][0]
    print(f"{key} = {slope:.4f} from the slope of lag {key}(lag) over lags 1.6-12.8 "
          f"(Enskog {enskog[key]:.4f}, ratio {slope / enskog[key]:.3f})")

if picture:
    import matplotlib

    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.5, 4.5))
    fine = np.geomspace(times[late][0], times[-1], 50)
    for key, symbol, colour in (("eta", "o", "C0"), ("lambda", "s", "C1")):
        slope, intercept = fits[key]
        axes.errorbar(times, values[key] / enskog[key], yerr=errors[key] / enskog[key],
                      fmt=symbol, color=colour, capsize=3, label=f"{key}(lag) / {key}_Enskog")
        axes.semilogx(fine, (slope + intercept / fine) / enskog[key], "-", color=colour,
                      label=f"slope of lag {key}(lag): {slope / enskog[key]:.3f} of Enskog's")
    axes.axhline(1.0, linestyle=":", color="black", label="Enskog")
    axes.set_xlabel("lag")
    axes.set_ylabel("Einstein-Helfand estimate / Enskog's value")
    axes.set_title(f"{n:,} spheres at packing {eta}")
    top = max((values[key] / enskog[key]).max() for key in rows)
    axes.set_ylim(0, 1.3 * max(1.0, top))
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(picture, dpi=100)
    print(f"picture: {picture}")
