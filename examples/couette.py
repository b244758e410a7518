"""Teaching example: shear a hard-sphere fluid and measure how viscous it
is from the heat the shearing makes. Lees-Edwards boundaries
(world.set_shear) move the periodic image of the box above it along x at
rate * Ly, and the one below the other way: the fluid settles into the
shear flow u_x = rate (y - Ly/2) (plane Couette flow without walls), and
the boundaries do work on it, which heats it. With elastic smooth spheres
the energy of the velocities relative to that flow, E = sum m |v - u|^2 / 2,
changes only through that work, exactly

    dE = -rate * V P_xy dt,     and  -P_xy = eta * rate,

so eta = (heat) / (rate^2 V t), with nothing sampled. Every 0.3 time units
the velocities relative to the flow are scaled back to kT = 1 (the heat of
each interval is noted first), which keeps the temperature. The result is
compared with Enskog's viscosity, which molecular dynamics finds near the
truth at this packing, 0.3 (and examples/viscosity.py finds by another
route, the Einstein-Helfand one, without shearing). It also prints the flow
the spheres carry, slab by slab, against rate (y - Ly/2); with a file name
it plots it.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/couette.py couette.png
"""

import sys

import numpy as np

import carom

picture = sys.argv[1] if len(sys.argv) > 1 else None
n, packing, rate, interval, duration, kT = 1000, 0.3, 0.2, 0.3, 60.0, 1.0
length = carom.box_length_for_packing(3, n, 0.5, packing)
scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(kT, seed=11)
world = scene.create_world()
world.set_shear(rate)
ids = world.ids()


def flow(y):
    return rate * (y - 0.5 * length)


def relative_energy():
    """E and the states now."""
    now = carom.Scene.from_world(world)
    c = now.velocity.copy()
    c[:, 0] -= flow(now.position[:, 1])
    return 0.5 * float(np.sum(now.mass[:, None] * c * c)), now


def scale_to_temperature():
    """The velocities relative to the flow scaled back to kT; E then."""
    energy, now = relative_energy()
    factor = np.sqrt(1.5 * n * kT / energy)
    for k, sphere in enumerate(ids):
        v = now.velocity[k].copy()
        u = flow(now.position[k, 1])
        world.set_velocity(sphere, (u + factor * (v[0] - u), factor * v[1], factor * v[2]))
    return relative_energy()[0]


# Start with the flow in place, and let it settle (melting the lattice).
_, start = relative_energy()
for k, sphere in enumerate(ids):
    v = start.velocity[k]
    world.set_velocity(sphere, (v[0] + flow(start.position[k, 1]), v[1], v[2]))
t = 0.0
for _ in range(20):
    t += interval
    world.advance_to(t)
    scale_to_temperature()

heat, spans, energy = [], [], scale_to_temperature()
slabs = np.zeros(8)
counts = np.zeros(8)
world.reset_stats()
steps = int(round(duration / interval))
for _ in range(steps):
    t += interval
    world.advance_to(t)
    after, now = relative_energy()
    heat.append(after - energy)
    spans.append(interval)
    slab = np.minimum((now.position[:, 1] / length * 8).astype(int), 7)
    np.add.at(slabs, slab, now.velocity[:, 0])
    np.add.at(counts, slab, 1)
    energy = scale_to_temperature()

volume = world.volume()
heat, spans = np.array(heat), np.array(spans)
eta = heat.sum() / (rate**2 * volume * spans.sum())
blocks = np.array([b.sum() / (rate**2 * volume * s.sum())
                   for b, s in zip(np.array_split(heat, 16), np.array_split(spans, 16))])
error = blocks.std(ddof=1) / np.sqrt(len(blocks))
enskog = carom.viscosity_enskog(packing, 1.0, kT, 1.0)
stats = world.get_stats()
print(f"{n} spheres at packing {packing}, sheared at rate {rate} for {duration:g} time units "
      f"({stats.collisions} collisions, offset now {world.shear_offset():.4f})")
print(f"heat {heat.sum():.2f}: eta = {eta:.4f} +- {error:.4f} (Enskog {enskog:.4f}, "
      f"ratio {eta / enskog:.3f})")
centres = (np.arange(8) + 0.5) * length / 8
mean = slabs / counts
slope = np.polyfit(centres, mean, 1)[0]
print("   y      <v_x>    rate (y - Ly/2)")
for y, m in zip(centres, mean):
    print(f"{y:6.2f}   {m:+.4f}   {flow(y):+.4f}")
print(f"flow: slope {slope:.4f} (rate {rate})")

if picture:
    import matplotlib

    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5.5, 4.5))
    axes.plot(mean, centres, "o", label="spheres, slab by slab")
    axes.plot(flow(centres), centres, "-", label="rate (y - Ly/2)")
    axes.set_xlabel("mean velocity along x")
    axes.set_ylabel("y")
    axes.set_title(f"eta = {eta:.3f} +- {error:.3f} (Enskog {enskog:.3f})")
    axes.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(picture, dpi=100)
    print(f"picture: {picture}")
