"""Friction by species (World.set_pair_friction, pair_friction,
set_wall_friction, wall_friction, is_rough): a pair's or a species' own
tangential restitution and Coulomb limit apply at its contacts and
nowhere else; the others keep the world's settings; a beta other than -1
anywhere makes the world rough; bad species and coefficients are refused
and change nothing."""

import math

import pytest

import carom

INERTIA = 0.5  # a solid disk: I = m r^2 / 2


def glancing_pairs():
    """Two pairs of disks (radius 0.5, mass 1) in a walled 2D box, each on a
    glancing course (centres 0.5 apart across the motion, contact distance
    1), approaching at speed 1 each: species 1 at y = 5, species 0 at
    y = 12. They touch at t = 3 - sqrt(0.75)/2, far from the walls."""
    seen = []
    world = carom.World(dim=2, box=20, boundary="walls", inertia_factor=INERTIA,
                        on_contact=seen.append)
    rough = [world.add_sphere((2, 5), velocity=(1, 0), species=1),
             world.add_sphere((8, 5.5), velocity=(-1, 0), species=1)]
    smooth = [world.add_sphere((2, 12), velocity=(1, 0), species=0),
              world.add_sphere((8, 12.5), velocity=(-1, 0), species=0)]
    return world, rough, smooth, seen


def angular_momentum(world, ids):
    """L_z about the origin: orbital m (x vy - y vx) plus spin I w_z."""
    total = 0.0
    for k in ids:
        s = world.get_sphere(k)
        total += s.mass * (s.position[0] * s.velocity[1] - s.position[1] * s.velocity[0])
        total += INERTIA * s.mass * s.radius ** 2 * world.get_spin(k)[2]
    return total


def test_a_perfectly_rough_pair_spins_and_keeps_its_energy_while_another_stays_smooth():
    """Species 1-1 perfectly rough (beta 1, no Coulomb limit): the
    glancing collision turns both disks the same way and keeps the
    energy, translation and rotation together, and the angular momentum
    (orbital and spin) of the pair, to rounding; species 0's pair,
    smooth, meets at the same time and keeps no spin."""
    world, rough, smooth, seen = glancing_pairs()
    assert not world.is_rough()
    world.set_pair_friction(1, 1, 1.0)
    assert world.is_rough()
    assert world.pair_friction(1, 1) == (1.0, math.inf)
    assert all(world.get_spin(k) == (0.0, 0.0, 0.0) for k in rough + smooth)
    energy = world.kinetic_energy()
    momentum = angular_momentum(world, rough)
    world.advance_to(4)
    t = 3 - math.sqrt(0.75) / 2
    assert sorted((c.kind, frozenset((c.i, c.j))) for c in seen) == sorted(
        [("sphere", frozenset(rough)), ("sphere", frozenset(smooth))])
    assert all(c.time == pytest.approx(t, rel=1e-12) for c in seen)
    spins = [world.get_spin(k)[2] for k in rough]
    assert abs(spins[0]) > 0.1 and spins[0] == pytest.approx(spins[1], rel=1e-12)
    assert all(world.get_spin(k) == (0.0, 0.0, 0.0) for k in smooth)
    assert world.rotational_energy() > 0.05 * energy
    assert world.kinetic_energy() + world.rotational_energy() == pytest.approx(energy, rel=1e-13)
    assert angular_momentum(world, rough) == pytest.approx(momentum, abs=1e-12)


def test_smooth_pairs_of_a_rough_world_turn_nothing():
    """The world rough by its own setting, the pair 0-0 set smooth
    (beta -1): species 0's disks keep no spin, species 1's turn."""
    world, rough, smooth, _ = glancing_pairs()
    world.set_pair_friction(0, 0, -1.0)
    assert not world.is_rough()
    world.set_pair_friction(1, 1, 0.0)
    world.advance_to(4)
    assert all(world.get_spin(k) == (0.0, 0.0, 0.0) for k in smooth)
    assert all(abs(world.get_spin(k)[2]) > 0.1 for k in rough)


def test_a_species_gets_a_spin_from_a_rough_wall():
    """Species 1 with wall friction beta 0 (no limit) meets the wall x = 10
    at velocity (1, 1): the contact point stops slipping, exactly
    vy' = vy (1 - k/(1+k)) = 2/3 and w = -vy k/(1+k) / (k r) = -4/3 for
    a solid disk (k = 1/2, r = 1/2), vx reversed; a disk of species 0 on a
    parallel course keeps the world's smooth walls (no spin, vy kept)."""
    world = carom.World(dim=2, box=10, boundary="walls", inertia_factor=INERTIA)
    a = world.add_sphere((5, 1), velocity=(1, 1), species=1)
    b = world.add_sphere((5, 4), velocity=(1, 1), species=0)
    assert not world.is_rough()
    world.set_wall_friction(1, 0.0)
    assert world.is_rough() and world.wall_friction(1) == (0.0, math.inf)
    assert world.wall_friction(0) == (-1.0, math.inf)
    world.advance_to(4.6)  # the wall at t = 4.5, the top (y = 9.5) not before 5.5
    sa, sb = world.get_sphere(a), world.get_sphere(b)
    assert sa.velocity == pytest.approx((-1, 2 / 3, 0), rel=1e-13)
    assert world.get_spin(a) == pytest.approx((0, 0, -4 / 3), rel=1e-13)
    assert sb.velocity == pytest.approx((-1, 1, 0), rel=1e-13)
    assert world.get_spin(b) == (0.0, 0.0, 0.0)


def test_getters_give_the_defaults_until_set():
    world = carom.World(dim=3, box=10, tangential_restitution=0.5, friction=0.3,
                        wall_tangential_restitution=0.25, wall_friction=0.7)
    assert world.is_rough()
    assert world.pair_friction(0, 0) == (0.5, 0.3) and world.pair_friction(31, 5) == (0.5, 0.3)
    assert world.wall_friction(0) == (0.25, 0.7) and world.wall_friction(31) == (0.25, 0.7)
    world.set_pair_friction(3, 1, 1.0, 0.2)
    world.set_wall_friction(4, -1.0)  # (friction: no limit)
    assert world.pair_friction(1, 3) == world.pair_friction(3, 1) == (1.0, 0.2)
    assert world.pair_friction(1, 1) == (0.5, 0.3) and world.pair_friction(3, 3) == (0.5, 0.3)
    assert world.wall_friction(4) == (-1.0, math.inf) and world.wall_friction(3) == (0.25, 0.7)
    fresh = carom.World(dim=2, box=10)  # the C defaults: smooth, no limit
    assert fresh.pair_friction(0, 1) == (-1.0, math.inf)
    assert fresh.wall_friction(2) == (-1.0, math.inf)
    assert not fresh.is_rough()


def test_is_rough_follows_every_law_in_force():
    """Rough while some beta in force is other than -1, pairs or walls;
    smooth again when every one is -1; never with response none."""
    world = carom.World(dim=2, box=10)
    world.set_pair_friction(0, 1, -1.0, 0.5)
    assert not world.is_rough()
    world.set_pair_friction(0, 1, 0.5)
    world.set_wall_friction(7, 1.0)
    assert world.is_rough()
    world.set_pair_friction(1, 0, -1.0)
    assert world.is_rough()  # the wall law still
    world.set_wall_friction(7, -1.0)
    assert not world.is_rough()
    passive = carom.World(dim=2, box=10, response="none")
    passive.set_pair_friction(0, 0, 1.0)
    assert not passive.is_rough() and passive.pair_friction(0, 0) == (1.0, math.inf)


def test_bad_species_and_coefficients_are_refused_and_change_nothing():
    world = carom.World(dim=2, box=10)
    world.set_pair_friction(0, 1, 0.5, 0.2)
    world.set_wall_friction(1, 0.5, 0.1)
    for a, b, beta, mu, words in (
            (0, 32, 0.5, 0.1, "species must be below 32, not 32"),
            (40, 1, 0.5, 0.1, "species must be below 32, not 40"),
            (0, 1, 1.5, 0.1, r"tangential restitution must be in \[-1, 1\].*not 1.5"),
            (0, 1, -1.01, 0.1, r"tangential restitution must be in \[-1, 1\].*not -1.01"),
            (0, 1, math.nan, 0.1, r"tangential restitution must be in \[-1, 1\].*not nan"),
            (0, 1, 0.5, -1.0, "friction coefficient must be at least 0.*not -1"),
            (0, 1, 0.5, math.nan, "friction coefficient must be at least 0.*not nan")):
        with pytest.raises(carom.Error, match=words) as raised:
            world.set_pair_friction(a, b, beta, mu)
        assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    for s, beta, mu, words in ((32, 0.5, 0.1, "species must be below 32, not 32"),
                               (1, 2.0, 0.1, r"must be in \[-1, 1\].*not 2"),
                               (1, 0.5, -0.5, "must be at least 0.*not -0.5")):
        with pytest.raises(carom.Error, match=words) as raised:
            world.set_wall_friction(s, beta, mu)
        assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 0 and 32") as raised:
        world.pair_friction(0, 32)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(carom.Error, match="species must be below 32, not 33") as raised:
        world.wall_friction(33)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    with pytest.raises(ValueError, match="a: -1 is not a species"):
        world.set_pair_friction(-1, 0, 0.5)
    with pytest.raises(TypeError, match="b: expected an integer"):
        world.pair_friction(0, 1.5)
    with pytest.raises(ValueError, match="tangential_restitution: 'rough' is not a number"):
        world.set_wall_friction(0, "rough")
    with pytest.raises(ValueError, match="friction: 'sticky' is not a number"):
        world.set_pair_friction(0, 0, 0.5, "sticky")
    # Nothing changed.
    assert world.pair_friction(0, 1) == (0.5, 0.2) and world.pair_friction(0, 0) == (-1, math.inf)
    assert world.wall_friction(1) == (0.5, 0.1) and world.wall_friction(0) == (-1, math.inf)
    assert world.is_rough()
