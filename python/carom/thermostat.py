"""carom's heat bath (thermostat.h): Andersen's thermostat, which redraws
each sphere's velocity from the Maxwell-Boltzmann distribution at kT at
the instants of a Poisson process of `rate` per sphere, running in C.

    bath = carom.Andersen(kT=1.0, rate=0.5, seed=1)
    bath.advance_to(world, 20.0)   # instead of world.advance_to(20.0)
    bath.redraws                   # velocities redrawn so far

Spheres of infinite mass and driven spheres are passed over. The bath
acts only through advance_to; a world advanced on its own meanwhile runs
without it (the bath's process, which has no memory, starts anew).
"""

import ctypes
import operator

from . import _library
from ._library import lib
from .errors import check_error
from .world import number

_P = ctypes.POINTER


class carom_andersen_def(ctypes.Structure):
    _fields_ = [("kT", ctypes.c_double), ("rate", ctypes.c_double), ("seed", ctypes.c_uint64)]


STRUCTURES = (carom_andersen_def,)

_PROTOTYPES = {
    "carom_andersen_default_def": (carom_andersen_def, []),
    "carom_andersen_create": (ctypes.c_void_p, [_P(carom_andersen_def),
                                                _P(_library.carom_error)]),
    "carom_andersen_free": (None, [ctypes.c_void_p]),
    "carom_andersen_advance_to": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                                 ctypes.c_double]),
    "carom_andersen_advance_to_limited": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                                         ctypes.c_double, ctypes.c_uint64,
                                                         _P(ctypes.c_uint64), _P(ctypes.c_int)]),
    "carom_andersen_redraws": (ctypes.c_uint64, [ctypes.c_void_p]),
    "carom_andersen_energy_given": (None, [ctypes.c_void_p, _P(ctypes.c_double),
                                           _P(ctypes.c_double)]),
}
for _name, (_result, _arguments) in _PROTOTYPES.items():
    getattr(lib, _name).restype = _result
    getattr(lib, _name).argtypes = _arguments


class Andersen:
    """Andersen's heat bath at temperature kT, redrawing each sphere's
    velocity at rate `rate` (carom_andersen_*)."""

    def __init__(self, kT=1.0, rate=1.0, seed=1):
        d = lib.carom_andersen_default_def()
        d.kT = number(kT, "kT")
        d.rate = number(rate, "rate")
        d.seed = operator.index(seed)
        error = _library.carom_error()
        bath = lib.carom_andersen_create(ctypes.byref(d), ctypes.byref(error))
        if not bath:
            check_error(error.status or 1, error)
        self._bath = bath

    def __del__(self):
        if getattr(self, "_bath", None):
            lib.carom_andersen_free(self._bath)
            self._bath = None

    def advance_to(self, world, t):
        """Advances world to time t, redrawing velocities at the bath's
        instants on the way."""
        t = number(t, "t")
        world._check(lambda handle, time: lib.carom_andersen_advance_to(self._bath, handle, time),
                     t)

    def advance_to_limited(self, world, t, max_events):
        """advance_to in pieces of at most max_events events (the redraws
        are not events); returns (events processed, whether t was
        reached). The pieces make the same run as one advance_to."""
        processed = ctypes.c_uint64()
        reached = ctypes.c_int()
        world._check(lambda handle, time, budget: lib.carom_andersen_advance_to_limited(
            self._bath, handle, time, budget, ctypes.byref(processed), ctypes.byref(reached)),
                     number(t, "t"), operator.index(max_events))
        return processed.value, bool(reached.value)

    @property
    def redraws(self):
        return lib.carom_andersen_redraws(self._bath)

    @property
    def energy_given(self):
        """(given, moment): the energy the bath has given the world and
        the same weighted by each redraw's time (thermostat.h); where the
        world's energy changes only through the bath, its time integral
        from t0 to t1 is E(t0) (t1 - t0) + (given1 - given0) t1 -
        (moment1 - moment0)."""
        given, moment = ctypes.c_double(), ctypes.c_double()
        lib.carom_andersen_energy_given(self._bath, ctypes.byref(given), ctypes.byref(moment))
        return given.value, moment.value
