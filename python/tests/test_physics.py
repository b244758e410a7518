"""Equilibrium hard spheres and disks through the Python package: the
pressure from the collision virial against the equations of state of
shared/REFERENCE.md (Carnahan-Starling in 3D, Henderson in 2D), and
against the exact identity Z - 1 = Gamma sigma sqrt(pi m / kT) / (2 d)
that ties it to the collision rate Gamma."""

import math

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
