"""carom.Scene: configurations, arrays, worlds and XYZ files."""

import math

import numpy as np
import pytest

import carom


def min_distance_over_contact(scene):
    """min over pairs of distance / (r_i + r_j), nearest periodic image."""
    x, r, box = scene.position, scene.radius, np.array(scene.box)
    i, j = np.triu_indices(len(r), 1)
    dx = x[j] - x[i]
    periodic = np.array([b == "periodic" for b in scene.boundary])
    dx[:, periodic] -= box[periodic] * np.round(dx[:, periodic] / box[periodic])
    return (np.linalg.norm(dx, axis=1) / (r[i] + r[j])).min()


@pytest.mark.parametrize("dim, n, packing", [(3, 500, 0.45), (2, 400, 0.6)])
def test_lattice_fills_the_box_at_the_packing_asked(dim, n, packing):
    length = carom.box_length_for_packing(dim, n, 0.5, packing)
    scene = carom.Scene(dim, length).lattice(n, 0.5)
    volume = math.pi / 6 if dim == 3 else math.pi / 4
    assert scene.n == n
    assert n * volume / length**dim == pytest.approx(packing, rel=1e-12)
    assert min_distance_over_contact(scene) >= 1.0
    assert (scene.position[:, :dim] >= 0).all() and (scene.position[:, :dim] < length).all()
    assert not scene.velocity.any()


def test_random_places_any_radii_apart_inside_walls():
    scene = carom.Scene(3, 12.0, boundary="walls").random(300, 0.5, seed=9)
    scene.random_radii(0.25, 0.75, seed=10).place_random(seed=11)
    r = scene.radius
    assert r.min() >= 0.25 and r.max() <= 0.75 and r.std() > 0.1
    assert min_distance_over_contact(scene) >= 1.0
    assert (scene.position - r[:, None] >= 0).all() and (scene.position + r[:, None] <= 12).all()


def test_maxwell_velocities_have_the_temperature_exactly():
    scene = carom.Scene(2, 30.0).random(500, 0.5, seed=1)
    scene.mass = np.linspace(1, 3, 500)
    scene.maxwell_velocities(2.5, seed=2)
    m, v = scene.mass, scene.velocity
    assert np.abs((m[:, None] * v).sum(axis=0)).max() < 1e-12
    assert (m * (v**2).sum(axis=1)).sum() / (2 * 500) == pytest.approx(2.5, rel=1e-12)
    assert not v[:, 2].any()
    speeds = np.linalg.norm(v, axis=1)
    scene.random_velocities(1.0, 2.0, seed=3)
    speeds = np.linalg.norm(scene.velocity, axis=1)
    assert speeds.min() >= 1.0 and speeds.max() <= 2.0


def test_arrays_are_copies_and_assignments_are_checked():
    scene = carom.Scene(2, 10.0).resize(3)
    assert scene.position.shape == (3, 3) and scene.radius.tolist() == [0.5] * 3
    with pytest.raises(ValueError, match="read-only"):
        scene.position[0, 0] = 1.0
    scene.position = [[1, 1], [3, 1], [5, 1]]
    scene.velocity = np.ones((3, 3))
    scene.radius = 0.25
    assert scene.position.tolist() == [[1, 1, 0], [3, 1, 0], [5, 1, 0]]
    assert scene.radius.tolist() == [0.25] * 3
    with pytest.raises(ValueError, match=r"position: expected an array of 3 x 2"):
        scene.position = np.zeros((4, 2))
    with pytest.raises(ValueError, match="mass: expected 3 numbers or one"):
        scene.mass = [1, 2]
    solid = carom.Scene(3).resize(2)
    solid.position = [[1, 2, 3], [4, 5, 6]]
    assert solid.position.tolist() == [[1, 2, 3], [4, 5, 6]]
    world = scene.create_world(restitution=0.9)
    assert world.get_sphere(2).position == (5.0, 1.0, 0.0)
    assert world.get_sphere(2).radius == 0.25
    with pytest.raises(TypeError, match="box is the scene's own"):
        scene.create_world(box=3)


def test_sort_spatially_only_renumbers():
    scene = carom.Scene(3, 20.0).random(200, 0.5, seed=4).maxwell_velocities(1.0, seed=5)
    before = np.hstack([scene.position, scene.velocity])
    scene.sort_spatially()
    after = np.hstack([scene.position, scene.velocity])
    assert not np.array_equal(before, after)
    assert np.array_equal(np.unique(before, axis=0), np.unique(after, axis=0))


def test_xyz_files_round_trip(tmp_path):
    scene = carom.Scene(3, (8, 9, 10), boundary=("walls", "periodic", "walls"))
    scene.random(50, 0.4, seed=6).maxwell_velocities(1.0, seed=7)
    scene.mass = np.arange(1, 51)
    path = tmp_path / "frame.xyz"
    scene.write_xyz(path, time=1.25)
    back = carom.Scene.read_xyz(path)
    assert back.box == scene.box and back.boundary == scene.boundary
    for name in ("position", "velocity", "radius", "mass"):
        assert np.array_equal(getattr(back, name), getattr(scene, name)), name
    scene.write_xyz(path, time=2.5, append=True)
    assert path.read_text().count("Lattice=") == 2


def test_sheared_state_keeps_its_offset(tmp_path):
    """A sheared world's offset goes into the scene, out as the XYZ
    Lattice's tilt and back; an offset outside [0, Lx) is refused."""
    scene = carom.Scene(3, 9.0).lattice(27, 0.5).maxwell_velocities(1.0, seed=2)
    world = scene.create_world()
    world.set_shear(0.3)
    world.advance_to(1.7)
    now = carom.Scene.from_world(world)
    assert now.shear_offset == world.shear_offset() > 0.0
    path = tmp_path / "sheared.xyz"
    now.write_xyz(path, time=world.time())
    assert f'Lattice="9 0 0 {now.shear_offset:.17g} 9' in path.read_text()
    assert carom.Scene.read_xyz(path).shear_offset == now.shear_offset
    assert carom.Scene(3, 9.0).shear_offset == 0.0
    with pytest.raises(ValueError):
        now.shear_offset = 9.0


@pytest.mark.parametrize("dim", [3, 2])
def test_spins_survive_scenes_files_and_worlds(tmp_path, dim):
    """A rough world's spins go through Scene.from_world, an XYZ file and
    create_world to the last bit (the rotational energy with them); a
    scene without spins has spin None until one is assigned."""
    scene = carom.Scene(dim, 12.0).random(60, 0.5, seed=3).maxwell_velocities(1.0, seed=4)
    assert scene.spin is None
    rough = {"tangential_restitution": 0.5, "wall_tangential_restitution": 1.0}
    world = scene.create_world(**rough)
    assert carom.Scene.from_world(world).spin is None  # rough, but nothing spins yet
    world.advance_to(5.0)
    spins = np.array([world.get_spin(i) for i in world.ids()])
    assert spins[:, 2].any() and (dim == 3 or not spins[:, :2].any())
    now = carom.Scene.from_world(world)
    assert np.array_equal(now.spin, spins)
    with pytest.raises(ValueError, match="read-only"):
        now.spin[0, 2] = 1.0
    path = tmp_path / "rough.xyz"
    now.write_xyz(path, time=world.time())
    assert "spin:R:3" in path.read_text().splitlines()[1]
    back = carom.Scene.read_xyz(path)
    for name in ("position", "velocity", "radius", "mass", "spin"):
        assert np.array_equal(getattr(back, name), getattr(now, name)), name
    again = back.create_world(**rough)
    assert np.array_equal([again.get_spin(i) for i in again.ids()], spins)
    assert again.rotational_energy() == world.rotational_energy()
    # Assigned spins reach the world; resizing keeps them, new spheres still.
    scene.spin = spins
    assert np.array_equal(scene.spin, spins)
    assert np.array_equal([scene.create_world().get_spin(i) for i in range(60)], spins)
    scene.resize(61)
    assert np.array_equal(scene.spin[:60], spins) and not scene.spin[60].any()
    with pytest.raises(ValueError, match="spin: expected an array of 61 x 3"):
        scene.spin = np.zeros((61, 2))
    if dim == 2:
        with pytest.raises(ValueError, match="spin: in 2D a sphere spins about z only"):
            scene.spin = np.ones((61, 3))


def test_file_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.xyz"
    bad.write_text('2\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:'
                   'velo:R:3:radius:R:1 pbc="T T T"\n'
                   "A 1 1 1 0 0 0 0.5\nA 2 x 2 0 0 0 0.5\n")
    with pytest.raises(carom.Error) as raised:
        carom.Scene.read_xyz(bad)
    assert raised.value.status == "CAROM_ERR_PARSE"
    assert f"{bad}:4" in raised.value.message
    with pytest.raises(carom.Error) as raised:
        carom.Scene.read_xyz(tmp_path / "missing.xyz")
    assert raised.value.status == "CAROM_ERR_IO"
    assert "missing.xyz" in raised.value.message
    with pytest.raises(OSError, match="cannot open for writing"):
        carom.Scene(3).write_xyz(tmp_path / "no" / "such" / "dir.xyz")
    with pytest.raises(carom.Error) as raised:
        carom.Scene(3, 5.0).lattice(1000, 0.5)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(ValueError, match="lattice: 'bcc' is not one of"):
        carom.Scene(3).lattice(10, 0.5, lattice="bcc")
