"""carom: exact event-driven collision detection among moving spheres.

The Python face of the C library (include/carom/): World mirrors
carom_world_*, Scene mirrors carom_scene_* and the XYZ files, Orbits,
Forces and Field are the ready-made drivers of drive.h, Andersen the heat
bath of thermostat.h, Stress the exact time integrals of the pressure
tensor and the heat flux of stress.h (with viscosity, viscosity_enskog,
bulk_viscosity, bulk_viscosity_enskog, conductivity and
conductivity_enskog), Error is a
failed call with its status and message. The library is loaded with
ctypes from CAROM_LIBRARY, from beside this package, or from the system's
library path.

    import carom
    world = carom.World(dim=2, box=10, boundary="walls")
    a = world.add_sphere((2, 5), velocity=(1, 0))
    b = world.add_sphere((8, 5), velocity=(-1, 0))
    world.advance_to(4)
    world.get_sphere(a).position  # (3.0, 5.0, 0.0)
"""

from . import drive
from .drive import Field, Forces, Orbits
from .errors import Error
from .scene import Scene, box_length_for_packing
from .stress import (Stress, bulk_viscosity, bulk_viscosity_enskog, conductivity,
                     conductivity_enskog, viscosity, viscosity_enskog)
from .thermostat import Andersen
from .world import CastHit, Contact, SphereState, Stats, World

__version__ = "0.1.0"
__all__ = ["Andersen", "CastHit", "Contact", "Error", "Field", "Forces", "Orbits", "Scene", "SphereState", "Stats",
           "Stress", "World", "box_length_for_packing", "bulk_viscosity", "bulk_viscosity_enskog",
           "conductivity", "conductivity_enskog", "drive", "viscosity", "viscosity_enskog"]
