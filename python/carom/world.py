"""carom.World: a world of moving spheres (carom_world_* of carom.h).

Methods mirror the C functions without their prefix:
carom_world_advance_to(w, t) is w.advance_to(t). Settings are keywords
named as the fields of carom_world_def; those not given keep the C
defaults (carom_world_default_def). Vectors are sequences of 3 numbers
(or 2 in a 2D world, z then 0); ids are the C ids.

A driver is either one of carom.drive's (Orbits, Forces, Field), which
run in C, or any object with probe(id, t) -> (position, velocity) and
optionally kick(id, t, delta_v). on_contact is a Python callable or a
carom.Stress, which observes the contacts in C (carom/stress.py).
Callbacks (a Python on_contact, and a Python driver's probe and kick)
are Python callables. An exception raised in one ends the call into
the world as soon as the engine lets it (after
the event in progress; for a kick, at the next probe) and is raised from
that call, with the world left consistent at its last processed event.
The world holds the callbacks, so they live as long as it does.
"""

import collections
import ctypes
import math
import operator

import numpy as np

from . import _library
from ._library import lib
from .errors import Error, check_error

SphereState = collections.namedtuple("SphereState",
                                     "position velocity radius mass collisions species")
SphereState.__doc__ = "A sphere at the world's time (carom_sphere_state)."

Stats = collections.namedtuple("Stats", [name for name, _ in _library.carom_stats._fields_])
Stats.__doc__ = "Counters and sums over the measured interval (carom_stats)."

CONTACT_DTYPE = np.dtype(_library.carom_contact)

CastHit = collections.namedtuple("CastHit", "kind sphere wall fraction position normal point")
CastHit.__doc__ = """What World.cast_sphere met first (carom_cast_hit): kind "sphere" (sphere
its id, wall None), "wall" (wall = 2 axis + side), "plane", "segment"
or "triangle" (wall = its index; sphere None); fraction f of the motion;
the cast centre then, the unit normal from what was hit towards it, and the
contact point, each dim numbers."""

SETTINGS = ("dim", "box", "boundary", "gravity", "restitution", "wall_restitution",
            "restitution_min_speed", "response", "on_contact", "capacity_hint", "driver",
            "neighbours", "prefetch", "reorder", "record_contacts",
            "count_images", "tangential_restitution", "wall_tangential_restitution",
            "inertia_factor", "friction", "wall_friction")


class Contact:
    """One contact, as the on_contact callback sees it (carom_contact).

    kind is "sphere", "wall" (a face of the box: wall = 2 axis + side),
    "plane" (a fixed plane: wall = its index), "segment" (a fixed
    segment: wall = its index) or "triangle" (a fixed triangle: wall = its
    index); j is None but for spheres, wall None for spheres.
    parting is True when two spheres that sense each other
    (World.set_sense), reported as they came to touch, part now, and
    also when their contact ended without their parting; ended is True
    then: sphere i was removed or the pair no longer senses (a species
    or table change), reported at the next advance's start with the
    time and states of the change (a removed sphere's id no longer
    names a sphere; velocity_after is not taken).
    velocity_after is a writable 2 x 3 array (rows i and j): what
    it holds when the callback returns is the response.
    """

    __slots__ = ("kind", "time", "i", "j", "wall", "normal", "impulse", "depth",
                 "parting", "ended", "velocity_after")

    def __init__(self, c):
        kinds = {number: name for name, number in _library.CONTACT_KIND.items()}
        self.kind = kinds[c.kind]
        wall = self.kind != "sphere"
        self.time = c.time
        self.i = c.i
        self.j = None if wall else c.j
        self.wall = c.wall if wall else None
        self.normal = tuple(c.normal)
        self.impulse = c.impulse
        self.depth = c.depth
        self.parting = bool(c.parting)
        self.ended = c.parting == 2
        self.velocity_after = np.array([list(c.velocity_after[0]), list(c.velocity_after[1])])

    def __repr__(self):
        who = f"{self.i} and {self.j}" if self.kind == "sphere" else f"{self.i}, {self.kind} {self.wall}"
        return f"Contact({self.kind} {who} at t={self.time!r})"


def number(value, key):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{key}: {value!r} is not a number") from None


def vector(value, key, dim=3):
    """A c_double3 from 3 numbers, or 2 in 2D (z = 0)."""
    try:
        items = [number(x, key) for x in value]
    except TypeError:
        raise TypeError(f"{key}: expected {dim} numbers, got {value!r}") from None
    if len(items) not in (dim, 3):
        raise ValueError(f"{key}: expected {dim} numbers, got {len(items)}")
    return _library.c_double3(*(items + [0.0] * (3 - len(items))))


def vectors(values, key, n, dim=3):
    """An n x 3 float array from n x 3 numbers, or n x 2 in 2D (z = 0)."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 2 or values.shape[0] != n or values.shape[1] not in (dim, 3):
        raise ValueError(f"{key}: expected an array of {n} x {dim} (or {n} x 3), "
                         f"got shape {values.shape}")
    full = np.zeros((n, 3))
    full[:, :values.shape[1]] = values
    return full


def choice(table, value, key):
    if value not in table:
        raise ValueError(f"{key}: {value!r} is not one of {', '.join(map(repr, table))}")
    return table[value]


def choice_name(table, value):
    """The name of an enum value, as choice takes it."""
    return next(name for name, v in table.items() if v == value)


def per_axis(value, key, convert):
    """Three values from one (for every axis) or from a sequence of 2 or 3."""
    if isinstance(value, (str, int, float)):
        return [convert(value, key)] * 3
    values = [convert(v, key) for v in value]
    if len(values) not in (2, 3):
        raise ValueError(f"{key}: expected one value or one per axis, got {len(values)}")
    return values


def species_number(value, key="species"):
    """A species as C takes it (a uint32; the library checks that it is
    below SPECIES_MAX, and says so in its message)."""
    try:
        k = operator.index(value)
    except TypeError:
        raise TypeError(f"{key}: expected an integer, got {value!r}") from None
    if not 0 <= k < 2**32:
        raise ValueError(f"{key}: {k} is not a species (0 to {_library.SPECIES_MAX - 1})")
    return k


def _species_in_table(*species):
    """Raises carom.Error for a species beyond the table (queries of C say
    NaN or 0 there: the setters' words)."""
    if max(species) >= _library.SPECIES_MAX:
        raise Error(_library.STATUS_NAMES.index("CAROM_ERR_INVALID_ARGUMENT"),
                    f"species must be below {_library.SPECIES_MAX}, not "
                    + " and ".join(str(k) for k in species))


def sphere_id(value):
    try:
        k = operator.index(value)
    except TypeError:
        raise TypeError(f"sphere id: expected an integer, got {value!r}") from None
    if not 0 <= k < 2**32:
        raise ValueError(f"sphere id {k} is not a valid id")
    return k


class World:
    """A world of moving spheres. World(dim=2, box=(10, 10), boundary="walls")."""

    def __init__(self, **settings):
        self._open(lambda d, e: lib.carom_world_create(ctypes.byref(d), ctypes.byref(e)),
                   settings)

    # -- creation and lifetime ---------------------------------------------

    def _open(self, create, settings):
        """Builds the carom_world_def from settings; create(def, error) makes the world."""
        self._world = None
        self._pending = None
        self._depth = 0
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise TypeError(f"World: unknown setting {unknown[0]!r}; the settings are "
                            + ", ".join(SETTINGS))
        d = lib.carom_world_default_def()
        dim = settings.get("dim", d.dim)
        if dim not in (2, 3):
            raise ValueError(f"dim: {dim!r} is not 2 or 3")
        d.dim = dim
        if "box" in settings:
            box = per_axis(settings["box"], "box", number)
            for k, length in enumerate(box):
                d.box[k] = length
        if "boundary" in settings:
            boundary = per_axis(settings["boundary"], "boundary",
                                lambda v, key: choice(_library.BOUNDARY, v, key))
            for k, b in enumerate(boundary):
                d.boundary[k] = b
        if "gravity" in settings:
            d.gravity = vector(settings["gravity"], "gravity", dim)
        for key in ("restitution", "wall_restitution", "restitution_min_speed",
                    "tangential_restitution", "wall_tangential_restitution", "inertia_factor",
                    "friction", "wall_friction"):
            if key in settings:
                setattr(d, key, number(settings[key], key))
        for key, table in (("response", _library.RESPONSE), ("neighbours", _library.NEIGHBOURS),
                           ("prefetch", _library.PREFETCH), ("reorder", _library.REORDER)):
            if key in settings:
                setattr(d, key, choice(table, settings[key], key))
        if settings.get("record_contacts"):
            d.record_contacts = 1
        if settings.get("count_images"):
            d.count_images = 1
        if "capacity_hint" in settings:
            d.capacity_hint = operator.index(settings["capacity_hint"])
        self._callbacks = []
        on_contact = settings.get("on_contact")
        observer = on_contact if hasattr(on_contact, "_c_contact") else None
        if observer is not None:  # carom.Stress: the C observer is the callback
            d.on_contact, d.user_data = observer._c_contact()
            self._callbacks.append(observer)
        elif on_contact is not None:
            if not callable(on_contact):
                raise TypeError("on_contact: expected a callable f(contact) or a carom.Stress"
                                + (" (one of them: a world takes a single on_contact)"
                                   if isinstance(on_contact, (tuple, list)) else ""))
            d.on_contact = self._keep(_library.contact_fn(self._contact_caller(on_contact)))
        driver = settings.get("driver")
        if driver is not None and hasattr(driver, "_c_driver"):  # carom.drive: runs in C
            d.driver = driver._c_driver()
            self._callbacks.append(driver)
        elif driver is not None:
            if not callable(getattr(driver, "probe", None)):
                raise TypeError("driver: expected an object with probe(id, t) -> "
                                "(position, velocity) and optionally kick(id, t, delta_v)")
            d.driver.probe = self._keep(_library.probe_fn(self._probe_caller(driver.probe, dim)))
            kick = getattr(driver, "kick", None)
            if kick is not None:
                d.driver.kick = self._keep(_library.kick_fn(self._kick_caller(kick)))
        error = _library.carom_error()
        world = create(d, error)
        if not world:
            check_error(error.status or 1, error)
        self._world = world
        if observer is not None:
            observer._observe(self)

    def close(self):
        """Frees the C world; the World cannot be used afterwards."""
        if self._depth > 0:
            raise RuntimeError("a world cannot be closed from inside its own callbacks")
        if getattr(self, "_world", None):
            lib.carom_world_free(self._world)
            self._world = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_world", None) and self._depth == 0:
            lib.carom_world_free(self._world)
            self._world = None

    def _handle(self):
        if not self._world:
            raise ValueError("this world is closed")
        return self._world

    def _keep(self, c_function):
        self._callbacks.append(c_function)
        return c_function

    # -- callbacks -------------------------------------------------------

    def _shielded(self, body, stop):
        """A C callback running body(*arguments). The first exception it
        raises is kept for _call to raise, and from then on every call
        runs stop(*arguments) instead, which makes the engine end its work:
        a contact velocity or a probed state that is no number."""
        def call(*arguments):
            if self._pending is None:
                try:
                    body(*arguments)
                    return
                except BaseException as e:  # raised from the world's call
                    self._pending = e
            stop(*arguments)
        return call

    def _contact_caller(self, on_contact):
        def body(_user_data, contact_pointer):
            c = contact_pointer.contents
            contact = Contact(c)
            on_contact(contact)
            after = np.asarray(contact.velocity_after, dtype=float)
            if after.shape != (2, 3):
                raise ValueError("contact.velocity_after: expected a 2 x 3 array, "
                                 f"got shape {after.shape}")
            for row in range(2):
                for k in range(3):
                    c.velocity_after[row][k] = after[row, k]

        def stop(_user_data, contact_pointer):
            contact_pointer.contents.velocity_after[0][0] = math.nan
        return self._shielded(body, stop)

    def _probe_caller(self, probe, dim):
        def body(_user_data, sphere, t, position, velocity):
            x, v = probe(sphere, t)
            x = vector(x, "probe position", dim)
            v = vector(v, "probe velocity", dim)
            for k in range(3):
                position[k] = x[k]
                velocity[k] = v[k]

        def stop(_user_data, sphere, t, position, velocity):
            for k in range(3):
                position[k] = velocity[k] = math.nan
        return self._shielded(body, stop)

    def _kick_caller(self, kick):
        def body(_user_data, sphere, t, delta_v):
            kick(sphere, t, (delta_v[0], delta_v[1], delta_v[2]))
        # Nothing stops the engine from here: the next probe will.
        return self._shielded(body, lambda *arguments: None)

    def _call(self, function, *arguments):
        """Calls a carom_world_* function; raises what failed in it or its callbacks."""
        world = self._handle()
        self._depth += 1
        try:
            result = function(world, *arguments)
        finally:
            self._depth -= 1
        if self._depth == 0 and self._pending is not None:
            pending, self._pending = self._pending, None
            raise pending
        return result

    def _check(self, function, *arguments):
        status = self._call(function, *arguments)
        if status != 0:
            raise Error(status, lib.carom_world_error_message(self._world).decode(
                errors="replace"))

    # -- spheres -----------------------------------------------------------

    def add_sphere(self, position, velocity=(0.0, 0.0, 0.0), radius=None, mass=None,
                   driven=False, accel_bound=0.0, species=0):
        """Adds a sphere (radius 0.5 and mass 1 by default); returns its id.
        mass may be math.inf (an obstacle). species: 0 to 31, which
        spheres it meets (set_pass_through) and how it bounces
        (set_pair_restitution, set_wall_restitution, set_pair_friction,
        set_wall_friction)."""
        dim = self.dim()
        s = lib.carom_sphere_default_def()
        s.position = vector(position, "position", dim)
        s.velocity = vector(velocity, "velocity", dim)
        if radius is not None:
            s.radius = number(radius, "radius")
        if mass is not None:
            s.mass = number(mass, "mass")
        s.driven = 1 if driven else 0
        s.accel_bound = number(accel_bound, "accel_bound")
        s.species = species_number(species)
        return self._add_sphere_def(s)

    def _add_sphere_def(self, definition):
        new_id = ctypes.c_uint32()
        self._check(lib.carom_world_add_sphere, ctypes.byref(definition), ctypes.byref(new_id))
        return new_id.value

    def remove_sphere(self, sphere):
        self._check(lib.carom_world_remove_sphere, sphere_id(sphere))

    def set_velocity(self, sphere, velocity):
        self._check(lib.carom_world_set_velocity, sphere_id(sphere),
                    vector(velocity, "velocity", self.dim()))

    def set_position(self, sphere, position):
        """Moves a sphere (a teleport, velocity kept); refused with
        carom.Error where it would overlap another or leave a walled box."""
        self._check(lib.carom_world_set_position, sphere_id(sphere),
                    vector(position, "position", self.dim()))

    def reprobe_sphere(self, sphere, accel_bound):
        self._check(lib.carom_world_reprobe_sphere, sphere_id(sphere),
                    number(accel_bound, "accel_bound"))

    def get_sphere(self, sphere):
        state = _library.carom_sphere_state()
        self._check(lib.carom_world_get_sphere, sphere_id(sphere), ctypes.byref(state))
        return SphereState(tuple(state.position), tuple(state.velocity), state.radius,
                           state.mass, state.collisions, state.species)

    def get_spin(self, sphere):
        """The sphere's spin (carom_world_get_spin): its angular velocity
        about its centre, 3 numbers (0, 0, wz in 2D). Zero until rough
        contacts (tangential_restitution, wall_tangential_restitution,
        set_pair_friction or set_wall_friction other than -1) or set_spin
        change it."""
        spin = _library.c_double3()
        k = sphere_id(sphere)
        status = self._call(lib.carom_world_get_spin, k, spin)
        if status != 0:  # a query leaves no message in the world: the setter's words
            raise Error(status, f"no sphere with id {k}"
                        if _library.status_name(status) == "CAROM_ERR_NO_SUCH_SPHERE" else None)
        return tuple(spin)

    def set_spin(self, sphere, spin):
        """Sets the sphere's spin (carom_world_set_spin): 3 finite numbers,
        (0, 0, wz) in 2D (a disk spins about z only; refused with
        carom.Error otherwise). Allowed from a contact callback."""
        self._check(lib.carom_world_set_spin, sphere_id(sphere), vector(spin, "spin"))

    def set_pass_through(self, a, b, passes=True):
        """Makes spheres of species a and b (a == b: of one species) pass
        through each other (carom_world_set_pass_through): such pairs never
        collide, are never reported and may overlap; walls, planes,
        segments and triangles still meet them. passes=False makes them
        meet again, refused with carom.Error (CAROM_ERR_OVERLAP, the table
        unchanged) if two such spheres overlap now. Every pair meets in a
        new world. Species run from 0 to 31."""
        self._check(lib.carom_world_set_pass_through, species_number(a, "a"),
                    species_number(b, "b"), 1 if passes else 0)

    def _pair_query(self, function, a, b):
        """A query of a pair of species (function), refused for species
        out of range (the C query says 0: the setter's words)."""
        a, b = species_number(a, "a"), species_number(b, "b")
        if max(a, b) >= _library.SPECIES_MAX:
            raise Error(_library.STATUS_NAMES.index("CAROM_ERR_INVALID_ARGUMENT"),
                        f"species must be below {_library.SPECIES_MAX}, not {a} and {b}")
        return bool(self._call(function, a, b))

    def passes_through(self, a, b):
        """Whether spheres of species a and b pass through each other."""
        return self._pair_query(lib.carom_world_passes_through, a, b)

    def set_sense(self, a, b, senses=True):
        """Makes spheres of species a and b (a == b: of one species) sense
        each other (carom_world_set_sense): they pass through each other,
        and each time two of them come to touch from outside the contact
        is reported (callback, recorded contacts) with impulse 0, counted
        in get_stats().sensed_contacts, not among the collisions; and
        when the two part again, reported with Contact.parting True
        (counted in sensed_partings; a contact that a removal or a change
        of species or table ends is reported at the next advance with
        Contact.ended True too). Two placed overlapping (added,
        moved, or by a change of species or of the table) are reported
        at the next advance's start, with Contact.depth their overlap, so
        that the pairs in contact are those that overlap. A sensor, a
        trigger. senses=False makes them meet (checked for
        overlaps as set_pass_through(a, b, False)). Refused with
        carom.Error in a world with growing spheres."""
        self._check(lib.carom_world_set_sense, species_number(a, "a"),
                    species_number(b, "b"), 1 if senses else 0)

    def senses(self, a, b):
        """Whether spheres of species a and b sense each other."""
        return self._pair_query(lib.carom_world_senses, a, b)

    def set_species(self, sphere, species):
        """Changes a sphere's species (carom_world_set_species; not from a
        callback). Refused with carom.Error (CAROM_ERR_OVERLAP, the species
        unchanged) if the sphere overlaps one it would now meet."""
        self._check(lib.carom_world_set_species, sphere_id(sphere), species_number(species))

    def species(self):
        """The species of the spheres present, a uint32 array in the order
        of ids()."""
        return np.array([self.get_sphere(int(k)).species for k in self.ids()], dtype=np.uint32)

    def set_pair_restitution(self, a, b, restitution):
        """The coefficient of restitution, in [0, 1], of contacts between
        spheres of species a and b (a == b: of one species; symmetric)
        (carom_world_set_pair_restitution). Pairs not set keep the world's
        restitution setting. It applies from the next contact, and
        restitution_min_speed still makes slower contacts elastic. Refused
        with carom.Error (CAROM_ERR_INVALID_ARGUMENT, nothing changed) for a
        species beyond 31 or a coefficient outside [0, 1]."""
        self._check(lib.carom_world_set_pair_restitution, species_number(a, "a"),
                    species_number(b, "b"), number(restitution, "restitution"))

    def pair_restitution(self, a, b):
        """The coefficient of restitution of species a and b in force
        (carom_world_pair_restitution): set_pair_restitution's, else the
        world's restitution."""
        a, b = species_number(a, "a"), species_number(b, "b")
        _species_in_table(a, b)
        return self._call(lib.carom_world_pair_restitution, a, b)

    def set_wall_restitution(self, species, restitution):
        """The coefficient of restitution, in [0, 1], of spheres of this
        species with walls, planes, segments and triangles
        (carom_world_set_wall_restitution). Species not set keep the
        world's wall_restitution setting. Refused with carom.Error
        (CAROM_ERR_INVALID_ARGUMENT, nothing changed) for a species beyond
        31 or a coefficient outside [0, 1]."""
        self._check(lib.carom_world_set_wall_restitution, species_number(species),
                    number(restitution, "restitution"))

    def wall_restitution(self, species):
        """The coefficient of restitution of a species with walls, planes,
        segments and triangles in force (carom_world_wall_restitution):
        set_wall_restitution's, else the world's wall_restitution."""
        species = species_number(species)
        _species_in_table(species)
        return self._call(lib.carom_world_wall_restitution, species)

    def set_pair_friction(self, a, b, tangential_restitution, friction=math.inf):
        """The rough contacts of spheres of species a and b (a == b: of one
        species; symmetric) (carom_world_set_pair_friction): the
        tangential restitution beta in [-1, 1] (-1 smooth, 1 perfectly
        rough) and Coulomb's limit mu >= 0 on the tangential impulse
        (math.inf: none). Pairs not set keep the world's
        tangential_restitution and friction settings. A beta other than -1
        makes the world rough (is_rough), every spin starting at zero. It
        applies from the next contact. Refused with carom.Error
        (CAROM_ERR_INVALID_ARGUMENT, nothing changed) for a species beyond
        31, beta outside [-1, 1] or mu below 0 (NaN too)."""
        self._check(lib.carom_world_set_pair_friction, species_number(a, "a"),
                    species_number(b, "b"),
                    number(tangential_restitution, "tangential_restitution"),
                    number(friction, "friction"))

    def pair_friction(self, a, b):
        """(tangential restitution, friction) of species a and b in force
        (carom_world_pair_friction): set_pair_friction's, else the world's
        tangential_restitution and friction (math.inf: no limit)."""
        a, b = species_number(a, "a"), species_number(b, "b")
        _species_in_table(a, b)
        beta, mu = ctypes.c_double(), ctypes.c_double()
        status = self._call(lib.carom_world_pair_friction, a, b, ctypes.byref(beta),
                            ctypes.byref(mu))
        if status != 0:  # (a query leaves no message in the world)
            raise Error(status, None)
        return beta.value, mu.value

    def set_wall_friction(self, species, tangential_restitution, friction=math.inf):
        """The rough contacts of spheres of this species with walls, planes,
        segments and triangles (carom_world_set_wall_friction): as
        set_pair_friction. Species not set keep the world's
        wall_tangential_restitution and wall_friction settings."""
        self._check(lib.carom_world_set_wall_friction, species_number(species),
                    number(tangential_restitution, "tangential_restitution"),
                    number(friction, "friction"))

    def wall_friction(self, species):
        """(tangential restitution, friction) of a species with walls,
        planes, segments and triangles in force (carom_world_wall_friction):
        set_wall_friction's, else the world's wall_tangential_restitution
        and wall_friction."""
        species = species_number(species)
        _species_in_table(species)
        beta, mu = ctypes.c_double(), ctypes.c_double()
        status = self._call(lib.carom_world_wall_friction, species, ctypes.byref(beta),
                            ctypes.byref(mu))
        if status != 0:
            raise Error(status, None)
        return beta.value, mu.value

    def is_rough(self):
        """Whether the world keeps spins for rough contacts
        (carom_world_is_rough): the response is elastic and some tangential
        restitution in force (the world's settings' or a species') is other
        than -1."""
        return bool(self._call(lib.carom_world_is_rough))

    def get_image(self, sphere):
        """The sphere's periodic image (carom_world_get_image), for a world
        made with count_images=True: its position plus image * box is its
        unwrapped position (under shear, x adds image[1] times
        shear_offset()). A tuple of dim ints."""
        if not self._call(lib.carom_world_get_def).contents.count_images:
            raise ValueError("count_images: this world was made without it, and keeps no images")
        image = (ctypes.c_int64 * 3)()
        self._check(lib.carom_world_get_image, sphere_id(sphere), image)
        return tuple(image[:self.dim()])

    def add_plane(self, normal, offset):
        """A fixed plane (carom_world_add_plane): spheres stay on the side
        the normal points to, normal . x >= offset + radius (the normal
        made unit length, the offset divided by its length). dim numbers,
        0 along periodic axes. Returns the plane's index."""
        values = [number(k, "normal") for k in normal]
        if len(values) != self.dim():
            raise ValueError("normal: %d numbers expected, got %d" % (self.dim(), len(values)))
        index = ctypes.c_uint32()
        self._check(lib.carom_world_add_plane,
                    (ctypes.c_double * 3)(*(values + [0.0] * (3 - len(values)))),
                    number(offset, "offset"), ctypes.byref(index))
        return index.value

    def planes(self):
        """The fixed planes, as (unit normal of dim numbers, offset) pairs."""
        out = []
        for index in range(self._call(lib.carom_world_plane_count)):
            normal, offset = (ctypes.c_double * 3)(), ctypes.c_double()
            self._check(lib.carom_world_get_plane, index, normal, ctypes.byref(offset))
            out.append((tuple(normal[:self.dim()]), offset.value))
        return out

    def add_segment(self, a, b):
        """A fixed segment from a to b (carom_world_add_segment), 2D only:
        a thin two-sided wall that disks bounce off on either face and
        around either end, like a wall of the box (wall_restitution,
        restitution_min_speed); exact under gravity. a and b are 2
        numbers, inside the box and not equal; along periodic axes it
        repeats with the box. Refused with carom.Error in 3D and where
        a disk overlaps it (a disk added over it later is refused at the
        next advance, or at once in a world already advanced). Returns the
        segment's index, 0, 1, ... in the order added."""
        ends = []
        for key, end in (("a", a), ("b", b)):
            values = [number(k, key) for k in end]
            if len(values) != 2:
                raise ValueError("%s: 2 numbers expected, got %d" % (key, len(values)))
            ends.append((ctypes.c_double * 2)(*values))
        index = ctypes.c_uint32()
        self._check(lib.carom_world_add_segment, ends[0], ends[1], ctypes.byref(index))
        return index.value

    def add_triangle(self, a, b, c):
        """A fixed triangle with corners a, b, c (carom_world_add_triangle),
        3D only: a thin two-sided wall that spheres bounce off on either
        face, around its edges and on its corners, like a wall of the box
        (wall_restitution, restitution_min_speed); exact under gravity.
        a, b and c are 3 numbers, inside the box and not on a line.
        Driven spheres meet them too; along periodic axes it repeats with
        the box. Refused with carom.Error in 2D and where a sphere overlaps
        it (a sphere added
        over it later is refused at the next advance, or at once in a
        world already advanced). Returns
        the triangle's index, 0, 1, ... in the order added."""
        corners = []
        for key, corner in (("a", a), ("b", b), ("c", c)):
            values = [number(k, key) for k in corner]
            if len(values) != 3:
                raise ValueError("%s: 3 numbers expected, got %d" % (key, len(values)))
            corners.append((ctypes.c_double * 3)(*values))
        index = ctypes.c_uint32()
        self._check(lib.carom_world_add_triangle, corners[0], corners[1], corners[2],
                    ctypes.byref(index))
        return index.value

    def add_mesh(self, vertices, faces):
        """The faces of a triangle mesh as fixed triangles (add_triangle's
        rules for each): vertices is a sequence of points (3 numbers each,
        an (n, 3) array), faces a sequence of 3 indices into it (an (m, 3)
        integer array), as trimesh, Open3D or numpy-stl give them. Returns
        the triangles' indices, one per face, in order. A face with an
        index out of range is a ValueError, one the library refuses (no
        area, a sphere over it, a corner outside the box) a carom.Error;
        either names the face, and the faces before it stay added."""
        points = np.asarray(vertices, dtype=float)
        if points.ndim != 2 or points.shape[1] != 3:
            raise ValueError("vertices: an (n, 3) array of points expected, got shape %s"
                             % (points.shape,))
        corners = np.asarray(faces)
        if corners.ndim != 2 or corners.shape[1] != 3 or (
                corners.size and not np.issubdtype(corners.dtype, np.integer)):
            raise ValueError("faces: an (m, 3) array of vertex indices expected, got shape %s "
                             "of %s" % (corners.shape, corners.dtype))
        indices = []
        for face, (a, b, c) in enumerate(corners.tolist()):
            for k in (a, b, c):
                if not 0 <= k < len(points):
                    raise ValueError("face %d: vertex %d is not among the %d vertices"
                                     % (face, k, len(points)))
            try:
                indices.append(self.add_triangle(points[a], points[b], points[c]))
            except Error as refused:
                refused.message = "face %d: %s" % (face, refused.message)
                refused.args = (refused.message,)
                raise
        return indices

    def cast_sphere(self, origin, motion, radius=0.0, ignore=None):
        """What a sphere of the given radius (0: a ray) whose centre moves
        from origin by motion would touch first, in the world as it is now
        (carom_world_cast_sphere; include/carom/query.h): a CastHit, or
        None. A cast that starts overlapping something hits it at
        fraction 0. ignore: a sphere id not to hit (the caster's own)."""
        dim = self.dim()
        cast = _library.carom_cast(vector(origin, "origin", dim), vector(motion, "motion", dim),
                                   number(radius, "radius"),
                                   _library.QUERY_NO_SPHERE if ignore is None
                                   else sphere_id(ignore))
        hit, found = _library.carom_cast_hit(), ctypes.c_int()
        self._check(lib.carom_world_cast_sphere, ctypes.byref(cast), ctypes.byref(hit),
                    ctypes.byref(found))
        if not found.value:
            return None
        kinds = {value: name for name, value in _library.CONTACT_KIND.items()}
        kind = kinds[hit.kind]
        return CastHit(kind, hit.sphere if kind == "sphere" else None,
                       None if kind == "sphere" else hit.wall, hit.fraction,
                       tuple(hit.position)[:dim], tuple(hit.normal)[:dim],
                       tuple(hit.point)[:dim])

    def query_sphere(self, centre, radius=0.0):
        """The ids of the spheres nearer to centre than radius plus their
        own radius, now (carom_world_query_sphere), sorted."""
        at = vector(centre, "centre", self.dim())
        r, count = number(radius, "radius"), ctypes.c_size_t()
        self._check(lib.carom_world_query_sphere, at, r, None, 0, ctypes.byref(count))
        ids = (ctypes.c_uint32 * max(count.value, 1))()
        self._check(lib.carom_world_query_sphere, at, r, ids, count.value, ctypes.byref(count))
        return sorted(ids[:count.value])

    def query_obstacles(self, centre, radius=0.0):
        """The fixed things a sphere of the given radius at centre overlaps
        now (carom_world_query_obstacles): (kind, index) pairs, kind "wall"
        (index 2 axis + side), "plane", "segment" or "triangle" (index as
        added), walls first, then planes, segments and triangles, each by
        index. Radius 0: the walls and planes whose solid side holds the
        point."""
        at = vector(centre, "centre", self.dim())
        r, count = number(radius, "radius"), ctypes.c_size_t()
        self._check(lib.carom_world_query_obstacles, at, r, None, 0, ctypes.byref(count))
        found = (_library.carom_obstacle * max(count.value, 1))()
        self._check(lib.carom_world_query_obstacles, at, r, found, count.value,
                    ctypes.byref(count))
        kinds = {value: name for name, value in _library.CONTACT_KIND.items()}
        return [(kinds[o.kind], o.index) for o in found[:count.value]]

    def segments(self):
        """The fixed segments, as ((ax, ay), (bx, by)) pairs of ends."""
        out = []
        for index in range(self._call(lib.carom_world_segment_count)):
            a, b = (ctypes.c_double * 2)(), (ctypes.c_double * 2)()
            self._check(lib.carom_world_get_segment, index, a, b)
            out.append((tuple(a), tuple(b)))
        return out

    def triangles(self):
        """The fixed triangles, as ((ax, ay, az), (bx, by, bz), (cx, cy, cz))
        triples of corners."""
        out = []
        for index in range(self._call(lib.carom_world_triangle_count)):
            a, b, c = (ctypes.c_double * 3)(), (ctypes.c_double * 3)(), (ctypes.c_double * 3)()
            self._check(lib.carom_world_get_triangle, index, a, b, c)
            out.append((tuple(a), tuple(b), tuple(c)))
        return out

    def set_image(self, sphere, image):
        """Makes the sphere's image now the given one (carom_world_set_image;
        for a restart that kept images): dim ints, 0 along axes that are
        not periodic. The dynamics do not change."""
        values = [int(k) for k in image]
        if len(values) != self.dim():
            raise ValueError("image: %d integers expected, got %d" % (self.dim(), len(values)))
        self._check(lib.carom_world_set_image, sphere_id(sphere),
                    (ctypes.c_int64 * 3)(*(values + [0] * (3 - len(values)))))

    def images(self):
        """The images of the spheres present, an (N, dim) int64 array in
        the order of ids() (count_images=True)."""
        ids = self.ids()
        out = np.zeros((len(ids), self.dim()), dtype=np.int64)
        for row, sphere in enumerate(ids):
            out[row] = self.get_image(int(sphere))
        return out

    def unwrapped_positions(self):
        """Positions that never wrap: position + image * box, an (N, dim)
        array in the order of ids() (count_images=True). Their change over
        time gives mean-square displacements."""
        ids = self.ids()
        dim = self.dim()
        box = np.array(self.get_def()["box"])
        out = np.empty((len(ids), dim))
        for row, sphere in enumerate(ids):
            image = self.get_image(int(sphere))
            out[row] = np.array(self.get_sphere(int(sphere)).position[:dim]) + np.array(image) * box
        return out

    def sphere_capacity(self):
        """Number of ids handed out so far (removed spheres keep theirs)."""
        return self._call(lib.carom_world_sphere_capacity)

    def sphere_count(self):
        return self._call(lib.carom_world_sphere_count)

    def sphere_exists(self, sphere):
        return bool(self._call(lib.carom_world_sphere_exists, sphere_id(sphere)))

    def ids(self):
        """The ids of the spheres present, in order: row k of the arrays of
        carom.Scene.from_world(world) is sphere ids()[k]."""
        live = [k for k in range(self.sphere_capacity()) if self.sphere_exists(k)]
        return np.array(live, dtype=np.uint32)

    def get_def(self):
        """The settings the world was made with (carom_world_get_def), as a
        dict of the World keywords; on_contact and driver are left out."""
        d = self._call(lib.carom_world_get_def).contents
        dim = d.dim
        name = choice_name
        return {
            "dim": dim,
            "box": tuple(d.box[:dim]),
            "boundary": tuple(name(_library.BOUNDARY, b) for b in d.boundary[:dim]),
            "gravity": tuple(d.gravity[:dim]),
            "restitution": d.restitution,
            "wall_restitution": d.wall_restitution,
            "restitution_min_speed": d.restitution_min_speed,
            "response": name(_library.RESPONSE, d.response),
            "capacity_hint": d.capacity_hint,
            "neighbours": name(_library.NEIGHBOURS, d.neighbours),
            "prefetch": name(_library.PREFETCH, d.prefetch),
            "reorder": name(_library.REORDER, d.reorder),
            "record_contacts": bool(d.record_contacts),
            "count_images": bool(d.count_images),
            "tangential_restitution": d.tangential_restitution,
            "wall_tangential_restitution": d.wall_tangential_restitution,
            "inertia_factor": d.inertia_factor,
            "friction": d.friction,
            "wall_friction": d.wall_friction,
        }

    # -- time --------------------------------------------------------------

    def time(self):
        return self._call(lib.carom_world_time)

    def dim(self):
        return self._call(lib.carom_world_dim)

    def list_skin(self):
        return self._call(lib.carom_world_list_skin)

    def sort_spatially(self):
        self._check(lib.carom_world_sort_spatially)

    def set_growth(self, rate):
        """From now on every radius grows as r(now) (1 + rate (t - now))
        (carom_world_set_growth: Lubachevsky-Stillinger compression); 0
        stops it. Contacts stay exact; growing heats the spheres."""
        self._check(lib.carom_world_set_growth, number(rate, "rate"))

    def growth(self):
        return self._call(lib.carom_world_growth)

    def set_shear(self, rate):
        """Lees-Edwards boundaries (carom_world_set_shear): planar shear
        flow along x with its gradient along y, at `rate`. The image of
        the box above it is displaced along x by rate Ly t (mod Lx) and
        moves at rate Ly; a sphere leaving through the top enters at the
        bottom shifted back by that and slowed by rate Ly along x. Pairs
        across the boundary meet exactly through the moving images, and
        sensing pairs sense through them; an Andersen bath redraws about
        the profile. 0 ends it. Refused (CarromError) with walls along x
        or y, gravity, driven spheres, report-only response, growth or
        fixed obstacles; sphere queries and casts are refused in a
        sheared world. The energy of the
        velocities relative to the profile rate (y - Ly/2) grows by -rate
        times the time integral of V P_xy (elastic contacts): the shear
        viscosity's route."""
        self._check(lib.carom_world_set_shear, number(rate, "rate"))

    def shear_rate(self):
        return self._call(lib.carom_world_shear_rate)

    def shear_offset(self):
        """The image above's displacement along x now, in [0, Lx)."""
        return self._call(lib.carom_world_shear_offset)

    def set_shear_offset(self, offset):
        """Sets that displacement now (a restart: the offset the run ended
        at); the next advance checks every pair again."""
        self._check(lib.carom_world_set_shear_offset, number(offset, "offset"))

    def packing_fraction(self):
        """The spheres' volume (2D: area) now over the box's."""
        return self._call(lib.carom_world_packing_fraction)

    def advance_to(self, t):
        """Processes every event up to time t and moves every sphere to t."""
        self._check(lib.carom_world_advance_to, number(t, "t"))

    def step_events(self, max_events):
        """Processes at most max_events events; returns how many."""
        processed = ctypes.c_uint64()
        self._check(lib.carom_world_step_events, operator.index(max_events),
                    ctypes.byref(processed))
        return processed.value

    def advance_to_limited(self, t, max_events):
        """advance_to in pieces; returns (events processed, whether t was reached)."""
        processed = ctypes.c_uint64()
        reached = ctypes.c_int()
        self._check(lib.carom_world_advance_to_limited, number(t, "t"),
                    operator.index(max_events), ctypes.byref(processed), ctypes.byref(reached))
        return processed.value, bool(reached.value)

    def recorded_contacts(self):
        """The contacts of the last advance or step, in the order they
        happened, for a world made with record_contacts=True: a NumPy
        structured array (a copy) with the fields of carom_contact (kind 0
        for spheres, 1 for walls, 2 for planes, 3 for segments, 4 for
        triangles; time, i, j, wall, normal, impulse, velocity_after,
        depth, parting). Empty without record_contacts."""
        count = ctypes.c_size_t()
        pointer = self._call(lib.carom_world_recorded_contacts, ctypes.byref(count))
        out = np.empty(count.value, dtype=CONTACT_DTYPE)
        if count.value:
            ctypes.memmove(out.ctypes.data, pointer, out.nbytes)
        return out

    # -- measurements ------------------------------------------------------

    def get_stats(self):
        stats = _library.carom_stats()
        self._call(lib.carom_world_get_stats, ctypes.byref(stats))
        return Stats(*(getattr(stats, name) for name in Stats._fields))

    def reset_stats(self):
        self._call(lib.carom_world_reset_stats)

    def kinetic_energy(self):
        return self._call(lib.carom_world_kinetic_energy)

    def momentum(self):
        out = _library.c_double3()
        self._call(lib.carom_world_momentum, out)
        return tuple(out)

    def temperature(self):
        return self._call(lib.carom_world_temperature)

    def rotational_energy(self):
        """Sum of I w^2 / 2 over finite-mass spheres, I = inertia_factor m r^2
        (2/5 m r^2 in 3D, 1/2 in 2D for inertia_factor 0)."""
        return self._call(lib.carom_world_rotational_energy)

    def rotational_temperature(self):
        """kT = 2 E_rot / (d_rot N), d_rot = 3 in 3D, 1 in 2D."""
        return self._call(lib.carom_world_rotational_temperature)

    def volume(self):
        return self._call(lib.carom_world_volume)

    def compressibility(self):
        """Z = PV/(NkT) from the collision virial over the measured interval."""
        return self._call(lib.carom_world_compressibility)

    def max_overlap_now(self):
        return self._call(lib.carom_world_max_overlap_now)
