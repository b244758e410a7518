"""Restitution by species (World.set_pair_restitution, pair_restitution,
set_wall_restitution, wall_restitution): a pair's or a species' own
coefficient applies at its contacts, exactly, and nowhere else; the
others keep the world's settings; bad species and coefficients are
refused and change nothing."""

import math

import numpy as np
import pytest

import carom


def head_on(a_species=0, b_species=1, **settings):
    """Two disks of mass 1 on a head-on course in a walled box, approaching
    at speed 1 each: they touch at t = 2.5, at x = 4.5 and 5.5."""
    seen = []
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=seen.append, **settings)
    a = world.add_sphere((2, 5), velocity=(1, 0), species=a_species)
    b = world.add_sphere((8, 5), velocity=(-1, 0), species=b_species)
    return world, a, b, seen


def test_a_pair_of_species_bounces_with_its_own_restitution():
    """Species 0 and 1 with pair restitution 0.5: approaching at u = 1 each,
    they separate at 0.5 x 2u = 1, each leaving at 0.5, exactly (and
    momentum stays 0); the impulse is (1 + e) u = 1.5."""
    world, a, b, seen = head_on()
    world.set_pair_restitution(0, 1, 0.5)
    world.advance_to(4)
    assert [(c.kind, {c.i, c.j}, c.time) for c in seen] == [("sphere", {a, b}, 2.5)]
    assert seen[0].impulse == pytest.approx(1.5, rel=1e-14)
    sa, sb = world.get_sphere(a), world.get_sphere(b)
    assert sa.velocity == (-0.5, 0.0, 0.0) and sb.velocity == (0.5, 0.0, 0.0)
    assert sb.velocity[0] - sa.velocity[0] == 0.5 * 2 * 1.0
    assert sa.position == pytest.approx((4.5 - 0.5 * 1.5, 5, 0), abs=1e-12)
    assert sb.position == pytest.approx((5.5 + 0.5 * 1.5, 5, 0), abs=1e-12)
    assert world.kinetic_energy() == pytest.approx(0.25, rel=1e-14)  # 2 x 1/2 x 0.5^2


@pytest.mark.parametrize("species", [(0, 0), (1, 1), (2, 0)])
def test_other_pairs_keep_the_world_restitution(species):
    """The same approach between pairs not set: the world's restitution,
    0.8 (separating at 0.8 each), with 0-1 set to 0.5."""
    world, a, b, seen = head_on(*species, restitution=0.8)
    world.set_pair_restitution(1, 0, 0.5)  # (either order)
    world.advance_to(4)
    assert len(seen) == 1
    assert world.get_sphere(a).velocity[0] == pytest.approx(-0.8, rel=1e-14)
    assert world.get_sphere(b).velocity[0] == pytest.approx(0.8, rel=1e-14)


def test_a_species_bounces_off_walls_with_its_own_restitution():
    """A sphere of species 0 with wall restitution 0.25 meets the wall
    x = 10 at speed 2 (t = 2.25) and leaves at 0.5; one of species 1 on a
    parallel course keeps the world's wall restitution (1) and leaves at
    2. Their collisions with each other are untouched (none here)."""
    seen = []
    world = carom.World(dim=2, box=10, boundary="walls", on_contact=seen.append)
    a = world.add_sphere((5, 5), velocity=(2, 0), species=0)
    b = world.add_sphere((5, 2), velocity=(2, 0), species=1)
    world.set_wall_restitution(0, 0.25)
    world.advance_to(3)
    assert sorted((c.kind, c.i, c.time) for c in seen) == [("wall", a, 2.25), ("wall", b, 2.25)]
    sa, sb = world.get_sphere(a), world.get_sphere(b)
    assert sa.velocity == (-0.5, 0.0, 0.0) and sb.velocity == (-2.0, 0.0, 0.0)
    assert sa.position == pytest.approx((9.5 - 0.5 * 0.75, 5, 0), abs=1e-12)
    assert sb.position == pytest.approx((9.5 - 2 * 0.75, 2, 0), abs=1e-12)


def test_a_species_wall_restitution_applies_to_planes_too():
    """A plane x >= 3 + radius: species 2 with wall restitution 0.25 meets
    it at speed 1 (t = 2.5) and leaves at 0.25; species 0 beside it
    bounces back at 1."""
    world = carom.World(dim=2, box=10, boundary="walls")
    world.add_plane((1, 0), 3)
    s = world.add_sphere((6, 5), velocity=(-1, 0), species=2)
    t = world.add_sphere((6, 2), velocity=(-1, 0), species=0)
    world.set_wall_restitution(2, 0.25)
    world.advance_to(3)
    assert world.get_sphere(s).velocity == pytest.approx((0.25, 0, 0), rel=1e-14)
    assert world.get_sphere(t).velocity == pytest.approx((1, 0, 0), rel=1e-14)
    assert world.get_sphere(s).position[0] == pytest.approx(3.5 + 0.25 * 0.5, rel=1e-12)


def test_getters_give_the_defaults_until_set():
    world = carom.World(dim=3, box=10, restitution=0.7, wall_restitution=0.9)
    assert world.pair_restitution(0, 0) == 0.7 and world.pair_restitution(31, 5) == 0.7
    assert world.wall_restitution(0) == 0.9 and world.wall_restitution(31) == 0.9
    world.set_pair_restitution(3, 1, 0.25)
    world.set_wall_restitution(4, 0.5)
    assert world.pair_restitution(1, 3) == world.pair_restitution(3, 1) == 0.25
    assert world.pair_restitution(1, 1) == 0.7 and world.pair_restitution(3, 3) == 0.7
    assert world.wall_restitution(4) == 0.5 and world.wall_restitution(3) == 0.9
    world.set_pair_restitution(1, 3, 1)  # set again
    assert world.pair_restitution(3, 1) == 1.0
    fresh = carom.World(dim=2, box=10)  # the C defaults: elastic
    assert fresh.pair_restitution(0, 1) == 1.0 and fresh.wall_restitution(2) == 1.0


def test_bad_species_and_coefficients_are_refused_and_change_nothing():
    world = carom.World(dim=2, box=10, restitution=0.7, wall_restitution=0.9)
    world.set_pair_restitution(0, 1, 0.5)
    world.set_wall_restitution(1, 0.5)
    for a, b, e, words in ((0, 32, 0.5, "species must be below 32, not 32"),
                           (40, 1, 0.5, "species must be below 32, not 40"),
                           (0, 1, 1.5, r"must be in \[0, 1\], not 1.5"),
                           (0, 1, -0.1, r"must be in \[0, 1\], not -0.1"),
                           (0, 1, math.nan, r"must be in \[0, 1\], not nan"),
                           (0, 1, math.inf, r"must be in \[0, 1\], not inf")):
        with pytest.raises(carom.Error, match=words) as raised:
            world.set_pair_restitution(a, b, e)
        assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    for s, e, words in ((32, 0.5, "species must be below 32, not 32"),
                        (1, 2.0, r"must be in \[0, 1\], not 2"),
                        (1, math.nan, r"must be in \[0, 1\], not nan")):
        with pytest.raises(carom.Error, match=words) as raised:
            world.set_wall_restitution(s, e)
        assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 0 and 32") as raised:
        world.pair_restitution(0, 32)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 33") as raised:
        world.wall_restitution(33)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(ValueError, match="a: -1 is not a species"):
        world.set_pair_restitution(-1, 0, 0.5)
    with pytest.raises(ValueError, match="species: -2 is not a species"):
        world.wall_restitution(-2)
    with pytest.raises(TypeError, match="b: expected an integer"):
        world.pair_restitution(0, 1.5)
    with pytest.raises(ValueError, match="restitution: 'soft' is not a number"):
        world.set_wall_restitution(0, "soft")
    # Nothing changed.
    assert world.pair_restitution(0, 1) == 0.5 and world.pair_restitution(0, 0) == 0.7
    assert world.wall_restitution(1) == 0.5 and world.wall_restitution(0) == 0.9


def test_a_mixture_made_elastic_pair_by_pair_keeps_its_energy():
    """A world of restitution 0.5 whose three pairs of two species are all
    set to 1 keeps its kinetic energy through many collisions; the same
    start without them cools; with only 1-1 at 0.5, species 1 ends colder
    than species 0."""
    n, radius, dim = 300, 0.5, 3
    scene = carom.Scene(dim, carom.box_length_for_packing(dim, n, radius, 0.3))
    scene.random(n, radius, seed=5)
    scene.maxwell_velocities(1.0, seed=6)
    scene.species = np.arange(n) % 2

    def run(pairs):
        world = scene.create_world(restitution=0.5)
        for a, b, e in pairs:
            world.set_pair_restitution(a, b, e)
        energy = world.kinetic_energy()
        world.advance_to(3)
        return world, energy

    world, energy = run([(0, 0, 1), (0, 1, 1), (1, 1, 1)])
    assert world.get_stats().collisions > 1000
    assert world.kinetic_energy() == pytest.approx(energy, rel=1e-11)
    world, energy = run([])
    assert world.kinetic_energy() < 0.5 * energy
    world, energy = run([(0, 0, 1), (0, 1, 1)])  # 1-1 keeps 0.5
    species = world.species()
    v = carom.Scene.from_world(world).velocity
    kt = [np.mean(np.sum(v[species == k] ** 2, axis=1)) / dim for k in (0, 1)]
    assert kt[1] < 0.9 * kt[0] and world.kinetic_energy() < energy
