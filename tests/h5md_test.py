#!/usr/bin/env python3
"""The H5MD trajectories of `carom run` (trajectory=FILE.h5), read back
with h5py: the layout of H5MD 1.1, and every frame equal to the extended
XYZ frames of the same run (which keep every double exactly), spins too
(/particles/all/spin, rough runs only), species too (/particles/all/
species, runs with species only); and runs restarted from a trajectory's
last frame (init=FILE.h5) equal to runs restarted from the final XYZ
state, spins, species and all; and sheared runs' boxes (a series of
tilted edges) and their restarts.

usage: h5md_test.py CAROM WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

CAROM, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)


def run(*keys):
    done = subprocess.run([CAROM, "run", *keys], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def read_xyz(path):
    frames, lines = [], open(path).read().splitlines()
    while lines:
        n = int(lines[0])
        frames.append((lines[1], np.array([[float(x) for x in row.split()[1:]]
                                           for row in lines[2:2 + n]])))
        lines = lines[2 + n:]
    return frames


def check_run(name, keys, dim, boundary):
    h5, xyz = os.path.join(WORK, name + ".h5"), os.path.join(WORK, name + ".xyz")
    for path in (h5, xyz):
        code, _, err = run(*keys, "trajectory=" + path)
        assert code == 0, err
    frames = read_xyz(xyz)
    with h5py.File(h5, "r") as f:
        assert list(f["h5md"].attrs["version"]) == [1, 1]
        assert f["h5md/creator"].attrs["name"] == b"carom"
        assert f["h5md/author"].attrs["name"]
        box = f["particles/all/box"]
        assert box.attrs["dimension"] == dim
        assert [b.decode() for b in box.attrs["boundary"]] == [boundary] * dim
        particles = f["particles/all"]
        position, velocity = particles["position"], particles["velocity"]
        n = len(frames[0][1])
        assert position["value"].shape == (len(frames), n, dim)
        assert velocity["value"].shape == (len(frames), n, dim)
        assert list(position["step"][:]) == list(range(len(frames)))
        assert np.array_equal(position["time"][:], velocity["time"][:])
        radius, mass = particles["radius"][:], particles["mass"][:]
        energy = f["observables/kinetic_energy/value"][:]
        for k, (comment, rows) in enumerate(frames):
            time = float(comment.split("Time=")[1].split()[0])
            assert position["time"][k] == time
            assert np.array_equal(position["value"][k], rows[:, 0:dim]), (name, k)
            assert np.array_equal(velocity["value"][k], rows[:, 3:3 + dim]), (name, k)
            assert np.array_equal(radius, rows[:, 6])
            v = velocity["value"][k]
            expected = 0.5 * np.sum(mass[:, None] * v * v)
            assert abs(energy[k] - expected) <= 1e-12 * expected, (energy[k], expected)
        assert "spin" not in particles, name  # smooth runs: as before spins existed
        assert "species" not in particles, name  # one species: as before species existed
        # Images (position + image * edges unwraps) where an axis is periodic.
        assert ("image" in particles) == (boundary == "periodic"), name
        if boundary == "periodic":
            assert particles["image"]["value"].shape == position["value"].shape
            assert particles["image"]["value"].dtype.kind == "i"
            assert np.array_equal(particles["image"]["time"][:], position["time"][:])
        lattice = frames[0][0].split('Lattice="')[1].split('"')[0].split()
        edges = [float(lattice[4 * a]) for a in range(dim)]
        assert np.array_equal(box["edges"][:], edges)
    return len(frames)


assert check_run("periodic_2d", ["dim=2", "n=200", "packing=0.3", "equilibrate=0.5", "time=2",
                                 "frame_interval=0.5"], 2, "periodic") == 5
assert check_run("walls_3d", ["dim=3", "n=300", "packing=0.2", "boundary=walls",
                              "radius=0.4", "radius_max=0.6", "gravity=1", "equilibrate=0",
                              "time=1", "frame_interval=0.1"], 3, "none") == 11



def unwrapped(particles, k):
    edges = particles["box/edges"][:]
    return particles["position/value"][k] + particles["image/value"][k] * edges


def check_straight_images():
    """Report-only spheres fly straight: position + image * edges at every
    frame is the first frame's plus velocity times time (to 1e-9), across
    many wraps; and an axis with walls has image 0."""
    for name, keys, dim in (
            ("straight_3d", ["dim=3", "n=300", "packing=0.1", "speed=5,20"], 3),
            ("straight_2d_mixed", ["dim=2", "n=200", "packing=0.1", "speed=5,20",
                                   "boundary=walls,periodic"], 2)):
        h5 = os.path.join(WORK, name + ".h5")
        code, _, err = run(*keys, "response=none", "equilibrate=0", "time=6",
                           "frame_interval=1", "trajectory=" + h5)
        assert code == 0, err
        with h5py.File(h5, "r") as f:
            particles = f["particles/all"]
            times = particles["position/time"][:]
            start, v = unwrapped(particles, 0), particles["velocity/value"][0]
            image = particles["image/value"][:]
            walled = [k for k in range(dim)
                      if particles["box"].attrs["boundary"][k] == b"none"]
            assert all(not image[:, :, k].any() for k in walled), name
            assert np.abs(image).max() >= 3, name  # wrapped many times
            for k in range(len(times)):
                if walled:  # straight only along the periodic axis
                    continue
                expected = start + v * (times[k] - times[0])
                error = np.abs(unwrapped(particles, k) - expected).max()
                assert error <= 1e-9 * (1 + np.abs(expected).max()), (name, k, error)
            if walled:
                y = 1  # the periodic axis: its velocity never changes
                assert np.array_equal(particles["velocity/value"][-1][:, y], v[:, y])
                expected = start[:, y] + v[:, y] * (times[-1] - times[0])
                error = np.abs(unwrapped(particles, len(times) - 1)[:, y] - expected).max()
                assert error <= 1e-9 * (1 + np.abs(expected).max()), (name, error)


def check_msd_matches_images():
    """msd=on's mean-square displacement is the one the trajectory's images
    give between its first and last frames (an elastic gas)."""
    h5 = os.path.join(WORK, "msd.h5")
    code, out, err = run("n=400", "packing=0.25", "equilibrate=1", "time=5", "frame_interval=5",
                         "msd=on", "--json", "trajectory=" + h5)
    assert code == 0, err
    msd = json.loads(out)["mean_square_displacement"]
    with h5py.File(h5, "r") as f:
        particles = f["particles/all"]
        assert len(particles["position/time"]) == 2
        moved = unwrapped(particles, 1) - unwrapped(particles, 0)
        from_file = np.mean(np.sum(moved * moved, axis=1))
    assert abs(msd - from_file) <= 1e-9 * from_file, (msd, from_file)
    assert msd > 1.0  # well beyond a box-length error's hiding place


def check_restart_continues_images():
    """A run restarted from a trajectory (init=FILE.h5) takes its images
    from the file's last frame: unwrapped positions go on along the same
    straight lines (report-only spheres) instead of starting at image 0.
    An axis the restart makes walls keeps image 0; malformed images are
    one line naming the file, exit 2."""
    first, second = os.path.join(WORK, "images_a.h5"), os.path.join(WORK, "images_b.h5")
    code, _, err = run("dim=3", "n=200", "packing=0.1", "speed=5,20", "response=none",
                       "equilibrate=0", "time=3", "frame_interval=1", "trajectory=" + first)
    assert code == 0, err
    code, _, err = run("init=" + first, "response=none", "equilibrate=0", "time=3",
                       "frame_interval=1", "trajectory=" + second)
    assert code == 0, err
    with h5py.File(first, "r") as a, h5py.File(second, "r") as b:
        pa, pb = a["particles/all"], b["particles/all"]
        last = len(pa["position/time"]) - 1
        assert np.abs(pa["image/value"][last]).max() >= 2  # wrapped before the restart
        assert np.array_equal(pb["image/value"][0], pa["image/value"][last])
        assert np.array_equal(unwrapped(pb, 0), unwrapped(pa, last))
        start, v = unwrapped(pa, 0), pa["velocity/value"][0]
        elapsed = pa["position/time"][last] - pa["position/time"][0]
        times = pb["position/time"][:]
        for k in range(len(times)):
            expected = start + v * (elapsed + times[k] - times[0])
            error = np.abs(unwrapped(pb, k) - expected).max()
            assert error <= 1e-9 * (1 + np.abs(expected).max()), (k, error)
    inside = os.path.join(WORK, "images_inside.h5")  # clear of walls along x
    shutil.copyfile(first, inside)
    with h5py.File(inside, "r+") as f:
        edges = f["particles/all/box/edges"][:]
        x = f["particles/all/position/value"][-1, :, 0]
        f["particles/all/position/value"][-1, :, 0] = np.clip(x, 0.6, edges[0] - 0.6)
        assert f["particles/all/image/value"][-1, :, 0].any()
    walled = os.path.join(WORK, "images_walled.h5")
    code, _, err = run("init=" + inside, "boundary=walls,periodic,periodic", "response=none",
                       "equilibrate=0", "time=1", "frame_interval=1", "trajectory=" + walled)
    assert code == 0, err
    with h5py.File(walled, "r") as f:
        image = f["particles/all/image/value"][:]
        assert not image[:, :, 0].any() and image[0, :, 1:].any()
    broken = os.path.join(WORK, "images_broken.h5")
    with h5py.File(first, "r") as a, h5py.File(broken, "w") as f:
        for name in ("position", "velocity", "radius", "mass", "box"):
            a.copy(a["particles/all/" + name], f.require_group("particles/all"), name)
        f.create_dataset("particles/all/image/value", data=np.zeros((1, 3, 3), dtype="i8"))
    code, out, err = run("init=" + broken, "response=none", "time=0.1", "msd=on")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and broken in lines[0], err
    assert "/particles/all/image/value is not the shape of the positions" in lines[0], err


check_straight_images()
check_msd_matches_images()
check_restart_continues_images()


def check_restart(name, init_keys, restart_keys=()):
    """A run restarted from an H5MD trajectory's last frame (init=FILE.h5)
    is the run restarted from the final XYZ state, to the last byte."""
    h5, final = os.path.join(WORK, name + ".h5"), os.path.join(WORK, name + "_final.xyz")
    code, _, err = run(*init_keys, "time=1", "frame_interval=0.5", "trajectory=" + h5,
                       "final=" + final)
    assert code == 0, err
    outs = []
    for start in (h5, final):
        out = os.path.join(WORK, name + "_from_" + os.path.basename(start) + ".xyz")
        code, _, err = run("init=" + start, *restart_keys, "time=1", "final=" + out)
        assert code == 0, err
        outs.append(open(out).read())
    assert outs[0] == outs[1], name
    return outs[0]


check_restart("restart_2d", ["dim=2", "n=200", "packing=0.3", "boundary=walls,periodic",
                             "equilibrate=0.2"])
obstacle = os.path.join(WORK, "obstacle.xyz")
with open(obstacle, "w") as f:
    f.write('3\nLattice="10 0 0 0 10 0 0 0 10" '
            'Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1 pbc="F F F"\n'
            "A 2 5 5 1 0 0 0.5 1\nA 5 5 5 0 0 0 1.5 inf\nA 8 5 5 -1 0.5 0 0.25 2\n")
check_restart("restart_obstacle", ["init=" + obstacle, "equilibrate=0"])


def expect_refused(source, label, change, words):
    """A copy of source, broken by change, is refused as init= in one line
    naming the file and saying words."""
    broken = os.path.join(WORK, label + ".h5")
    shutil.copyfile(source, broken)
    with h5py.File(broken, "r+") as f:
        change(f)
    code, out, err = run("init=" + broken, "time=0.1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and broken in lines[0], err
    assert words in lines[0], err


def check_spins():
    """Rough runs write their spins as /particles/all/spin (value
    [frames][N][3], in 2D too, x and y then 0), every frame equal to the
    XYZ trajectory's spin columns; a restart from the last frame starts
    with the rotational energy the run ended with and equals the restart
    from the final XYZ state, rough or smooth (which keeps the spins).
    Malformed spins are one line naming the file, exit 2."""
    for name, keys, dim in (
            ("rough_3d", ["n=200", "packing=0.3", "tangential_restitution=0.5"], 3),
            ("rough_2d", ["dim=2", "n=150", "packing=0.3", "boundary=walls",
                          "wall_tangential_restitution=1"], 2)):
        h5, xyz = os.path.join(WORK, name + ".h5"), os.path.join(WORK, name + ".xyz")
        for path in (h5, xyz):
            code, out, err = run(*keys, "equilibrate=0", "time=2", "frame_interval=1",
                                 "--json", "trajectory=" + path)
            assert code == 0, err
        ended = json.loads(out)["rotational_energy_final"]
        frames = read_xyz(xyz)
        with h5py.File(h5, "r") as f:
            particles = f["particles/all"]
            spin = particles["spin"]
            assert spin["value"].shape == (len(frames), len(frames[0][1]), 3), name
            assert np.array_equal(spin["time"][:], particles["position/time"][:])
            assert list(spin["step"][:]) == list(range(len(frames)))
            for k, (_, rows) in enumerate(frames):
                assert np.array_equal(spin["value"][k], rows[:, 8:11]), (name, k)
            assert not spin["value"][0].any() and spin["value"][-1].any(), name
            if dim == 2:
                assert not spin["value"][:, :, :2].any(), name
        code, out, err = run("init=" + h5, keys[-1], "equilibrate=0", "time=0", "--json")
        assert code == 0, err
        started = json.loads(out)["rotational_energy_initial"]
        assert abs(started - ended) <= 1e-12 * ended, (name, started, ended)
        for restart in ([keys[-1]], []):
            text = check_restart(name + "_restart", keys + ["equilibrate=0"], restart)
            assert "spin:R:3" in text.splitlines()[1], name
    # Malformed spins in a 2D file: about x, and the wrong shape.
    source = os.path.join(WORK, "rough_2d.h5")
    for label, change, words in (
            ("spin_x", lambda f: f["particles/all/spin/value"].__setitem__((-1, 3, 0), 0.5),
             "sphere 3: spin x = 0.5 (a 2D sphere spins about z only)"),
            ("spin_shape", lambda f: (f.__delitem__("particles/all/spin/value"),
                                      f.create_dataset("particles/all/spin/value",
                                                       data=np.zeros((3, 150, 2)))),
             "/particles/all/spin/value is not [frames][N][3]")):
        expect_refused(source, label, change, words)


check_spins()


def check_species():
    """Runs with species write /particles/all/species (integers, [N],
    fixed in time), the S<k> of the XYZ frames of the same run; a restart
    from the last frame equals the restart from the final XYZ state;
    H5MD's time-dependent form (a group with value [frames][N]) is read
    too (its last frame); species out of range, or not integers, are one
    line naming the file, exit 2."""
    keys = ["dim=3", "n=300", "packing=0.3", "species=3", "species_fraction=1,1,2",
            "pass_through=0-0,1-2"]
    h5, xyz = os.path.join(WORK, "species.h5"), os.path.join(WORK, "species.xyz")
    for path in (h5, xyz):
        code, _, err = run(*keys, "equilibrate=0", "time=1", "frame_interval=0.5",
                           "trajectory=" + path)
        assert code == 0, err
    with open(xyz) as f:
        lines = f.read().splitlines()
    names = [row.split()[0] for row in lines[2:302]]
    with h5py.File(h5, "r") as f:
        species = f["particles/all/species"]
        assert species.dtype.kind == "i" and species.shape == (300,), species
        assert [int(k) for k in species[:]] == [int(x[1:]) for x in names]
        assert sorted(set(species[:])) == [0, 1, 2] and list(species[:]).count(2) == 150
    text = check_restart("species_restart", keys + ["equilibrate=0"], ["pass_through=0-0,1-2"])
    assert text.splitlines()[2][:2] in ("S0", "S1", "S2"), text.splitlines()[2]
    code, out, err = run("init=" + h5, "pass_through=0-0,1-2", "time=0", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["species"] == 3 and d["species_counts"] == [75, 75, 150], d
    assert d["pass_through"] == [[0, 0], [1, 2]], d
    # The time-dependent form: the last frame's species.
    series = os.path.join(WORK, "species_series.h5")
    shutil.copyfile(h5, series)
    with h5py.File(series, "r+") as f:
        fixed = f["particles/all/species"][:]
        del f["particles/all/species"]
        frames = len(f["particles/all/position/time"])
        value = np.zeros((frames, 300), dtype="i4")
        value[-1] = fixed
        f.create_dataset("particles/all/species/value", data=value)
    for start in (h5, series):
        out = os.path.join(WORK, "species_from_" + os.path.basename(start) + ".xyz")
        code, _, err = run("init=" + start, "pass_through=0-0,1-2", "time=0", "final=" + out)
        assert code == 0, err
    assert open(os.path.join(WORK, "species_from_species.h5.xyz")).read() == \
        open(os.path.join(WORK, "species_from_species_series.h5.xyz")).read()
    for label, change, words in (
            ("species_range", lambda f: f["particles/all/species"].__setitem__(7, 32),
             "/particles/all/species, sphere 7: species 32 out of range (0 to 31)"),
            ("species_float", lambda f: (f.__delitem__("particles/all/species"),
                                         f.create_dataset("particles/all/species",
                                                          data=np.zeros(300))),
             "/particles/all/species is not [N] integers")):
        expect_refused(h5, label, change, words)


check_species()

def sheared_unwrapped(particles, k):
    """position + image * edges, the edges a matrix whose rows are the
    box's vectors (the second tilted by the sheared images' offset)."""
    return (particles["position/value"][k] +
            particles["image/value"][k] @ particles["box/edges/value"][k])


def check_shear():
    """A sheared run (shear=RATE, Lees-Edwards) writes its box's edges as
    a series of matrices (H5MD's triclinic box, time-dependent): the rows
    are the edge vectors, the second tilted along x by the images' offset
    (rate Ly t mod Lx), the tilt of the XYZ frames' Lattice to the last
    bit, with positions equal to the XYZ frames'. position + image *
    edges unwraps: without rescaling (shear_interval=0) their sum moves
    at the unwrapped momentum (velocity plus the y image times rate Ly
    along x), constant in every frame (the box's plain lengths instead
    would miss by the y images' sum times the offset). A restart (init=FILE.h5,
    given the rate) equals the restart from the final XYZ state to the
    last byte, and its first frame's unwrapped positions are the last
    frame's; without shear= it is refused, naming the file. A box that
    changes otherwise is refused, naming the dataset."""
    rate = 0.5
    for dim, keys in ((3, ["n=300", "packing=0.3"]), (2, ["dim=2", "n=300", "packing=0.4"])):
        name = "shear_%dd" % dim
        h5, xyz = os.path.join(WORK, name + ".h5"), os.path.join(WORK, name + ".xyz")
        for path in (h5, xyz):
            code, _, err = run(*keys, "shear=%g" % rate, "shear_interval=0", "equilibrate=1",
                               "time=6", "frame_interval=0.5", "trajectory=" + path)
            assert code == 0, err
        frames = read_xyz(xyz)
        with h5py.File(h5, "r") as f:
            particles = f["particles/all"]
            edges = particles["box/edges/value"][:]
            times = particles["position/time"][:]
            assert edges.shape == (len(frames), dim, dim), edges.shape
            assert np.array_equal(particles["box/edges/time"][:], times)
            box = np.diag(edges[0])
            for k, (comment, rows) in enumerate(frames):
                lattice = [float(x) for x in comment.split('Lattice="')[1].split('"')[0].split()]
                assert np.array_equal(np.diag(edges[k]), box)
                assert edges[k][1][0] == lattice[3], (k, edges[k], lattice)
                assert not (edges[k] - np.diag(box) - np.diag([0.0] * (dim - 1), -1))[
                    np.triu_indices(dim, 1)].any()
                expected = rate * box[1] * times[k] % box[0]
                assert abs(edges[k][1][0] - expected) < 1e-9 * box[0], (edges[k], expected)
                assert np.array_equal(particles["position/value"][k], rows[:, 0:dim]), k
            image, velocity = particles["image/value"][:], particles["velocity/value"][:]
            crossings = np.abs(image[:, :, 1]).max()
            assert crossings >= 1, name
            flow = np.zeros(dim)
            flow[0] = rate * box[1]
            start = sheared_unwrapped(particles, 0).sum(axis=0)
            momentum = (velocity[0] + image[0][:, 1:2] * flow).sum(axis=0)
            scale = np.abs(sheared_unwrapped(particles, 0)).max() * len(velocity[0])
            for k in range(len(times)):
                now = (velocity[k] + image[k][:, 1:2] * flow).sum(axis=0)
                assert np.abs(now - momentum).max() < 1e-9 * len(velocity[0]), (k, now, momentum)
                moved = sheared_unwrapped(particles, k).sum(axis=0) - start
                error = np.abs(moved - momentum * (times[k] - times[0])).max()
                assert error < 1e-12 * scale, (name, k, error)
            # The tilt's part of the sums (the y images' sum times the
            # offset) is not 0 in every frame: the check has teeth.
            tilted = np.abs(image[:, :, 1].sum(axis=1) * edges[:, 1, 0])
            assert tilted.max() > 0.1, (name, tilted)
    # A restart goes on from the file's offset and images (at a rate
    # whose offset at t = 2 is not a whole box length).
    rate = 0.3
    keys = ["n=300", "packing=0.3", "shear=%g" % rate, "equilibrate=1"]
    check_restart("shear_restart", keys, ["shear=%g" % rate])
    h5 = os.path.join(WORK, "shear_restart.h5")
    again = os.path.join(WORK, "shear_again.h5")
    code, _, err = run("init=" + h5, "shear=%g" % rate, "equilibrate=0", "time=1",
                       "frame_interval=0.5", "trajectory=" + again)
    assert code == 0, err
    with h5py.File(h5, "r") as a, h5py.File(again, "r") as b:
        pa, pb = a["particles/all"], b["particles/all"]
        assert pa["box/edges/value"][-1][1][0] != 0.0
        assert np.array_equal(pb["box/edges/value"][0], pa["box/edges/value"][-1])
        assert np.array_equal(pb["image/value"][0], pa["image/value"][-1])
        assert np.abs(pa["image/value"][-1][:, 1]).max() >= 1
        assert np.array_equal(sheared_unwrapped(pb, 0), sheared_unwrapped(pa, -1))
    code, out, err = run("init=" + h5, "time=0.1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and h5 in lines[0], err
    assert "sheared" in lines[0] and "shear=" in lines[0], err

    def tilt_along_z(f):
        f["particles/all/box/edges/value"][-1, 2, 0] = 1.0

    def lengths_change(f):
        f["particles/all/box/edges/value"][0, 0, 0] *= 1.01

    def not_a_number(f):
        f["particles/all/box/edges/value"][-1, 1, 0] = np.nan

    def flat(f):
        value = f["particles/all/box/edges/value"][:]
        del f["particles/all/box/edges/value"]
        f["particles/all/box/edges/value"] = value[:, 0, :]

    for label, change, words in (
            ("shear_tilt_z", tilt_along_z, "a box that changes is read only when sheared"),
            ("shear_lengths", lengths_change, "a box that changes is read only when sheared"),
            ("shear_nan", not_a_number, "a box that changes is read only when sheared"),
            ("shear_flat", flat, "/particles/all/box/edges/value is not [frames][dim][dim]")):
        expect_refused(h5, label, change, words)


check_shear()

# Files that are not H5MD trajectories: one line, exit 2.
not_hdf5 = os.path.join(WORK, "not_hdf5.h5")
with open(not_hdf5, "w") as f:
    f.write("3\n")
no_positions = os.path.join(WORK, "no_positions.h5")
with h5py.File(no_positions, "w") as f:
    f.create_group("particles/all/box")
for path, words in ((not_hdf5, "cannot open as an HDF5 file"),
                    (no_positions, "not an H5MD trajectory")):
    code, out, err = run("init=" + path, "time=0.1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and words in lines[0] and path in lines[0], err

# The other suffix; and a file that cannot be made is one line on stderr.
code, _, err = run("n=50", "time=0.2", "trajectory=" + os.path.join(WORK, "t.h5md"))
assert code == 0 and h5py.is_hdf5(os.path.join(WORK, "t.h5md")), err
missing = os.path.join(WORK, "no", "such", "t.h5")
code, out, err = run("n=50", "time=0.2", "trajectory=" + missing)
lines = err.splitlines()
assert code == 1 and len(lines) == 1 and lines[0].startswith("carom: "), err
assert missing in lines[0] and out == "", (out, err)
print("h5md: ok")
