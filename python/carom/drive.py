"""carom's ready-made drivers for driven spheres (drive.h): spheres on
circles (Orbits), random forces (Forces) and a velocity field (Field).

Each runs in C, so a world driven by one makes no Python call per probe.
Give it to a world as World(driver=...), then add its spheres with
driver.add_to(world): they take the ids first_id, first_id + 1, ... in
order, so add them first unless first_id says otherwise. A driver must
outlive its worlds; each world it is given to keeps it alive.
"""

import ctypes

import numpy as np

from . import _library
from ._library import c_double3, lib
from .errors import Error, check_error
from .world import number, species_number, vector, vectors

_P = ctypes.POINTER


class carom_orbit(ctypes.Structure):
    _fields_ = [("center", c_double3), ("orbit_radius", ctypes.c_double),
                ("omega", ctypes.c_double), ("phase", ctypes.c_double),
                ("radius", ctypes.c_double)]


class carom_orbits(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t), ("orbit", _P(carom_orbit)),
                ("first_id", ctypes.c_uint32), ("misuse", ctypes.c_uint64)]


class carom_forces_def(ctypes.Structure):
    _fields_ = [("dim", ctypes.c_int), ("interval", ctypes.c_double), ("seed", ctypes.c_uint64),
                ("start_time", ctypes.c_double), ("first_id", ctypes.c_uint32)]


class carom_field_def(ctypes.Structure):
    _fields_ = [("box", c_double3), ("speed", ctypes.c_double), ("gain", ctypes.c_double),
                ("step", ctypes.c_double), ("start_time", ctypes.c_double),
                ("first_id", ctypes.c_uint32)]


STRUCTURES = (carom_orbit, carom_orbits, carom_forces_def, carom_field_def)

_error_p = _P(_library.carom_error)
_vectors = _P(c_double3)
_doubles = _P(ctypes.c_double)
_PROTOTYPES = {
    "carom_orbits_init": (None, [_P(carom_orbits)]),
    "carom_orbits_free": (None, [_P(carom_orbits)]),
    "carom_orbits_add": (ctypes.c_int, [_P(carom_orbits), _P(carom_orbit), _error_p]),
    "carom_orbits_read": (ctypes.c_int, [ctypes.c_char_p, _P(carom_orbits), _error_p]),
    "carom_orbit_state": (None, [_P(carom_orbit), ctypes.c_double, c_double3, c_double3]),
    "carom_orbit_accel_bound": (ctypes.c_double, [_P(carom_orbit)]),
    "carom_orbits_driver": (_library.carom_driver, [_P(carom_orbits)]),
    "carom_orbits_sphere_def": (_library.carom_sphere_def, [_P(carom_orbits), ctypes.c_size_t,
                                                            ctypes.c_double]),
    "carom_forces_default_def": (carom_forces_def, []),
    "carom_forces_create": (ctypes.c_void_p, [_P(carom_forces_def), ctypes.c_size_t, _vectors,
                                              _vectors, _doubles, _doubles, _error_p]),
    "carom_forces_free": (None, [ctypes.c_void_p]),
    "carom_forces_driver": (_library.carom_driver, [ctypes.c_void_p]),
    "carom_forces_sphere_def": (_library.carom_sphere_def, [ctypes.c_void_p, ctypes.c_size_t]),
    "carom_forces_state": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double,
                                          c_double3, c_double3, c_double3]),
    "carom_forces_misuse": (ctypes.c_uint64, [ctypes.c_void_p]),
    "carom_field_default_def": (carom_field_def, []),
    "carom_field_create": (ctypes.c_void_p, [_P(carom_field_def), ctypes.c_size_t, _vectors,
                                             _vectors, _doubles, _doubles, _error_p]),
    "carom_field_free": (None, [ctypes.c_void_p]),
    "carom_field_driver": (_library.carom_driver, [ctypes.c_void_p]),
    "carom_field_sphere_def": (_library.carom_sphere_def, [ctypes.c_void_p, ctypes.c_size_t]),
    "carom_field_state": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double,
                                         c_double3, c_double3, c_double3]),
    "carom_field_velocity": (None, [_P(carom_field_def), c_double3, c_double3]),
    "carom_field_misuse": (ctypes.c_uint64, [ctypes.c_void_p]),
}
for _name, (_result, _arguments) in _PROTOTYPES.items():
    getattr(lib, _name).restype = _result
    getattr(lib, _name).argtypes = _arguments


class _Driver:
    """What the three drivers share: handing their C driver to a world,
    adding their spheres, and the count of misused probes."""

    def _c_driver(self):
        raise NotImplementedError

    def _sphere_def(self, k):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def add_to(self, world, species=0):
        """Adds the driver's spheres to world, in order, of the given
        species (World.set_pass_through); returns their ids."""
        ids = []
        species = species_number(species)
        for k in range(len(self)):
            definition = self._sphere_def(k)
            definition.species = species
            ids.append(world._add_sphere_def(definition))
        if ids and ids[0] != self._first_id():
            raise ValueError(f"the driver's spheres got ids {ids[0]}.. but its first_id is "
                             f"{self._first_id()}: add them first, or set first_id")
        return ids

    def state(self, k, t):
        """Sphere k's (position, velocity) at t; Forces and Field add its
        acceleration, and move the sphere on to t (a t before its last
        probe is counted in misuse())."""
        raise NotImplementedError


def _initial_states(position, velocity, radius, accel_bound):
    n = len(position)
    x = vectors(position, "position", n, 2)
    v = vectors(velocity, "velocity", n, 2)
    r = np.ascontiguousarray(np.broadcast_to(np.asarray(radius, dtype=float), (n,)))
    a = np.ascontiguousarray(np.broadcast_to(np.asarray(accel_bound, dtype=float), (n,)))
    return n, x, v, r, a


def _pointers(x, v, r, a):
    return (x.ctypes.data_as(_vectors), v.ctypes.data_as(_vectors), r.ctypes.data_as(_doubles),
            a.ctypes.data_as(_doubles))


class Orbits(_Driver):
    """Spheres on circles known in closed form (carom_orbits): each orbit
    has a center, an orbit_radius R, an angular speed omega, a phase and a
    sphere radius; its acceleration R omega^2 is its exact bound."""

    def __init__(self, first_id=0):
        self._orbits = carom_orbits()
        lib.carom_orbits_init(ctypes.byref(self._orbits))
        self._orbits.first_id = first_id

    def __del__(self):
        if hasattr(self, "_orbits"):
            lib.carom_orbits_free(ctypes.byref(self._orbits))

    def __len__(self):
        return self._orbits.n

    def _first_id(self):
        return self._orbits.first_id

    def add(self, center, orbit_radius, omega, phase=0.0, radius=0.5):
        o = carom_orbit(vector(center, "center"), number(orbit_radius, "orbit_radius"),
                        number(omega, "omega"), number(phase, "phase"), number(radius, "radius"))
        error = _library.carom_error()
        check_error(lib.carom_orbits_add(ctypes.byref(self._orbits), ctypes.byref(o),
                                         ctypes.byref(error)), error)
        return self

    @classmethod
    def read(cls, path, first_id=0):
        """An orbits file: "cx cy cz R omega phase radius" per line."""
        orbits = cls()
        error = _library.carom_error()
        check_error(lib.carom_orbits_read(str(path).encode(), ctypes.byref(orbits._orbits),
                                          ctypes.byref(error)), error)
        orbits._orbits.first_id = first_id
        return orbits

    def _orbit(self, k):
        if not 0 <= k < self._orbits.n:
            raise IndexError(f"orbit {k} of {self._orbits.n}")
        return ctypes.byref(self._orbits.orbit[k])

    def state(self, k, t):
        x, v = c_double3(), c_double3()
        lib.carom_orbit_state(self._orbit(k), number(t, "t"), x, v)
        return tuple(x), tuple(v)

    def accel_bound(self, k):
        return lib.carom_orbit_accel_bound(self._orbit(k))

    def misuse(self):
        return self._orbits.misuse

    def _c_driver(self):
        return lib.carom_orbits_driver(ctypes.byref(self._orbits))

    def _sphere_def(self, k):
        return lib.carom_orbits_sphere_def(ctypes.byref(self._orbits), k, 0.0)


class _Stepped(_Driver):
    """Forces and Field: a C object made from the spheres' initial states."""

    _prefix = None

    def __init__(self, definition, position, velocity, radius, accel_bound):
        n, x, v, r, a = _initial_states(position, velocity, radius, accel_bound)
        self._n, self._first = n, definition.first_id
        self._def = definition
        error = _library.carom_error()
        create = getattr(lib, f"carom_{self._prefix}_create")
        self._handle = create(ctypes.byref(definition), n, *_pointers(x, v, r, a),
                              ctypes.byref(error))
        if not self._handle:
            check_error(error.status or 1, error)

    def __del__(self):
        if getattr(self, "_handle", None):
            getattr(lib, f"carom_{self._prefix}_free")(self._handle)

    def __len__(self):
        return self._n

    def _first_id(self):
        return self._first

    def state(self, k, t):
        if not 0 <= k < self._n:
            raise IndexError(f"sphere {k} of {self._n}")
        x, v, a = c_double3(), c_double3(), c_double3()
        status = getattr(lib, f"carom_{self._prefix}_state")(self._handle, k,
                                                            number(t, "t"), x, v, a)
        if status != 0:
            raise Error(status, f"state of sphere {k} at t = {t}: "
                                f"{_library.status_text(status)}")
        return tuple(x), tuple(v), tuple(a)

    def misuse(self):
        return getattr(lib, f"carom_{self._prefix}_misuse")(self._handle)

    def _c_driver(self):
        return getattr(lib, f"carom_{self._prefix}_driver")(self._handle)

    def _sphere_def(self, k):
        return getattr(lib, f"carom_{self._prefix}_sphere_def")(self._handle, k)


class Forces(_Stepped):
    """Piecewise-constant random accelerations of norm at most each
    sphere's accel_bound, redrawn every interval (seed 000 §4.2)."""

    _prefix = "forces"

    def __init__(self, position, velocity, radius, accel_bound, dim=3, interval=None, seed=None,
                 start_time=None, first_id=0):
        d = lib.carom_forces_default_def()
        d.dim = dim
        if interval is not None:
            d.interval = number(interval, "interval")
        if seed is not None:
            d.seed = seed
        if start_time is not None:
            d.start_time = number(start_time, "start_time")
        d.first_id = first_id
        super().__init__(d, position, velocity, radius, accel_bound)


class Field(_Stepped):
    """Particles accelerated towards a circulating velocity field in a box
    (3D; seed 000 §4.3), acceleration clamped to each one's accel_bound."""

    _prefix = "field"

    def __init__(self, position, velocity, radius, accel_bound, box=None, speed=None, gain=None,
                 step=None, start_time=None, first_id=0):
        d = lib.carom_field_default_def()
        if box is not None:
            d.box = vector([box] * 3 if np.ndim(box) == 0 else box, "box")
        for key, value in (("speed", speed), ("gain", gain), ("step", step),
                           ("start_time", start_time)):
            if value is not None:
                setattr(d, key, number(value, key))
        d.first_id = first_id
        super().__init__(d, position, velocity, radius, accel_bound)

    def velocity_at(self, position):
        """The field u at a point."""
        u = c_double3()
        lib.carom_field_velocity(ctypes.byref(self._def), vector(position, "position"), u)
        return tuple(u)
