"""The C library, loaded with ctypes, and the mirror of its public headers.

Every structure here repeats one of include/carom/*.h field by field; the
test python/tests/test_layout.py compares their sizes, offsets and the
enum values with what the C compiler makes of the headers, so a header
change that this file misses fails there instead of corrupting memory.

The library is looked for, in order: the file named by the environment
variable CAROM_LIBRARY; where cmake --install put it (_installed.py, which
the install writes); libcarom.so beside this package; the system's
library path.
"""

import ctypes
import ctypes.util
import os

c_double3 = ctypes.c_double * 3

# carom_status, in the order of carom.h.
STATUS_NAMES = (
    "CAROM_OK",
    "CAROM_ERR_INVALID_ARGUMENT",
    "CAROM_ERR_OUT_OF_MEMORY",
    "CAROM_ERR_OVERLAP",
    "CAROM_ERR_OUTSIDE_BOX",
    "CAROM_ERR_BOX_TOO_SMALL",
    "CAROM_ERR_NO_SUCH_SPHERE",
    "CAROM_ERR_IO",
    "CAROM_ERR_PARSE",
    "CAROM_ERR_IN_CALLBACK",
    "CAROM_ERR_STUCK",
)

# The other enums, as {python name: C value}; the Python API takes the
# lower-case names.
BOUNDARY = {"periodic": 0, "walls": 1}
RESPONSE = {"elastic": 0, "none": 1}
NEIGHBOURS = {"auto": 0, "cells": 1, "lists": 2}
PREFETCH = {"auto": 0, "off": 1, "on": 2}
REORDER = {"auto": 0, "off": 1}
CONTACT_KIND = {"sphere": 0, "wall": 1, "plane": 2, "segment": 3, "triangle": 4}
LATTICE = {"auto": 0, "square": 1, "hex": 2, "fcc": 3}

ERROR_MESSAGE_SIZE = 320

# Species run from 0 to SPECIES_MAX - 1 (CAROM_SPECIES_MAX).
SPECIES_MAX = 32


class carom_error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("message", ctypes.c_char * ERROR_MESSAGE_SIZE)]


class carom_contact(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("time", ctypes.c_double),
        ("i", ctypes.c_uint32),
        ("j", ctypes.c_uint32),
        ("wall", ctypes.c_int),
        ("normal", c_double3),
        ("impulse", ctypes.c_double),
        ("velocity_after", c_double3 * 2),
        ("depth", ctypes.c_double),
        ("parting", ctypes.c_int),
    ]


contact_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(carom_contact))
probe_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_double,
                            ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double))
kick_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_double,
                           ctypes.POINTER(ctypes.c_double))


class carom_driver(ctypes.Structure):
    _fields_ = [("probe", probe_fn), ("kick", kick_fn), ("user_data", ctypes.c_void_p)]


class carom_world_def(ctypes.Structure):
    _fields_ = [
        ("dim", ctypes.c_int),
        ("box", c_double3),
        ("boundary", ctypes.c_int * 3),
        ("gravity", c_double3),
        ("restitution", ctypes.c_double),
        ("wall_restitution", ctypes.c_double),
        ("restitution_min_speed", ctypes.c_double),
        ("response", ctypes.c_int),
        ("on_contact", contact_fn),
        ("user_data", ctypes.c_void_p),
        ("capacity_hint", ctypes.c_size_t),
        ("driver", carom_driver),
        ("neighbours", ctypes.c_int),
        ("prefetch", ctypes.c_int),
        ("reorder", ctypes.c_int),
        ("record_contacts", ctypes.c_int),
        ("count_images", ctypes.c_int),
        ("tangential_restitution", ctypes.c_double),
        ("wall_tangential_restitution", ctypes.c_double),
        ("inertia_factor", ctypes.c_double),
        ("friction", ctypes.c_double),
        ("wall_friction", ctypes.c_double),
    ]


class carom_sphere_def(ctypes.Structure):
    _fields_ = [
        ("position", c_double3),
        ("velocity", c_double3),
        ("radius", ctypes.c_double),
        ("mass", ctypes.c_double),
        ("driven", ctypes.c_int),
        ("accel_bound", ctypes.c_double),
        ("species", ctypes.c_uint32),
    ]


class carom_sphere_state(ctypes.Structure):
    _fields_ = [
        ("position", c_double3),
        ("velocity", c_double3),
        ("radius", ctypes.c_double),
        ("mass", ctypes.c_double),
        ("collisions", ctypes.c_uint64),
        ("species", ctypes.c_uint32),
    ]


class carom_stats(ctypes.Structure):
    _fields_ = [
        ("start_time", ctypes.c_double),
        ("elapsed", ctypes.c_double),
        ("events", ctypes.c_uint64),
        ("collisions", ctypes.c_uint64),
        ("wall_hits", ctypes.c_uint64),
        ("cell_crossings", ctypes.c_uint64),
        ("list_rebuilds", ctypes.c_uint64),
        ("invalid_events", ctypes.c_uint64),
        ("virial", ctypes.c_double),
        ("wall_momentum", ctypes.c_double),
        ("max_overlap", ctypes.c_double),
        ("kinetic_energy_start", ctypes.c_double),
        ("bound_resets", ctypes.c_uint64),
        ("bound_collisions", ctypes.c_uint64),
        ("late_contacts", ctypes.c_uint64),
        ("prefetch_advances", ctypes.c_uint64),
        ("reorders", ctypes.c_uint64),
        ("bound_breaks", ctypes.c_uint64),
        ("sensed_contacts", ctypes.c_uint64),
        ("sensed_partings", ctypes.c_uint64),
    ]


class carom_scene(ctypes.Structure):
    _fields_ = [
        ("dim", ctypes.c_int),
        ("box", c_double3),
        ("boundary", ctypes.c_int * 3),
        ("n", ctypes.c_size_t),
        ("position", ctypes.POINTER(c_double3)),
        ("velocity", ctypes.POINTER(c_double3)),
        ("radius", ctypes.POINTER(ctypes.c_double)),
        ("mass", ctypes.POINTER(ctypes.c_double)),
        ("spin", ctypes.POINTER(c_double3)),
        ("species", ctypes.POINTER(ctypes.c_uint32)),
        ("shear_offset", ctypes.c_double),
    ]


# include/carom/query.h
QUERY_NO_SPHERE = 0xFFFFFFFF


class carom_cast(ctypes.Structure):
    _fields_ = [
        ("origin", c_double3),
        ("motion", c_double3),
        ("radius", ctypes.c_double),
        ("ignore", ctypes.c_uint32),
    ]


class carom_cast_hit(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("sphere", ctypes.c_uint32),
        ("wall", ctypes.c_int),
        ("fraction", ctypes.c_double),
        ("position", c_double3),
        ("normal", c_double3),
        ("point", c_double3),
    ]


class carom_obstacle(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("index", ctypes.c_int),
    ]


# Every structure above, for the layout test.
STRUCTURES = (carom_error, carom_contact, carom_driver, carom_world_def, carom_sphere_def,
              carom_sphere_state, carom_stats, carom_scene, carom_cast, carom_cast_hit,
              carom_obstacle)


def _find_library():
    named = os.environ.get("CAROM_LIBRARY")
    if named:
        return named
    here = os.path.dirname(os.path.abspath(__file__))
    try:  # written by cmake --install: where the installed library is
        from ._installed import LIBRARY_FROM_PACKAGE
        return os.path.normpath(os.path.join(here, LIBRARY_FROM_PACKAGE))
    except ImportError:
        pass
    for name in sorted(os.listdir(here)):
        if name.startswith("libcarom.so"):
            return os.path.join(here, name)
    return ctypes.util.find_library("carom")


def _load():
    path = _find_library()
    if not path:
        raise ImportError("carom: libcarom.so not found; build carom with CMake and set "
                          "CAROM_LIBRARY to build/libcarom.so, or install carom")
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"carom: cannot load {path}: {e}") from None


lib = _load()

_P = ctypes.POINTER
_world_p = ctypes.c_void_p
_status = ctypes.c_int
_id = ctypes.c_uint32

# name: (result type, argument types), as in the headers.
_PROTOTYPES = {
    "carom_status_name": (ctypes.c_char_p, [_status]),
    "carom_world_default_def": (carom_world_def, []),
    "carom_sphere_default_def": (carom_sphere_def, []),
    "carom_world_create": (_world_p, [_P(carom_world_def), _P(carom_error)]),
    "carom_world_free": (None, [_world_p]),
    "carom_world_error_message": (ctypes.c_char_p, [_world_p]),
    "carom_world_add_sphere": (_status, [_world_p, _P(carom_sphere_def), _P(_id)]),
    "carom_world_remove_sphere": (_status, [_world_p, _id]),
    "carom_world_set_velocity": (_status, [_world_p, _id, c_double3]),
    "carom_world_set_position": (_status, [_world_p, _id, c_double3]),
    "carom_world_reprobe_sphere": (_status, [_world_p, _id, ctypes.c_double]),
    "carom_world_get_sphere": (_status, [_world_p, _id, _P(carom_sphere_state)]),
    "carom_world_get_image": (_status, [_world_p, _id, _P(ctypes.c_int64)]),
    "carom_world_set_image": (_status, [_world_p, _id, _P(ctypes.c_int64)]),
    "carom_world_get_spin": (_status, [_world_p, _id, c_double3]),
    "carom_world_set_spin": (_status, [_world_p, _id, c_double3]),
    "carom_world_set_pass_through": (_status, [_world_p, ctypes.c_uint32, ctypes.c_uint32,
                                               ctypes.c_int]),
    "carom_world_passes_through": (ctypes.c_int, [_world_p, ctypes.c_uint32, ctypes.c_uint32]),
    "carom_world_set_sense": (_status, [_world_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_int]),
    "carom_world_senses": (ctypes.c_int, [_world_p, ctypes.c_uint32, ctypes.c_uint32]),
    "carom_world_set_species": (_status, [_world_p, _id, ctypes.c_uint32]),
    "carom_world_set_pair_restitution": (_status, [_world_p, ctypes.c_uint32, ctypes.c_uint32,
                                                   ctypes.c_double]),
    "carom_world_set_wall_restitution": (_status, [_world_p, ctypes.c_uint32, ctypes.c_double]),
    "carom_world_pair_restitution": (ctypes.c_double, [_world_p, ctypes.c_uint32,
                                                       ctypes.c_uint32]),
    "carom_world_wall_restitution": (ctypes.c_double, [_world_p, ctypes.c_uint32]),
    "carom_world_set_pair_friction": (_status, [_world_p, ctypes.c_uint32, ctypes.c_uint32,
                                                ctypes.c_double, ctypes.c_double]),
    "carom_world_set_wall_friction": (_status, [_world_p, ctypes.c_uint32, ctypes.c_double,
                                                ctypes.c_double]),
    "carom_world_pair_friction": (_status, [_world_p, ctypes.c_uint32, ctypes.c_uint32,
                                            _P(ctypes.c_double), _P(ctypes.c_double)]),
    "carom_world_wall_friction": (_status, [_world_p, ctypes.c_uint32, _P(ctypes.c_double),
                                            _P(ctypes.c_double)]),
    "carom_world_is_rough": (ctypes.c_int, [_world_p]),
    "carom_world_add_plane": (_status, [_world_p, _P(ctypes.c_double), ctypes.c_double,
                                        _P(ctypes.c_uint32)]),
    "carom_world_plane_count": (ctypes.c_size_t, [_world_p]),
    "carom_world_get_plane": (_status, [_world_p, ctypes.c_uint32, _P(ctypes.c_double),
                                        _P(ctypes.c_double)]),
    "carom_world_add_segment": (_status, [_world_p, _P(ctypes.c_double), _P(ctypes.c_double),
                                          _P(ctypes.c_uint32)]),
    "carom_world_segment_count": (ctypes.c_size_t, [_world_p]),
    "carom_world_get_segment": (_status, [_world_p, ctypes.c_uint32, _P(ctypes.c_double),
                                          _P(ctypes.c_double)]),
    "carom_world_add_triangle": (_status, [_world_p, _P(ctypes.c_double), _P(ctypes.c_double),
                                           _P(ctypes.c_double), _P(ctypes.c_uint32)]),
    "carom_world_triangle_count": (ctypes.c_size_t, [_world_p]),
    "carom_world_get_triangle": (_status, [_world_p, ctypes.c_uint32, _P(ctypes.c_double),
                                           _P(ctypes.c_double), _P(ctypes.c_double)]),
    "carom_world_cast_sphere": (_status, [_world_p, _P(carom_cast), _P(carom_cast_hit),
                                          _P(ctypes.c_int)]),
    "carom_world_query_sphere": (_status, [_world_p, c_double3, ctypes.c_double, _P(_id),
                                           ctypes.c_size_t, _P(ctypes.c_size_t)]),
    "carom_world_query_obstacles": (_status, [_world_p, c_double3, ctypes.c_double,
                                              _P(carom_obstacle), ctypes.c_size_t,
                                              _P(ctypes.c_size_t)]),
    "carom_world_sphere_capacity": (ctypes.c_size_t, [_world_p]),
    "carom_world_sphere_count": (ctypes.c_size_t, [_world_p]),
    "carom_world_sphere_exists": (ctypes.c_int, [_world_p, _id]),
    "carom_world_get_def": (_P(carom_world_def), [_world_p]),
    "carom_world_time": (ctypes.c_double, [_world_p]),
    "carom_world_dim": (ctypes.c_int, [_world_p]),
    "carom_world_list_skin": (ctypes.c_double, [_world_p]),
    "carom_world_sort_spatially": (_status, [_world_p]),
    "carom_world_set_growth": (_status, [_world_p, ctypes.c_double]),
    "carom_world_growth": (ctypes.c_double, [_world_p]),
    "carom_world_set_shear": (_status, [_world_p, ctypes.c_double]),
    "carom_world_shear_rate": (ctypes.c_double, [_world_p]),
    "carom_world_shear_offset": (ctypes.c_double, [_world_p]),
    "carom_world_set_shear_offset": (_status, [_world_p, ctypes.c_double]),
    "carom_world_packing_fraction": (ctypes.c_double, [_world_p]),
    "carom_world_advance_to": (_status, [_world_p, ctypes.c_double]),
    "carom_world_step_events": (_status, [_world_p, ctypes.c_uint64, _P(ctypes.c_uint64)]),
    "carom_world_advance_to_limited": (_status, [_world_p, ctypes.c_double, ctypes.c_uint64,
                                                 _P(ctypes.c_uint64), _P(ctypes.c_int)]),
    "carom_world_recorded_contacts": (_P(carom_contact), [_world_p, _P(ctypes.c_size_t)]),
    "carom_world_get_stats": (None, [_world_p, _P(carom_stats)]),
    "carom_world_reset_stats": (None, [_world_p]),
    "carom_world_kinetic_energy": (ctypes.c_double, [_world_p]),
    "carom_world_momentum": (None, [_world_p, c_double3]),
    "carom_world_temperature": (ctypes.c_double, [_world_p]),
    "carom_world_rotational_energy": (ctypes.c_double, [_world_p]),
    "carom_world_rotational_temperature": (ctypes.c_double, [_world_p]),
    "carom_world_volume": (ctypes.c_double, [_world_p]),
    "carom_world_compressibility": (ctypes.c_double, [_world_p]),
    "carom_world_max_overlap_now": (ctypes.c_double, [_world_p]),
    "carom_scene_init": (None, [_P(carom_scene)]),
    "carom_scene_free": (None, [_P(carom_scene)]),
    "carom_scene_resize": (_status, [_P(carom_scene), ctypes.c_size_t, _P(carom_error)]),
    "carom_scene_add_spins": (_status, [_P(carom_scene), _P(carom_error)]),
    "carom_scene_add_species": (_status, [_P(carom_scene), _P(carom_error)]),
    "carom_box_length_for_packing": (ctypes.c_double, [ctypes.c_int, ctypes.c_size_t,
                                                       ctypes.c_double, ctypes.c_double]),
    "carom_scene_sort_spatially": (_status, [_P(carom_scene), _P(carom_error)]),
    "carom_scene_lattice": (_status, [_P(carom_scene), ctypes.c_size_t, ctypes.c_double,
                                      ctypes.c_int, _P(carom_error)]),
    "carom_scene_random": (_status, [_P(carom_scene), ctypes.c_size_t, ctypes.c_double,
                                     ctypes.c_uint64, _P(carom_error)]),
    "carom_scene_place_random": (_status, [_P(carom_scene), ctypes.c_uint64, _P(carom_error)]),
    "carom_scene_random_radii": (_status, [_P(carom_scene), ctypes.c_double, ctypes.c_double,
                                           ctypes.c_uint64, _P(carom_error)]),
    "carom_scene_random_velocities": (_status, [_P(carom_scene), ctypes.c_double,
                                                ctypes.c_double, ctypes.c_uint64,
                                                _P(carom_error)]),
    "carom_scene_maxwell_velocities": (_status, [_P(carom_scene), ctypes.c_double,
                                                 ctypes.c_uint64, _P(carom_error)]),
    "carom_scene_create_world": (_world_p, [_P(carom_scene), _P(carom_world_def),
                                            _P(carom_error)]),
    "carom_scene_from_world": (_status, [_P(carom_scene), _world_p, _P(carom_error)]),
    "carom_xyz_read": (_status, [ctypes.c_char_p, _P(carom_scene), _P(carom_error)]),
    "carom_xyz_write": (_status, [ctypes.c_void_p, _P(carom_scene), ctypes.c_double,
                                  _P(carom_error)]),
}

for _name, (_result, _arguments) in _PROTOTYPES.items():
    _function = getattr(lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments

# fopen and fclose, for carom_xyz_write's FILE *.
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.fclose.restype = ctypes.c_int
libc.fclose.argtypes = [ctypes.c_void_p]


def status_name(status):
    """The C name of a carom_status ("CAROM_ERR_OVERLAP")."""
    if 0 <= status < len(STATUS_NAMES):
        return STATUS_NAMES[status]
    return f"carom_status {status}"


def status_text(status):
    """carom_status_name: what a status means, in words ("overlap")."""
    return lib.carom_status_name(status).decode()
