"""The Python examples run and print what they should."""

import os
import re
import subprocess
import sys

EXAMPLES = os.environ["CAROM_EXAMPLES"]


def run(name, *arguments):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *arguments],
                          check=True, capture_output=True, text=True).stdout


def test_two_spheres_prints_what_the_c_example_prints():
    out = run("two_spheres.py")
    assert re.search(r"t=2.500000: spheres (0 and 1|1 and 0) meet, impulse 2.000", out)
    assert "t=4: sphere 0 at x=3.000000 moving at -1.000000" in out


def test_hard_spheres_is_near_carnahan_starling():
    out = run("hard_spheres.py", "0.25")
    z, z_cs = map(float, re.search(r"Z = (\S+) \(Carnahan-Starling (\S+)\)", out).groups())
    assert abs(z / z_cs - 1) < 0.02


def test_speed_distribution_relaxes_to_maxwell_boltzmann(tmp_path):
    picture = tmp_path / "speeds.png"
    out = run("speed_distribution.py", str(picture))
    distances = [float(d) for d in re.findall(r"distance from Maxwell-Boltzmann (\S+)", out)]
    assert len(distances) == 4
    assert distances[0] > 1.5 and distances[-1] < 0.15
    assert distances == sorted(distances, reverse=True)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bullet_goes_through_when_stepped_and_hits_in_carom():
    out = run("bullet.py")
    assert "stepping at 60 Hz: 0 overlaps seen" in out
    hit = re.search(r"meets wall ball 44 at t = (\S+) s \(expected (\S+) s\), 1 contact", out)
    assert hit and abs(float(hit.group(1)) - float(hit.group(2))) < 1e-9
    assert "bullet now moving at -1000.0 m/s" in out


def test_diffusion_is_ballistic_then_above_enskog(tmp_path):
    picture = tmp_path / "diffusion.png"
    out = run("diffusion.py", str(picture))
    free = float(re.search(r"msd / \(3 kT t\^2\) = (\S+)", out).group(1))
    assert abs(free - 1) < 0.02
    ratio = float(re.search(r"ratio (\S+)\)", out).group(1))
    assert 1.0 < ratio < 1.35
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_granular_cooling_follows_haff_at_first(tmp_path):
    picture = tmp_path / "cooling.png"
    out = run("granular_cooling.py", str(picture))
    ratios = [float(r) for r in re.findall(r"\(ratio (\S+)\)", out)]
    assert len(ratios) == 5 and ratios[0] == 1.0
    assert abs(ratios[1] - 1) < 0.04  # t = t_H: T fell to a quarter, as the law says
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rough_cooling_settles_at_one_ratio_near_kinetic_theory():
    out = run("rough_cooling.py")
    found = re.search(r"settled R from both starts: (\S+) and (\S+); Maxwellian (\S+) ", out)
    from_zero, from_above, theory = map(float, found.groups())
    assert abs(from_zero / from_above - 1) < 0.05
    # The Maxwellian approximation is a first approximation (the example
    # says why); a wrong moment of inertia or roughness moves R by 20% or more.
    assert 0.85 < from_zero / theory < 1.0 and 0.85 < from_above / theory < 1.0


def test_widom_rowlinson_separates_when_dense():
    out = run("widom_rowlinson.py")
    rows = {float(m.group(1)): (float(m.group(2)), float(m.group(3)))
            for m in re.finditer(r"^(\d\.\d+) +\S+ +(\S+) +(\S+)$", out, re.M)}
    assert len(rows) == 5
    # Mixed below the critical density (0.7486): the order parameter stays
    # near a mixed fluid's (0.09-0.11 over seeds); above, domains form
    # (0.23-0.25 at 1.1). With unlike spheres passing through each other
    # instead, it is 0.03 at every density.
    assert rows[0.5][1] < 0.13
    assert rows[1.1][1] > 1.8 * rows[0.5][1] and rows[1.1][1] > rows[1.1][0] + 0.05
    assert rows[0.9][1] > rows[0.6][1] + 0.05


def test_jammed_packing_is_near_random_close_packing_and_isostatic():
    out = run("jammed_packing.py")
    packing = float(re.search(r"jammed at packing (\S+)", out).group(1))
    assert 0.62 < packing < 0.66
    mean = float(re.search(r"mean contacts of the rest (\S+)", out).group(1))
    assert abs(mean - 6) < 0.3


def test_incline_bounces_at_the_closed_form():
    out = run("incline.py")
    assert int(re.search(r"(\d+) bounces on the incline", out).group(1)) >= 8
    worst = re.search(r"largest difference: (\S+) in time, (\S+) in hop length", out)
    assert float(worst.group(1)) < 1e-9 and float(worst.group(2)) < 1e-9


def test_hourglass_drains_steadily_and_as_beverloo():
    out = run("hourglass.py")
    steady = [float(r) for r in re.findall(r"\((\d\.\d+)\)$", out, re.MULTILINE)]
    assert len(steady) == 3 and all(abs(r - 1) < 0.25 for r in steady)
    rates = [float(r) for r in re.findall(r"^D = \d d +(\S+)", out, re.MULTILINE)]
    assert rates == sorted(rates)
    power = float(re.search(r"rate ~ D\^(\S+) ", out).group(1))
    assert abs(power - 1.5) < 0.25


def test_rough_disks_drain_slower_with_a_positive_k():
    out = run("hourglass.py", "0.5")
    assert "tangential restitution 0.5" in out
    rates = [float(r) for r in re.findall(r"^D = \d d +(\S+)", out, re.MULTILINE)]
    assert rates == sorted(rates) and rates[0] < 8.0  # smooth disks: 10.6 at D = 4
    power, k = map(float, re.search(r"rate ~ D\^(\S+) .* k = (\S+)$", out, re.MULTILINE).groups())
    assert abs(power - 1.5) < 0.25 and 0.2 < k < 1.0


def test_silo_drains_steadily_and_as_beverloo():
    """examples/silo.py: spheres drain through a square funnel of fixed
    triangles at a steady rate growing as Beverloo's D^(5/2)."""
    out = run("silo.py")
    steady = [float(r) for r in re.findall(r"\((\d\.\d+)\)$", out, re.MULTILINE)]
    assert len(steady) == 3 and all(abs(r - 1) < 0.25 for r in steady)
    rates = [float(r) for r in re.findall(r"^D = \d d +(\S+)", out, re.MULTILINE)]
    assert rates == sorted(rates)
    power = float(re.search(r"rate ~ D\^(\S+) ", out).group(1))
    assert abs(power - 2.5) < 0.35


def test_chords_average_what_cauchy_says():
    """examples/chords.py: rays cast from the spheres' surfaces into a
    fluid (World.cast_sphere) cross the space between them in chords whose
    mean is Cauchy's (1 - eta) / (2 n r) in 2D, (1 - eta) / (pi n r^2) in
    3D, at every packing (20,000 rays each: about 1% sampling error)."""
    out = run("chords.py")
    ratios = [float(r) for r in re.findall(r"ratio (\S+)", out)]
    assert len(ratios) == 6
    assert all(abs(r - 1) < 0.03 for r in ratios), out


def test_granular_mixture_cools_out_of_equipartition(tmp_path):
    picture = tmp_path / "mixture.png"
    out = run("granular_mixture.py", str(picture))
    rows = re.findall(r"e11 = (\S+), e01 = \S+: T0/T1 = (\S+) \(Maxwellian prediction (\S+),", out)
    assert len(rows) == 5
    for e11, measured, predicted in rows:
        assert abs(float(measured) / float(predicted) - 1) < 0.025, (e11, measured, predicted)
    assert float(rows[-1][1]) > 1.2  # e11 = 0.5: species 0 clearly hotter
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_viscosity_and_conductivity_are_near_enskog(tmp_path):
    """examples/viscosity.py, a quarter of its run (500 time units): the
    trace of carom.Stress's integral is the world's pressure, eta(lag) and
    lambda(lag) rise with the lag, and the viscosity and the thermal
    conductivity from their long lags are near Enskog's (1.07 and 1.02 in
    the full run, 0.96 and 1.07 in this one; 0.93 to 1.18 and 0.89 to 1.25
    over six seeds at this length)."""
    picture = tmp_path / "viscosity.png"
    out = run("viscosity.py", str(picture), "500")
    found = re.search(r"Z = (\S+) from trace.*collision virial (\S+),", out)
    z, virial = map(float, found.groups())
    assert abs(z / virial - 1) < 1e-5
    rows = re.findall(r"^ +\d+\.\d+ +(\S+) +\S+ +\S+ +(\S+) +\S+ +\S+$", out, re.M)
    assert len(rows) == 9
    for rising in zip(*rows):
        rising = [float(r) for r in rising]
        assert rising[:6] == sorted(rising[:6])
    ratios = dict(re.findall(r"^(eta|lambda) = .*ratio (\S+)\)$", out, re.M))
    assert 0.7 < float(ratios["eta"]) < 1.4
    assert 0.7 < float(ratios["lambda"]) < 1.5
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sensors_count_the_crossings_kinetic_theory_gives():
    """The crossings in against kinetic theory; from the crossings in and
    out, the centres inside against a uniform fluid's and their stay
    against Little's law (measured 1.0006, 0.9996 and 0.9990)."""
    out = run("sensor.py")
    ratio = float(re.search(r"kinetic theory: \d+, ratio (\S+)\)", out).group(1))
    assert abs(ratio - 1) < 0.05
    assert int(re.search(r"sensed (\d+) crossings", out).group(1)) > 4000
    inside = float(re.search(r"uniform fluid: \S+, ratio (\S+)\)", out).group(1))
    stay = float(re.search(r"s / <v>: \S+, ratio (\S+)\)", out).group(1))
    assert abs(inside - 1) < 0.05 and abs(stay - 1) < 0.05


def test_couette_viscosity_from_the_heat_is_near_enskog(tmp_path):
    """examples/couette.py: 1,000 spheres at packing 0.3 sheared at rate 0.2
    (Lees-Edwards): the viscosity from the heat near Enskog's (measured
    1.040 of it, 0.7545 +- 0.0152), and the flow the spheres carry is the
    imposed one (slope 0.2031 for the rate 0.2)."""
    picture = tmp_path / "couette.png"
    out = run("couette.py", str(picture))
    eta, error, enskog, ratio = map(float, re.search(
        r"eta = (\S+) \+- (\S+) \(Enskog (\S+), ratio (\S+)\)", out).groups())
    assert 0.9 < ratio < 1.15 and 0 < error < 0.05 * eta
    slope = float(re.search(r"flow: slope (\S+) \(rate 0.2\)", out).group(1))
    assert abs(slope / 0.2 - 1) < 0.05
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
