"""carom.Stress, viscosity and viscosity_enskog (stress.h): the integral
of the pressure tensor against the world's own virial and against an
ideal gas's closed form, its refusals with the library's messages, the
Einstein-Helfand estimate against numpy, and Enskog's formula."""

import gc
import math

import numpy as np
import pytest

import carom


def fluid(n=300, packing=0.2, seed=3, **settings):
    """An elastic periodic 3D fluid, Maxwell velocities at kT = 1."""
    length = carom.box_length_for_packing(3, n, 0.5, packing)
    scene = carom.Scene(3, length).lattice(n, 0.5).maxwell_velocities(1.0, seed=seed)
    return scene, scene.create_world(**settings)


def test_trace_is_the_pressure_of_the_collision_virial():
    """trace(S) / (3 V t) is the pressure n kT Z, with Z from the world's
    own virial over the same interval: the contacts reach the C observer
    (without them trace(S) would be 3 N kT t, Z = 1) and S counts each."""
    stress = carom.Stress()
    scene, world = fluid(on_contact=stress)
    world.advance_to(2.0)  # melt the lattice
    world.reset_stats()
    stress.start(world)
    t0 = world.time()
    world.advance_to(t0 + 15.0)
    s = stress.integral(world)
    elapsed = world.time() - t0
    collisions = world.get_stats().collisions
    assert collisions > 5000
    volume, n = world.volume(), world.sphere_count()
    z = world.compressibility()
    assert z > 1.5  # Carnahan-Starling: 2.2 at packing 0.2
    pressure = np.trace(s) / (3 * volume * elapsed)
    assert pressure == pytest.approx(n / volume * world.temperature() * z, rel=1e-9)
    # Smooth spheres: dp along r_ab, S symmetric; rows and columns in order.
    assert np.allclose(s, s.T, rtol=0, atol=1e-9 * np.abs(s).max())
    # Again from a later start: the observer starts anew.
    world.reset_stats()
    stress.start(world)
    t1 = world.time()
    world.advance_to(t1 + 5.0)
    again = stress.integral(world)
    assert np.trace(again) / (3 * volume * 5.0) == pytest.approx(
        n / volume * world.temperature() * world.compressibility(), rel=1e-9)


def test_an_ideal_gas_integrates_its_kinetic_tensor():
    """Report-only spheres pass through each other: every contact reaches
    the observer with dp = 0, and S is t sum_i m_i v_i v_i^T, off-diagonal
    parts and unequal masses included."""
    length = carom.box_length_for_packing(3, 200, 0.5, 0.2)
    scene = carom.Scene(3, length).random(200, 0.5, seed=5).maxwell_velocities(1.0, seed=6)
    scene.mass = np.random.default_rng(7).uniform(0.5, 2.0, 200)
    stress = carom.Stress()
    world = scene.create_world(response="none", on_contact=stress, record_contacts=True)
    world.advance_to(1.0)
    stress.start(world)
    world.advance_to(6.0)
    assert len(world.recorded_contacts()) > 100
    s = stress.integral(world)
    m, v = scene.mass, scene.velocity
    kinetic = np.einsum("i,ia,ib->ab", m, v, v)
    assert np.allclose(s, 5.0 * kinetic, rtol=0, atol=1e-12 * np.abs(kinetic).max())
    assert abs(s[0, 1]) > 1e-3 * abs(s[0, 0])  # the off-diagonal parts are there to check


def test_rough_unequal_spheres_against_their_recorded_contacts():
    """S summed in numpy from the contacts the world records (kinetic part
    between them, r_ab dp^T at each, r_ab the normal times r_a + r_b),
    for rough spheres of unequal radii and masses: then dp has a
    tangential part and S is not symmetric, so its orientation shows."""
    n = 120
    length = carom.box_length_for_packing(3, n, 0.5, 0.25)
    scene = carom.Scene(3, length).resize(n).random_radii(0.4, 0.6, seed=2).place_random(seed=3)
    scene.maxwell_velocities(1.0, seed=4)
    scene.mass = np.random.default_rng(5).uniform(0.5, 2.0, n)
    stress = carom.Stress()
    world = scene.create_world(on_contact=stress, record_contacts=True,
                               tangential_restitution=0.6)
    assert world.is_rough()
    stress.start(world)
    world.advance_to(4.0)
    s = stress.integral(world)
    contacts = world.recorded_contacts()
    assert len(contacts) > 500 and (contacts["kind"] == 0).all()
    m, r, v = scene.mass, scene.radius, scene.velocity.copy()
    expected, t = np.zeros((3, 3)), 0.0
    for c in contacts:
        expected += (c["time"] - t) * np.einsum("i,ia,ib->ab", m, v, v)
        t = c["time"]
        i, j = c["i"], c["j"]
        gained = m[j] * (c["velocity_after"][1] - v[j])
        expected += (r[i] + r[j]) * np.outer(c["normal"], gained)
        v[i], v[j] = c["velocity_after"]
    expected += (4.0 - t) * np.einsum("i,ia,ib->ab", m, v, v)
    assert np.allclose(s, expected, rtol=0, atol=1e-10 * np.abs(expected).max())
    antisymmetric = s - s.T
    assert np.abs(antisymmetric).max() > 1e-4 * np.abs(s).max()


def test_refusals_carry_the_library_message():
    # A walled box: walls take momentum.
    stress = carom.Stress()
    world = carom.World(dim=3, box=10, boundary="walls", on_contact=stress)
    world.add_sphere((5, 5, 5), velocity=(1, 0, 0))
    with pytest.raises(carom.Error) as raised:
        stress.start(world)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    assert raised.value.message.startswith("stress: refused for a world with a box that is not "
                                           "periodic along every axis")
    # Periodic but for one axis: refused too.
    stress = carom.Stress()
    world = carom.World(dim=3, box=10, boundary=("periodic", "periodic", "walls"),
                        on_contact=stress)
    world.add_sphere((5, 5, 5))
    with pytest.raises(carom.Error, match="not periodic along every axis"):
        stress.start(world)
    # An obstacle of infinite mass.
    stress = carom.Stress()
    world = carom.World(dim=3, box=10, on_contact=stress)
    world.add_sphere((5, 5, 5), mass=math.inf)
    with pytest.raises(carom.Error, match=r"sphere 0 of mass inf \(infinite masses"):
        stress.start(world)
    # No spheres; and an integral before any start.
    stress = carom.Stress()
    world = carom.World(dim=3, box=10, on_contact=stress)
    with pytest.raises(carom.Error, match="stress: refused for a world without spheres"):
        stress.start(world)
    with pytest.raises(carom.Error, match=r"stress: not started"):
        stress.integral(world)
    # A velocity set between the start and the integral.
    stress = carom.Stress()
    scene, world = fluid(n=100, on_contact=stress)
    stress.start(world)
    world.advance_to(1.0)
    stress.integral(world)  # fine so far
    world.set_velocity(7, (0.5, 0.0, 0.0))
    with pytest.raises(carom.Error) as raised:
        stress.integral(world)
    assert raised.value.status == "CAROM_ERR_INVALID_ARGUMENT"
    assert "velocity changed other than in a contact the observer was given" in raised.value.message
    assert "carom_world_set_velocity" in raised.value.message
    world.advance_to(2.0)
    stress.start(world)  # a new start accepts the world as it is
    world.advance_to(3.0)
    assert np.isfinite(stress.integral(world)).all()
    # A sphere added since the start.
    rng = np.random.default_rng(1)
    free = next(x for x in rng.uniform(0, world.get_def()["box"][0], (100, 3))
                if not world.query_sphere(x, 0.5))
    world.add_sphere(free)
    with pytest.raises(carom.Error, match="spheres were added since the start"):
        stress.integral(world)


def double_every_velocity(world):
    for k in range(world.sphere_capacity()):
        world.set_velocity(k, 2 * np.array(world.get_sphere(k).velocity))


def thermostat(world):
    carom.Andersen(kT=1.0, rate=1.0, seed=2).advance_to(world, world.time() + 1.0)


def grow_a_while(world):
    world.set_growth(0.05)
    world.advance_to(world.time() + 2.0)
    world.set_growth(0.0)


def started_fluid():
    stress = carom.Stress()
    scene, world = fluid(n=100, on_contact=stress)
    world.advance_to(1.0)
    stress.start(world)
    return stress, world


@pytest.mark.parametrize("change", [double_every_velocity, thermostat])
def test_a_velocity_change_followed_by_contacts_is_still_refused(change):
    """Once the changed spheres have met others, their velocities agree
    with the world's again: the contacts themselves must show the change."""
    stress, world = started_fluid()
    change(world)
    world.advance_to(world.time() + 4.0)  # every sphere meets others
    with pytest.raises(carom.Error, match="velocity changed other than in a contact"):
        stress.integral(world)


def test_spheres_grown_since_the_start_are_refused():
    stress, world = started_fluid()
    grow_a_while(world)
    world.advance_to(world.time() + 4.0)
    with pytest.raises(carom.Error, match="radius changed since the start"):
        stress.integral(world)


def test_one_observer_for_one_world_that_feeds_it():
    stress = carom.Stress()
    scene, world = fluid(n=50, on_contact=stress)
    # Another world cannot take it, nor can one that does not feed it use it.
    with pytest.raises(ValueError, match="already observes another world"):
        scene.create_world(on_contact=stress)
    other = scene.create_world()
    with pytest.raises(ValueError, match="does not give the observer its contacts"):
        stress.start(other)
    # A Python callback and the observer together: one of them only.
    with pytest.raises(TypeError, match="single on_contact"):
        scene.create_world(on_contact=(stress, print))
    # Once its world is closed, the observer may watch a new one.
    world.close()
    again = scene.create_world(on_contact=stress)
    stress.start(again)
    again.advance_to(1.0)
    assert stress.integral(again).shape == (3, 3)


def test_the_world_keeps_its_observer_alive():
    scene, world = fluid(n=100, on_contact=carom.Stress())
    gc.collect()
    world.advance_to(3.0)  # the C observer is still there to be called
    assert world.get_stats().collisions > 100


def reference_viscosity(samples, m, dim, interval, volume, kt):
    d = samples[m:] - samples[:-m]
    pairs = [(a, b) for a in range(dim) for b in range(a + 1, dim)]
    x = np.array([(0.5 * (d[:, a, b] + d[:, b, a])) ** 2 for a, b in pairs]).T
    x /= 2 * volume * kt * m * interval
    windows = x[::m].ravel()
    return x.mean(), windows.std(ddof=1) / math.sqrt(len(windows))


@pytest.mark.parametrize("dim, m", [(3, 1), (3, 4), (2, 3)])
def test_viscosity_is_the_einstein_helfand_mean(dim, m):
    samples = np.cumsum(np.random.default_rng(dim + m).normal(size=(40, 3, 3)), axis=0)
    eta, error = carom.viscosity(samples, 0.5, 100.0, 1.5, m, dim=dim)
    expected, expected_error = reference_viscosity(samples, m, dim, 0.5, 100.0, 1.5)
    assert eta == pytest.approx(expected, rel=1e-12)
    assert error == pytest.approx(expected_error, rel=1e-9)


def test_viscosity_refuses_what_it_cannot_use():
    samples = np.zeros((10, 3, 3))
    with pytest.raises(ValueError, match=r"\(n, 3, 3\)"):
        carom.viscosity(np.zeros((10, 9)), 1.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match="lag_intervals: 10 is not from 1 to 9"):
        carom.viscosity(samples, 1.0, 1.0, 1.0, 10)
    with pytest.raises(ValueError, match="lag_intervals: 0"):
        carom.viscosity(samples, 1.0, 1.0, 1.0, 0)
    with pytest.raises(TypeError, match="lag_intervals"):
        carom.viscosity(samples, 1.0, 1.0, 1.0, 1.5)
    with pytest.raises(ValueError, match="kT: -1.0 is not above 0"):
        carom.viscosity(samples, 1.0, 1.0, -1.0, 1)
    # One window of one pair (2D) only: no standard error.
    eta, error = carom.viscosity(samples, 1.0, 1.0, 1.0, 9, dim=2)
    assert eta == 0.0 and math.isnan(error)


@pytest.mark.parametrize("packing, sigma, kt, mass", [(0.2, 1.0, 1.0, 1.0), (0.35, 0.8, 2.0, 3.0),
                                                      (0.0, 1.0, 1.0, 1.0)])
def test_viscosity_enskog_is_the_formula(packing, sigma, kt, mass):
    eta0 = 5 / (16 * sigma**2) * math.sqrt(mass * kt / math.pi)
    chi = (1 - packing / 2) / (1 - packing) ** 3
    eta = eta0 * (1 / chi + 16 / 5 * packing + 64 / 25 * (1 + 12 / math.pi) * packing**2 * chi)
    assert carom.viscosity_enskog(packing, sigma, kt, mass) == pytest.approx(eta, rel=1e-14)
    assert math.isnan(carom.viscosity_enskog(packing, sigma, kt, mass, dim=2))
