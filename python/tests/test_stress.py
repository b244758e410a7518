"""carom.Stress, viscosity, viscosity_enskog, bulk_viscosity,
bulk_viscosity_enskog, conductivity and conductivity_enskog (stress.h):
the integrals of the pressure tensor and the heat flux against the world's
own virial, against an ideal gas's closed forms and against sums over the
recorded contacts, their refusals with the library's messages, the
Einstein-Helfand estimates against numpy (and the bulk viscosity's
against an ideal gas and a fluid's collision rate), and Enskog's
formulas."""

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
    the observer with dp = 0 and no energy carried, S is
    t sum_i m_i v_i v_i^T, off-diagonal parts and unequal masses included,
    and Q is t sum_i e_i v_i, e_i = m_i v_i^2 / 2, with equal masses (with
    unequal ones Q is not the heat flux and is refused)."""
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
    with pytest.raises(carom.Error, match=r"spheres 0 and 1 have unequal masses"):
        stress.heat_integral(world)
    scene.mass = np.ones(200)
    stress = carom.Stress()
    world = scene.create_world(response="none", on_contact=stress)
    world.advance_to(1.0)
    stress.start(world)
    world.advance_to(6.0)
    m = scene.mass
    q = stress.heat_integral(world)
    assert q.shape == (3,)
    carried = np.einsum("i,i,ia->a", 0.5 * m, (v * v).sum(axis=1), v)
    assert np.allclose(q, 5.0 * carried, rtol=0, atol=1e-12 * np.abs(carried).max())
    assert (np.abs(q) > 1e-3 * np.abs(carried).max()).all()  # every axis is there to check


@pytest.mark.parametrize("rough,unequal_masses,refusal", [
    (True, True, "unequal masses"),
    (True, False, "changed their translational energy"),
    (False, False, None)])
def test_spheres_against_their_recorded_contacts(rough, unequal_masses, refusal):
    """S and Q summed in numpy from the contacts the world records
    (kinetic parts between them; at each, r_ab dp^T and r_ab times the
    energy carried from a to b, (dE_b - dE_a) / 2, r_ab the normal times
    r_a + r_b), for spheres of unequal radii. Rough ones: then dp has a
    tangential part and S is not symmetric, so its orientation shows, and
    a contact changes the translational energy (spins take their share),
    so dE_b != -dE_a and Q is not the heat flux: refused, as it is for
    unequal masses (a mixture's energy flux carries its interdiffusion);
    S is not."""
    n = 120
    length = carom.box_length_for_packing(3, n, 0.5, 0.25)
    scene = carom.Scene(3, length).resize(n).random_radii(0.4, 0.6, seed=2).place_random(seed=3)
    scene.maxwell_velocities(1.0, seed=4)
    if unequal_masses:
        scene.mass = np.random.default_rng(5).uniform(0.5, 2.0, n)
    stress = carom.Stress()
    world = scene.create_world(on_contact=stress, record_contacts=True,
                               tangential_restitution=0.6 if rough else -1.0)
    assert world.is_rough() == rough
    stress.start(world)
    world.advance_to(4.0)
    s = stress.integral(world)
    if refusal:
        with pytest.raises(carom.Error, match=refusal):
            stress.heat_integral(world)
        q = None
    else:
        q = stress.heat_integral(world)
    contacts = world.recorded_contacts()
    assert len(contacts) > 500 and (contacts["kind"] == 0).all()
    m, r, v = scene.mass, scene.radius, scene.velocity.copy()

    def energy(k, velocity):
        return 0.5 * m[k] * velocity @ velocity

    def flux():
        return np.einsum("i,ia,ib->ab", m, v, v), 0.5 * np.einsum("i,i,ia->a", m, (v * v).sum(1), v)

    expected, expected_q, t, unequal = np.zeros((3, 3)), np.zeros(3), 0.0, 0
    for c in contacts:
        kinetic, heat = flux()
        expected += (c["time"] - t) * kinetic
        expected_q += (c["time"] - t) * heat
        t = c["time"]
        i, j = c["i"], c["j"]
        after_i, after_j = c["velocity_after"]
        gained = m[j] * (after_j - v[j])
        expected += (r[i] + r[j]) * np.outer(c["normal"], gained)
        gained_i = energy(i, after_i) - energy(i, v[i])
        gained_j = energy(j, after_j) - energy(j, v[j])
        expected_q += (r[i] + r[j]) * c["normal"] * (gained_j - gained_i) / 2
        unequal += abs(gained_i + gained_j) > 1e-6 * abs(gained_j)
        v[i], v[j] = after_i, after_j
    kinetic, heat = flux()
    expected += (4.0 - t) * kinetic
    expected_q += (4.0 - t) * heat
    assert np.allclose(s, expected, rtol=0, atol=1e-10 * np.abs(expected).max())
    antisymmetric = np.abs(s - s.T).max()
    if rough:
        assert antisymmetric > 1e-4 * np.abs(s).max()
        assert unequal > len(contacts) // 2  # the spins took or gave energy at most contacts
    else:
        assert antisymmetric < 1e-9 * np.abs(s).max() and unequal == 0
        assert np.allclose(q, expected_q, rtol=0, atol=1e-10 * np.abs(expected_q).max())


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
    with pytest.raises(carom.Error, match=r"stress: not started"):
        stress.heat_integral(world)
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
    with pytest.raises(carom.Error, match="velocity changed other than in a contact"):
        stress.heat_integral(world)
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
    with pytest.raises(carom.Error, match="spheres were added since the start"):
        stress.heat_integral(world)


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
    with pytest.raises(ValueError, match="does not give the observer its contacts"):
        stress.heat_integral(other)


def test_the_world_keeps_its_observer_alive():
    scene, world = fluid(n=100, on_contact=carom.Stress())
    gc.collect()
    world.advance_to(3.0)  # the C observer is still there to be called
    assert world.get_stats().collisions > 100


def einstein_helfand(parts, m, scale):
    """The mean of parts^2 * scale (one row an origin, one column a part)
    and the standard error of the values of the non-overlapping windows,
    each part of each a value."""
    x = parts**2 * scale
    windows = x[::m].ravel()
    return x.mean(), windows.std(ddof=1) / math.sqrt(len(windows))


def reference_viscosity(samples, m, dim, interval, volume, kt):
    """Five shear parts in 3D (the symmetrised off-diagonals, (D_xx - D_yy)
    / 2, (D_xx + D_yy - 2 D_zz) / (2 sqrt 3)), two in 2D (D_xy's and
    (D_xx - D_yy) / 2)."""
    d = samples[m:] - samples[:-m]
    pairs = [(a, b) for a in range(dim) for b in range(a + 1, dim)]
    parts = [0.5 * (d[:, a, b] + d[:, b, a]) for a, b in pairs]
    parts.append(0.5 * (d[:, 0, 0] - d[:, 1, 1]))
    if dim == 3:
        parts.append((d[:, 0, 0] + d[:, 1, 1] - 2 * d[:, 2, 2]) / (2 * math.sqrt(3)))
    assert len(parts) == {2: 2, 3: 5}[dim]
    return einstein_helfand(np.array(parts).T, m, 1 / (2 * volume * kt * m * interval))


def reference_bulk_viscosity(samples, m, dim, interval, volume, kt):
    """d = tr(D) / dim less its mean over the run, P V lag from the first
    and last samples, and the factor 1 - m / (count - 1) for that mean;
    no error (NaN) from fewer than three windows, whose values less the
    mean sum to about zero."""
    whole = len(samples) - 1
    isotropic = np.trace(samples[:, :dim, :dim], axis1=1, axis2=2) / dim
    d = isotropic[m:] - isotropic[:-m] - m * (isotropic[-1] - isotropic[0]) / whole
    scale = 1 / (2 * volume * kt * m * interval * (1 - m / whole))
    kappa, error = einstein_helfand(d[:, np.newaxis], m, scale)
    return kappa, error if whole // m >= 3 else math.nan


def reference_conductivity(samples, m, dim, interval, volume, kt):
    d = samples[m:, :dim] - samples[:-m, :dim]
    return einstein_helfand(d, m, 1 / (2 * volume * kt**2 * m * interval))


@pytest.mark.parametrize("dim, m", [(3, 1), (3, 4), (2, 3), (2, 1)])
def test_viscosity_is_the_einstein_helfand_mean(dim, m):
    samples = np.cumsum(np.random.default_rng(dim + m).normal(size=(40, 3, 3)), axis=0)
    eta, error = carom.viscosity(samples, 0.5, 100.0, 1.5, m, dim=dim)
    expected, expected_error = reference_viscosity(samples, m, dim, 0.5, 100.0, 1.5)
    assert eta == pytest.approx(expected, rel=1e-12)
    assert error == pytest.approx(expected_error, rel=1e-9)


def test_viscosity_counts_the_diagonal_shear_parts():
    """A change along the diagonal alone, traceless: only the two
    diagonal parts see it (an isotropic change, pressure, none)."""
    d = np.diag([1.0, -1.0, 0.0])
    samples = np.array([k * d for k in range(5)])
    eta, _ = carom.viscosity(samples, 1.0, 1.0, 1.0, 1)
    assert eta == pytest.approx((0.5 * 2) ** 2 / 5 / 2, rel=1e-14)  # (D_xx - D_yy) / 2 = 1 of 5
    eta, _ = carom.viscosity(samples, 1.0, 1.0, 1.0, 1, dim=2)
    assert eta == pytest.approx(1 / 2 / 2, rel=1e-14)  # 1 of 2
    isotropic = np.array([k * np.eye(3) for k in range(5)])
    assert carom.viscosity(isotropic, 1.0, 1.0, 1.0, 2)[0] == 0.0


@pytest.mark.parametrize("dim, m", [(3, 1), (3, 4), (3, 19), (2, 1), (2, 3), (2, 13)])
def test_bulk_viscosity_is_the_einstein_helfand_mean(dim, m):
    """On a random walk with a drift (a pressure, which the mean takes
    away) and, beyond dim, an S_zz that 2D must not see."""
    rng = np.random.default_rng(100 + 10 * dim + m)
    samples = np.cumsum(rng.normal(size=(40, 3, 3)) + 5 * np.eye(3), axis=0)
    if dim == 2:
        samples[:, 2, 2] = rng.normal(scale=100.0, size=40)
    kappa, error = carom.bulk_viscosity(samples, 0.5, 100.0, 1.5, m, dim=dim)
    expected, expected_error = reference_bulk_viscosity(samples, m, dim, 0.5, 100.0, 1.5)
    assert kappa == pytest.approx(expected, rel=1e-12)
    assert error == pytest.approx(expected_error, rel=1e-9, nan_ok=True)
    if dim == 2:
        samples[:, 2, 2] = 0.0
        assert carom.bulk_viscosity(samples, 0.5, 100.0, 1.5, m, dim=2)[0] == pytest.approx(
            kappa, rel=1e-12)


def test_bulk_viscosity_of_an_ideal_gas_is_zero():
    """Report-only spheres: tr S grows exactly as 2 E t, so its change
    less the mean is zero to rounding (not subtracting the mean would
    leave (2 E lag / 3)^2 in every term)."""
    length = carom.box_length_for_packing(3, 200, 0.5, 0.2)
    scene = carom.Scene(3, length).random(200, 0.5, seed=5).maxwell_velocities(1.0, seed=6)
    stress = carom.Stress()
    world = scene.create_world(response="none", on_contact=stress)
    world.advance_to(1.0)
    stress.start(world)
    interval, count = 0.01, 501
    samples = []
    for k in range(count):
        world.advance_to(1.0 + k * interval)
        samples.append(stress.integral(world))
    samples = np.array(samples)
    assert world.get_stats().collisions > 100  # contacts reached the observer, with dp = 0
    volume, kt = world.volume(), world.temperature()
    energy = 0.5 * (scene.mass * (scene.velocity**2).sum(axis=1)).sum()
    for m in (1, 7, 250):
        kappa, error = carom.bulk_viscosity(samples, interval, volume, kt, m)
        unsubtracted = (2 * energy * m * interval / 3) ** 2 / (
            2 * volume * kt * m * interval * (1 - m / (count - 1)))
        assert 0 <= kappa < 1e-20 * unsubtracted
        assert 0 <= error < 1e-20 * unsubtracted or (math.isnan(error) and m > (count - 1) / 3)


def test_bulk_viscosity_of_a_fluid_is_its_collision_rate():
    """At lag 0 the bulk part is the collisions' virial alone, a shot
    noise: (4/9) rho^2 sigma^4 g sqrt(pi m kT), g = (Z - 1) / (4 packing)
    from the same run (Enskog's kappa_E, with the measured contact value),
    here from the lags of 1 and 2 intervals, extrapolated. 80 time units
    of 500 spheres: over seeds 1 to 20 the ratio spread 0.988 to 1.015
    (0.8% standard deviation), as the error at lag 1 says."""
    n, packing, interval, span = 500, 0.25, 0.002, 80.0
    stress = carom.Stress()
    scene, world = fluid(n=n, packing=packing, seed=7, on_contact=stress)
    world.advance_to(2.0)  # melt the lattice
    world.reset_stats()
    stress.start(world)
    t0 = world.time()
    count = round(span / interval) + 1
    samples = np.empty((count, 3, 3))
    for k in range(count):
        world.advance_to(t0 + k * interval)
        samples[k] = stress.integral(world)
    volume, kt = world.volume(), world.temperature()
    rho, g = n / volume, (world.compressibility() - 1) / (4 * packing)
    instant = 4 / 9 * rho**2 * g * math.sqrt(math.pi * kt)
    one, error = carom.bulk_viscosity(samples, interval, volume, kt, 1)
    two, _ = carom.bulk_viscosity(samples, interval, volume, kt, 2)
    assert 2 * one - two == pytest.approx(instant, rel=0.04)
    assert 0 < error < 0.02 * one
    # Enskog's, with Carnahan-Starling's contact value: close at this packing.
    assert carom.bulk_viscosity_enskog(packing, 1.0, kt, 1.0) == pytest.approx(instant, rel=0.04)


@pytest.mark.parametrize("dim, m", [(3, 1), (3, 3), (3, 7), (2, 1), (2, 4), (2, 9)])
def test_conductivity_is_the_einstein_helfand_mean(dim, m):
    rng = np.random.default_rng(10 * dim + m)
    samples = np.cumsum(rng.normal(size=(50, 3)), axis=0)
    samples[:, dim:] = rng.normal(size=(50, 3 - dim))  # beyond dim: not used
    value, error = carom.conductivity(samples, 0.2, 30.0, 1.7, m, dim=dim)
    expected, expected_error = reference_conductivity(samples, m, dim, 0.2, 30.0, 1.7)
    assert value == pytest.approx(expected, rel=1e-12)
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
    with pytest.raises(ValueError, match="dim: 4 is not 2 or 3"):
        carom.viscosity(samples, 1.0, 1.0, 1.0, 1, dim=4)
    # One window of the two parts (2D): a standard error of two values.
    eta, error = carom.viscosity(samples, 1.0, 1.0, 1.0, 9, dim=2)
    assert eta == 0.0 and error == 0.0


def test_bulk_viscosity_refuses_what_it_cannot_use():
    """As viscosity, and the lag must fall short of the whole run (the
    mean is taken from it): at most n - 2 intervals."""
    samples = np.cumsum(np.ones((10, 3, 3)), axis=0)
    with pytest.raises(ValueError, match=r"\(n, 3, 3\) array, got shape \(10, 9\)"):
        carom.bulk_viscosity(np.zeros((10, 9)), 1.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match=r"\(n, 3, 3\) array, got shape \(10, 3\)"):
        carom.bulk_viscosity(np.zeros((10, 3)), 1.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match=r"lag_intervals: 9 is not from 1 to 8 \(the samples "
                                         r"number 10, and the mean is taken over the whole run"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 9)
    with pytest.raises(ValueError, match="lag_intervals: 10 is not from 1 to 8"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 10)
    with pytest.raises(ValueError, match="lag_intervals: 0"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 0)
    with pytest.raises(ValueError, match="lag_intervals: 1 is not from 1 to 0"):
        carom.bulk_viscosity(samples[:2], 1.0, 1.0, 1.0, 1)
    with pytest.raises(TypeError, match="lag_intervals"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="dim: 1 is not 2 or 3"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 1, dim=1)
    with pytest.raises(ValueError, match="interval: 0.0 is not above 0"):
        carom.bulk_viscosity(samples, 0.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match="volume: -2.0 is not above 0"):
        carom.bulk_viscosity(samples, 1.0, -2.0, 1.0, 1)
    with pytest.raises(ValueError, match="kT: 0.0 is not above 0"):
        carom.bulk_viscosity(samples, 1.0, 1.0, 0.0, 1)
    with pytest.raises(ValueError, match="kT: nan is not above 0"):
        carom.bulk_viscosity(samples, 1.0, 1.0, math.nan, 1)
    # The longest lag: two origins, one window of one value, so no error
    # (viscosity's parts give each window several values); three samples
    # and a lag of 1: two windows, which sum to zero: no error either.
    kappa, error = carom.bulk_viscosity(samples, 1.0, 1.0, 1.0, 8)
    assert kappa == 0.0 and math.isnan(error)
    kappa, error = carom.bulk_viscosity(samples[:3], 1.0, 1.0, 1.0, 1)
    assert kappa == 0.0 and math.isnan(error)


def test_conductivity_refuses_what_it_cannot_use():
    samples = np.zeros((10, 3))
    with pytest.raises(ValueError, match=r"\(n, 3\) array, got shape \(10, 3, 3\)"):
        carom.conductivity(np.zeros((10, 3, 3)), 1.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match=r"\(n, 3\) array, got shape \(10, 2\)"):
        carom.conductivity(np.zeros((10, 2)), 1.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match="lag_intervals: 10 is not from 1 to 9"):
        carom.conductivity(samples, 1.0, 1.0, 1.0, 10)
    with pytest.raises(ValueError, match="lag_intervals: 0"):
        carom.conductivity(samples, 1.0, 1.0, 1.0, 0)
    with pytest.raises(TypeError, match="lag_intervals"):
        carom.conductivity(samples, 1.0, 1.0, 1.0, 2.0)
    with pytest.raises(ValueError, match="dim: 1 is not 2 or 3"):
        carom.conductivity(samples, 1.0, 1.0, 1.0, 1, dim=1)
    with pytest.raises(ValueError, match="interval: 0.0 is not above 0"):
        carom.conductivity(samples, 0.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match="volume: -2.0 is not above 0"):
        carom.conductivity(samples, 1.0, -2.0, 1.0, 1)
    with pytest.raises(ValueError, match="kT: nan is not above 0"):
        carom.conductivity(samples, 1.0, 1.0, math.nan, 1)
    # One window: one value an axis, a standard error in 2D and 3D.
    value, error = carom.conductivity(samples, 1.0, 1.0, 1.0, 9, dim=2)
    assert value == 0.0 and error == 0.0


@pytest.mark.parametrize("packing, sigma, kt, mass", [(0.2, 1.0, 1.0, 1.0), (0.35, 0.8, 2.0, 3.0),
                                                      (0.0, 1.0, 1.0, 1.0)])
def test_viscosity_enskog_is_the_formula(packing, sigma, kt, mass):
    eta0 = 5 / (16 * sigma**2) * math.sqrt(mass * kt / math.pi)
    chi = (1 - packing / 2) / (1 - packing) ** 3
    eta = eta0 * (1 / chi + 16 / 5 * packing + 64 / 25 * (1 + 12 / math.pi) * packing**2 * chi)
    assert carom.viscosity_enskog(packing, sigma, kt, mass) == pytest.approx(eta, rel=1e-14)
    # Disks (Gass 1971), with Henderson's contact value.
    eta0 = 1 / (2 * sigma) * math.sqrt(mass * kt / math.pi)
    chi = (1 - 7 / 16 * packing) / (1 - packing) ** 2
    eta = eta0 * (1 / chi + 2 * packing + (1 + 8 / math.pi) * packing**2 * chi)
    assert carom.viscosity_enskog(packing, sigma, kt, mass, dim=2) == pytest.approx(eta,
                                                                                    rel=1e-14)
    assert math.isnan(carom.viscosity_enskog(packing, sigma, kt, mass, dim=4))


@pytest.mark.parametrize("packing, sigma, kt, mass", [(0.2, 1.0, 1.0, 1.0), (0.35, 0.8, 2.0, 3.0),
                                                      (0.0, 1.0, 1.0, 1.0)])
def test_bulk_viscosity_enskog_is_the_formula(packing, sigma, kt, mass):
    eta0 = 5 / (16 * sigma**2) * math.sqrt(mass * kt / math.pi)
    chi = (1 - packing / 2) / (1 - packing) ** 3
    kappa = eta0 * 256 / (5 * math.pi) * packing**2 * chi
    assert carom.bulk_viscosity_enskog(packing, sigma, kt, mass) == pytest.approx(kappa,
                                                                                  rel=1e-14)
    # The same as (4/9) rho^2 sigma^4 chi sqrt(pi m kT), rho = 6 packing / (pi sigma^3).
    rho = 6 * packing / (math.pi * sigma**3)
    assert kappa == pytest.approx(4 / 9 * rho**2 * sigma**4 * chi * math.sqrt(math.pi * mass * kt),
                                  rel=1e-14, abs=0.0)
    # Disks: (1/2) rho^2 sigma^3 chi sqrt(pi m kT), rho = 4 packing / (pi sigma^2).
    rho = 4 * packing / (math.pi * sigma**2)
    chi = (1 - 7 / 16 * packing) / (1 - packing) ** 2
    kappa = 0.5 * rho**2 * sigma**3 * chi * math.sqrt(math.pi * mass * kt)
    assert carom.bulk_viscosity_enskog(packing, sigma, kt, mass, dim=2) == pytest.approx(
        kappa, rel=1e-14, abs=0.0)
    assert math.isnan(carom.bulk_viscosity_enskog(packing, sigma, kt, mass, dim=1))


@pytest.mark.parametrize("packing, sigma, kt, mass", [(0.2, 1.0, 1.0, 1.0), (0.35, 0.8, 2.0, 3.0),
                                                      (0.0, 1.0, 1.0, 1.0)])
def test_conductivity_enskog_is_the_formula(packing, sigma, kt, mass):
    lambda0 = 75 / (64 * sigma**2) * math.sqrt(kt / (math.pi * mass))
    chi = (1 - packing / 2) / (1 - packing) ** 3
    expected = lambda0 * ((1 + 12 / 5 * packing * chi) ** 2 / chi
                          + 512 / (25 * math.pi) * packing**2 * chi)
    assert carom.conductivity_enskog(packing, sigma, kt, mass) == pytest.approx(expected,
                                                                                rel=1e-14)
    lambda0 = 2 / sigma * math.sqrt(kt / (math.pi * mass))
    chi = (1 - 7 / 16 * packing) / (1 - packing) ** 2
    expected = lambda0 * (1 / chi + 3 * packing + (9 / 4 + 4 / math.pi) * packing**2 * chi)
    assert carom.conductivity_enskog(packing, sigma, kt, mass, dim=2) == pytest.approx(
        expected, rel=1e-14)
    assert math.isnan(carom.conductivity_enskog(packing, sigma, kt, mass, dim=4))


def test_enskog_refuses_what_it_cannot_use():
    """Python checks only that the numbers are numbers; the library
    answers NaN for the rest."""
    for enskog in (carom.viscosity_enskog, carom.bulk_viscosity_enskog,
                   carom.conductivity_enskog):
        with pytest.raises(ValueError, match="packing: 'dense' is not a number"):
            enskog("dense", 1.0, 1.0, 1.0)
        with pytest.raises(TypeError):
            enskog(0.2, 1.0, 1.0, 1.0, dim=3.0)
        for arguments in [(1.0, 1.0, 1.0, 1.0), (-0.1, 1.0, 1.0, 1.0), (0.2, 0.0, 1.0, 1.0),
                          (0.2, 1.0, -1.0, 1.0), (0.2, 1.0, 1.0, 0.0)]:
            assert math.isnan(enskog(*arguments))
