"""Driven spheres whose motion a Python driver gives (seed 000): contact
times against closed forms, kicks taken by the driver's integrator against
the same scene with ballistic spheres, and a failing probe."""

import math

import numpy as np
import pytest

import carom


class Circle:
    """Sphere 0 goes round a circle of radius R at angular speed omega."""

    def __init__(self, center, R, omega):
        self.center, self.R, self.omega = np.array(center, float), R, omega

    def probe(self, sphere, t):
        assert sphere == 0
        angle = self.omega * t
        offset = self.R * np.array([math.cos(angle), math.sin(angle), 0.0])
        turn = self.R * self.omega * np.array([-math.sin(angle), math.cos(angle), 0.0])
        return self.center + offset, turn


@pytest.mark.parametrize("slack", [1.0, 1.5])
def test_a_driven_sphere_meets_a_resting_one_when_the_closed_form_says(slack):
    R, omega, theta, r = 3.0, 2.0, 2.0, 0.5
    circle = Circle((10, 10, 10), R, omega)
    seen = []
    world = carom.World(dim=3, box=20, driver=circle, on_contact=seen.append)
    world.add_sphere((0, 0, 0), radius=r, driven=True, accel_bound=slack * R * omega**2)
    target = world.add_sphere(circle.center + R * np.array([math.cos(theta), math.sin(theta), 0]),
                              radius=r)
    world.advance_to(1.5)
    t = (theta - 2 * math.asin(2 * r / (2 * R))) / omega
    assert len(seen) == 1
    assert seen[0].time == pytest.approx(t, abs=1e-9)
    # The driven sphere acts as an infinite mass: the resting one leaves
    # at twice the driven one's normal speed.
    x, v = circle.probe(0, seen[0].time)
    normal = (np.array(circle.center) + R * np.array([math.cos(theta), math.sin(theta), 0])
              - x) / (2 * r)
    assert np.allclose(world.get_sphere(target).velocity, 2 * np.dot(v, normal) * normal,
                       atol=1e-8)
    assert world.get_stats().bound_breaks == 0


class Straight:
    """Sphere 0 moves on straight lines, turned by the world's kicks."""

    def __init__(self, position, velocity):
        self.t0, self.x0, self.v0 = 0.0, np.array(position, float), np.array(velocity, float)
        self.kicks = []

    def probe(self, sphere, t):
        return self.x0 + self.v0 * (t - self.t0), self.v0

    def kick(self, sphere, t, delta_v):
        self.x0, self.v0 = self.probe(sphere, t)[0], self.v0 + np.array(delta_v)
        self.t0 = t
        self.kicks.append(t)


def row_of_three(driver=None):
    seen = []
    world = carom.World(dim=2, box=(30, 10), boundary="walls", driver=driver,
                        on_contact=lambda c: seen.append((c.time, {c.i, c.j})))
    world.add_sphere((3, 5), velocity=(2, 0), driven=driver is not None, accel_bound=0.1)
    world.add_sphere((10, 5))
    world.add_sphere((12.5, 5), mass=2)
    return world, seen


def test_kicks_reach_the_driver_and_it_moves_as_a_ballistic_sphere_would():
    driver = Straight((3, 5, 0), (2, 0, 0))
    driven, driven_seen = row_of_three(driver)
    ballistic, ballistic_seen = row_of_three()
    driven.advance_to(12)
    ballistic.advance_to(12)
    assert len(ballistic_seen) >= 3 and len(driven_seen) == len(ballistic_seen)
    for (t, pair), (u, other) in zip(driven_seen, ballistic_seen):
        assert pair == other and t == pytest.approx(u, abs=1e-9)
    assert driver.kicks == pytest.approx([t for t, pair in ballistic_seen if 0 in pair],
                                         abs=1e-9)
    for k in range(3):
        a, b = driven.get_sphere(k), ballistic.get_sphere(k)
        assert a.position == pytest.approx(b.position, abs=1e-8)
        assert a.velocity == pytest.approx(b.velocity, abs=1e-8)
    assert driven.get_stats().bound_breaks == 0


def test_an_exception_in_a_probe_is_raised_from_the_advance():
    class Broken(Straight):
        def probe(self, sphere, t):
            if t > 1:
                raise ArithmeticError("lost the sphere")
            return super().probe(sphere, t)

    world, _ = row_of_three(Broken((3, 5, 0), (2, 0, 0)))
    with pytest.raises(ArithmeticError, match="lost the sphere"):
        world.advance_to(12)
    assert world.time() <= 12
    with pytest.raises(TypeError, match="probe"):
        carom.World(driver=object())
