"""Species (World.set_pass_through, set_sense, set_species,
Scene.species): pairs whose species pass through each other fly through
(sensing ones reported at each touch), walls still meet them, a change
that would make overlapping spheres meet is refused, a mixture keeps its
energy and keeps apart exactly the pairs that meet, and species go
through scenes, worlds and XYZ files."""

import math

import numpy as np
import pytest

import carom


def head_on(passes):
    """Two disks on a head-on course in a walled box, species 1 and 2."""
    seen = []
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=seen.append,
                        record_contacts=True)
    a = world.add_sphere((2, 5), velocity=(1, 0), species=1)
    b = world.add_sphere((8, 5), velocity=(-1, 0), species=2)
    if passes:
        world.set_pass_through(1, 2)
    return world, a, b, seen


@pytest.mark.parametrize("passes", [True, False])
def test_species_that_pass_through_fly_through_each_other(passes):
    world, a, b, seen = head_on(passes)
    assert world.passes_through(1, 2) is passes and world.passes_through(2, 1) is passes
    assert not world.passes_through(1, 1) and not world.passes_through(0, 2)
    world.advance_to(4)
    sa, sb = world.get_sphere(a), world.get_sphere(b)
    assert (sa.species, sb.species) == (1, 2)
    if passes:  # no contact: straight on, beyond each other
        assert seen == [] and len(world.recorded_contacts()) == 0
        assert world.get_stats().collisions == 0
        assert (sa.position, sa.velocity) == ((6.0, 5.0, 0.0), (1.0, 0.0, 0.0))
        assert (sb.position, sb.velocity) == ((4.0, 5.0, 0.0), (-1.0, 0.0, 0.0))
        assert sa.collisions == sb.collisions == 0
    else:  # they meet at t = 2.5 and bounce back
        assert [(c.kind, {c.i, c.j}, c.time) for c in seen] == [("sphere", {a, b}, 2.5)]
        assert (sa.position, sa.velocity) == ((3.0, 5.0, 0.0), (-1.0, 0.0, 0.0))
        assert (sb.position, sb.velocity) == ((7.0, 5.0, 0.0), (1.0, 0.0, 0.0))


def test_pass_through_spheres_bounce_off_walls_and_meet_once_told_to():
    """After passing, the two reach the walls at t = 7.5 and bounce; made to
    meet again (they are apart), they collide when they next touch:
    at t = 11.5, at x = 5.5 and 4.5."""
    world, a, b, seen = head_on(True)
    world.advance_to(4)
    world.set_pass_through(1, 2, passes=False)
    assert not world.passes_through(1, 2)
    world.advance_to(12)
    assert [(c.kind, c.time) for c in seen] == [("wall", 7.5), ("wall", 7.5),
                                                 ("sphere", 11.5)]
    assert {seen[0].i, seen[1].i} == {a, b} and {seen[2].i, seen[2].j} == {a, b}
    assert world.get_sphere(a).position == pytest.approx((6.0, 5.0, 0.0), abs=1e-12)
    assert world.get_sphere(a).velocity == (1.0, 0.0, 0.0)
    assert world.get_sphere(b).position == pytest.approx((4.0, 5.0, 0.0), abs=1e-12)
    assert world.get_sphere(b).velocity == (-1.0, 0.0, 0.0)


def test_one_species_passes_through_itself_and_meets_the_others():
    """Species 3 passes through species 3 (a == b), meets species 0.
    On the lane y = 5, a and b (both 3) fly through each other; on the
    lane y = 2, c (3) and d (0) collide at t = 2.5, and again at 10.5 after
    both bounced off the walls at 6.5. e (3) falls through a and b (all
    three at (5, 5) at t = 3) to a fixed plane (centres at y >= 1.5), which
    it reaches at t = 6.5 and leaves upwards; a and b meet the walls at 7.5."""
    seen = []
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=seen.append)
    world.add_plane((0, 1), 1.0)
    world.set_pass_through(3, 3)
    assert world.passes_through(3, 3)
    assert not world.passes_through(3, 0) and not world.passes_through(0, 0)
    a = world.add_sphere((2, 5), velocity=(1, 0), species=3)
    b = world.add_sphere((8, 5), velocity=(-1, 0), species=3)
    c = world.add_sphere((2, 2), velocity=(1, 0), species=3)
    d = world.add_sphere((8, 2), velocity=(-1, 0))
    e = world.add_sphere((5, 8), velocity=(0, -1), species=3)
    assert [world.get_sphere(k).species for k in (a, b, c, d, e)] == [3, 3, 3, 0, 3]
    world.advance_to(3)
    assert {world.get_sphere(k).position for k in (a, b, e)} == {(5.0, 5.0, 0.0)}
    assert world.max_overlap_now() == 0.0  # pairs that pass through are left out
    world.advance_to(11)

    def events(kind):
        return [({x.i, x.j} if kind == "sphere" else x.i, x.time) for x in seen
                if x.kind == kind]
    assert events("sphere") == [({c, d}, 2.5), ({c, d}, 10.5)]
    assert events("plane") == [(e, 6.5)]
    assert sorted(events("wall")) == sorted([(c, 6.5), (d, 6.5), (a, 7.5), (b, 7.5)])
    assert world.get_sphere(e).position == pytest.approx((5.0, 6.0, 0.0), abs=1e-12)
    assert world.get_sphere(e).velocity == (0.0, 1.0, 0.0)
    assert world.get_sphere(a).position == pytest.approx((6.0, 5.0, 0.0), abs=1e-12)
    assert world.get_sphere(b).position == pytest.approx((4.0, 5.0, 0.0), abs=1e-12)


def test_a_change_that_makes_overlapping_spheres_meet_is_refused():
    """Spheres of species that pass through each other may overlap; making
    them meet (set_species, set_pass_through) is refused with the
    library's overlap error and changes nothing; before the first advance,
    that advance refuses. Species out of range are refused too."""
    world = carom.World(dim=2, box=10, boundary="walls")
    world.set_pass_through(0, 1)
    a = world.add_sphere((5, 5), species=0)
    b = world.add_sphere((5.3, 5), species=1)  # overlapping a
    c = world.add_sphere((2, 2), species=1)
    world.advance_to(1)
    with pytest.raises(carom.Error, match="overlap") as raised:
        world.set_species(b, 0)
    assert raised.value.status == "CAROM_ERR_OVERLAP"
    assert world.get_sphere(b).species == 1
    with pytest.raises(carom.Error, match="overlap") as raised:
        world.set_pass_through(0, 1, False)
    assert raised.value.status == "CAROM_ERR_OVERLAP"
    assert world.passes_through(0, 1)
    world.set_species(c, 0)  # c overlaps nothing
    assert world.get_sphere(c).species == 0 and list(world.species()) == [0, 1, 0]
    world.advance_to(2)
    assert world.get_sphere(b).position == (5.3, 5.0, 0.0)  # still overlapping a, at rest

    fresh = carom.World(dim=2, box=10, boundary="walls")
    fresh.set_pass_through(0, 1)
    fresh.add_sphere((5, 5), species=0)
    late = fresh.add_sphere((5.3, 5), species=1)
    fresh.set_species(late, 0)  # not advanced yet: the advance checks
    with pytest.raises(carom.Error, match="overlap") as raised:
        fresh.advance_to(1)
    assert raised.value.status == "CAROM_ERR_OVERLAP"

    with pytest.raises(carom.Error, match="sphere 0: species must be below 32, not 32") as raised:
        world.set_species(a, 32)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32") as raised:
        world.add_sphere((8, 8), species=40)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 5 and 32") as raised:
        world.set_pass_through(5, 32)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 32 and 0") as raised:
        world.passes_through(32, 0)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="no sphere with id 9") as raised:
        world.set_species(9, 1)
    assert raised.value.status == "CAROM_ERR_NO_SUCH_SPHERE"
    with pytest.raises(ValueError, match="species: -1 is not a species"):
        world.set_species(a, -1)
    with pytest.raises(TypeError, match="species: expected an integer"):
        world.add_sphere((8, 8), species=1.5)
    assert world.sphere_count() == 3 and world.get_sphere(a).species == 0


def nearest_image_distances(x, box, i, j):
    dx = x[j] - x[i]
    dx -= box * np.round(dx / box)
    return np.linalg.norm(dx, axis=1)


@pytest.mark.parametrize("dim, packing", [(3, 0.3), (2, 0.45)])
def test_a_mixture_keeps_its_energy_and_apart_only_the_pairs_that_meet(dim, packing):
    """300 spheres of three species in a periodic box: 0 and 1 pass through
    themselves (Widom-Rowlinson), 0 through 2, the rest meet. Sampled
    through the run, no pair that meets ever overlaps, some pairs that
    pass through do, every contact is between species that meet, and the
    energy and momentum are kept to rounding."""
    n, radius = 300, 0.5
    scene = carom.Scene(dim, carom.box_length_for_packing(dim, n, radius, packing))
    scene.random(n, radius, seed=21) if dim == 3 else scene.lattice(n, radius)
    scene.maxwell_velocities(1.0, seed=22)
    scene.species = np.arange(n) % 3
    world = scene.create_world(record_contacts=True)
    for a, b in ((0, 0), (1, 1), (0, 2)):
        world.set_pass_through(a, b)
    table = np.array([[world.passes_through(a, b) for b in range(3)] for a in range(3)])
    assert np.array_equal(table, table.T) and table.sum() == 4
    species = world.species()
    assert np.array_equal(species, np.arange(n) % 3)
    i, j = np.triu_indices(n, 1)
    passes = table[species[i], species[j]]
    box = np.array(scene.box[:dim])
    energy, momentum = world.kinetic_energy(), np.array(world.momentum())
    overlapping = np.zeros(len(i), dtype=bool)
    contacts = 0
    for step in range(1, 41):
        world.advance_to(0.25 * step)
        recorded = world.recorded_contacts()
        spheres = recorded[recorded["kind"] == 0]
        assert not table[species[spheres["i"]], species[spheres["j"]]].any()
        contacts += len(spheres)
        x = carom.Scene.from_world(world).position[:, :dim]
        gap = nearest_image_distances(x, box, i, j) / (2 * radius) - 1
        assert gap[~passes].min() > -1e-10, step
        overlapping |= gap < -0.05
        assert world.max_overlap_now() < 1e-10
    assert contacts > 1000 and contacts == world.get_stats().collisions
    assert overlapping[passes].sum() > 50 and not overlapping[~passes].any()
    assert world.kinetic_energy() == pytest.approx(energy, rel=1e-11)
    assert np.abs(np.array(world.momentum()) - momentum).max() < 1e-10
    # Every pair meeting: the same start collides with the like species too.
    meeting = scene.create_world()
    meeting.advance_to(10)
    assert meeting.get_stats().collisions > 1.5 * contacts


def test_species_go_through_scenes_files_and_worlds(tmp_path):
    """Scene.species reaches the world (create_world), comes back from it
    (from_world, after set_species too), survives an XYZ file, resizing
    and sorting; a scene whose spheres are all of species 0 has None."""
    scene = carom.Scene(3, 12.0).random(60, 0.5, seed=3).maxwell_velocities(1.0, seed=4)
    assert scene.species is None
    assert carom.Scene.from_world(scene.create_world()).species is None
    kinds = (np.arange(60) * 7) % 5
    scene.species = kinds
    assert scene.species.dtype == np.uint32 and np.array_equal(scene.species, kinds)
    with pytest.raises(ValueError, match="read-only"):
        scene.species[0] = 1
    world = scene.create_world()
    assert [world.get_sphere(k).species for k in range(60)] == kinds.tolist()
    world.set_species(7, 31)
    kinds[7] = 31
    now = carom.Scene.from_world(world)
    assert np.array_equal(now.species, kinds)
    path = tmp_path / "species.xyz"
    now.write_xyz(path, time=world.time())
    back = carom.Scene.read_xyz(path)
    assert np.array_equal(back.species, kinds)
    for name in ("position", "velocity", "radius", "mass"):
        assert np.array_equal(getattr(back, name), getattr(now, name)), name
    again = back.create_world()
    assert np.array_equal(again.species(), kinds)
    # Sorting moves the species with the spheres; resizing keeps them, new spheres 0.
    before = {tuple(p): s for p, s in zip(back.position.tolist(), back.species.tolist())}
    back.sort_spatially()
    assert {tuple(p): s for p, s in zip(back.position.tolist(), back.species.tolist())} == before
    back.resize(62)
    assert back.species[60:].tolist() == [0, 0]
    back.species = 2  # one for all
    assert back.species.tolist() == [2] * 62
    # What Python sees first is a ValueError.
    with pytest.raises(ValueError, match="species: expected integers from 0 to 31"):
        scene.species = np.full(60, 32)
    with pytest.raises(ValueError, match="species: expected integers from 0 to 31"):
        scene.species = -np.ones(60, dtype=int)
    with pytest.raises(ValueError, match="species: expected 60 integers or one"):
        scene.species = [1, 2]
    with pytest.raises(ValueError, match="species: expected integers, got float64"):
        scene.species = np.full(60, 0.5)
    assert np.array_equal(scene.species, (np.arange(60) * 7) % 5)  # unchanged
    scene.species = np.zeros(60)  # whole numbers as floats are fine
    assert scene.species.tolist() == [0] * 60


def orbit_through_three(pass_through):
    """A sphere on an orbit (carom.Orbits, added with species 1) and three
    resting spheres on its circle, of species 0, 2, 0; the orbiting
    sphere's contacts until t = 4, as the set of spheres it touched."""
    orbits = carom.Orbits().add((10, 10, 10), 3.0, 2.0, phase=0.0, radius=0.5)
    world = carom.World(dim=3, box=20, driver=orbits, record_contacts=True)
    if pass_through:
        world.set_pass_through(1, 0)
    assert orbits.add_to(world, species=1) == [0]
    assert world.get_sphere(0).species == 1
    for t, s in zip((2.0, 3.5, 5.0), (0, 2, 0)):
        world.add_sphere((10 + 3 * math.cos(t), 10 + 3 * math.sin(t), 10), species=s)
    world.advance_to(4)
    assert orbits.misuse() == 0
    c = world.recorded_contacts()
    c = c[(c["kind"] == 0) & ((c["i"] == 0) | (c["j"] == 0))]
    return set((c["i"] + c["j"]).tolist())


def test_driven_spheres_pass_through_by_species_too():
    """The orbiting sphere, of species 1, passes through the two resting
    spheres of species 0 and knocks the one of species 2 away; with every
    pair meeting it knocks all three."""
    assert orbit_through_three(True) == {2}
    assert orbit_through_three(False) == {1, 2, 3}


def test_sensing_contacts_ended_by_a_removal_or_a_change():
    """A contact that a change of species or a removal ends is reported at
    the next advance's start as it was at the change (Contact.parting and
    Contact.ended True; recorded with parting 2), counted among the
    partings. The head-on disks (radius 0.5) touch at t = 2.5; b changes
    to a species that passes through a's at 2.75 (overlapping by 0.5) and
    back at 2.85 (its contact
    placed overlapping, by 0.7); a is removed at 2.95 (overlapping by
    0.9)."""
    world, a, b, seen = head_on(False)
    world.set_sense(1, 2)
    world.set_pass_through(1, 3)
    world.advance_to(2.75)
    world.set_species(b, 3)
    world.advance_to(2.85)
    world.set_species(b, 2)
    world.advance_to(2.95)
    world.remove_sphere(a)
    world.advance_to(3.05)
    touches = [c for c in seen if c.kind == "sphere"]
    assert [(c.parting, c.ended) for c in touches] == [
        (False, False), (True, True), (False, False), (True, True)]
    assert [c.time for c in touches] == pytest.approx([2.5, 2.75, 2.85, 2.95], abs=1e-12)
    assert [c.depth for c in touches] == pytest.approx([0.0, 0.5, 0.7, 0.9], abs=1e-12)
    changed, removed = touches[1], touches[3]
    assert (changed.i, changed.j, removed.i, removed.j) == (b, a, a, b)
    assert changed.normal == pytest.approx((-1.0, 0.0, 0.0))  # from b towards a
    assert removed.normal == pytest.approx((1.0, 0.0, 0.0))
    assert removed.velocity_after.tolist() == [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
    assert world.recorded_contacts()["parting"].tolist() == [2]  # this advance's
    stats = world.get_stats()
    assert stats.sensed_contacts == 2 and stats.sensed_partings == 2
    world.advance_to(10)
    assert len([c for c in seen if c.kind == "sphere"]) == 4


def test_sensing_species_pass_through_and_report_each_contact():
    """World.set_sense: the head-on disks pass through each other and are
    reported once, at t = 2.5 (impulse 0, velocities unchanged), counted
    as sensed, not as collisions, and when they part, at t = 3.5
    (Contact.parting, counted as a parting); then they reach the walls
    and come back, and are reported again when they touch again, at
    t = 11.5."""
    world, a, b, seen = head_on(False)
    world.set_sense(1, 2)
    assert world.senses(2, 1) and not world.passes_through(1, 2) and not world.senses(1, 1)
    world.advance_to(12)
    touches = [c for c in seen if c.kind == "sphere"]
    assert [(c.time, {c.i, c.j}, c.impulse, c.parting) for c in touches] == [
        (2.5, {a, b}, 0.0, False), (3.5, {a, b}, 0.0, True), (11.5, {a, b}, 0.0, False)]
    recorded = world.recorded_contacts()
    assert recorded[recorded["kind"] == 0]["parting"].tolist() == [0, 1, 0]
    stats = world.get_stats()
    assert stats.sensed_contacts == 2 and stats.sensed_partings == 1 and stats.collisions == 0
    assert world.get_sphere(a).velocity == (-1.0, 0.0, 0.0)  # from the wall alone
    world.set_pass_through(1, 2)  # one mode at a time
    assert world.passes_through(1, 2) and not world.senses(1, 2)
    with pytest.raises(carom.Error):
        world.senses(0, 32)
