"""Equilibrium hard spheres and disks through the Python package: the
pressure from the collision virial against the equations of state of
shared/REFERENCE.md (Carnahan-Starling in 3D, Henderson in 2D), and
against the exact identity Z - 1 = Gamma sigma sqrt(pi m / kT) / (2 d)
that ties it to the collision rate Gamma."""

import math

import numpy as np
import pytest

import carom


def carnahan_starling(eta):
    return (1 + eta + eta**2 - eta**3) / (1 - eta) ** 3


def henderson(eta):
    return (1 + eta**2 / 8) / (1 - eta) ** 2


@pytest.mark.parametrize("dim, n, eta, equation, duration",
                         [(3, 864, 0.35, carnahan_starling, 180), (2, 900, 0.45, henderson, 450)])
def test_pressure_follows_the_equation_of_state(dim, n, eta, equation, duration):
    length = carom.box_length_for_packing(dim, n, 0.5, eta)
    scene = carom.Scene(dim, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=21)
    world = scene.create_world()
    world.advance_to(5)
    world.reset_stats()
    energy = world.kinetic_energy()
    world.advance_to(5 + duration)
    stats = world.get_stats()
    z = world.compressibility()
    print(f"{dim}D eta {eta}: Z = {z:.5f} against {equation(eta):.5f}, "
          f"{stats.collisions} collisions")
    assert stats.collisions > 10**6
    assert z == pytest.approx(equation(eta), rel=0.01)
    rate = 2 * stats.collisions / (n * stats.elapsed)
    assert z - 1 == pytest.approx(rate * math.sqrt(math.pi) / (2 * dim), rel=0.01)
    assert world.kinetic_energy() == pytest.approx(energy, rel=1e-10)
    assert world.max_overlap_now() == 0.0


def test_growth_compresses_a_fluid_to_carnahan_starling():
    """Spheres grown from packing 0.25 to 0.4 (set_growth), velocities kept
    at kT = 1 on the way, then left to run: Z of Carnahan-Starling at 0.4
    within 2%; the packing follows 0.25 (1 + rate t)^3 exactly."""
    n, rate = 800, 0.01
    length = carom.box_length_for_packing(3, n, 0.5, 0.25)
    world = carom.Scene(3, length).random(n, 0.5, seed=3).maxwell_velocities(
        1.0, seed=4).create_world()
    world.set_growth(rate)
    assert world.growth() == rate
    t_end = ((0.4 / 0.25) ** (1 / 3) - 1) / rate
    for t in np.arange(1.0, t_end, 1.0):
        world.advance_to(t)
        assert world.packing_fraction() == pytest.approx(0.25 * (1 + rate * t) ** 3, rel=1e-12)
        scene = carom.Scene.from_world(world)
        factor = 1 / math.sqrt(world.temperature())
        for sphere, v in zip(world.ids(), scene.velocity):
            world.set_velocity(int(sphere), v * factor)
    world.advance_to(t_end)
    world.set_growth(0)
    assert world.packing_fraction() == pytest.approx(0.4, rel=1e-12)
    world.advance_to(t_end + 10)
    world.reset_stats()
    world.advance_to(t_end + 40)
    assert world.compressibility() == pytest.approx(6.9259, rel=0.02)
    assert world.max_overlap_now() < 1e-9
    with pytest.raises(carom.Error, match="rate"):
        world.set_growth(-1)
