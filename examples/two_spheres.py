"""The smallest carom program in Python (examples/two_spheres.c in C): two
spheres in a walled box meet head on. Run from a build with
    CAROM_LIBRARY=build/libcarom.so PYTHONPATH=python python3 examples/two_spheres.py"""

import sys

import carom


def on_contact(contact):
    if contact.kind == "sphere":
        print(f"t={contact.time:.6f}: spheres {contact.i} and {contact.j} meet, "
              f"impulse {contact.impulse:.3f}")


try:
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=on_contact)
    world.add_sphere((2, 5), velocity=(1, 0))  # radius 0.5, mass 1
    world.add_sphere((8, 5), velocity=(-1, 0))
    world.advance_to(4)
except carom.Error as e:
    sys.exit(str(e))
state = world.get_sphere(0)
print(f"t=4: sphere 0 at x={state.position[0]:.6f} moving at {state.velocity[0]:.6f}")
