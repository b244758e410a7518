"""carom.Scene: arrays of spheres plus a box (carom_scene_* of scene.h).

A scene builds initial configurations (lattices, random placement,
velocities), reads and writes extended XYZ files, and makes worlds. Its
arrays live in C; position, velocity, radius and mass give read-only
NumPy copies (n x 3 for vectors, z 0 in 2D), and assigning one of them
copies the new values in, so that an array kept from before can never
point into memory the scene has since given back. spin, the spheres'
angular velocities, is the same (n x 3, about z only in 2D), or None for
a scene without spins; assigning it gives the scene spins. species, the
spheres' species (World.set_pass_through), is a uint32 array of n, or
None for a scene whose spheres are all of species 0; assigning it gives
the scene species.
"""

import ctypes

import numpy as np

from . import _library
from ._library import lib
from .errors import check_error
from .world import World, choice, choice_name, number, per_axis, vectors


def box_length_for_packing(dim, n, radius, packing):
    """Edge of the cubic (square) box holding n spheres of this radius at
    this volume (area) fraction."""
    return lib.carom_box_length_for_packing(dim, n, number(radius, "radius"),
                                            number(packing, "packing"))


class Scene:
    """Scene(dim=3, box=10.0, boundary="periodic"): an empty scene."""

    def __init__(self, dim=3, box=10.0, boundary="periodic"):
        if dim not in (2, 3):
            raise ValueError(f"dim: {dim!r} is not 2 or 3")
        self._scene = _library.carom_scene()
        lib.carom_scene_init(ctypes.byref(self._scene))
        self._scene.dim = dim
        for k, length in enumerate(per_axis(box, "box", number)):
            self._scene.box[k] = length
        boundary = per_axis(boundary, "boundary",
                            lambda v, key: choice(_library.BOUNDARY, v, key))
        for k, b in enumerate(boundary):
            self._scene.boundary[k] = b

    def __del__(self):
        scene = getattr(self, "_scene", None)
        if scene is not None:
            lib.carom_scene_free(ctypes.byref(scene))

    def _run(self, function, *arguments):
        error = _library.carom_error()
        check_error(function(ctypes.byref(self._scene), *arguments, ctypes.byref(error)), error)
        return self

    # -- the box -----------------------------------------------------------

    @property
    def dim(self):
        return self._scene.dim

    @property
    def n(self):
        return self._scene.n

    def __len__(self):
        return self._scene.n

    @property
    def box(self):
        return tuple(self._scene.box)

    @property
    def boundary(self):
        return tuple(choice_name(_library.BOUNDARY, b) for b in self._scene.boundary)

    # -- the arrays --------------------------------------------------------

    def _array(self, name, width):
        n = self._scene.n
        if n == 0:
            out = np.zeros((0, width) if width else 0)
        else:
            pointer = ctypes.cast(getattr(self._scene, name), ctypes.POINTER(ctypes.c_double))
            out = np.ctypeslib.as_array(pointer, shape=(n * (width or 1),)).copy()
            if width:
                out = out.reshape(n, width)
        out.flags.writeable = False
        return out

    def _assign(self, name, width, values):
        n = self._scene.n
        values = np.asarray(values, dtype=float)
        if width:
            values = vectors(values, name, n, self.dim)
        elif values.shape != (n,):
            values = np.broadcast_to(values, (n,)) if values.ndim == 0 else None
            if values is None:
                raise ValueError(f"{name}: expected {n} numbers or one")
        if n:
            pointer = ctypes.cast(getattr(self._scene, name), ctypes.POINTER(ctypes.c_double))
            np.ctypeslib.as_array(pointer, shape=(n * (width or 1),))[:] = values.ravel()

    position = property(lambda self: self._array("position", 3),
                        lambda self, v: self._assign("position", 3, v))
    velocity = property(lambda self: self._array("velocity", 3),
                        lambda self, v: self._assign("velocity", 3, v))
    radius = property(lambda self: self._array("radius", 0),
                      lambda self, v: self._assign("radius", 0, v))
    mass = property(lambda self: self._array("mass", 0),
                    lambda self, v: self._assign("mass", 0, v))

    def _set_spin(self, values):
        n = self._scene.n
        values = np.asarray(values, dtype=float)
        if values.shape != (n, 3):
            raise ValueError(f"spin: expected an array of {n} x 3, got shape {values.shape}")
        if self.dim == 2 and values[:, :2].any():
            raise ValueError("spin: in 2D a sphere spins about z only (x and y must be 0)")
        self._run(lib.carom_scene_add_spins)
        self._assign("spin", 3, values)

    spin = property(lambda self: self._array("spin", 3) if self._scene.spin else None, _set_spin)

    def _set_shear_offset(self, value):
        value = number(value, "shear_offset")
        if not 0.0 <= value < self._scene.box[0]:
            raise ValueError(f"shear_offset: {value!r} is not in [0, box[0])")
        self._scene.shear_offset = value

    shear_offset = property(lambda self: self._scene.shear_offset, _set_shear_offset,
                            doc="""A sheared state's displacement along x of the image
                            above the box (World.set_shear; 0 for none): taken from a
                            world, kept by XYZ files as the Lattice's tilt.""")

    def _get_species(self):
        if not self._scene.species:
            return None
        out = np.ctypeslib.as_array(self._scene.species, shape=(self._scene.n,)).copy()
        out.flags.writeable = False
        return out

    def _set_species(self, values):
        n = self._scene.n
        values = np.asarray(values)
        if values.ndim == 0:
            values = np.broadcast_to(values, (n,))
        if values.shape != (n,):
            raise ValueError(f"species: expected {n} integers or one, got shape {values.shape}")
        if values.dtype.kind not in "biu" and not (
                values.dtype.kind == "f" and np.all(np.isfinite(values))
                and np.array_equal(values, np.round(values))):
            raise ValueError(f"species: expected integers, got {values.dtype} values")
        if n and (values.min() < 0 or values.max() >= _library.SPECIES_MAX):
            raise ValueError(f"species: expected integers from 0 to {_library.SPECIES_MAX - 1}, "
                             f"got {values.min()} to {values.max()}")
        self._run(lib.carom_scene_add_species)
        if n:
            np.ctypeslib.as_array(self._scene.species, shape=(n,))[:] = values.astype(np.uint32)

    species = property(_get_species, _set_species)

    def resize(self, n):
        """n spheres: the first ones kept, new ones zeroed (mass 1, radius 0.5)."""
        return self._run(lib.carom_scene_resize, n)

    # -- configurations ----------------------------------------------------

    def lattice(self, n, radius, lattice="auto"):
        """n spheres on a lattice filling the box ("auto": hexagonal in 2D,
        FCC in 3D; "square", "hex", "fcc"), at rest."""
        return self._run(lib.carom_scene_lattice, n, number(radius, "radius"),
                         choice(_library.LATTICE, lattice, "lattice"))

    def random(self, n, radius, seed=1):
        """n spheres at random non-overlapping places, mass 1, at rest."""
        return self._run(lib.carom_scene_random, n, number(radius, "radius"), seed)

    def place_random(self, seed=1):
        """The spheres there are (any radii) at random non-overlapping places."""
        return self._run(lib.carom_scene_place_random, seed)

    def random_radii(self, radius_min, radius_max, seed=1):
        return self._run(lib.carom_scene_random_radii, number(radius_min, "radius_min"),
                         number(radius_max, "radius_max"), seed)

    def random_velocities(self, speed_min, speed_max, seed=1):
        return self._run(lib.carom_scene_random_velocities, number(speed_min, "speed_min"),
                         number(speed_max, "speed_max"), seed)

    def maxwell_velocities(self, kT, seed=1):
        """Maxwell-Boltzmann velocities, zero momentum, kinetic temperature exactly kT."""
        return self._run(lib.carom_scene_maxwell_velocities, number(kT, "kT"), seed)

    def sort_spatially(self):
        """Renumbers the spheres along a space-filling curve (faster worlds for large n)."""
        return self._run(lib.carom_scene_sort_spatially)

    # -- worlds and files --------------------------------------------------

    def create_world(self, **settings):
        """A World with this scene's box and spheres (ids 0..n-1 in scene
        order, with their spins and species if the scene has them); settings
        as for World, except dim, box and boundary, which are the scene's.
        Which species pass through each other is the world's
        (World.set_pass_through): every pair meets in the new world."""
        for key in ("dim", "box", "boundary"):
            if key in settings:
                raise TypeError(f"create_world: {key} is the scene's own")
        settings = dict(settings, dim=self.dim)
        world = World.__new__(World)
        world._open(lambda d, e: lib.carom_scene_create_world(
            ctypes.byref(self._scene), ctypes.byref(d), ctypes.byref(e)), settings)
        return world

    @classmethod
    def from_world(cls, world):
        """The world's box and spheres at its time (carom_scene_from_world):
        ids in order, removed ones skipped (row k is sphere world.ids()[k]);
        spin is None unless some sphere spins, species None unless some
        sphere is of a species other than 0."""
        scene = cls(world.dim())
        world_handle = world._handle()
        return scene._run(lambda s, e: lib.carom_scene_from_world(s, world_handle, e))

    @classmethod
    def read_xyz(cls, path):
        """Reads an extended XYZ file; errors name the file and line."""
        scene = cls()
        return scene._run(lambda s, e: lib.carom_xyz_read(str(path).encode(), s, e))

    def write_xyz(self, path, time=0.0, append=False):
        """Writes (or appends a frame to) an extended XYZ file (a spin
        column when the scene has spins; the spheres' species when it has
        species)."""
        libc = _library.libc
        stream = libc.fopen(str(path).encode(), b"a" if append else b"w")
        if not stream:
            errno = ctypes.get_errno()
            raise OSError(errno, f"cannot open for writing: {path}")
        try:
            self._run(lambda s, e: lib.carom_xyz_write(stream, s, number(time, "time"), e))
        finally:
            closed = libc.fclose(stream)
        if closed != 0:
            raise OSError(ctypes.get_errno(), f"cannot finish writing: {path}")
        return self
