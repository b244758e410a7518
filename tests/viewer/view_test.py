"""Tests of `carom view` under Xvfb (run by CTest through xvfb-run, see
tests/viewer_tests.cmake).

usage: view_test.py MODE CAROM WORKDIR [X11_CLOSE]
  drag   a scripted drag (slow, then fast jumps) moves the large sphere,
         which follows the pointer and pushes particles; none ends inside
         it; the picture shows it where the state says it is, and no longer
         where it started; key d writes the state while it runs
  close  closing the window (WM_DELETE_WINDOW, as a window manager sends
         it) ends the program with exit code 0 and the summary line; with
         no display at all it fails at once with one clear line
  keys   every key (pause, step, reset, slower, faster, gravity, colour)
         then Escape, in a scene with fixed planes: exit code 0 and the
         summary line, and the planes drawn where they are; then keys in
         seed 000's scene of driven particles (kgs-forces), and in a
         hopper of fixed segments (drawn where they are); and two single
         steps of a time unit each, paused, in a rough world of three
         spinning disks: their spokes (OpenGL's) at spin * 2 from +x
  species two disks of species 0 and 1 head-on, two single steps of 6
         time units, paused, gravity switched on and off between them (the
         world built again with the disks overlapping): with
         pass_through=0-1 they pass through each other (exactly where free
         flight puts them), without it they bounce; drawn (OpenGL's) in
         their species' colours after the c key's round of bands, speed
         and species, and in their band after one c; and 3D spheres of
         three species in their colours
"""
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngread import read_png, pixel  # noqa: E402
from picture import (BAND_COLOURS, box_mapping, plane_problems, segment_problems,  # noqa: E402
                     species_problems, spoke_angle)

MODE, CAROM, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
X11_CLOSE = sys.argv[4] if len(sys.argv) > 4 else None
SUMMARY = re.compile(r"^frames (\d+), mean ([0-9.]+) fps, collisions (\d+)$")
# seed 004's box with the particles at rest and no gravity, so that every
# motion comes from the large sphere.
# (A large sphere of radius 6 rather than the default 12 keeps the physics
# fast: the engine's uniform grid has cells as wide as the largest sphere.)
SCENE = ["scenario=seed004", "gravity=0", "temperature=0", "width=600", "height=600",
         "big_radius=6"]
failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def xdo(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=60).stdout.strip()


def read_xyz(path):
    with open(path) as f:
        lines = f.read().splitlines()
    n = int(lines[0])
    spheres = []
    for line in lines[2:2 + n]:
        c = line.split()
        spheres.append(([float(c[1]), float(c[2])], [float(c[4]), float(c[5])], float(c[7])))
    return spheres


def big_of(spheres):
    return max(range(len(spheres)), key=lambda i: spheres[i][2])


def grey_centroid(image):
    w, h, rows = image
    sx = sy = n = 0
    for y in range(h):
        r = rows[y]
        for x in range(w):
            p = r[3 * x:3 * x + 3]
            if all(abs(v - 150) <= 4 for v in p):
                sx += x
                sy += y
                n += 1
    return (sx / n, sy / n, n) if n else (None, None, 0)


def give_up(message):
    """Ends the test with this failure and those recorded before it."""
    for f in failures:
        print("FAIL:", f)
    sys.exit(f"FAIL: {message}")


def start_view(extra, scene=SCENE, attempts=2):
    out = open(os.path.join(WORK, f"{MODE}.stdout"), "w")
    err = open(os.path.join(WORK, f"{MODE}.stderr"), "w")
    proc = subprocess.Popen([CAROM, "view"] + scene + extra, stdout=out, stderr=err)
    # Polled rather than `search --sync`: xdotool exits with an X error and
    # no output when a window (the previous view's, still being destroyed)
    # vanishes while it searches; that is a race of the test, not a failure.
    deadline = time.time() + 120.0
    wid = []
    while not wid and time.time() < deadline:
        if proc.poll() is not None:
            err.flush()
            with open(err.name) as f:
                said = f.read().strip()
            # Xvfb has been seen to refuse a connection for a moment
            # (SDL then falls back to its off-screen driver and the view
            # refuses to start): that is the server's, so try once more,
            # and say so.
            if attempts > 1 and "could not connect to the display" in said:
                print(f"note: carom view could not connect ({said!r}); starting it again")
                time.sleep(2.0)
                return start_view(extra, scene, attempts - 1)
            give_up(f"carom view exited ({proc.returncode}) before its window appeared: {said}")
        wid = xdo("search", "--onlyvisible", "--name", "carom view").split()
        if not wid:
            time.sleep(0.2)
    if not wid:
        proc.kill()
        give_up("no window appeared in 120 s")
    time.sleep(1.0)
    return proc, wid[0]


def finish(proc, what):
    try:
        code = proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        failures.append(f"{what}: the program did not end")
        return None
    with open(os.path.join(WORK, f"{MODE}.stdout")) as f:
        out = f.read()
    with open(os.path.join(WORK, f"{MODE}.stderr")) as f:
        err = f.read()
    check(code == 0, f"{what}: exit code {code}, stderr {err.strip()!r}")
    lines = out.splitlines()
    check(len(lines) == 1 and SUMMARY.match(lines[0]),
          f"{what}: expected one summary line on stdout, got {out!r}")
    return out


def drag():
    start_png, start_xyz = os.path.join(WORK, "start.png"), os.path.join(WORK, "start.xyz")
    end_png, end_xyz = os.path.join(WORK, "end.png"), os.path.join(WORK, "end.xyz")
    for f in (start_png, start_xyz, end_png, end_xyz):
        if os.path.exists(f):
            os.remove(f)
    # The starting picture and state.
    p = subprocess.run([CAROM, "view"] + SCENE + ["max_frames=3", f"screenshot={start_png}",
                                                  f"dump={start_xyz}"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"first run: exit {p.returncode}, {p.stderr.strip()!r}")
    start = read_xyz(start_xyz)
    b = big_of(start)
    (bx0, by0), _, big_r = start[b]
    image = read_png(start_png)
    to_pixel, _, scale = box_mapping(image, 150.0)
    gx, gy, _ = grey_centroid(image)
    px, py = to_pixel(bx0, by0)
    check(gx is not None and abs(gx - px) < 3 and abs(gy - py) < 3,
          f"start picture: large sphere drawn at {gx},{gy}, state says {px:.1f},{py:.1f}")

    # The drag: press away from the sphere, a slow path, then fast jumps.
    proc, wid = start_view([f"screenshot={end_png}", f"dump={end_xyz}"])
    press = (110.0, 60.0)
    slow_end = (40.0, 40.0)
    jumps = [(100.0, 95.0), (30.0, 100.0), (90.0, 30.0)]
    final = (60.0, 50.0)

    def move(x, y):
        u, v = to_pixel(x, y)
        xdo("mousemove", "--window", wid, int(round(u)), int(round(v)))

    move(*press)
    xdo("mousedown", "1")
    time.sleep(0.8)
    steps = 40
    for k in range(1, steps + 1):
        f = k / steps
        move(press[0] + f * (slow_end[0] - press[0]), press[1] + f * (slow_end[1] - press[1]))
        time.sleep(0.04)
    time.sleep(0.8)
    for j in jumps:
        move(*j)
        time.sleep(0.15)
    move(*final)
    time.sleep(1.0)
    xdo("mouseup", "1")
    # The sphere keeps heading for where the pointer was released; when the
    # machine is slow the simulation lags behind real time, so ask for the
    # state (key d) until it has arrived.
    deadline = time.time() + 90.0
    while time.time() < deadline:
        xdo("key", "d")
        time.sleep(0.5)
        try:
            s = read_xyz(end_xyz)
            (x, y), _, _ = s[big_of(s)]
            if math.hypot(x - final[0], y - final[1]) < 1.0:
                break
        except (OSError, ValueError, IndexError):
            pass
    xdo("key", "q")
    finish(proc, "drag")
    if not os.path.exists(end_xyz):
        failures.append("drag: no final state written")
        return
    with open(end_xyz) as f:
        f.readline()
        header = f.readline()
    check('Lattice="150 0 0 0 150 0' in header, f"drag: dump header {header.strip()!r}")
    end = read_xyz(end_xyz)
    b = big_of(end)
    (bx, by), _, big_r = end[b]
    check(math.hypot(bx - final[0], by - final[1]) < 3.0,
          f"drag: large sphere ended at {bx:.2f},{by:.2f}, pointer at {final}")
    inside = [i for i, (pos, _, r) in enumerate(end)
              if i != b and math.hypot(pos[0] - bx, pos[1] - by) < (big_r + r) * (1 - 1e-9)]
    check(not inside, f"drag: {len(inside)} particles inside the large sphere: {inside[:5]}")
    moving = sum(1 for i, (_, v, _) in enumerate(end) if i != b and math.hypot(*v) > 0.05)
    moved = sum(1 for i in range(len(end)) if i != b and
                math.hypot(end[i][0][0] - start[i][0][0], end[i][0][1] - start[i][0][1]) > 0.5)
    check(moving >= 50 and moved >= 100,
          f"drag: the large sphere pushed too few particles ({moving} moving, {moved} moved)")
    image = read_png(end_png)
    gx, gy, _ = grey_centroid(image)
    px, py = to_pixel(bx, by)
    check(gx is not None and abs(gx - px) < 4 and abs(gy - py) < 4,
          f"end picture: large sphere drawn at {gx},{gy}, state says {px:.1f},{py:.1f}")
    sx, sy = to_pixel(bx0, by0)
    p = pixel(image, int(sx), int(sy))
    check(not all(abs(v - 150) <= 4 for v in p),
          f"end picture: still grey {p} where the large sphere started")


def close():
    # With no display: one clear line and a nonzero exit, not an invisible window.
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    p = subprocess.run([CAROM, "view", "max_frames=1000000"], env=env, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode != 0 and "no display" in p.stderr and p.stderr.count("\n") == 1,
          f"view with no display: exit {p.returncode}, stderr {p.stderr!r}")
    if not check(X11_CLOSE is not None, "close: no x11_close helper"):
        return
    proc, wid = start_view([])
    subprocess.run([X11_CLOSE, wid], check=False, timeout=30)
    finish(proc, "close")


def keys():
    # A V-shaped floor of two planes (the particles' bottom rows behind
    # them are left out); the last picture must show it.
    shot = os.path.join(WORK, "keys.png")
    if os.path.exists(shot):
        os.remove(shot)
    proc, wid = start_view(["planes=1,2,60/-1,2,-90", f"screenshot={shot}"])
    xdo("mousemove", "--window", wid, 300, 300)
    for key in ["space", "n", "n", "space", "c", "g", "minus", "plus", "plus", "g", "r", "c"]:
        xdo("key", key)
        time.sleep(0.3)
    xdo("key", "Escape")
    finish(proc, "keys")
    if check(os.path.exists(shot), "keys: no screenshot"):
        for problem in plane_problems(read_png(shot), [(1, 2, 60), (-1, 2, -90)], 150.0,
                                      150.0 / 32 + 0.5):
            failures.append(f"keys, planes: {problem}")
    # Driven particles (seed 000's random forces): reset makes their
    # motion again, gravity is left alone; the run ends cleanly.
    proc, wid = start_view(["width=400", "height=400"], ["scenario=kgs-forces", "n=300"])
    xdo("mousemove", "--window", wid, 200, 200)
    for key in ["space", "n", "space", "g", "r", "n", "r"]:
        xdo("key", key)
        time.sleep(0.3)
    xdo("key", "Escape")
    finish(proc, "keys, driven")
    # A hopper of fixed segments (2D): drawn where they are.
    shot = os.path.join(WORK, "keys_segments.png")
    if os.path.exists(shot):
        os.remove(shot)
    hopper = [(0, 30, 18, 20), (40, 30, 22, 20), (10, 8, 30, 8)]
    proc, wid = start_view(["width=400", "height=400", f"screenshot={shot}"],
                           ["dim=2", "n=600", "box=40", "boundary=walls", "gravity=5",
                            "restitution=0.8", "restitution_min_speed=1",
                            "segments=" + "/".join(",".join(map(str, g)) for g in hopper)])
    xdo("mousemove", "--window", wid, 200, 200)
    for key in ["space", "n", "space", "r"]:
        xdo("key", key)
        time.sleep(0.3)
    xdo("key", "Escape")
    finish(proc, "keys, segments")
    if check(os.path.exists(shot), "keys, segments: no screenshot"):
        for problem in segment_problems(read_png(shot), hopper, 40.0):
            failures.append(f"keys, segments: {problem}")
    # Spokes: three disks at rest with spins 2.5, -1.2 and 0 in a rough
    # world, paused; each single step is 1/60 of a time unit times the
    # time scale (60), so after two the spokes are at spin * 2.
    shot = os.path.join(WORK, "keys_spokes.png")
    if os.path.exists(shot):
        os.remove(shot)
    disks = [(5.0, 5.0, 2.5), (15.0, 5.0, -1.2), (10.0, 15.0, 0.0)]
    spun = os.path.join(WORK, "spokes.xyz")
    with open(spun, "w") as f:
        f.write('3\nLattice="20 0 0 0 20 0 0 0 1" Properties=species:S:1:pos:R:3:velo:R:3:'
                'radius:R:1:mass:R:1:spin:R:3 pbc="F F F" dim=2\n')
        f.writelines(f"S {x} {y} 0 0 0 0 4 1 0 0 {w}\n" for x, y, w in disks)
    proc, wid = start_view(["width=400", "height=400", "paused=1", "time_scale=60",
                            f"screenshot={shot}"],
                           [f"init={spun}", "gravity=0", "big=off", "tangential_restitution=1"])
    for key in ["n", "n"]:
        xdo("key", key)
        time.sleep(0.3)
    xdo("key", "Escape")
    finish(proc, "keys, spokes")
    if check(os.path.exists(shot), "keys, spokes: no screenshot"):
        image = read_png(shot)
        for x, y, w in disks:
            dark, seen, rp = spoke_angle(image, 20.0, x, y, 4.0)
            off = (math.degrees(abs(math.remainder(seen - 2.0 * w, 2 * math.pi)))
                   if seen is not None else 180.0)
            check(len(dark) >= rp / 2 and off <= 3.0,
                  f"keys, spokes: disk at {x},{y} spin {w}: {len(dark)} spoke pixels at "
                  f"{math.degrees(seen or 0.0):.1f} degrees, expected {math.degrees(2 * w):.1f}")


def species():
    # A at x 4 (species 0) moving +x, B at x 16 (species 1) moving -x, radius
    # 1, box 20 with walls: they touch at t 4. A single step is 1/60 of a
    # time unit times the time scale (360): at t 6 the disks passing through
    # each other are on top of one another, and g (twice) builds the world
    # again from there; at t 12 A is at x 16 and B at 4.
    pair = os.path.join(WORK, "pair.xyz")
    with open(pair, "w") as f:
        f.write('2\nLattice="20 0 0 0 20 0 0 0 1" Properties=species:S:1:pos:R:3:velo:R:3:'
                'radius:R:1:mass:R:1 pbc="F F F" dim=2\n'
                "S0 4 10 0 1 0 0 1 1\nS1 16 10 0 -1 0 0 1 1\n")
    for name, extra, keys in [("pass", ["pass_through=0-1"], ["c", "c", "c", "n", "g", "g", "n"]),
                              ("bounce", [], ["c", "n", "g", "g", "n"])]:
        shot, dump = os.path.join(WORK, f"{name}.png"), os.path.join(WORK, f"{name}.xyz")
        for f in (shot, dump):
            if os.path.exists(f):
                os.remove(f)
        proc, wid = start_view(["width=400", "height=400", "paused=1", "time_scale=360",
                                f"screenshot={shot}", f"dump={dump}"],
                               [f"init={pair}", "gravity=0", "big=off"] + extra)
        for key in keys:
            xdo("key", key)
            time.sleep(0.3)
        xdo("key", "Escape")
        finish(proc, f"species, {name}")
        if not (check(os.path.exists(dump), f"species, {name}: no dump") and
                check(os.path.exists(shot), f"species, {name}: no screenshot")):
            continue
        with open(dump) as f:
            lines = f.read().splitlines()
        t = float(lines[1].split("Time=")[1].split()[0])
        (a, va, _), (b, vb, _) = read_xyz(dump)
        names = [line.split()[0] for line in lines[2:4]]
        check(t == 12.0 and names == ["S0", "S1"],
              f"species, {name}: time {t}, species {names}, expected 12 and S0, S1")
        if name == "pass":
            check(abs(a[0] - 16.0) < 1e-9 and abs(b[0] - 4.0) < 1e-9 and a[1] == b[1] == 10.0
                  and va == [1.0, 0.0] and vb == [-1.0, 0.0],
                  f"species, pass: A at {a} moving {va}, B at {b} moving {vb}; expected 16 "
                  "and 4, never met")
            problems, checked = species_problems(
                read_png(shot), [((x, y, 0.0), 1.0, k, False) for (x, y), k in
                                 [(a, 0), (b, 1)]], 2, (20.0, 20.0, 0.0))
            check(not problems and checked == {0: 1, 1: 1},
                  f"species, pass: colours {problems} (checked {checked})")
        else:
            check(a[0] < b[0] and va[0] < 0 < vb[0],
                  f"species, bounce: A at {a} moving {va}, B at {b} moving {vb}: "
                  "expected them bounced")
            image = read_png(shot)
            to_pixel, _, _ = box_mapping(image, 20.0)
            got = [pixel(image, *map(int, to_pixel(x, y))) for x, y in (a, b)]
            check(all(tuple(g) == BAND_COLOURS[0] for g in got),
                  f"species, bounce, after c: colours {got}, expected the first band's")
    # 3D: spheres of species 0, 1 and 2 on a ring, seen from the default
    # camera; the sphere pixels are shades of their species' colour.
    ring = os.path.join(WORK, "ring.xyz")
    balls = [((5 + 3 * math.cos(k * 0.7), 5 + 3 * math.sin(k * 0.7), 2 + 0.6 * k), k % 3)
             for k in range(9)]
    with open(ring, "w") as f:
        f.write(f'{len(balls)}\nLattice="10 0 0 0 10 0 0 0 10" Properties=species:S:1:pos:R:3:'
                'velo:R:3:radius:R:1:mass:R:1 pbc="F F F"\n')
        f.writelines(f"S{k} {x} {y} {z} 0 0 0 0.8 1\n" for (x, y, z), k in balls)
    shot = os.path.join(WORK, "ring.png")
    if os.path.exists(shot):
        os.remove(shot)
    proc, wid = start_view(["width=400", "height=400", "paused=1", f"screenshot={shot}"],
                           [f"init={ring}", "gravity=0", "big=off"])
    xdo("key", "Escape")
    finish(proc, "species, 3D")
    if check(os.path.exists(shot), "species, 3D: no screenshot"):
        problems, checked = species_problems(read_png(shot), [(p, 0.8, k, False)
                                                              for p, k in balls], 3,
                                             (10.0, 10.0, 10.0))
        check(not problems and sum(checked.values()) >= 6 and len(checked) == 3,
              f"species, 3D: {problems[:3]} (checked {checked})")


{"drag": drag, "close": close, "keys": keys, "species": species}[MODE]()
for f in failures:
    print("FAIL:", f)
print(f"view {MODE} test: {'FAILED' if failures else 'passed'}")
sys.exit(1 if failures else 0)
