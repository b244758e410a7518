"""Teaching example: a ball bouncing down an incline, exactly. A ball
dropped from rest meets a frictionless incline of angle a at speed v0 and
bounces elastically: measured across the incline, gravity g cos a brings
it back every T = 2 v0 / g, the same for every hop; along the incline,
g sin a speeds it up, so the hops grow as 1 : 2 : 3 : ..., hop k being
4 k (v0^2 / g) sin a long. The incline is a fixed plane
(world.add_plane), the contact times solve the quadratic of a ball
falling under gravity: the printed bounces agree with these formulas to
round-off.

    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python /usr/bin/python3 \\
        examples/incline.py
"""

import math

import carom

g, angle, drop = 1.0, math.radians(20.0), 2.0  # drop: height of the fall onto the incline
normal = (math.sin(angle), math.cos(angle))  # the incline y = 80 - x tan a, normal up
offset = 80.0 * math.cos(angle)  # normal . x >= offset + radius
radius = 0.5

hits = []  # (time, position) of each bounce on the incline


def on_contact(c):
    if c.kind == "plane":  # queries are allowed inside a callback
        hits.append((c.time, world.get_sphere(c.i).position))


world = carom.World(dim=2, box=(400, 100), boundary="walls", gravity=(0, -g),
                    restitution_min_speed=1e-12, on_contact=on_contact)
world.add_plane(normal, offset)
# Above the point of the incline at x = 10, clear of it by `drop` along y.
x0 = 10.0
surface = (offset + radius - normal[0] * x0) / normal[1]  # y of the centre touching
world.add_sphere((x0, surface + drop), radius=radius)
world.advance_to(40.0)

v0 = math.sqrt(2 * g * drop)  # speed at the first bounce
t1 = math.sqrt(2 * drop / g)  # its time
T = 2 * v0 / g  # every hop's duration
print(f"{len(hits)} bounces on the incline (angle {math.degrees(angle):.0f} degrees)")
print(" hop  bounce time  expected      hop length  expected")
worst_time, worst_length, previous = 0.0, 0.0, None
for k, (t, (x, y, _)) in enumerate(hits):
    along = x / math.cos(angle)  # distance down the incline from x = 0
    expected_t = t1 + k * T
    worst_time = max(worst_time, abs(t - expected_t))
    line = f"{k + 1:4d}  {t:11.6f}  {expected_t:11.6f}"
    if previous is not None:
        hop, expected_hop = along - previous, 4 * k * (v0 * v0 / g) * math.sin(angle)
        worst_length = max(worst_length, abs(hop - expected_hop))
        line += f"  {hop:10.6f}  {expected_hop:10.6f}"
    print(line)
    previous = along
print(f"largest difference: {worst_time:.2e} in time, {worst_length:.2e} in hop length")
