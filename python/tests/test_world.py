"""carom.World: contacts against an independent O(N^2) reference, the
response, the callbacks and their exceptions, and the errors."""

import math

import numpy as np
import pytest

import carom


def straight_line_contacts(position, velocity, radius, box, t_end):
    """Every first contact of two spheres moving on straight lines in a
    periodic box before t_end, as {(i, j): time} with i < j: the smaller
    root of |dx + dv t| = r_i + r_j in its stable form. Valid while no pair
    can close more than half a box (only the nearest images can meet)."""
    n = len(radius)
    i, j = np.triu_indices(n, 1)
    dx = position[j] - position[i]
    dx -= box * np.round(dx / box)
    dv = velocity[j] - velocity[i]
    sigma = radius[i] + radius[j]
    a = np.einsum("ij,ij->i", dv, dv)
    b = np.einsum("ij,ij->i", dx, dv)
    c = np.einsum("ij,ij->i", dx, dx) - sigma**2
    disc = b * b - a * c
    meets = (c > 0) & (b < 0) & (disc > 0)
    t = np.full(len(i), np.inf)
    t[meets] = c[meets] / (-b[meets] + np.sqrt(disc[meets]))
    hit = t <= t_end
    return {(int(p), int(q)): float(s) for p, q, s in zip(i[hit], j[hit], t[hit])}


@pytest.mark.parametrize("dim, n, length", [(3, 400, 12.0), (2, 150, 20.0)])
def test_report_only_contacts_are_those_of_straight_lines(dim, n, length):
    scene = carom.Scene(dim, length).random(n, 0.5, seed=11)
    scene.random_velocities(0.5, 1.0, seed=12)
    t_end = (length / 2 - 1.0) / 2.0 * 0.99
    expected = straight_line_contacts(scene.position, scene.velocity, scene.radius,
                                      np.array(scene.box), t_end)
    seen = []
    world = scene.create_world(response="none", on_contact=seen.append, record_contacts=True)
    world.advance_to(t_end)
    assert len(expected) > 100
    times = [c.time for c in seen]
    assert times == sorted(times)
    found = {(min(c.i, c.j), max(c.i, c.j)): c.time for c in seen}
    assert len(found) == len(seen)
    assert found.keys() == expected.keys()
    assert max(abs(found[k] - expected[k]) for k in found) < 1e-9
    assert world.get_stats().collisions == len(seen)
    # The same contacts pulled after the advance, in the same order.
    recorded = world.recorded_contacts()
    assert recorded["time"].tolist() == times
    assert recorded["i"].tolist() == [c.i for c in seen]
    assert recorded["j"].tolist() == [c.j for c in seen]
    assert np.array_equal(recorded["normal"], [c.normal for c in seen])
    # Report-only: every sphere is where its straight line puts it.
    after = carom.Scene.from_world(world)
    moved = scene.position + scene.velocity * t_end
    box = np.array(scene.box)
    assert np.abs((after.position - moved + box / 2) % box - box / 2).max() < 1e-9


def test_two_spheres_meet_head_on():
    seen = []
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=seen.append)
    a = world.add_sphere((2, 5), velocity=(1, 0))
    b = world.add_sphere((8, 5), velocity=(-1, 0))
    world.advance_to(4)
    assert [(c.kind, {c.i, c.j}, c.time, c.impulse) for c in seen] == [
        ("sphere", {a, b}, 2.5, 2.0)]
    state = world.get_sphere(a)
    assert state.position == (3.0, 5.0, 0.0)
    assert state.velocity == (-1.0, 0.0, 0.0)
    assert state.collisions == 1
    assert world.time() == 4.0


def test_elastic_gas_keeps_energy_momentum_and_spheres_apart():
    scene = carom.Scene(3, 8.0).random(150, 0.5, seed=3)
    scene.random_radii(0.3, 0.6, seed=4)
    scene.place_random(seed=5)
    scene.mass = 0.5 + np.arange(150) % 3
    scene.maxwell_velocities(1.5, seed=6)
    world = scene.create_world()
    energy, momentum = world.kinetic_energy(), np.array(world.momentum())
    world.advance_to(20)
    stats = world.get_stats()
    assert stats.collisions > 3000
    assert world.kinetic_energy() == pytest.approx(energy, rel=1e-11)
    assert np.abs(np.array(world.momentum()) - momentum).max() < 1e-10
    assert world.max_overlap_now() == 0.0
    assert world.temperature() == pytest.approx(1.5, rel=1e-11)


def test_recorded_contacts_are_those_of_the_last_call():
    world = carom.World(dim=2, box=10, boundary="walls", record_contacts=True)
    world.add_sphere((2, 5), velocity=(1, 0))
    world.add_sphere((8, 5), velocity=(-1, 0))
    world.advance_to(3)
    first = world.recorded_contacts()
    assert first["time"].tolist() == [2.5] and first["kind"].tolist() == [0]
    after = {0: [-1, 0, 0], 1: [1, 0, 0]}  # rows: sphere i, then j
    assert first["velocity_after"][0].tolist() == [after[first["i"][0]], after[first["j"][0]]]
    world.advance_to(7)
    walls = world.recorded_contacts()
    assert walls["time"].tolist() == [6.5, 6.5] and walls["kind"].tolist() == [1, 1]
    assert sorted(walls["wall"].tolist()) == [0, 1]
    assert first["time"].tolist() == [2.5]  # a copy, kept
    assert len(carom.World().recorded_contacts()) == 0


def test_walls_gravity_and_restitution():
    seen = []
    world = carom.World(dim=2, box=(4, 10), boundary=("periodic", "walls"),
                        gravity=(0, -1), wall_restitution=0.5, on_contact=seen.append)
    ball = world.add_sphere((2, 4.5))
    world.advance_to(3.5)
    # Falls 4 from rest: meets the floor at t = sqrt(8) moving at -sqrt(8).
    assert len(seen) == 1 and seen[0].kind == "wall" and seen[0].wall == 2
    assert seen[0].time == pytest.approx(math.sqrt(8), abs=1e-12)
    assert seen[0].velocity_after[0][1] == pytest.approx(0.5 * math.sqrt(8), abs=1e-12)
    rise = 3.5 - math.sqrt(8)
    assert world.get_sphere(ball).position[1] == pytest.approx(
        0.5 + 0.5 * math.sqrt(8) * rise - rise**2 / 2, abs=1e-12)


def test_a_callback_can_impose_its_own_response():
    def stick(contact):
        mean = contact.velocity_after.mean(axis=0)
        contact.velocity_after[0] = mean
        contact.velocity_after[1] = mean

    world = carom.World(dim=3, box=20, on_contact=stick)
    a = world.add_sphere((5, 5, 5), velocity=(2, 0, 0))
    b = world.add_sphere((8, 5, 5), velocity=(0, 0, 0))
    world.advance_to(3)
    assert world.get_sphere(a).velocity == (1.0, 0.0, 0.0)
    assert world.get_sphere(b).velocity == (1.0, 0.0, 0.0)
    assert world.get_sphere(b).position[0] == pytest.approx(8 + 1 * (3 - 1), abs=1e-12)


def head_on_world(on_contact):
    world = carom.World(dim=3, box=20, on_contact=on_contact)
    world.add_sphere((5, 5, 5), velocity=(1, 0, 0))
    world.add_sphere((8, 5, 5), velocity=(-1, 0, 0))
    world.add_sphere((5, 12, 5), velocity=(1, 0, 0))
    world.add_sphere((10, 12, 5), velocity=(-1, 0, 0))
    return world


def test_an_exception_in_a_callback_stops_the_advance_and_is_raised():
    calls = []

    def fail_once(contact):
        calls.append(contact.time)
        if len(calls) == 1:
            raise KeyError("from the callback")

    world = head_on_world(fail_once)
    with pytest.raises(KeyError, match="from the callback"):
        world.advance_to(10)
    # Stopped after the failing contact (t = 1), whose response stands.
    assert world.time() == 1.0
    assert world.get_sphere(0).velocity == (-1.0, 0.0, 0.0)
    world.advance_to(5)
    assert calls == [1.0, 2.0]


def test_changing_the_world_inside_a_callback_is_refused():
    world = head_on_world(lambda contact: world.set_velocity(contact.i, (0, 0, 0)))
    with pytest.raises(carom.Error) as raised:
        world.advance_to(10)
    assert raised.value.status == "CAROM_ERR_IN_CALLBACK"
    closing = head_on_world(lambda contact: closing.close())
    with pytest.raises(RuntimeError, match="closed from inside"):
        closing.advance_to(10)


def test_a_callback_response_must_be_numbers():
    def bad(contact):
        contact.velocity_after[1] = (math.nan, 0, 0)

    world = head_on_world(bad)
    with pytest.raises(carom.Error) as raised:
        world.advance_to(10)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    assert world.time() == 1.0


def test_bad_input_gets_a_clear_error():
    world = carom.World(dim=3, box=10, boundary="walls")
    world.add_sphere((5, 5, 5))
    world.add_sphere((5.5, 5, 5))
    with pytest.raises(carom.Error) as raised:
        world.advance_to(1)
    assert raised.value.status == "CAROM_ERR_OVERLAP"
    assert "0" in raised.value.message and "1" in raised.value.message
    with pytest.raises(carom.Error) as raised:
        world.add_sphere((2, 2, 2), radius=math.nan)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    assert "radius" in str(raised.value)
    with pytest.raises(carom.Error) as raised:
        world.get_sphere(7)
    assert raised.value.status == "CAROM_ERR_NO_SUCH_SPHERE"
    with pytest.raises(ValueError, match="sphere id -1"):
        world.get_sphere(-1)
    with pytest.raises(ValueError, match="position: expected 3 numbers, got 4"):
        world.add_sphere((1, 2, 3, 4))
    with pytest.raises(ValueError, match="radius: 'big' is not a number"):
        world.add_sphere((1, 2, 3), radius="big")
    with pytest.raises(ValueError, match="boundary: 'wall' is not one of"):
        carom.World(boundary="wall")
    with pytest.raises(TypeError, match="unknown setting 'restitutoin'"):
        carom.World(restitutoin=0.5)
    with pytest.raises(carom.Error) as raised:
        carom.World(box=(10, -1, 10))
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    world.close()
    with pytest.raises(ValueError, match="closed"):
        world.time()


def test_the_settings_read_back():
    settings = {"dim": 2, "box": (12.0, 7.0), "boundary": ("walls", "periodic"),
                "gravity": (0.0, -2.0), "restitution": 0.8, "wall_restitution": 0.6,
                "restitution_min_speed": 1e-5, "response": "none", "capacity_hint": 10,
                "neighbours": "cells", "prefetch": "off", "reorder": "off",
                "record_contacts": True, "count_images": True, "tangential_restitution": 0.5,
                "wall_tangential_restitution": -0.25, "inertia_factor": 0.3, "friction": 0.4,
                "wall_friction": 0.0}
    assert carom.World(**settings).get_def() == settings
    defaults = carom.World().get_def()
    assert defaults["box"] == (10.0, 10.0, 10.0) and defaults["response"] == "elastic"
    assert defaults["boundary"] == ("periodic",) * 3 and not defaults["record_contacts"]
    assert not defaults["count_images"]
    # Smooth, and the library's 0 for a solid sphere (disk).
    assert defaults["tangential_restitution"] == defaults["wall_tangential_restitution"] == -1.0
    assert defaults["inertia_factor"] == 0.0
    assert defaults["friction"] == defaults["wall_friction"] == math.inf  # no Coulomb limit
    with pytest.raises(carom.Error, match="friction"):
        carom.World(friction=-0.5)


def test_spheres_come_and_go():
    with carom.World(dim=2, box=10) as world:
        ids = [world.add_sphere((1 + 2 * k, 5), velocity=(0, 1)) for k in range(4)]
        assert ids == [0, 1, 2, 3]
        world.advance_to(1)
        world.remove_sphere(1)
        assert not world.sphere_exists(1) and world.sphere_exists(2)
        assert world.sphere_count() == 3 and world.sphere_capacity() == 4
        assert world.add_sphere((3, 1)) == 4
        world.set_velocity(4, (1, 0))
        world.advance_to(2)
        assert world.get_sphere(4).position == pytest.approx((4, 1, 0))
        world.set_position(4, (4, 8))
        assert world.get_sphere(4).position == (4.0, 8.0, 0.0)
        with pytest.raises(carom.Error) as raised:
            world.set_position(4, (5.2, 7))  # onto sphere 2, at (5, 7)
        assert raised.value.status == "CAROM_ERR_OVERLAP" and "2 and 4" in raised.value.message
        assert world.get_sphere(4).position == (4.0, 8.0, 0.0)
        scene = carom.Scene.from_world(world)
        assert len(scene) == 4 and world.ids().tolist() == [0, 2, 3, 4]
        assert scene.position[:, 0].tolist() == pytest.approx([1, 5, 7, 4])
        for row, sphere in enumerate(world.ids()):
            assert tuple(scene.position[row]) == world.get_sphere(sphere).position


def test_events_in_pieces():
    scene = carom.Scene(3, 10.0).lattice(300, 0.5).maxwell_velocities(1.0, seed=2)
    whole = scene.create_world()
    whole.advance_to(2)
    pieces = scene.create_world()
    done, reached = 0, False
    while not reached:
        processed, reached = pieces.advance_to_limited(2, 1000)
        assert processed <= 1000
        done += processed
    assert done == whole.get_stats().events
    assert np.array_equal(carom.Scene.from_world(whole).position,
                          carom.Scene.from_world(pieces).position)
    stepped = scene.create_world()
    assert stepped.step_events(50) == 50
    assert stepped.get_stats().events == 50 and 0 < stepped.time() < 2


def test_unwrapped_positions_fly_straight():
    """Report-only spheres in a periodic box: position + image * box is the
    start plus velocity times time, across many wraps; and the centre of
    mass of an elastic gas stays put (zero total momentum)."""
    rng = np.random.default_rng(4)
    start = rng.uniform(-5.0, 15.0, size=(60, 3))  # some outside the box
    velocity = rng.uniform(-9.0, 9.0, size=(60, 3))
    world = carom.World(box=10, response="none", count_images=True)
    for x, v in zip(start, velocity):
        world.add_sphere(x, v, radius=0.3)
    world.advance_to(4.0)
    expected = start + 4.0 * velocity
    assert np.allclose(world.unwrapped_positions(), expected, rtol=0, atol=1e-9)
    assert np.abs(world.images()).max() >= 3
    assert world.get_image(0) == tuple(world.images()[0])
    with pytest.raises(ValueError, match="count_images"):
        carom.World().get_image(0)
    world.set_image(0, (4, -3, 2))  # a restart's images: unwrapped positions go on from them
    assert world.get_image(0) == (4, -3, 2)
    moved = world.unwrapped_positions()[0] + 1.0 * velocity[0]
    world.advance_to(5.0)
    assert np.allclose(world.unwrapped_positions()[0], moved, rtol=0, atol=1e-9)
    with pytest.raises(ValueError, match="3 integers"):
        world.set_image(0, (1, 2))
    walled = carom.World(box=10, boundary=("walls", "periodic", "periodic"), count_images=True)
    walled.add_sphere((5, 5, 5))
    with pytest.raises(carom.Error, match="axis 0, which is not periodic"):
        walled.set_image(0, (1, 0, 0))

    length = carom.box_length_for_packing(3, 200, 0.5, 0.25)
    gas = carom.Scene(3, length).random(200, 0.5, seed=2).maxwell_velocities(1.0, seed=3)
    world = gas.create_world(count_images=True)
    before = world.unwrapped_positions().mean(axis=0)
    world.advance_to(20.0)
    assert world.get_stats().collisions > 5000
    after = world.unwrapped_positions().mean(axis=0)
    assert np.allclose(after, before, rtol=0, atol=1e-9)


def test_planes():
    """A ball dropped onto an incline bounces off it as the contact
    callback sees it (kind "plane", the plane's index); planes are listed
    with unit normals; a ball behind a new plane is refused."""
    seen = []
    world = carom.World(dim=2, box=20, boundary="walls", gravity=(0, -2),
                        on_contact=lambda c: seen.append((c.kind, c.wall, c.i, c.time)))
    world.add_sphere((10, 12), radius=0.5)
    assert world.add_plane((1, 1), 14) == 0  # x + y >= 14 + 0.5 sqrt(2)
    (normal, offset), = world.planes()
    assert np.allclose(normal, (2 ** -0.5, 2 ** -0.5)) and abs(offset - 14 / 2 ** 0.5) < 1e-12
    world.advance_to(3.0)
    # Falling from y = 12: contact when (10 + 12 - t^2) / sqrt2 = 14 / sqrt2 + 0.5.
    t_hit = (8 - 0.5 * 2 ** 0.5) ** 0.5
    assert seen and seen[0][:3] == ("plane", 0, 0) and abs(seen[0][3] - t_hit) < 1e-12
    x, y, _ = world.get_sphere(0).position
    assert (x + y) / 2 ** 0.5 >= 14 / 2 ** 0.5 + 0.5 - 1e-9
    with pytest.raises(carom.Error, match="behind plane 1"):
        world.add_plane((0, 1), 15)
    with pytest.raises(ValueError, match="2 numbers"):
        world.add_plane((0, 1, 0), 0)


def segment_drop(x0, height, g=2.0):
    """A disk of radius 0.5 dropped from rest at (x0, height) onto segment
    1, from (5, 8) to (10, 8), under gravity g (segment 0 is a shelf far
    off). Returns the world and its first contact, with the disk's state
    then: (contact, position, velocity_after)."""
    seen = []

    def on_contact(c):
        seen.append((c, world.get_sphere(c.i).position, c.velocity_after[0].copy()))
    world = carom.World(dim=2, box=20, boundary="walls", gravity=(0, -g),
                        restitution_min_speed=1e-12, on_contact=on_contact)
    assert world.add_segment((12, 2), (18, 2)) == 0
    assert world.add_segment((5, 8), (10, 8)) == 1
    world.add_sphere((x0, height), radius=0.5)
    world.advance_to(math.sqrt(2 * (height - 8) / g) + 0.1)
    assert seen
    return world, seen[0]


def test_segments_are_listed_as_added():
    world, _ = segment_drop(7.0, 12.0)
    assert world.segments() == [((12.0, 2.0), (18.0, 2.0)), ((5.0, 8.0), (10.0, 8.0))]


def test_a_disk_dropped_on_a_segment_bounces_at_the_closed_form():
    """Onto the face: dropped from h = 3 above where it touches (centre at
    8.5), it meets it at t = sqrt(2 h / g) and leaves upwards at the speed
    it came, sqrt(2 g h)."""
    g, h = 2.0, 3.0
    _, (c, position, after) = segment_drop(7.0, 8.5 + h, g)
    assert (c.kind, c.wall, c.i, c.j) == ("segment", 1, 0, None)
    assert abs(c.time - math.sqrt(2 * h / g)) < 1e-12
    assert np.allclose(position[:2], (7.0, 8.5), rtol=0, atol=1e-12)
    assert np.allclose(c.normal, (0, -1, 0), rtol=0, atol=1e-15)  # towards the segment
    assert np.allclose(after, (0, math.sqrt(2 * g * h), 0), rtol=0, atol=1e-12)


def test_a_disk_dropped_on_a_segment_end_leaves_along_the_radius():
    """Beside the end (10, 8), 0.3 out: the circle of radius 0.5 round
    the end meets the centre at height 8 + 0.4, and the velocity is
    reflected about the normal (0.6, 0.8): (0, -v) becomes (0.96, 0.28) v."""
    g, h = 2.0, 3.0
    _, (c, position, after) = segment_drop(10.3, 8.4 + h, g)
    assert (c.kind, c.wall) == ("segment", 1)
    assert abs(c.time - math.sqrt(2 * h / g)) < 1e-12
    assert np.allclose(position[:2], (10.3, 8.4), rtol=0, atol=1e-12)
    assert np.allclose(c.normal, (-0.6, -0.8, 0), rtol=0, atol=1e-12)
    v = math.sqrt(2 * g * h)
    assert np.allclose(after, (0.96 * v, 0.28 * v, 0), rtol=0, atol=1e-12)


def test_segments_are_refused_with_the_library_message():
    """carom.Error with the library's status and message: in 3D, over a
    disk (at once; through a periodic boundary too), a disk added over one (at the next advance, or at once
    in a world already built); 3 numbers for an end are a ValueError."""
    with pytest.raises(carom.Error, match="segments are for 2D worlds") as refused:
        carom.World(dim=3, box=10, boundary="walls").add_segment((1, 1), (2, 2))
    assert refused.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    # Periodic axes repeat it: a disk at x = 9.8 overlaps one at x = 0.1.
    periodic = carom.World(dim=2, box=10)
    periodic.add_sphere((9.8, 5), radius=0.5)
    with pytest.raises(carom.Error, match="overlaps segment 0"):
        periodic.add_segment((0.1, 2), (0.1, 8))
    assert periodic.add_segment((0.4, 2), (0.4, 8)) == 0
    world = carom.World(dim=2, box=10, boundary="walls")
    world.add_sphere((5, 5.3), radius=0.5)
    overlap = r"sphere 0 \(radius 0.5\) overlaps segment 0"
    with pytest.raises(carom.Error, match=overlap) as refused:
        world.add_segment((2, 5), (8, 5))
    assert refused.value.status == "CAROM_ERR_OVERLAP"
    assert world.add_segment((2, 4), (8, 4)) == 0
    with pytest.raises(ValueError, match="2 numbers"):
        world.add_segment((1, 1, 0), (2, 2))
    assert world.segments() == [((2.0, 4.0), (8.0, 4.0))]
    world.advance_to(0.5)  # built: a disk added now is checked at once
    with pytest.raises(carom.Error, match=r"sphere 1 \(radius 0.5\) overlaps segment 0"):
        world.add_sphere((3, 4.2), radius=0.5)
    unbuilt = carom.World(dim=2, box=10, boundary="walls")
    unbuilt.add_segment((2, 4), (8, 4))
    unbuilt.add_sphere((3, 4.2), radius=0.5)  # checked at the first advance
    with pytest.raises(carom.Error, match=r"sphere 0 \(radius 0.5\) overlaps segment 0"):
        unbuilt.advance_to(1.0)


def triangle_world(**settings):
    """A 3D box of 20 with walls and triangle 1, horizontal at z = 8 with
    corners (5, 5, 8), (12, 5, 8), (5, 12, 8) (triangle 0 is a ramp far
    off); settings go to carom.World."""
    world = carom.World(dim=3, box=20, boundary="walls", restitution_min_speed=1e-12,
                        **settings)
    assert world.add_triangle((14, 14, 2), (18, 14, 2), (14, 18, 4)) == 0
    assert world.add_triangle((5, 5, 8), (12, 5, 8), (5, 12, 8)) == 1
    return world


def first_triangle_contact(position, velocity=(0, 0, 0), g=0.0, t_end=3.0):
    """A sphere of radius 0.5 started at position with velocity in
    triangle_world, under gravity g along -z: its first contact, with the
    sphere's position then and its velocity after: (contact, position,
    velocity_after)."""
    seen = []

    def on_contact(c):
        seen.append((c, world.get_sphere(c.i).position, c.velocity_after[0].copy()))
    world = triangle_world(gravity=(0, 0, -g), on_contact=on_contact)
    world.add_sphere(position, velocity, radius=0.5)
    world.advance_to(t_end)
    assert seen
    return seen[0]


def test_triangles_are_listed_as_added():
    world = triangle_world()
    assert world.triangles() == [((14.0, 14.0, 2.0), (18.0, 14.0, 2.0), (14.0, 18.0, 4.0)),
                                 ((5.0, 5.0, 8.0), (12.0, 5.0, 8.0), (5.0, 12.0, 8.0))]


def test_a_sphere_dropped_on_a_triangle_bounces_at_the_closed_form():
    """Onto the face: dropped from rest at height h0 = 11.5 over the
    triangle at z = 8, its centre falls to 8.5 (the radius above it) at
    t = sqrt(2 (h0 - 8 - r) / g), and it leaves upwards at the speed it
    came, sqrt(2 g (h0 - 8 - r)); the contact is recorded as kind 4."""
    g, h0, r = 2.0, 11.5, 0.5
    c, position, after = first_triangle_contact((7, 7, h0), g=g)
    assert (c.kind, c.wall, c.i, c.j) == ("triangle", 1, 0, None)
    assert abs(c.time - math.sqrt(2 * (h0 - 8 - r) / g)) < 1e-12
    assert np.allclose(position, (7.0, 7.0, 8.5), rtol=0, atol=1e-12)
    assert np.allclose(c.normal, (0, 0, -1), rtol=0, atol=1e-15)  # towards the triangle
    assert np.allclose(after, (0, 0, math.sqrt(2 * g * (h0 - 8 - r))), rtol=0, atol=1e-12)
    world = triangle_world(gravity=(0, 0, -g), record_contacts=True)
    world.add_sphere((7, 7, h0), radius=r)
    world.advance_to(2.0)
    first = world.recorded_contacts()[0]
    assert (first["kind"], first["wall"], first["i"]) == (4, 1, 0)
    assert abs(first["time"] - math.sqrt(2 * (h0 - 8 - r) / g)) < 1e-12


def test_a_sphere_thrown_at_a_triangle_edge_leaves_along_the_radius():
    """Beside the edge from (5, 5, 8) to (12, 5, 8), 0.3 above its plane,
    thrown along +y at speed 2 from y = 2 without gravity: it meets the
    edge line when its distance to it, sqrt((5 - y)^2 + 0.3^2), is the
    radius 0.5, at y = 4.6 (t = 1.3); the normal is (0, 0.8, -0.6) and
    (0, v, 0) is reflected about it into (0, -0.28, 0.96) v."""
    v = 2.0
    c, position, after = first_triangle_contact((8, 2, 8.3), (0, v, 0))
    assert (c.kind, c.wall, c.i, c.j) == ("triangle", 1, 0, None)
    assert abs(c.time - (4.6 - 2) / v) < 1e-12
    assert np.allclose(position, (8.0, 4.6, 8.3), rtol=0, atol=1e-12)
    assert np.allclose(c.normal, (0, 0.8, -0.6), rtol=0, atol=1e-12)
    assert np.allclose(after, (0, -0.28 * v, 0.96 * v), rtol=0, atol=1e-12)


def test_triangles_are_refused_with_the_library_message():
    """carom.Error with the library's status and message: in 2D, over a
    sphere (at once; through a periodic boundary too), a sphere added over one (at the next advance, or at
    once in a world already built), through a driven sphere where its
    driver says it is; 2 numbers for a corner are a ValueError."""
    with pytest.raises(carom.Error, match="triangles are for 3D worlds") as refused:
        carom.World(dim=2, box=10, boundary="walls").add_triangle((1, 1, 0), (2, 2, 0),
                                                                  (1, 2, 0))
    assert refused.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    # Periodic axes repeat it: a sphere at x = 9.8 overlaps one at x = 0.1.
    periodic = carom.World(dim=3, box=10)
    periodic.add_sphere((9.8, 5, 4), radius=0.5)
    with pytest.raises(carom.Error, match="overlaps triangle 0"):
        periodic.add_triangle((0.1, 2, 2), (0.1, 8, 2), (0.1, 5, 8))
    assert periodic.add_triangle((0.4, 2, 2), (0.4, 8, 2), (0.4, 5, 8)) == 0
    world = carom.World(dim=3, box=10, boundary="walls")
    world.add_sphere((5, 5, 5.3), radius=0.5)
    overlap = r"sphere 0 \(radius 0.5\) overlaps triangle 0"
    with pytest.raises(carom.Error, match=overlap) as refused:
        world.add_triangle((2, 2, 5), (8, 2, 5), (2, 8, 5))
    assert refused.value.status == "CAROM_ERR_OVERLAP"
    assert world.add_triangle((2, 2, 4), (8, 2, 4), (2, 8, 4)) == 0
    with pytest.raises(ValueError, match="3 numbers"):
        world.add_triangle((1, 1), (2, 2, 1), (1, 2, 1))
    with pytest.raises(carom.Error, match="must have finite corners inside the box and an area"):
        world.add_triangle((1, 1, 1), (2, 2, 2), (3, 3, 3))
    assert world.triangles() == [((2.0, 2.0, 4.0), (8.0, 2.0, 4.0), (2.0, 8.0, 4.0))]
    world.advance_to(0.5)  # built: a sphere added now is checked at once
    with pytest.raises(carom.Error, match=r"sphere 1 \(radius 0.5\) overlaps triangle 0"):
        world.add_sphere((3, 3, 4.2), radius=0.5)
    unbuilt = carom.World(dim=3, box=10, boundary="walls")
    unbuilt.add_triangle((2, 2, 4), (8, 2, 4), (2, 8, 4))
    unbuilt.add_sphere((3, 3, 4.2), radius=0.5)  # checked at the first advance
    with pytest.raises(carom.Error, match=r"sphere 0 \(radius 0.5\) overlaps triangle 0"):
        unbuilt.advance_to(1.0)
    # A driven sphere (on a circle about (5, 5, 8), at (6, 5, 8) now) is
    # probed: a triangle through it is refused, one below it is not, in
    # either order.
    orbit = carom.Orbits(first_id=0).add((5, 5, 8), 1, 1, radius=0.5)
    driven = carom.World(dim=3, box=10, boundary="walls", driver=orbit)
    orbit.add_to(driven)
    with pytest.raises(carom.Error, match=r"sphere 0 \(radius 0.5\) overlaps triangle 0"):
        driven.add_triangle((4, 3, 8), (9, 3, 8), (4, 8, 8))
    assert driven.add_triangle((2, 2, 4), (8, 2, 4), (2, 8, 4)) == 0
    driven.advance_to(3.0)
    orbit = carom.Orbits(first_id=0).add((5, 5, 8), 1, 1, radius=0.5)
    late = carom.World(dim=3, box=10, boundary="walls", driver=orbit)
    late.add_triangle((2, 2, 4), (8, 2, 4), (2, 8, 4))
    orbit.add_to(late)
    late.advance_to(3.0)


def test_a_mesh_is_added_face_by_face():
    """A square floor of four triangles around its centre vertex, from
    vertex and face arrays: the same corners as add_triangle's, in face
    order; a sphere dropped on the shared corner at the centre bounces
    at the closed form; an index out of range, a face without an area and
    one through a sphere are refused, naming the face."""
    seen = []
    world = carom.World(dim=3, box=10, boundary="walls", gravity=(0, 0, -2),
                        on_contact=lambda c: seen.append((c.time, c.kind, c.wall)))
    vertices = np.array([[2, 2, 3], [8, 2, 3], [8, 8, 3], [2, 8, 3], [5, 5, 3]])
    faces = np.array([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    assert world.add_mesh(vertices, faces) == [0, 1, 2, 3]
    assert world.triangles()[1] == ((8.0, 2.0, 3.0), (8.0, 8.0, 3.0), (5.0, 5.0, 3.0))
    world.add_sphere((5, 5, 7.5), radius=0.5)
    world.advance_to(2.5)
    t = math.sqrt(2 * (7.5 - 3 - 0.5) / 2)
    assert seen and seen[0][1] == "triangle" and abs(seen[0][0] - t) < 1e-12
    assert seen[0][2] == 0  # the corner is every face's: the first in index order
    with pytest.raises(ValueError, match="face 1: vertex 5 is not among the 5 vertices"):
        world.add_mesh(vertices, [[0, 1, 4], [0, 1, 5]])
    with pytest.raises(ValueError, match="vertex indices"):
        world.add_mesh(vertices, [[0.0, 1.0, 4.0]])
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        world.add_mesh([[1, 2]], [[0, 0, 0]])
    flat = carom.World(dim=3, box=10, boundary="walls")
    with pytest.raises(carom.Error, match="face 1: triangle: .* an area"):
        flat.add_mesh(vertices, [[0, 1, 4], [0, 2, 4]])
    assert len(flat.triangles()) == 1  # the faces before it stay
    flat.add_sphere((5, 5, 1.2), radius=0.5)
    with pytest.raises(carom.Error, match=r"face 0: sphere 0 \(radius 0.5\) overlaps triangle 1"):
        flat.add_mesh(vertices - [0, 0, 1.8], [[0, 1, 4]])


def test_a_ray_and_a_cast_sphere_hit_a_triangle_at_the_closed_form():
    """A ray straight down from (7, 7, 15) by 10 meets the triangle at
    z = 8 at f = 0.7; a cast sphere of radius 0.5 stops 0.5 above it, at
    f = 0.65, with the normal (0, 0, 1) from the triangle towards it."""
    world = triangle_world()
    hit = world.cast_sphere((7, 7, 15), (0, 0, -10))
    assert (hit.kind, hit.wall, hit.sphere) == ("triangle", 1, None)
    assert abs(hit.fraction - 0.7) < 1e-15
    assert np.allclose(hit.point, (7, 7, 8), rtol=0, atol=1e-14)
    hit = world.cast_sphere((7, 7, 15), (0, 0, -10), radius=0.5)
    assert (hit.kind, hit.wall) == ("triangle", 1)
    assert abs(hit.fraction - 0.65) < 1e-15
    assert np.allclose(hit.position, (7, 7, 8.5), rtol=0, atol=1e-14)
    assert np.allclose(hit.normal, (0, 0, 1), rtol=0, atol=1e-15)
    assert np.allclose(hit.point, (7, 7, 8), rtol=0, atol=1e-14)
    assert world.cast_sphere((13, 13, 15), (0, 0, -10)) is None  # beside both
    hit = world.cast_sphere((13, 13, 15), (0, 0, -20))  # on to the floor
    assert (hit.kind, hit.wall) == ("wall", 4) and abs(hit.fraction - 0.75) < 1e-15


def test_a_ray_and_a_cast_disk_hit_at_the_closed_form():
    """Scene queries (include/carom/query.h): a ray from (2, 10) along
    (10, 0) meets the disk of radius 1 at (10, 10) when x = 9 (f = 0.7);
    a disk of radius 0.5 off by 0.9 meets it with the centres 1.2 apart
    along x (f = 0.68, normal (-0.8, -0.6)); a ray that misses goes on to
    the wall; one that starts inside hits at 0 unless told to ignore it."""
    world = carom.World(dim=2, box=20, boundary="walls")
    disk = world.add_sphere((10, 10), radius=1)
    hit = world.cast_sphere((2, 10), (10, 0))
    assert (hit.kind, hit.sphere, hit.wall) == ("sphere", disk, None)
    assert abs(hit.fraction - 0.7) < 1e-15 and np.allclose(hit.point, (9, 10), atol=1e-14)
    hit = world.cast_sphere((2, 9.1), (10, 0), radius=0.5)
    assert abs(hit.fraction - 0.68) < 1e-14
    assert np.allclose(hit.normal, (-0.8, -0.6), atol=1e-14) and len(hit.position) == 2
    hit = world.cast_sphere((2, 5), (20, 0))
    assert (hit.kind, hit.wall, hit.sphere) == ("wall", 1, None)
    assert abs(hit.fraction - 0.9) < 1e-15
    assert world.cast_sphere((2, 5), (5, 0)) is None
    assert world.cast_sphere((10.5, 10), (3, 0)).fraction == 0.0
    assert world.cast_sphere((10.5, 10), (10, 0), ignore=disk).kind == "wall"
    other = world.add_sphere((13, 10), radius=1)
    assert world.query_sphere((11.5, 10), 0.6) == [disk, other]
    assert world.query_sphere((11.5, 10), 0.4) == []
    assert world.query_obstacles((11.5, 10), 0.4) == []
    segment = world.add_segment((1, 1), (1, 5))
    assert world.query_obstacles((1.5, 0.5), 0.6) == [("wall", 2)]
    assert world.query_obstacles((0.5, 0.5), 0.8) == [("wall", 0), ("wall", 2),
                                                      ("segment", segment)]
    assert world.query_obstacles((25, 3)) == [("wall", 1)]
    with pytest.raises(carom.Error, match="radius must be finite and >= 0"):
        world.query_obstacles((2, 5), -1)
    with pytest.raises(carom.Error, match="radius must be finite and >= 0") as refused:
        world.cast_sphere((2, 5), (1, 0), radius=-1)
    assert refused.value.status == "CAROM_ERR_INVALID_ARGUMENT"


@pytest.mark.parametrize("dim, beta, restitution, inertia_factor",
                         [(3, 1.0, 1.0, None), (3, 0.0, 0.8, 0.5), (2, 1.0, 1.0, None),
                          (2, 0.0, 1.0, 1.0)])
def test_a_rough_contact_keeps_each_sides_angular_momentum(dim, beta, restitution,
                                                           inertia_factor):
    """Two rough spheres of different sizes and masses, one spinning, meet
    off-centre once. Computed here from the state before and the
    velocities after: the momentum of the two is kept, the normal
    relative speed of the touching surfaces turns into -e times itself and
    the tangential one into -beta times itself, and each sphere's new spin
    is the one that keeps its angular momentum about the point of contact,
    I w + m (x - p) x v, with I = k m r^2 (k = 2/5 for a solid sphere, 1/2
    for a disk, by default)."""
    settings = {"dim": dim, "box": 20, "tangential_restitution": beta,
                "restitution": restitution, "record_contacts": True}
    if inertia_factor is not None:
        settings["inertia_factor"] = inertia_factor
    k = inertia_factor or (0.4 if dim == 3 else 0.5)
    world = carom.World(**settings)
    x = np.array([[4.0, 5.0, 5.0 if dim == 3 else 0.0], [6.0, 5.6, 5.3 if dim == 3 else 0.0]])
    v = np.array([[1.0, 0.3, -0.2 if dim == 3 else 0.0], [-0.5, 0.0, 0.1 if dim == 3 else 0.0]])
    radius, mass = np.array([0.5, 0.8]), np.array([1.0, 2.0])
    spin = np.array([[0.0, 0.0, 0.0], [0.4, -1.0, 2.0] if dim == 3 else [0.0, 0.0, 2.0]])
    for a in range(2):
        assert world.add_sphere(x[a][:dim], v[a][:dim], radius=radius[a], mass=mass[a]) == a
    world.set_spin(1, spin[1])
    assert world.get_spin(0) == (0.0, 0.0, 0.0) and world.get_spin(1) == tuple(spin[1])
    inertia = k * mass * radius**2
    assert world.rotational_energy() == pytest.approx(0.5 * inertia[1] * spin[1] @ spin[1])
    energy = world.kinetic_energy() + world.rotational_energy()
    world.advance_to(3.0)
    contacts = world.recorded_contacts()
    assert len(contacts) == 1
    t = contacts["time"][0]
    at = x + v * t  # the centres at the contact
    n = (at[1] - at[0]) / np.linalg.norm(at[1] - at[0])
    assert np.linalg.norm(at[1] - at[0]) == pytest.approx(radius.sum(), rel=1e-12)
    point = at[0] + radius[0] * n
    after = np.array([world.get_sphere(a).velocity for a in range(2)])
    spin_after = np.array([world.get_spin(a) for a in range(2)])

    assert np.allclose(mass @ after, mass @ v, rtol=0, atol=1e-12)
    arm = at - point  # from the point of contact to each centre
    for a in range(2):
        expected = spin[a] + mass[a] / inertia[a] * np.cross(arm[a], v[a] - after[a])
        assert np.allclose(spin_after[a], expected, rtol=0, atol=1e-12), a
    if dim == 2:
        assert spin_after[:, :2].tolist() == [[0.0, 0.0], [0.0, 0.0]]

    def slip(velocity, spins):  # the velocity of sphere 0's surface relative to 1's, at p
        return (velocity[0] + np.cross(spins[0], point - at[0])
                - velocity[1] - np.cross(spins[1], point - at[1]))

    before, now = slip(v, spin), slip(after, spin_after)
    assert now @ n == pytest.approx(-restitution * (before @ n), abs=1e-12)
    tangential = lambda u: u - (u @ n) * n  # noqa: E731
    assert np.linalg.norm(tangential(before)) > 0.5
    assert np.allclose(tangential(now), -beta * tangential(before), rtol=0, atol=1e-12)
    rotation = 0.5 * sum(inertia[a] * spin_after[a] @ spin_after[a] for a in range(2))
    assert world.rotational_energy() == pytest.approx(rotation, rel=1e-12)
    axes = 3 if dim == 3 else 1  # kT = 2 E_rot / (axes N), N = 2
    assert world.rotational_temperature() == pytest.approx(2 * rotation / (axes * 2), rel=1e-12)
    if beta == 1.0 and restitution == 1.0:  # elastic in rotation too
        assert world.kinetic_energy() + world.rotational_energy() == pytest.approx(energy,
                                                                                   rel=1e-12)
    else:
        assert world.kinetic_energy() + world.rotational_energy() < energy * (1 - 1e-3)


def test_spins_refused_and_kept():
    """set_spin and the settings refuse what the library refuses, with its
    message; a smooth world keeps the spins it is given through its
    contacts; get_spin names the id even after another failure."""
    world = carom.World(dim=2, box=10, boundary="walls")
    world.add_sphere((2, 5), velocity=(1, 0))
    world.add_sphere((8, 5), velocity=(-1, 0))
    with pytest.raises(carom.Error, match="sphere 0: spin x = nan is not a finite") as raised:
        world.set_spin(0, (math.nan, 0, 0))
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match=r"sphere 1: spin z = inf is not a finite number"):
        world.set_spin(1, (0, 0, math.inf))
    with pytest.raises(carom.Error, match=r"sphere 1: spin x = 1 in 2D \(a disk spins about z"):
        world.set_spin(1, (1, 0, 3))
    assert world.get_spin(1) == (0.0, 0.0, 0.0)  # a refused spin is not set
    with pytest.raises(carom.Error, match="no sphere with id 7") as raised:
        world.set_spin(7, (0, 0, 1))
    assert raised.value.status == "CAROM_ERR_NO_SUCH_SPHERE"
    with pytest.raises(carom.Error, match="^no sphere with id 9$") as raised:
        world.get_spin(9)
    assert raised.value.status == "CAROM_ERR_NO_SUCH_SPHERE"
    with pytest.raises(ValueError, match="spin: expected 3 numbers, got 2"):
        world.set_spin(0, (0, 1))
    with pytest.raises(ValueError, match="sphere id -1"):
        world.get_spin(-1)
    assert world.add_sphere((5, 8)) == 2
    world.remove_sphere(2)
    with pytest.raises(carom.Error, match="no sphere with id 2"):
        world.get_spin(2)

    world.set_spin(0, (0, 0, -3.0))  # smooth: contacts leave spins alone
    world.advance_to(20)
    assert world.get_stats().collisions >= 2 and world.get_stats().wall_hits >= 2
    assert world.get_spin(0) == (0.0, 0.0, -3.0)
    assert world.rotational_energy() == pytest.approx(0.5 * 0.5 * 0.25 * 9.0)
    # kT = 2 E_rot / (1 N): one axis of rotation in 2D, N = 2 spheres.
    assert world.rotational_temperature() == pytest.approx(world.rotational_energy())

    with pytest.raises(carom.Error, match=r"tangential_restitution \(1.5\) and wall_tangential_"
                                          r"restitution \(-1\) must be in \[-1, 1\]") as raised:
        carom.World(tangential_restitution=1.5)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match=r"wall_tangential_restitution \(nan\)"):
        carom.World(wall_tangential_restitution=math.nan)
    with pytest.raises(carom.Error, match=r"inertia_factor must be in \(0, 1\]"):
        carom.World(inertia_factor=1.5)
    with pytest.raises(ValueError, match="tangential_restitution: 'rough' is not a number"):
        carom.World(tangential_restitution="rough")


def test_shear_meets_through_the_moving_images():
    """Lees-Edwards: two spheres at rest, one near the top and one near the
    bottom of a 10-box sheared at rate 1, meet through the image above,
    moving at 10 along x: at t = (3 - sqrt(1 - 0.3^2)) / 10."""
    seen = []
    world = carom.World(dim=2, box=10, on_contact=seen.append)
    world.set_shear(1.0)
    assert world.shear_rate() == 1.0
    a = world.add_sphere((2, 9.8))
    b = world.add_sphere((9, 0.1))
    world.advance_to(0.25)
    assert [{c.i, c.j} for c in seen] == [{a, b}]
    assert seen[0].time == pytest.approx((3 - math.sqrt(0.91)) / 10, abs=1e-14)
    assert world.shear_offset() == pytest.approx(2.5, abs=1e-14)
    world.set_shear_offset(13.0)
    assert world.shear_offset() == pytest.approx(3.0, abs=1e-14)
    with pytest.raises(carom.Error) as refused:
        world.query_sphere((5, 5), 1.0)
    assert "sheared" in refused.value.message
    walled = carom.World(dim=2, box=10, boundary="walls")
    with pytest.raises(carom.Error):
        walled.set_shear(1.0)


def test_shear_senses_and_bathes_through_the_moving_images():
    """The same meeting as a sensing pair: in at the same time, out when
    the image moving at 10 has passed (|d| = 1 again, d = (3 - 10 t,
    -0.3)); and a bath at kT 0 leaves a lone sphere on the profile,
    rate (y - Ly/2), with the energy it took relative to the flow."""
    seen = []
    world = carom.World(dim=2, box=10, on_contact=seen.append)
    world.set_sense(0, 1)
    world.set_shear(1.0)
    a = world.add_sphere((2, 9.8))
    b = world.add_sphere((9, 0.1), species=1)
    world.advance_to(0.5)
    assert [({c.i, c.j}, c.parting) for c in seen] == [({a, b}, 0), ({a, b}, 1)]
    assert seen[0].time == pytest.approx((3 - math.sqrt(0.91)) / 10, abs=1e-14)
    assert seen[1].time == pytest.approx((3 + math.sqrt(0.91)) / 10, abs=1e-14)
    lone = carom.World(dim=2, box=10)
    lone.set_shear(0.5)
    s = lone.add_sphere((5, 2), velocity=(1, 0))
    bath = carom.Andersen(kT=0.0, rate=5.0)
    bath.advance_to(lone, 5.0)
    assert lone.get_sphere(s).velocity[0] == 0.5 * (2 - 5)
    assert bath.energy_given[0] == pytest.approx(-0.5 * (1 + 1.5) ** 2, abs=1e-13)
