"""Tests of `carom render` (run by CTest, see tests/viewer_tests.cmake).

usage: render_test.py CAROM WORKDIR

Checks that 2D, 3D and trajectory renders give non-blank PNG frames that
change from frame to frame, that an H5MD trajectory (CAROM_HAVE_HDF5=1)
renders to the same pictures as the XYZ one of the same run, that fixed
planes (planes=) are drawn where they are, with their hatching on the side
no sphere reaches, that the edges of fixed triangles (triangles=, 3D) are
drawn and no sphere ends on one (the same from a mesh file, mesh=, with
CAROM_HAVE_MESH=1), and that the large sphere dragged towards a plane stops
in front of it, and dragged towards a segment stops on it or slides round
its end; that driven particles (seed 000's kgs-* scenarios, and
orbits) move as their motion says, and never overlap; that the spins of
an init file stay with their spheres; that 2D disks of a rough world (or
with spins) show spokes turned by spin * t, from a simulation and from a
trajectory, and smooth disks without spins none; that spheres of several
species are drawn in their species' colours (2D and 3D, from a
simulation and from XYZ and H5MD trajectories), spheres of one species
in the bands as before (a scene of two species drawn with color=bands is
the one-species picture, byte for byte), that pass_through='s pairs pass
through each other and the large sphere meets them all; and that bad
input ends with one clear error line and a nonzero exit; and that a
sheared box (shear=) tilts its bands, keeps its profile and temperature,
and never overlaps through its moving images.
"""
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pngread import read_png  # noqa: E402
from picture import (PLANE_COLOUR, band_colours, pixels_of, plane_problems,  # noqa: E402
                     segment_problems, species_problems, spoke_angle, view_pixel)
from triangle_geometry import triangle_distance  # noqa: E402

CAROM, WORK = sys.argv[1], sys.argv[2]
failures = []


def run(args, env=None, expect=0):
    p = subprocess.run([CAROM] + args, capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != expect:
        failures.append(f"carom {' '.join(args)}: exit {p.returncode}, expected {expect}; "
                        f"stderr: {p.stderr.strip()}")
    return p


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def frames_in(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.startswith("frame_") and f.endswith(".png"))


def colours(image):
    _, _, rows = image
    seen = set()
    for r in rows[::3]:
        for i in range(0, len(r), 9):
            seen.add(r[i:i + 3])
    return seen


def check_frames(directory, expected, label):
    files = frames_in(directory)
    if not check(len(files) == expected, f"{label}: {len(files)} frames, expected {expected}"):
        return
    images = [read_png(f) for f in files]
    for f, im in zip(files, images):
        w, h, rows = im
        check(len(colours(im)) >= 8, f"{label}: {f} looks blank ({len(colours(im))} colours)")
        background = rows[h - 1][3 * (w // 2):3 * (w // 2) + 3]
        differing = sum(1 for r in rows for i in range(0, len(r), 3) if r[i:i + 3] != background)
        check(differing > w * h // 50, f"{label}: {f} has almost nothing drawn")
    for a, b, fa in zip(images, images[1:], files[1:]):
        changed = sum(1 for ra, rb in zip(a[2], b[2]) if ra != rb)
        check(changed > 0, f"{label}: {fa} is the same picture as the one before")


def fresh(name):
    path = os.path.join(WORK, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


# 2D: seed 004's scene (the default), the large sphere dragged across.
out = fresh("render2d")
p = run(["render", "frames=3", "width=200", "height=200", "drag=75,100,40,40", f"out={out}"])
check("wrote 3 frames" in p.stdout, f"render 2D: unexpected stdout {p.stdout!r}")
check_frames(out, 3, "render 2D")

# 3D: shaded spheres with an orbiting camera's view.
out = fresh("render3d")
run(["render", "dim=3", "n=300", "packing=0.2", "time_scale=5", "frames=3", "width=160",
     "height=160", f"out={out}"])
check_frames(out, 3, "render 3D")

# A trajectory written by `carom run`.
traj = os.path.join(WORK, "traj.xyz")
run(["run", "dim=2", "n=200", "packing=0.3", "time=2", "frame_interval=0.5",
     f"trajectory={traj}"])
out = fresh("render_traj")
run(["render", f"input={traj}", "frames=100", "width=160", "height=160", f"out={out}"])
with open(traj) as f:
    in_file = sum(1 for line in f if "Lattice=" in line)
check(in_file >= 2, f"trajectory has {in_file} frames")
check_frames(out, in_file, "render trajectory")

# The same run written as H5MD renders to the same pictures, byte for byte.
if os.environ.get("CAROM_HAVE_HDF5"):
    h5 = os.path.join(WORK, "traj.h5")
    run(["run", "dim=2", "n=200", "packing=0.3", "time=2", "frame_interval=0.5",
         f"trajectory={h5}"])
    out_h5 = fresh("render_h5md")
    run(["render", f"input={h5}", "frames=100", "width=160", "height=160", f"out={out_h5}"])
    from_xyz, from_h5 = frames_in(out), frames_in(out_h5)
    check(len(from_h5) == in_file, f"render H5MD: {len(from_h5)} frames, expected {in_file}")
    for a, b in zip(from_xyz, from_h5):
        with open(a, "rb") as fa, open(b, "rb") as fb:
            check(fa.read() == fb.read(), f"render H5MD: {b} differs from {a}")
    not_hdf5 = os.path.join(WORK, "not_hdf5.h5")
    with open(not_hdf5, "w") as f:
        f.write("2\nnot an HDF5 file\n")
    p = subprocess.run([CAROM, "render", f"input={not_hdf5}", f"out={WORK}/bad"],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode != 0 and "not_hdf5.h5" in p.stderr and p.stderr.count("\n") == 1,
          f"render of a file that is not HDF5: exit {p.returncode}, stderr {p.stderr!r}")
else:
    # Without HDF5, an H5MD name is a usage error (exit 2), as for run's
    # trajectory= and init=.
    p = subprocess.run([CAROM, "render", f"input={WORK}/traj.h5", f"out={WORK}/bad"],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "built without HDF5" in p.stderr and "traj.h5" in p.stderr
          and p.stderr.count("\n") == 1,
          f"render input=.h5 without HDF5: exit {p.returncode}, stderr {p.stderr!r}")


def read_xyz(path):
    """(position, radius) of each sphere of an extended XYZ file."""
    return [(p, r) for p, _, r in read_xyz_states(path)]


def read_xyz_states(path):
    """(position, velocity, radius) of each sphere of an extended XYZ file."""
    with open(path) as f:
        lines = f.read().splitlines()
    n = int(lines[0])
    rows = [[float(v) for v in line.split()[1:8]] for line in lines[2:2 + n]]
    return [(r[0:3], r[3:6], r[6]) for r in rows]


def check_plane_pixels(image, planes, box_width, label, hatch):
    for problem in plane_problems(image, planes, box_width, hatch):
        failures.append(f"{label}: {problem}")


# Fixed planes: a V-shaped floor under seed 004's box (150 x 150), drawn
# where they are; the particles settle onto it.
valley = [(1.0, 2.0, 60.0), (-1.0, 2.0, -90.0)]
out = fresh("render_planes")
run(["render", "planes=" + "/".join(",".join(f"{v:g}" for v in p) for p in valley),
     "frames=2", "width=300", "height=300", "hud=off", f"out={out}"])
files = frames_in(out)
if check(len(files) == 2, f"render planes: {len(files)} frames"):
    # Ticks reach 150/32 units to the solid side (tools/viewer/plane_lines.c).
    check_plane_pixels(read_png(files[-1]), valley, 150.0, "render planes", 150.0 / 32 + 0.5)

# The large sphere dragged towards a ceiling plane (y <= 100) stops in
# front of it, sliding along it; no sphere is ever behind it.
out = fresh("render_plane_drag")
dump = os.path.join(WORK, "plane_drag.xyz")
run(["render", "gravity=0", "temperature=0", "big_radius=6", "planes=0,-1,-100", "frames=90",
     "width=120", "height=120", "drag=75,60,30,140", f"out={out}", f"dump={dump}"])
if check(os.path.exists(dump), "render plane drag: no dump"):
    spheres = read_xyz(dump)
    big = max(range(len(spheres)), key=lambda i: spheres[i][1])
    (bx, by, _), br = spheres[big]
    check(br == 6.0 and 100.0 - 6.0 - 0.5 < by <= 100.0 - 6.0 and abs(bx - 30.0) < 1.0,
          f"render plane drag: large sphere at {bx:.3f},{by:.3f} (radius {br}), "
          "expected against the plane near x 30")
    worst = max(p[1] + r - 100.0 for p, r in spheres)
    check(worst <= 1e-9, f"render plane drag: a sphere {worst:.3g} behind the plane")

# 3D: the cross-section of a tilted floor is drawn.
out = fresh("render_planes_3d")
run(["render", "dim=3", "n=200", "packing=0.1", "boundary=walls", "planes=0.3,0,1,3",
     "frames=1", "width=160", "height=160", "hud=off", f"out={out}"])
files = frames_in(out)
if check(len(files) == 1, f"render planes 3D: {len(files)} frames"):
    drawn = pixels_of(read_png(files[0]), PLANE_COLOUR)
    check(len(drawn) > 100, f"render planes 3D: only {len(drawn)} pixels of the planes' colour")

# 3D: the edges of fixed triangles (a tilted floor of two) are drawn in
# the planes' colour (none of it without them); under gravity no sphere,
# the large one included, ends nearer a triangle than its radius. A run's
# trajectory is drawn with its triangles (triangles= with input=).
floor = [(0, 0, 2, 10, 0, 1, 0, 10, 1), (10, 0, 1, 10, 10, 0, 0, 10, 1)]
floor_key = "triangles=" + "/".join(",".join(map(str, t)) for t in floor)
for name, extra in [("with", [floor_key]), ("without", [])]:
    out = fresh(f"render_triangles_{name}")
    dump = os.path.join(WORK, f"triangles_{name}.xyz")
    run(["render", "dim=3", "n=200", "box=10", "radius=0.3", "boundary=walls", "gravity=1",
         "frames=30", "width=160", "height=160", "hud=off", f"out={out}", f"dump={dump}"]
        + extra)
    files = frames_in(out)
    if check(len(files) == 30, f"render triangles {name}: {len(files)} frames"):
        drawn = pixels_of(read_png(files[-1]), PLANE_COLOUR)
        check(len(drawn) > 100 if extra else not drawn,
              f"render triangles {name}: {len(drawn)} pixels of the planes' colour")
    if extra and check(os.path.exists(dump), "render triangles: no dump"):
        worst = max(1.0 - triangle_distance(p, (t[0:3], t[3:6], t[6:9])) / r for p, r in read_xyz(dump) for t in floor)
        check(worst <= 1e-9, f"render triangles: a sphere {worst:.3g} of its radius into one")
traj_triangles = os.path.join(WORK, "traj_triangles.xyz")
run(["run", "dim=3", "n=200", "box=10", "radius=0.3", "boundary=walls", "gravity=1",
     floor_key, "time=1", "frame_interval=0.5", f"trajectory={traj_triangles}"])
out = fresh("render_traj_triangles")
run(["render", f"input={traj_triangles}", floor_key, "width=160", "height=160", "hud=off",
     f"out={out}"])
files = frames_in(out)
if check(len(files) >= 2, f"render trajectory with triangles: {len(files)} frames"):
    drawn = pixels_of(read_png(files[0]), PLANE_COLOUR)
    check(len(drawn) > 100, f"render trajectory with triangles: only {len(drawn)} pixels of "
          "the planes' colour")

# The same floor from a mesh file (mesh=, CAROM_HAVE_MESH=1): its edges are
# drawn, in a simulation and over a trajectory (mesh= with input=), and no
# sphere ends on it. Without Assimp, mesh= is refused with one line.
floor_obj = os.path.join(WORK, "floor.obj")
with open(floor_obj, "w") as f:
    f.writelines("v %g %g %g\n" % c for c in [(0, 0, 2), (10, 0, 1), (0, 10, 1), (10, 10, 0)])
    f.write("f 1 2 3\nf 2 4 3\n")
if os.environ.get("CAROM_HAVE_MESH"):
    out = fresh("render_mesh")
    dump = os.path.join(WORK, "mesh.xyz")
    run(["render", "dim=3", "n=200", "box=10", "radius=0.3", "boundary=walls", "gravity=1",
         "frames=10", "width=160", "height=160", "hud=off", f"out={out}", f"dump={dump}",
         f"mesh={floor_obj}"])
    files = frames_in(out)
    if check(len(files) == 10, f"render mesh: {len(files)} frames"):
        drawn = pixels_of(read_png(files[-1]), PLANE_COLOUR)
        check(len(drawn) > 100, f"render mesh: {len(drawn)} pixels of the planes' colour")
    if check(os.path.exists(dump), "render mesh: no dump"):
        worst = max(1.0 - triangle_distance(p, (t[0:3], t[3:6], t[6:9])) / r
                    for p, r in read_xyz(dump) for t in floor)
        check(worst <= 1e-9, f"render mesh: a sphere {worst:.3g} of its radius into it")
    out = fresh("render_traj_mesh")
    run(["render", f"input={traj_triangles}", f"mesh={floor_obj}", "width=160", "height=160",
         "hud=off", f"out={out}"])
    files = frames_in(out)
    if check(len(files) >= 2, f"render trajectory with a mesh: {len(files)} frames"):
        drawn = pixels_of(read_png(files[0]), PLANE_COLOUR)
        check(len(drawn) > 100, f"render trajectory with a mesh: only {len(drawn)} pixels")
else:
    p = run(["render", "dim=3", "boundary=walls", f"mesh={floor_obj}", "frames=1",
             f"out={fresh('render_mesh')}"], expect=2)
    lines = p.stderr.splitlines()
    check(len(lines) == 1 and "built without Assimp" in lines[0] and floor_obj in lines[0],
          f"render mesh without Assimp: {p.stderr!r}")

# A trajectory of a run with planes, drawn with them (planes= with input=).
traj_planes = os.path.join(WORK, "traj_planes.xyz")
run(["run", "dim=2", "n=200", "packing=0.3", "boundary=walls", "planes=1,1,8", "time=1",
     "frame_interval=0.5", f"trajectory={traj_planes}"])
with open(traj_planes) as f:
    f.readline()
    lattice = f.readline().split('Lattice="')[1].split()[0]
out = fresh("render_traj_planes")
run(["render", f"input={traj_planes}", "planes=1,1,8", "width=200", "height=200", "hud=off",
     f"out={out}"])
files = frames_in(out)
if check(len(files) >= 2, f"render trajectory with planes: {len(files)} frames"):
    check_plane_pixels(read_png(files[0]), [(1.0, 1.0, 8.0)], float(lattice),
                       "render trajectory with planes", float(lattice) / 32 + 0.5)

# Fixed segments (2D): a hopper drawn where its segments are; the disks
# pour through it.
hopper = [(0, 30, 18, 20), (40, 30, 22, 20), (10, 8, 30, 8)]
out = fresh("render_segments")
run(["render", "dim=2", "n=600", "box=40", "boundary=walls", "gravity=5", "restitution=0.8",
     "restitution_min_speed=1", "segments=" + "/".join(",".join(map(str, g)) for g in hopper),
     "frames=2", "width=240", "height=240", "hud=off", f"out={out}"])
files = frames_in(out)
if check(len(files) == 2, f"render segments: {len(files)} frames"):
    for problem in segment_problems(read_png(files[-1]), hopper, 40.0):
        failures.append(f"render segments: {problem}")

# Sensing pairs (sense=) render without the large sphere (big=off): the
# species pass through each other, coloured by species.
out = fresh("render_sense")
run(["render", "dim=2", "n=400", "packing=0.3", "species=2", "sense=0-1", "big=off",
     "frames=2", "width=120", "height=120", "hud=off", f"out={out}"])
check(len(frames_in(out)) == 2, "render sense: no frames")

# The same hopper from a file (segments_file=), and a trajectory of a run
# with it drawn with its segments (input= with segments_file=; few disks,
# so that none hides a segment).
hopper_file = os.path.join(WORK, "hopper.txt")
with open(hopper_file, "w") as f:
    f.write("# a hopper\n" + "".join(" ".join(map(str, g)) + "\n" for g in hopper))
out = fresh("render_segments_file")
run(["render", "dim=2", "n=600", "box=40", "boundary=walls", "gravity=5", "restitution=0.8",
     "restitution_min_speed=1", f"segments_file={hopper_file}", "frames=2", "width=240",
     "height=240", "hud=off", f"out={out}"])
files = frames_in(out)
if check(len(files) == 2, f"render segments_file: {len(files)} frames"):
    for problem in segment_problems(read_png(files[-1]), hopper, 40.0):
        failures.append(f"render segments_file: {problem}")
traj_segments = os.path.join(WORK, "traj_segments.xyz")
run(["run", "dim=2", "n=30", "box=40", "boundary=walls", f"segments_file={hopper_file}",
     "time=1", "frame_interval=0.5", f"trajectory={traj_segments}"])
out = fresh("render_traj_segments")
run(["render", f"input={traj_segments}", f"segments_file={hopper_file}", "width=240",
     "height=240", "hud=off", f"out={out}"])
files = frames_in(out)
if check(len(files) >= 2, f"render trajectory with segments_file: {len(files)} frames"):
    for problem in segment_problems(read_png(files[0]), hopper, 40.0):
        failures.append(f"render trajectory with segments_file: {problem}")

# The large sphere meets segments: dragged from above a shelf (y = 100,
# x 40 to 110) to below it, it stops on top of the shelf; dragged to
# (20, 60), a target beyond the shelf's end whose straight path crosses the
# shelf at x = 64, it slides along the shelf, round its end and on to the
# target. No sphere is ever nearer the shelf than its radius.
def segment_distance(p, seg):
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    u = max(0.0, min(1.0, ((p[0] - x0) * dx + (p[1] - y0) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - x0 - u * dx, p[1] - y0 - u * dy)


shelf = (40.0, 100.0, 110.0, 100.0)
# (Round the end it arrives at the last frame, still braking: within 0.5.)
for name, drag, expected, within in [("onto", "75,110,75,60", (75.0, 106.0), 0.01),
                                     ("round", "75,110,20,60", (20.0, 60.0), 0.5)]:
    out = fresh(f"render_segment_drag_{name}")
    dump = os.path.join(WORK, f"segment_drag_{name}.xyz")
    run(["render", "gravity=0", "temperature=0", "big_radius=6", "segments=40,100,110,100",
         "frames=90", "width=120", "height=120", f"drag={drag}", f"out={out}", f"dump={dump}"])
    if check(os.path.exists(dump), f"render segment drag {name}: no dump"):
        spheres = read_xyz(dump)
        (bx, by, _), br = max(spheres, key=lambda s: s[1])
        check(br == 6.0 and math.hypot(bx - expected[0], by - expected[1]) < within,
              f"render segment drag {name}: large sphere at {bx:.4f},{by:.4f} (radius {br}), "
              f"expected near {expected}")
        worst = max(r - segment_distance(p, shelf) for p, r in spheres)
        check(worst <= 1e-9, f"render segment drag {name}: a sphere {worst:.3g} into the shelf")

# Driven particles (seed 000): kgs-forces renders moving pictures; in
# kgs-field the particles start at rest and the field drives them, so that
# after 4 time units (8 relaxation times of the gain 2) their velocities
# follow the field u(x) of include/carom/drive.h; ballistic particles would
# still be at rest. No two spheres overlap, the large sphere included.
out = fresh("render_kgs_forces")
run(["render", "scenario=kgs-forces", "n=300", "frames=3", "width=160", "height=160",
     f"out={out}"])
check_frames(out, 3, "render kgs-forces")
out = fresh("render_kgs_field")
dump = os.path.join(WORK, "kgs_field.xyz")
run(["render", "scenario=kgs-field", "n=300", "frames=31", "fps=30", "time_scale=4",
     "width=120", "height=120", f"out={out}", f"dump={dump}"])
if check(os.path.exists(dump), "render kgs-field: no dump"):
    states = read_xyz_states(dump)
    check(len(states) == 301, f"render kgs-field: {len(states)} spheres")
    U, L = 40.0, 200.0
    cosines = []
    for (x, y, z), v, r in states[:-1]:
        X, Y, Z = x / L, y / L, z / L
        u = (U / 4 * math.sin(2 * math.pi * X) * math.cos(math.pi * Z),
             U / 4 * math.sin(2 * math.pi * Y) * math.cos(math.pi * Z),
             U / 2 * (-math.cos(2 * math.pi * X) - math.cos(2 * math.pi * Y)) *
             math.sin(math.pi * Z))
        nu, nv = math.sqrt(sum(c * c for c in u)), math.sqrt(sum(c * c for c in v))
        if nu > 10.0:
            cosines.append(sum(a * b for a, b in zip(u, v)) / (nu * max(nv, 1e-300)))
    mean = sum(cosines) / max(len(cosines), 1)
    check(len(cosines) > 100 and mean > 0.8,
          f"render kgs-field: velocities do not follow the field (mean cosine {mean:.3f} "
          f"over {len(cosines)} particles)")
    worst = 0.0
    for i in range(len(states)):
        for j in range(i + 1, len(states)):
            (a, _, ra), (b, _, rb) = states[i], states[j]
            d = math.dist(a, b)
            worst = max(worst, (ra + rb - d) / (ra + rb))
    check(worst < 1e-9, f"render kgs-field: spheres overlap by {worst:.3g} of their distance")

# Orbits (motion=orbits): every sphere on its circle, where the closed
# form puts it at the time of the dump (the large sphere bounces off them:
# contacts do not move a sphere on an orbit).
orbits = os.path.join(WORK, "orbits.txt")
circles = [(3 + 2.8 * i, 3 + 2.8 * j, 1.2, 1.0 if (i + j) % 2 else -1.0, 0.3 * i)
           for i in range(6) for j in range(6)]
with open(orbits, "w") as f:
    for cx, cy, R, omega, phase in circles:
        f.write(f"{cx} {cy} 0 {R} {omega} {phase} 0.4\n")
out = fresh("render_orbits")
dump = os.path.join(WORK, "orbits_end.xyz")
run(["render", "dim=2", "box=20", "boundary=walls", "motion=orbits", f"orbits={orbits}",
     "frames=30", "width=120", "height=120", f"out={out}", f"dump={dump}"])
if check(os.path.exists(dump), "render orbits: no dump"):
    with open(dump) as f:
        f.readline()
        t = float(f.readline().split("Time=")[1].split()[0])
    states = read_xyz_states(dump)
    check(len(states) == 37 and t > 0.9, f"render orbits: {len(states)} spheres at t {t}")
    worst = 0.0
    for ((x, y, _), _, _), (cx, cy, R, omega, phase) in zip(states, circles):
        worst = max(worst, math.hypot(x - cx - R * math.cos(omega * t + phase),
                                      y - cy - R * math.sin(omega * t + phase)))
    check(worst < 1e-9, f"render orbits: a sphere {worst:.3g} off its circle")
p = subprocess.run([CAROM, "render", "dim=2", "box=20", "boundary=walls", "motion=orbits",
                    f"orbits={orbits}", "big_radius=3", f"out={WORK}/bad"],
                   capture_output=True, text=True, timeout=60)
check(p.returncode != 0 and "no free place among the orbits" in p.stderr and
      p.stderr.count("\n") == 1, f"render orbits, no room: {p.stderr!r}")

# Spins in an init file are carried through the viewer's copies of the
# scene. Disks packed too densely for any to move: the large sphere's room
# is made by leaving out the disks where it goes, the last disk taking the
# row of each one left out. Smooth contacts change no spin, so every disk
# of the dump has the spin it had in the file (told apart by their masses,
# all different); the large sphere's is 0. A rough render's dump has the
# spin column too.
spinning = os.path.join(WORK, "spinning.xyz")
spin_of_mass = {}
with open(spinning, "w") as f:
    f.write('400\nLattice="20.4 0 0 0 20.4 0 0 0 1" Properties=species:S:1:pos:R:3:velo:R:3:'
            'radius:R:1:mass:R:1:spin:R:3 pbc="F F F" dim=2\n')
    for k in range(400):
        mass, spin = 1 + k / 1000, (k % 17 - 8) * 0.37 + k / 1000
        spin_of_mass[repr(mass)] = spin
        f.write(f"S {0.51 + 1.02 * (k % 20):.17g} {0.51 + 1.02 * (k // 20):.17g} 0 0 0 0 0.5 "
                f"{mass!r} 0 0 {spin!r}\n")
for rough in ([], ["tangential_restitution=0.5"]):
    dump = os.path.join(WORK, "spinning_end.xyz")
    out = fresh("render_spinning")
    run(["render", f"init={spinning}", "frames=2", "width=80", "height=80", "hud=off",
         f"out={out}", f"dump={dump}"] + rough)
    if not check(os.path.exists(dump), f"render spins {rough}: no dump"):
        continue
    with open(dump) as f:
        lines = f.read().splitlines()
    check("spin:R:3" in lines[1], f"render spins {rough}: no spin column: {lines[1]!r}")
    rows = [line.split()[1:] for line in lines[2:]]
    check(len(rows) < 401, f"render spins {rough}: no disk left out ({len(rows)} rows)")
    if not rough:
        wrong = [row for row in rows[:-1]
                 if float(row[10]) != spin_of_mass.get(repr(float(row[7])))]
        check(not wrong and float(rows[-1][10]) == 0.0,
              f"render spins: {len(wrong)} disks with another's spin, e.g. {wrong[:2]}")

# Spokes (2D): in a rough world, or one with spins, each disk shows a
# radius line at an angle that turns with its spin: spin * t from +x,
# counterclockwise. Three big disks at rest, no gravity, spins 2.5, -1.2
# and 0: no contact ever changes them, so at t = 0, 1, 2 (frames=3 fps=1)
# each spoke's darkest pixels lie along spin * t, within 3 degrees. The
# same from the run's XYZ trajectory (and H5MD, byte for byte), angles
# integrated between its frames; a smooth world with these spins shows
# them too. A smooth world with no spin (a spin column of zeros) is drawn
# with no spoke, the same picture as from a file without the column.
SPOKE_DISKS = [(5.0, 5.0, 2.5), (15.0, 5.0, -1.2), (10.0, 15.0, 0.0)]


def write_disks(path, spins):
    with open(path, "w") as f:
        f.write(f"{len(SPOKE_DISKS)}\n")
        f.write('Lattice="20 0 0 0 20 0 0 0 1" Properties=species:S:1:pos:R:3:velo:R:3:'
                f'radius:R:1:mass:R:1{":spin:R:3" if spins else ""} pbc="F F F" dim=2\n')
        for x, y, w in SPOKE_DISKS:
            f.write(f"S {x} {y} 0 0 0 0 4 1" + (f" 0 0 {w * (spins == 'given')}" if spins
                                                 else "") + "\n")


def spoke_problems(files, label, times):
    problems = []
    for f, t in zip(files, times):
        image = read_png(f)
        for x, y, w in SPOKE_DISKS:
            dark, seen, rp = spoke_angle(image, 20.0, x, y, 4.0)
            if len(dark) < rp / 2:
                problems.append(f"{label}: {f}: disk at {x},{y}: {len(dark)} spoke pixels")
                continue
            off = math.degrees(abs(math.remainder(seen - w * t, 2 * math.pi)))
            if off > 3.0:
                problems.append(f"{label}: {f}: disk at {x},{y} spin {w}, t {t}: spoke at "
                                f"{math.degrees(seen):.1f} degrees, expected "
                                f"{math.degrees(w * t):.1f} (off by {off:.1f})")
    return problems


spun = os.path.join(WORK, "spokes.xyz")
write_disks(spun, "given")
spoke_keys = ["gravity=0", "big=off", "frames=3", "fps=1", "width=240", "height=240", "hud=off"]
for name, extra in [("rough", ["tangential_restitution=1"]),
                    ("wall rough", ["wall_tangential_restitution=0.5"]),
                    ("smooth with spins", [])]:
    out = fresh("render_spokes")
    run(["render", f"init={spun}", f"out={out}"] + spoke_keys + extra)
    files = frames_in(out)
    if check(len(files) == 3, f"render spokes {name}: {len(files)} frames"):
        failures.extend(spoke_problems(files, f"render spokes {name}", [0.0, 1.0, 2.0]))
for traj_name in ["spokes_traj.xyz"] + (["spokes_traj.h5"] if os.environ.get("CAROM_HAVE_HDF5")
                                        else []):
    spun_traj = os.path.join(WORK, traj_name)
    run(["run", f"init={spun}", "gravity=0", "tangential_restitution=1", "time=2",
         "frame_interval=1", f"trajectory={spun_traj}"])
    out = fresh("render_spokes_" + traj_name.replace(".", "_"))
    run(["render", f"input={spun_traj}", "width=240", "height=240", "hud=off", f"out={out}"])
    files = frames_in(out)
    if check(len(files) == 3, f"render spokes {traj_name}: {len(files)} frames"):
        failures.extend(spoke_problems(files, f"render spokes {traj_name}", [0.0, 1.0, 2.0]))
if os.environ.get("CAROM_HAVE_HDF5"):
    a = frames_in(os.path.join(WORK, "render_spokes_spokes_traj_xyz"))
    b = frames_in(os.path.join(WORK, "render_spokes_spokes_traj_h5"))
    for fa, fb in zip(a, b):
        with open(fa, "rb") as xa, open(fb, "rb") as xb:
            check(xa.read() == xb.read(), f"render spokes H5MD: {fb} differs from {fa}")
still = {}
for spins in ["zero", None]:
    path = os.path.join(WORK, f"spokes_{spins}.xyz")
    write_disks(path, spins)
    out = fresh(f"render_no_spokes_{spins}")
    run(["render", f"init={path}", f"out={out}"] + spoke_keys)
    still[spins] = frames_in(out)
    for f in still[spins]:
        image = read_png(f)
        dark = sum(len(spoke_angle(image, 20.0, x, y, 4.0)[0]) for x, y, _ in SPOKE_DISKS)
        check(dark == 0, f"render smooth, no spins ({spins}): {f} has {dark} spoke pixels")
check(len(still["zero"]) == 3 and len(still[None]) == 3,
      f"render smooth, no spins: {len(still['zero'])} and {len(still[None])} frames")
for fa, fb in zip(still["zero"], still[None]):
    with open(fa, "rb") as xa, open(fb, "rb") as xb:
        check(xa.read() == xb.read(), f"render smooth: {fa} (zero spins) differs from {fb}")

# Species. A scene with a species array is coloured by species (frame.c's
# palette: species 0 blue, 1 orange, ...), the large sphere grey; at each
# sphere's centre pixel (2D exactly; 3D as lit) its species' colour. The
# same scene of one species is drawn in the bands of starting height as
# before, and the two-species scene with color=bands is that picture
# byte for byte (species= draws them from a stream of their own, so the
# spheres are the same).
def read_xyz_frames(path):
    """Frames of an extended XYZ file: (dim, box, [(position, velocity, radius, species)])."""
    with open(path) as f:
        lines = f.read().splitlines()
    frames, at = [], 0
    while at < len(lines) and lines[at].strip():
        n, header = int(lines[at]), lines[at + 1]
        m = [float(v) for v in header.split('Lattice="')[1].split('"')[0].split()]
        dim = 2 if " dim=2" in header else 3
        spheres = []
        for line in lines[at + 2:at + 2 + n]:
            c = line.split()
            v = [float(x) for x in c[1:8]]
            species = int(c[0][1:]) if len(c[0]) > 1 else 0
            spheres.append((v[0:3], v[3:6], v[6], species))
        frames.append((dim, (m[0], m[4], m[8]), spheres))
        at += 2 + n
    return frames


def check_species_picture(png, dim, box, spheres, label, big=None, yaw=0.45, pitch=0.35,
                          least=20):
    """Each sphere's species colour at its centre; at least `least` of each species seen."""
    problems, checked = species_problems(
        read_png(png), [(p, r, k, i == big) for i, (p, _, r, k) in enumerate(spheres)], dim, box,
        yaw, pitch)
    for problem in problems[:5]:
        failures.append(f"{label}: {problem}")
    check(not problems, f"{label}: {len(problems)} spheres not in their species' colour")
    kinds = sorted({k for i, (_, _, _, k) in enumerate(spheres) if i != big})
    check(all(checked.get(k, 0) >= least for k in kinds),
          f"{label}: spheres checked of each species {checked}, expected {least} or more")


def same_files(a, b, label):
    fa, fb = frames_in(a), frames_in(b)
    check(len(fa) == len(fb) and fa, f"{label}: {len(fa)} and {len(fb)} frames")
    for x, y in zip(fa, fb):
        with open(x, "rb") as u, open(y, "rb") as v:
            check(u.read() == v.read(), f"{label}: {y} differs from {x}")


mix = ["dim=2", "n=300", "packing=0.3", "frames=1", "width=300", "height=300", "hud=off"]
out = fresh("render_species")
dump = os.path.join(WORK, "species.xyz")
run(["render", "species=2", "species_fraction=0.4,0.6", f"out={out}", f"dump={dump}"] + mix)
dim, box, spheres = read_xyz_frames(dump)[0]
check(len(spheres) == 301 and spheres[-1][3] == 0,
      f"render species: {len(spheres)} spheres, the large one of species {spheres[-1][3]}")
if check(len(frames_in(out)) == 1, "render species: no picture"):
    check_species_picture(frames_in(out)[0], dim, box, spheres, "render species",
                          big=len(spheres) - 1, least=80)
one, as_bands = fresh("render_one_species"), fresh("render_species_bands")
dump_one = os.path.join(WORK, "one_species.xyz")
run(["render", f"out={one}", f"dump={dump_one}"] + mix)
run(["render", "species=2", "species_fraction=0.4,0.6", "color=bands", f"out={as_bands}"] + mix)
same_files(one, as_bands, "render species color=bands")
_, box1, spheres1 = read_xyz_frames(dump_one)[0]
if check(frames_in(one) and [(p, r) for p, _, r, _ in spheres1] ==
         [(p, r) for p, _, r, _ in spheres], "render one species: not the same spheres"):
    # Bands over the starting heights of the spheres, the large one left out.
    image = read_png(frames_in(one)[0])
    w, h, rows = image
    bands = band_colours([p[1] for p, _, _, _ in spheres1[:-1]])
    bx, by, _ = view_pixel(2, box1, w, h, spheres1[-1][0])
    wrong = 0
    for (p, _, r, _), want in zip(spheres1[:-1], bands):
        x, y, scale = view_pixel(2, box1, w, h, p)
        if math.hypot(x - bx, y - by) < (r + spheres1[-1][2]) * scale + 2:
            continue
        wrong += tuple(rows[int(y)][3 * int(x):3 * int(x) + 3]) != want
    check(wrong == 0, f"render one species: {wrong} disks not in their band's colour")

# 3D, three species, seen from yaw 30, pitch 20 degrees; the one-species
# picture again with color=bands.
mix3 = ["dim=3", "n=80", "packing=0.05", "big=off", "frames=1", "width=300", "height=300",
        "hud=off", "yaw=30", "pitch=20"]
out = fresh("render_species_3d")
dump = os.path.join(WORK, "species_3d.xyz")
run(["render", "species=3", f"out={out}", f"dump={dump}"] + mix3)
dim, box, spheres = read_xyz_frames(dump)[0]
if check(len(frames_in(out)) == 1 and dim == 3, "render species 3D: no picture"):
    check_species_picture(frames_in(out)[0], 3, box, spheres, "render species 3D",
                          yaw=math.radians(30), pitch=math.radians(20), least=5)
one, as_bands = fresh("render_one_species_3d"), fresh("render_species_3d_bands")
run(["render", f"out={one}"] + mix3)
run(["render", "species=3", "color=bands", f"out={as_bands}"] + mix3)
same_files(one, as_bands, "render species 3D color=bands")

# pass_through=0-1 (unlike spheres pass, like ones collide): after a time unit some
# pairs of species 0 and 1 overlap, no pair of one species does; the
# large sphere takes species 2, which no pair names, and, dragged across,
# ends with no sphere of either species inside it, having pushed both.
out = fresh("render_pass_through")
dump = os.path.join(WORK, "pass_through.xyz")
run(["render", "dim=2", "n=300", "packing=0.3", "species=2", "pass_through=0-1",
     "big_radius=3", "drag=8,8,20,20", "frames=31", "fps=30", "width=120", "height=120",
     "hud=off", f"out={out}", f"dump={dump}"])
start = os.path.join(WORK, "pass_through_start.xyz")
run(["render", "dim=2", "n=300", "packing=0.3", "species=2", "pass_through=0-1",
     "big_radius=3", "frames=1", "width=120", "height=120", f"out={fresh('render_pt0')}",
     f"dump={start}"])
if check(os.path.exists(dump) and os.path.exists(start), "render pass_through: no dump"):
    dim, box, end = read_xyz_frames(dump)[0]
    _, _, begin = read_xyz_frames(start)[0]
    big = len(end) - 1
    check(end[big][3] == 2, f"render pass_through: the large sphere is of species {end[big][3]}")
    crossing, same = 0, []

    def gap(a, b):
        d = [a[0][k] - b[0][k] for k in range(2)]
        d = [x - box[k] * round(x / box[k]) for k, x in enumerate(d)]
        return math.hypot(*d) - a[2] - b[2]

    for i in range(len(end)):
        for j in range(i + 1, len(end)):
            g = gap(end[i], end[j])
            if g < -1e-9:
                if {end[i][3], end[j][3]} == {0, 1}:
                    crossing += 1
                else:
                    same.append((i, j, end[i][3], end[j][3], g))
    check(crossing >= 5 and not same,
          f"render pass_through: {crossing} pairs 0-1 overlapping (expected some), "
          f"other overlapping pairs {same[:3]}")
    bx, by = end[big][0][0], end[big][0][1]
    check(math.hypot(bx - 20, by - 20) < 1.0, f"render pass_through: large sphere at {bx},{by}")
    pushed = {0: 0, 1: 0}
    for (p0, _, _, k), (p1, _, _, _) in zip(begin[:-1], end[:-1]):
        # Pushed: ended on the far side of the large sphere's path, or moved further than
        # thermal motion takes a disk in a time unit.
        pushed[k] += math.dist(p0, p1) > 4.0 and min(math.dist(p0, (8 + t * 12, 8 + t * 12, 0))
                                                     for t in (i / 20 for i in range(21))) < 4
    check(pushed[0] >= 3 and pushed[1] >= 3,
          f"render pass_through: disks pushed far by the large sphere, by species {pushed}")

# Trajectories: species from the XYZ file's S<k> names (and H5MD's
# /particles/all/species, the same pictures byte for byte), every frame;
# a file of one species ("S") is drawn in the bands.
for ext in ["xyz"] + (["h5"] if os.environ.get("CAROM_HAVE_HDF5") else []):
    path = os.path.join(WORK, f"species_traj.{ext}")
    run(["run", "dim=2", "n=200", "packing=0.3", "species=2", "pass_through=0-1", "time=2",
         "frame_interval=1", f"trajectory={path}"])
    run(["render", f"input={path}", "width=240", "height=240", "hud=off",
         f"out={fresh('render_species_traj_' + ext)}"])
files = frames_in(os.path.join(WORK, "render_species_traj_xyz"))
frames = read_xyz_frames(os.path.join(WORK, "species_traj.xyz"))
if check(len(files) == len(frames) == 3, f"render species trajectory: {len(files)} frames"):
    for f, (dim, box, spheres) in zip(files, frames):
        check_species_picture(f, dim, box, spheres, f"render species trajectory {f}", least=30)
if os.environ.get("CAROM_HAVE_HDF5"):
    same_files(os.path.join(WORK, "render_species_traj_xyz"),
               os.path.join(WORK, "render_species_traj_h5"), "render species H5MD")
out = fresh("render_traj_bands")
run(["render", f"input={traj}", "frames=1", "width=240", "height=240", "hud=off", f"out={out}"])
dim, box, spheres = read_xyz_frames(traj)[0]
if check(len(frames_in(out)) == 1, "render trajectory bands: no picture"):
    w, h, rows = read_png(frames_in(out)[0])
    wrong = []
    for (p, _, _, _), want in zip(spheres, band_colours([p[1] for p, _, _, _ in spheres])):
        x, y, _ = view_pixel(2, box, w, h, p)
        got = tuple(rows[int(y)][3 * int(x):3 * int(x) + 3])
        if got != want:
            wrong.append((p, got, want))
    check(not wrong, f"render trajectory of one species: {len(wrong)} disks not in their "
          f"band's colour, e.g. {wrong[:2]}")
bad_species = os.path.join(WORK, "bad_species.xyz")
with open(bad_species, "w") as f:
    f.write('2\nLattice="10 0 0 0 10 0 0 0 1" Properties=species:S:1:pos:R:3 dim=2\n'
            "S0 2 2 0\nS40 6 6 0\n")

# Bad input: one line on stderr, nonzero exit.
empty = fresh("empty_path")
os.makedirs(empty)
env = dict(os.environ, PATH=empty)
p = run(["render", "frames=2", f"out={os.path.join(WORK, 'x.mp4')}"], env=env, expect=2)
check("ffmpeg" in p.stderr and p.stderr.count("\n") == 1,
      f"mp4 without ffmpeg: stderr {p.stderr!r}")
for args, word in [(["render", "frames=0", f"out={WORK}/bad"], "frames"),
                   (["render", "frames=2"], "out="),
                   (["render", "width=abc", f"out={WORK}/bad"], "width"),
                   (["render", "colour=speed", f"out={WORK}/bad"], "colour"),
                   (["render", "time=3", f"out={WORK}/bad"], "time"),
                   (["render", f"input={WORK}/missing.xyz", f"out={WORK}/bad"], "missing.xyz"),
                   (["render", "dim=2", "n=20", "boundary=walls", "planes=0,0,3",
                     f"out={WORK}/bad"], "planes=0,0,3: the normal must have a nonzero"),
                   (["render", f"input={traj}", "planes=1,1,1,3", f"out={WORK}/bad"],
                    "each plane is nx,ny,d in 2D"),
                   (["render", f"input={traj}", "triangles=1,1,1,2,1,1,1,2,1",
                     f"out={WORK}/bad"], "triangles are for 3D worlds"),
                   (["render", f"input={traj}", "n=50", f"out={WORK}/bad"],
                    "key 'n' does not apply with input="),
                   (["render", "dim=2", "boundary=walls", "big=off", "drag=1,1,2,2",
                     f"out={WORK}/bad"], "drag= moves the large sphere, which is off"),
                   (["render", "dim=2", "box=10", "motion=orbits", f"orbits={WORK}/none.txt",
                     f"out={WORK}/bad"], "none.txt"),
                   (["render", f"input={bad_species}", f"out={WORK}/bad"],
                    "bad_species.xyz:4: column 1 (species): 'S40' is out of range"),
                   (["render", "color=height", f"out={WORK}/bad"],
                    "color=height: expected bands, speed or species"),
                   (["render", "dim=2", "n=20", "species=2", "pass_through=0-2",
                     f"out={WORK}/bad"], "species 2 out of range")]:
    p = subprocess.run([CAROM] + args, capture_output=True, text=True, timeout=60)
    check(p.returncode != 0 and word in p.stderr and p.stderr.count("\n") == 1,
          f"carom {' '.join(args)}: exit {p.returncode}, stderr {p.stderr!r}")

# The large sphere (driven by the drag) may sense too: sense= with it on.
p = subprocess.run([CAROM, "render", "dim=2", "n=60", "species=2", "sense=0-1",
                    "drag=2,2,8,8", "frames=3", f"out={WORK}/sense"],
                   capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"render with sense= and the large sphere: exit {p.returncode}, "
      f"stderr {p.stderr!r}")

# shear= (Lees-Edwards): no large sphere; the bands run across the flow
# (by starting x) and the flow tilts them; the dumped state keeps the
# profile (v_x against y: slope within 20% of the rate), its temperature
# relative to the profile within 3% of the start's, and no two disks
# overlap through the moving images. drag= is refused with it.
out = fresh("render_shear")
dump = os.path.join(WORK, "shear.xyz")
p = run(["render", "dim=2", "n=400", "packing=0.4", "boundary=periodic", "shear=0.3",
         "time_scale=5", "frames=60", "width=160", "height=160", "hud=off", f"out={out}",
         f"dump={dump}"])
files = frames_in(out)
if check(len(files) == 60, f"render shear: {len(files)} frames") and \
        check(os.path.exists(dump), "render shear: no dump"):
    states = read_xyz_states(dump)
    with open(dump) as f:
        f.readline()
        comment = f.readline()
    box = [float(v) for v in comment.split('Lattice="')[1].split('"')[0].split()[0::4][:2]]
    ys = [q[1] for q, _, _ in states]
    vx = [v[0] for _, v, _ in states]
    my, mv = sum(ys) / len(ys), sum(vx) / len(vx)
    slope = sum((y - my) * (u - mv) for y, u in zip(ys, vx)) / sum((y - my) ** 2 for y in ys)
    check(abs(slope / 0.3 - 1) < 0.2, f"render shear: profile slope {slope:.4g}, rate 0.3")
    kt = sum((v[0] - 0.3 * (q[1] - box[1] / 2)) ** 2 + v[1] ** 2
             for q, v, _ in states) / (2 * len(states))
    check(0.97 < kt < 1.03, f"render shear: kT relative to the profile {kt:.4g}")
    t_end = float(comment.split("Time=")[1].split()[0])
    offset = (0.3 * box[1] * t_end) % box[0]
    worst = 0.0
    for a in range(len(states)):
        for b in range(a + 1, len(states)):
            (pa, _, ra), (pb, _, rb) = states[a], states[b]
            for side in (-1, 0, 1):
                dx = pb[0] + side * offset - pa[0]
                dx -= box[0] * round(dx / box[0])
                dy = pb[1] + side * box[1] - pa[1]
                worst = max(worst, 1 - math.hypot(dx, dy) / (ra + rb))
    check(worst < 1e-9, f"render shear: two disks overlap by {worst:.3g}")
p = subprocess.run([CAROM, "render", "dim=2", "n=60", "boundary=periodic", "shear=0.3",
                    "drag=2,2,8,8", "frames=3", f"out={WORK}/shear_drag"],
                   capture_output=True, text=True, timeout=60)
check(p.returncode != 0 and "shear=" in p.stderr and p.stderr.count("\n") == 1,
      f"render shear= with drag=: exit {p.returncode}, stderr {p.stderr!r}")

for f in failures:
    print("FAIL:", f)
print(f"render tests: {'FAILED' if failures else 'passed'}")
sys.exit(1 if failures else 0)
