"""carom.drive: the ready-made drivers (orbits, random forces, velocity
field) running in C, against a Python driver, closed forms and the rules a
driven sphere must keep (no overlap, no broken bound)."""

import math

import numpy as np
import pytest

import carom
from test_driven import Circle


def circle_scene(driver, R=3.0, theta=2.0):
    world = carom.World(dim=3, box=20, driver=driver, record_contacts=True)
    if isinstance(driver, carom.Orbits):
        driver.add_to(world)
    else:
        world.add_sphere((0, 0, 0), driven=True, accel_bound=R * 2.0**2)
    for angle in (theta, theta + 1.5, theta + 3.0):
        world.add_sphere((10 + R * math.cos(angle), 10 + R * math.sin(angle), 10))
    world.advance_to(4)
    return world.recorded_contacts()


def test_orbits_run_as_the_same_circle_given_from_python():
    orbits = carom.Orbits().add((10, 10, 10), 3.0, 2.0, phase=0.0, radius=0.5)
    assert orbits.accel_bound(0) == 12.0
    in_c = circle_scene(orbits)
    in_python = circle_scene(Circle((10, 10, 10), 3.0, 2.0))
    assert len(in_c) >= 3
    assert in_c["i"].tolist() == in_python["i"].tolist()
    assert np.abs(in_c["time"] - in_python["time"]).max() < 1e-12
    assert in_c["time"][0] == pytest.approx((2.0 - 2 * math.asin(1 / 6)) / 2.0, abs=1e-9)
    assert orbits.misuse() == 0
    x, v = orbits.state(0, 0.25)
    assert x == pytest.approx((10 + 3 * math.cos(0.5), 10 + 3 * math.sin(0.5), 10), abs=1e-15)


def test_orbits_files(tmp_path):
    good = tmp_path / "orbits.txt"
    good.write_text("# cx cy cz R omega phase radius\n10 10 10 3 2 0 0.5\n\n5 5 5 0 1 0 1\n")
    orbits = carom.Orbits.read(good)
    assert len(orbits) == 2 and orbits.state(1, 3.0)[0] == (5.0, 5.0, 5.0)
    bad = tmp_path / "bad.txt"
    bad.write_text("10 10 10 3 2 0 0.5\n10 10 10 3 abc 0 0.5\n")
    with pytest.raises(carom.Error) as raised:
        carom.Orbits.read(bad)
    assert f"{bad}:2" in raised.value.message and "omega" in raised.value.message
    with pytest.raises(carom.Error, match="radius"):
        carom.Orbits().add((0, 0, 0), 1.0, 1.0, radius=-1)
    world = carom.World(driver=carom.Orbits(first_id=1).add((5, 5, 5), 1, 1, radius=0.1))
    with pytest.raises(ValueError, match="first_id is 1"):
        world._callbacks[0].add_to(world)


def test_field_velocity_is_the_formula():
    field = carom.Field(np.zeros((0, 3)), np.zeros((0, 3)), 1.0, 1.0, box=(200, 100, 50),
                        speed=40)
    rng = np.random.default_rng(3)
    for point in rng.uniform(0, 1, (20, 3)) * (200, 100, 50):
        X, Y, Z = point / (200, 100, 50)
        u = (10 * math.sin(2 * math.pi * X) * math.cos(math.pi * Z),
             10 * math.sin(2 * math.pi * Y) * math.cos(math.pi * Z),
             20 * (-math.cos(2 * math.pi * X) - math.cos(2 * math.pi * Y)) * math.sin(math.pi * Z))
        assert field.velocity_at(point) == pytest.approx(u, abs=1e-12)


@pytest.mark.parametrize("kind", ["forces", "field"])
def test_driven_crowds_keep_apart_and_within_their_bounds(kind):
    rng = np.random.default_rng(4)
    scene = carom.Scene(3, 40.0, boundary="walls").random(200, 1.0, seed=5)
    x, bound = scene.position, rng.uniform(5, 30, 200)
    forces_velocity = rng.normal(0, 2, (200, 3))

    def make():
        if kind == "forces":
            return carom.Forces(x, forces_velocity, 1.0, bound, interval=0.05, seed=6)
        return carom.Field(x, np.zeros((200, 3)), 1.0, bound, box=40, speed=20)

    probed = make()  # states ahead of the world's, from a twin of its driver
    for k in (0, 99):  # the initial states given, then motion under a constant acceleration
        x0, v0, a0 = probed.state(k, 0.0)
        assert x0 == tuple(x[k]) and (kind == "field" or v0 == tuple(forces_velocity[k]))
        x1, v1, a1 = probed.state(k, 0.01)
        assert a1 == a0
        assert np.allclose(x1, np.array(x0) + np.array(v0) * 0.01 + np.array(a0) * 0.01**2 / 2,
                           atol=1e-12)
        if kind == "forces":  # redrawn every interval (0.05)
            assert probed.state(k, 0.0499)[2] == a0 and probed.state(k, 0.0501)[2] != a0
    driver = make()
    seen = []
    world = carom.World(box=40, boundary="walls", driver=driver, on_contact=seen.append)
    assert driver.add_to(world) == list(range(200))
    for t in np.linspace(0.25, 5, 20):
        world.advance_to(t)
        assert world.max_overlap_now() < 1e-9
    stats = world.get_stats()
    assert stats.collisions > 50 and stats.bound_breaks == 0 and stats.late_contacts == 0
    assert driver.misuse() == 0
    for k in range(0, 200, 17):
        position, velocity, acceleration = driver.state(k, 5.0)
        assert world.get_sphere(k).position == position
        assert np.linalg.norm(acceleration) <= bound[k] * (1 + 1e-12)


def test_andersen_heats_a_gas_to_the_bath():
    """A gas at kT = 2.5 under a bath at kT = 1: T = 1 + 1.5 exp(-rate t);
    the same seed gives the same run; a bad rate is refused."""
    n, rate = 2000, 0.4
    length = carom.box_length_for_packing(3, n, 0.5, 0.2)
    runs = []
    for _ in range(2):
        world = carom.Scene(3, length).random(n, 0.5, seed=5).maxwell_velocities(
            2.5, seed=6).create_world()
        bath = carom.Andersen(kT=1.0, rate=rate, seed=9)
        start = world.temperature()
        for t in (2.0, 4.0, 8.0):
            bath.advance_to(world, t)
            assert abs(world.temperature() - (1 + (start - 1) * np.exp(-rate * t))) < 0.06
        assert abs(bath.redraws - rate * n * 8) < 5 * np.sqrt(rate * n * 8)
        runs.append(carom.Scene.from_world(world).velocity)
    assert np.array_equal(runs[0], runs[1])
    with pytest.raises(carom.Error, match="rate"):
        carom.Andersen(rate=-1)


def test_andersen_in_pieces_is_one_run():
    """advance_to_limited: pieces of 50 events end where one advance_to does,
    to the last bit; a piece cut short used its whole budget."""
    length = carom.box_length_for_packing(3, 400, 0.5, 0.3)
    ends = []
    for budget in (None, 50):
        world = carom.Scene(3, length).random(400, 0.5, seed=3).maxwell_velocities(
            1.0, seed=4).create_world()
        bath = carom.Andersen(kT=2.0, rate=1.0, seed=7)
        if budget is None:
            bath.advance_to(world, 1.0)
        else:
            pieces, reached = 0, False
            while not reached:
                processed, reached = bath.advance_to_limited(world, 1.0, budget)
                assert reached or (processed == budget and world.time() < 1.0)
                pieces += 1
            assert pieces > 10 and world.time() == 1.0
        ends.append((carom.Scene.from_world(world).position, bath.redraws))
    assert np.array_equal(ends[0][0], ends[1][0]) and ends[0][1] == ends[1][1] > 100


def test_andersen_energy_given():
    """energy_given: in an elastic gas the energy changes only at the
    bath's redraws, so `given` is the whole change of the energy."""
    length = carom.box_length_for_packing(3, 300, 0.5, 0.2)
    world = carom.Scene(3, length).random(300, 0.5, seed=5).maxwell_velocities(
        3.0, seed=6).create_world()
    bath = carom.Andersen(kT=1.0, rate=1.0, seed=8)
    start = world.kinetic_energy()
    bath.advance_to(world, 2.0)
    given, moment = bath.energy_given
    assert given < -100 and moment < 0
    assert abs(world.kinetic_energy() - start - given) < 1e-9 * start
