"""carom's pressure tensor and heat flux (stress.h): Stress, an observer
of a world's contacts that keeps the exact time integrals S of the
pressure tensor times the volume and Q of the heat flux, the shear and
bulk viscosity from samples of S and the thermal conductivity from
samples of Q by the Einstein-Helfand route (viscosity, bulk_viscosity,
conductivity), with Enskog's values to compare (viscosity_enskog,
bulk_viscosity_enskog, conductivity_enskog).

    stress = carom.Stress()
    world = scene.create_world(on_contact=stress)   # observed in C
    stress.start(world)
    world.advance_to(world.time() + 10.0)
    S = stress.integral(world)        # 3 x 3: the integral of P V since the start
    Q = stress.heat_integral(world)   # 3: the integral of the heat flux

The observer runs in C, as the world's contact callback (no Python call
per contact), so a world has either it or a Python on_contact, not both.
S is a finite sum (kinetic part between contacts, r_ab dp^T at each), so
trace(S) / (dim V t) is the mean pressure over t, exactly; so is Q
(sum_i e_i v_i between contacts, e_i = m_i v_i^2 / 2, and r_ab times the
energy carried from a to b, (dE_b - dE_a) / 2, at each; translational
energy only, and the heat flux only where sum_i v_i = 0). It holds in a
periodic box whose velocities change only at contacts of spheres: start
refuses walls, gravity, growth, driven spheres and infinite masses, and
integral refuses (carom.Error, with the library's message) once anything
else changed a velocity (set_velocity, a thermostat) or a radius (growth
started and stopped again), or added or removed a sphere.
"""

import ctypes
import math
import operator
import weakref

import numpy as np

from . import _library
from ._library import lib
from .errors import Error, check_error
from .world import number

_P = ctypes.POINTER
_samples = _P(ctypes.c_double * 9)
_heat_samples = _P(ctypes.c_double * 3)

_PROTOTYPES = {
    "carom_stress_create": (ctypes.c_void_p, [_P(_library.carom_error)]),
    "carom_stress_free": (None, [ctypes.c_void_p]),
    "carom_stress_start": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    "carom_stress_integral": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                             ctypes.c_double * 9]),
    "carom_stress_heat_integral": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                                  ctypes.c_double * 3]),
    "carom_stress_error_message": (ctypes.c_char_p, [ctypes.c_void_p]),
    "carom_viscosity": (ctypes.c_double, [_samples, ctypes.c_size_t, ctypes.c_size_t,
                                          ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                          ctypes.c_double, _P(ctypes.c_double)]),
    "carom_viscosity_enskog": (ctypes.c_double, [ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                                 ctypes.c_double, ctypes.c_double]),
    "carom_bulk_viscosity": (ctypes.c_double, [_samples, ctypes.c_size_t, ctypes.c_size_t,
                                               ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                               ctypes.c_double, _P(ctypes.c_double)]),
    "carom_bulk_viscosity_enskog": (ctypes.c_double, [ctypes.c_int, ctypes.c_double,
                                                      ctypes.c_double, ctypes.c_double,
                                                      ctypes.c_double]),
    "carom_conductivity": (ctypes.c_double, [_heat_samples, ctypes.c_size_t, ctypes.c_size_t,
                                             ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                             ctypes.c_double, _P(ctypes.c_double)]),
    "carom_conductivity_enskog": (ctypes.c_double, [ctypes.c_int, ctypes.c_double,
                                                    ctypes.c_double, ctypes.c_double,
                                                    ctypes.c_double]),
}
for _name, (_result, _arguments) in _PROTOTYPES.items():
    getattr(lib, _name).restype = _result
    getattr(lib, _name).argtypes = _arguments

# carom_stress_on_contact as the world's carom_contact_fn.
_ON_CONTACT = ctypes.cast(lib.carom_stress_on_contact, _library.contact_fn)


class Stress:
    """The time integrals of a world's pressure tensor times its volume
    and of its heat flux (carom_stress_*). Give it to the world as World(on_contact=stress)
    (or Scene.create_world(on_contact=stress)); the world keeps it alive.
    One observer watches one world."""

    def __init__(self):
        error = _library.carom_error()
        stress = lib.carom_stress_create(ctypes.byref(error))
        if not stress:
            check_error(error.status or 1, error)
        self._stress = stress
        self._world = None  # a weak reference to the World whose contacts it is given

    def __del__(self):
        if getattr(self, "_stress", None):
            lib.carom_stress_free(self._stress)
            self._stress = None

    def _observed(self):
        """The open World whose contacts it is given, or None."""
        world = self._world() if self._world is not None else None
        return world if world is not None and world._world else None

    def _c_contact(self):
        """(carom_contact_fn, user_data) for World: the C observer itself."""
        if self._observed() is not None:
            raise ValueError("on_contact: this Stress already observes another world "
                             "(one observer per world)")
        return _ON_CONTACT, self._stress

    def _observe(self, world):
        """Called by World once it is made with this observer."""
        self._world = weakref.ref(world)

    def _fed_by(self, world):
        handle = world._handle()
        if world is not self._observed():
            raise ValueError("this world does not give the observer its contacts: make it "
                             "with on_contact=stress")
        return handle

    def _refused(self, status):
        if status != 0:
            raise Error(status, lib.carom_stress_error_message(self._stress).decode(
                errors="replace"))

    def start(self, world):
        """Starts (or starts again) the integral at the world's time, from
        its velocities now. Refused with carom.Error for a box not periodic
        along every axis, gravity, growth, driven spheres, infinite masses
        and a world without spheres."""
        handle = self._fed_by(world)
        self._refused(lib.carom_stress_start(self._stress, handle))

    def integral(self, world):
        """S from the start to the world's time now: a 3 x 3 array,
        S[a, b] the momentum along b carried across a plane normal to a
        (rows and columns beyond dim zero). Refused with carom.Error if
        anything but contacts of spheres changed a velocity since the
        start (a wall, plane, segment or triangle, set_velocity, a
        thermostat) or spheres were added or removed."""
        handle = self._fed_by(world)
        out = (ctypes.c_double * 9)()
        self._refused(lib.carom_stress_integral(self._stress, handle, out))
        return np.array(out[:]).reshape(3, 3)

    def heat_integral(self, world):
        """Q from the start to the world's time now: a length-3 array, the
        time integral of the heat flux (sum_i e_i v_i between contacts,
        r_ab (dE_b - dE_a) / 2 at each; zero beyond dim). Refused with
        carom.Error as integral is, and where Q is not the heat flux:
        spheres of unequal masses, a net momentum at the start, a rough
        or inelastic contact since."""
        handle = self._fed_by(world)
        out = (ctypes.c_double * 3)()
        self._refused(lib.carom_stress_heat_integral(self._stress, handle, out))
        return np.array(out[:])


def _estimate_arguments(samples, shape, interval, volume, kT, lag_intervals, dim,
                        whole_run_mean=False):
    """The arguments of viscosity, bulk_viscosity and conductivity,
    checked: (contiguous samples, lag in intervals, interval, volume, kT).
    With whole_run_mean (bulk_viscosity) the lag must also fall short of
    the whole run, from which the mean is taken."""
    values = np.ascontiguousarray(samples, dtype=float)
    if values.ndim != 1 + len(shape) or values.shape[1:] != shape:
        expected = ", ".join(["n", *map(str, shape)])
        raise ValueError(f"samples: expected an ({expected}) array, got shape {values.shape}")
    try:
        m = operator.index(lag_intervals)
    except TypeError:
        raise TypeError(f"lag_intervals: expected an integer, got {lag_intervals!r}") from None
    longest = len(values) - (2 if whole_run_mean else 1)
    if not 1 <= m <= longest:
        reason = ", and the mean is taken over the whole run" if whole_run_mean else ""
        raise ValueError(f"lag_intervals: {m} is not from 1 to {longest} "
                         f"(the samples number {len(values)}{reason})")
    if dim not in (2, 3):
        raise ValueError(f"dim: {dim!r} is not 2 or 3")
    interval, volume, kT = (number(interval, "interval"), number(volume, "volume"),
                            number(kT, "kT"))
    for key, value in (("interval", interval), ("volume", volume), ("kT", kT)):
        if not value > 0:
            raise ValueError(f"{key}: {value!r} is not above 0")
    return values, m, interval, volume, kT


def viscosity(samples, interval, volume, kT, lag_intervals, dim=3):
    """The shear viscosity by the Einstein-Helfand route (carom_viscosity):
    samples is an (n, 3, 3) array of S at t0 + k interval, k = 0 .. n - 1,
    of an elastic fluid at temperature kT in volume V (area in 2D). With
    D = S(t + lag) - S(t), lag = lag_intervals * interval, over every
    origin and every independent shear part d of D (the symmetrised
    off-diagonals (D_ab + D_ba) / 2, a < b < dim, then (D_xx - D_yy) / 2
    and in 3D (D_xx + D_yy - 2 D_zz) / (2 sqrt 3): five in 3D, two in 2D),
    eta(lag) = <d^2> / (2 V kT lag), which tends to the viscosity once the
    lag is long against the stress's correlation time. Returns
    (eta, standard error from the non-overlapping windows, each part of
    each window a value; NaN with fewer than 2)."""
    values, m, interval, volume, kT = _estimate_arguments(samples, (3, 3), interval, volume, kT,
                                                          lag_intervals, dim)
    error = ctypes.c_double(math.nan)
    eta = lib.carom_viscosity(values.ctypes.data_as(_samples), len(values), m, dim, interval,
                              volume, kT, ctypes.byref(error))
    return eta, error.value


def bulk_viscosity(samples, interval, volume, kT, lag_intervals, dim=3):
    """The bulk viscosity by the Einstein-Helfand route
    (carom_bulk_viscosity): samples as viscosity's, an (n, 3, 3) array of
    S at t0 + k interval. With D = S(t + lag) - S(t), lag = lag_intervals
    * interval = m interval, over every origin, d = tr(D) / dim - P V lag
    is the change of the isotropic part less its mean (P V from the first
    and last samples, (tr S[-1] - tr S[0]) / (dim (n - 1) interval); S_zz
    is not used in 2D), and kappa(lag) = <d^2> / (2 V kT lag
    (1 - m / (n - 1))), the last factor undoing what taking the mean from
    the same run takes from the variance. In an elastic fluid d is the
    collisions' virial less its mean. The lag must be at most n - 2
    intervals. Returns (kappa, standard error from the non-overlapping
    windows, one value each; NaN with fewer than 2)."""
    values, m, interval, volume, kT = _estimate_arguments(samples, (3, 3), interval, volume, kT,
                                                          lag_intervals, dim,
                                                          whole_run_mean=True)
    error = ctypes.c_double(math.nan)
    kappa = lib.carom_bulk_viscosity(values.ctypes.data_as(_samples), len(values), m, dim,
                                     interval, volume, kT, ctypes.byref(error))
    return kappa, error.value


def conductivity(samples, interval, volume, kT, lag_intervals, dim=3):
    """The thermal conductivity by the Einstein-Helfand route
    (carom_conductivity, k_B = 1): samples is an (n, 3) array of Q at
    t0 + k interval, k = 0 .. n - 1, of an elastic fluid of equal masses
    without net momentum at temperature kT in volume V (area in 2D). With
    lag = lag_intervals * interval, over every origin and every axis
    a < dim, lambda(lag) = <(Q_a(t + lag) - Q_a(t))^2> / (2 V kT^2 lag),
    which tends to the conductivity once the lag is long against the heat
    flux's correlation time. Returns (lambda, standard error from the
    non-overlapping windows, each axis of each window a value; NaN with
    fewer than 2)."""
    values, m, interval, volume, kT = _estimate_arguments(samples, (3,), interval, volume, kT,
                                                          lag_intervals, dim)
    error = ctypes.c_double(math.nan)
    value = lib.carom_conductivity(values.ctypes.data_as(_heat_samples), len(values), m, dim,
                                   interval, volume, kT, ctypes.byref(error))
    return value, error.value


def viscosity_enskog(packing, sigma, kT, mass, dim=3):
    """Enskog's shear viscosity of equal hard spheres (disks with dim=2)
    of diameter sigma and this mass at this packing fraction
    (carom_viscosity_enskog; Chapman and Enskog's first approximation,
    with Carnahan-Starling's contact value in 3D and Henderson's in 2D).
    NaN for other dims. In 2D a measured viscosity keeps growing as
    log(lag): compare at a stated lag."""
    return lib.carom_viscosity_enskog(operator.index(dim), number(packing, "packing"),
                                      number(sigma, "sigma"), number(kT, "kT"),
                                      number(mass, "mass"))


def bulk_viscosity_enskog(packing, sigma, kT, mass, dim=3):
    """Enskog's bulk viscosity of equal hard spheres (disks with dim=2) of
    diameter sigma and this mass at this packing fraction
    (carom_bulk_viscosity_enskog): wholly collisional, in 3D
    eta_0 256 / (5 pi) packing^2 chi (= (4/9) rho^2 sigma^4 chi sqrt(pi m kT)),
    in 2D eta_0 16 / pi packing^2 chi (= (1/2) rho^2 sigma^3 chi sqrt(pi m kT)),
    eta_0 and chi as viscosity_enskog's."""
    return lib.carom_bulk_viscosity_enskog(operator.index(dim), number(packing, "packing"),
                                           number(sigma, "sigma"), number(kT, "kT"),
                                           number(mass, "mass"))


def conductivity_enskog(packing, sigma, kT, mass, dim=3):
    """Enskog's thermal conductivity of equal hard spheres (disks with
    dim=2) of diameter sigma and this mass at this packing fraction
    (carom_conductivity_enskog, k_B = 1; Chapman and Enskog's first
    approximation, contact values as viscosity_enskog's)."""
    return lib.carom_conductivity_enskog(operator.index(dim), number(packing, "packing"),
                                         number(sigma, "sigma"), number(kT, "kT"),
                                         number(mass, "mass"))
