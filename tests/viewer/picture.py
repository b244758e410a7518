"""Reading the viewer's 2D pictures back in world units (for the viewer tests).

Contract: pixels_of(image, rgb, tol) lists the (x, y) pixels within tol of
the colour rgb in every channel. box_mapping(image, box_width) finds the
box outline (the viewer's box colour) and returns (to_pixel, to_world,
scale): to_pixel maps world (x, y) to pixel coordinates, to_world maps a
pixel back, scale is pixels per unit length (the 2D view keeps x and y at
the same scale, y up). plane_problems(image, planes, box_width, hatch)
checks how 2D fixed planes (nx, ny, d: lines n . x = d) are drawn: every
pixel of the planes' colour on a line or at most `hatch` on its solid
side, and each line drawn along its whole length inside the box; it
returns what is wrong, as a list of strings. segment_problems(image,
segments, box_width) does the same for 2D fixed segments (x0, y0, x1,
y1): every pixel of their colour on one, each drawn along its length.
spoke_angle(image, box_width, x, y, radius) finds the spoke of the 2D disk
at world (x, y): its dark pixels (every channel under 70) inside the disk
and more than 3 pixels from its centre (the centroid of the disk's
pixels), returned with the world angle (radians, counterclockwise from +x;
None without pixels) of their mean direction and the disk's pixel radius.
SPECIES_COLOURS and BAND_COLOURS are the viewer's palettes (frame.c);
band_colours(heights) gives each sphere's band colour as palette_bands
does from the starting heights of the spheres it bands. view_pixel(dim,
box, width, height, p, yaw, pitch) is where the viewer's camera (camera.c;
yaw and pitch in radians, 3D only) draws world point p: pixel x, y (not
rounded) and pixels per unit length there. shade_of(pixel, rgb) says
whether a pixel of a 3D sphere is lit colour rgb (with the highlight).
species_problems(image, spheres, dim, box, yaw, pitch)
checks that each sphere (position, radius, species, big), drawn as it
is, shows its species' colour at its centre (2D: exactly; 3D: at least 5
of the 9 pixels around it a shade of it, shade_of); spheres covered there by
another (2D: one drawn later, 3D: a nearer one) and the large sphere are
left out. It returns (problems, how many checked of each species).
"""
import math

BOX_COLOUR = (200, 200, 210)
PLANE_COLOUR = (240, 225, 170)


def pixels_of(image, rgb, tol=6):
    w, h, rows = image
    found = []
    for y in range(h):
        r = rows[y]
        for x in range(w):
            p = r[3 * x:3 * x + 3]
            if all(abs(p[c] - rgb[c]) <= tol for c in range(3)):
                found.append((x, y))
    return found


def box_mapping(image, box_width):
    pts = pixels_of(image, BOX_COLOUR)
    left = min(x for x, _ in pts)
    right = max(x for x, _ in pts)
    bottom = max(y for _, y in pts)
    scale = (right - left) / box_width

    def to_pixel(x, y):
        return left + x * scale, bottom - y * scale

    def to_world(px, py):
        return (px - left) / scale, (bottom - py) / scale

    return to_pixel, to_world, scale


def plane_problems(image, planes, box_width, hatch):
    to_pixel, to_world, scale = box_mapping(image, box_width)
    drawn = pixels_of(image, PLANE_COLOUR)
    if len(drawn) <= 50:
        return [f"only {len(drawn)} pixels of the planes' colour"]
    problems = []
    units = []
    for nx, ny, d in planes:
        length = (nx * nx + ny * ny) ** 0.5
        units.append((nx / length, ny / length, d / length))
    tol = 1.5 / scale
    stray = []
    for px, py in drawn:
        x, y = to_world(px + 0.5, py + 0.5)
        if not any(-hatch - tol <= nx * x + ny * y - d <= tol for nx, ny, d in units):
            stray.append((px, py))
    if stray:
        problems.append(f"{len(stray)} pixels of the planes' colour off the planes, "
                        f"first {stray[:3]}")
    lit = set(drawn)
    margin = box_width / 100
    for nx, ny, d in units:
        # Points of the line inside the box (less a margin of 1%).
        missing = total = 0
        for k in range(-300, 301):
            s = k * box_width / 200
            x, y = d * nx - s * ny, d * ny + s * nx
            if not (margin < x < box_width - margin and margin < y < box_width - margin):
                continue
            u, v = to_pixel(x, y)
            total += 1
            near = any((int(u) + a, int(v) + b) in lit for a in (-1, 0, 1) for b in (-1, 0, 1))
            missing += not near
        if total <= 20 or missing:
            problems.append(f"plane {nx:.3f},{ny:.3f},{d:.3f} missing at {missing} of {total} "
                            "points")
    return problems


def segment_problems(image, segments, box_width):
    to_pixel, to_world, scale = box_mapping(image, box_width)
    drawn = pixels_of(image, PLANE_COLOUR)
    if len(drawn) <= 20:
        return [f"only {len(drawn)} pixels of the segments' colour"]

    def distance(x, y, seg):
        x0, y0, x1, y1 = seg
        dx, dy = x1 - x0, y1 - y0
        u = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
        return ((x - x0 - u * dx) ** 2 + (y - y0 - u * dy) ** 2) ** 0.5

    problems = []
    tol = 1.5 / scale
    stray = [(px, py) for px, py in drawn
             if min(distance(*to_world(px + 0.5, py + 0.5), seg) for seg in segments) > tol]
    if stray:
        problems.append(f"{len(stray)} pixels of the segments' colour off the segments, "
                        f"first {stray[:3]}")
    lit = set(drawn)
    for seg in segments:
        x0, y0, x1, y1 = seg
        missing = 0
        for k in range(1, 50):
            u, v = to_pixel(x0 + (x1 - x0) * k / 50, y0 + (y1 - y0) * k / 50)
            missing += not any((int(u) + a, int(v) + b) in lit
                               for a in (-1, 0, 1) for b in (-1, 0, 1))
        if missing:
            problems.append(f"segment {seg} missing at {missing} of 49 points")
    return problems


def spoke_angle(image, box_width, x, y, radius):
    w, h, rows = image
    to_pixel, _, scale = box_mapping(image, box_width)
    u, v = to_pixel(x, y)
    rp = radius * scale
    background = rows[h - 1][0:3]
    inside = [(px, py) for py in range(max(0, int(v - 1.1 * rp)), min(h, int(v + 1.1 * rp) + 1))
              for px in range(max(0, int(u - 1.1 * rp)), min(w, int(u + 1.1 * rp) + 1))
              if rows[py][3 * px:3 * px + 3] != background]
    cx = sum(px + 0.5 for px, _ in inside) / max(len(inside), 1)
    cy = sum(py + 0.5 for _, py in inside) / max(len(inside), 1)
    dark = [(px + 0.5 - cx, py + 0.5 - cy) for px, py in inside
            if max(rows[py][3 * px:3 * px + 3]) < 70
            and 3.0 < math.hypot(px + 0.5 - cx, py + 0.5 - cy) < 0.92 * rp]
    if not dark:
        return dark, None, rp
    # Image y grows downwards: the world's angle is atan2(-dy, dx).
    sx = sum(dx / math.hypot(dx, dy) for dx, dy in dark)
    sy = sum(-dy / math.hypot(dx, dy) for dx, dy in dark)
    return dark, math.atan2(sy, sx), rp


# frame.c's species_colours and band_colours.
SPECIES_COLOURS = [(0, 130, 200), (245, 130, 48), (60, 180, 75), (230, 25, 75),
                   (145, 30, 180), (70, 240, 240), (240, 50, 230), (255, 225, 25),
                   (250, 190, 212), (0, 128, 128), (170, 110, 40), (220, 190, 255)]
BAND_COLOURS = [(214, 64, 52), (236, 134, 44), (238, 198, 60), (120, 190, 70),
                (52, 170, 150), (60, 130, 210), (110, 90, 200), (190, 90, 170)]


def band_colours(heights):
    lo, hi = min(heights), max(heights)
    h = hi - lo if hi > lo else 1.0
    return [BAND_COLOURS[max(0, min(7, math.floor((y - lo) / h * 8.0)))] for y in heights]


def view_pixel(dim, box, width, height, p, yaw=0.45, pitch=0.35):
    if dim == 2:
        aw, ah = max(width - 16.0, 1.0), max(height - 22.0 - 8.0, 1.0)
        s = min(aw / box[0], ah / box[1])
        ox, oy = 0.5 * (width - s * box[0]), 22.0 + 0.5 * (ah - s * box[1])
        return ox + p[0] * s, oy + (box[1] - p[1]) * s, s
    d = math.sqrt(sum(b * b for b in box))
    r = 1.45 * d
    direction = (math.cos(pitch) * math.sin(yaw), -math.cos(pitch) * math.cos(yaw),
                 math.sin(pitch))
    eye = [0.5 * box[k] + r * direction[k] for k in range(3)]
    forward = [-c for c in direction]
    right = [forward[1], -forward[0], 0.0]  # forward x (0, 0, 1)
    n = math.hypot(right[0], right[1])
    right = [c / n for c in right]
    up = [right[1] * forward[2] - right[2] * forward[1],
          right[2] * forward[0] - right[0] * forward[2],
          right[0] * forward[1] - right[1] * forward[0]]
    rel = [p[k] - eye[k] for k in range(3)]
    z = sum(rel[k] * forward[k] for k in range(3))
    focal = 1.0 / math.tan(0.5 * math.radians(45.0))
    xn = focal / (width / height) * sum(rel[k] * right[k] for k in range(3)) / z
    yn = focal * sum(rel[k] * up[k] for k in range(3)) / z
    return 0.5 * (xn + 1.0) * width, 0.5 * (1.0 - yn) * height, focal * 0.5 * height / z


def _hue(rgb):
    """The channels' differences (r - g, g - b): their direction does not
    change with the light (colour * lit + a white highlight), their length
    is lit times the colour's."""
    d = (rgb[0] - rgb[1], rgb[1] - rgb[2])
    return math.atan2(d[1], d[0]), math.hypot(*d)


def shade_of(got, rgb):
    """Whether pixel colour got is rgb lit (0.2 to 1.1 times) with a white
    highlight: the channels' differences in the direction of rgb's (within
    3 degrees) and nearer it than any other species colour's."""
    a, length = _hue(got)
    want_a, want_length = _hue(rgb)

    def off(c):
        return abs(math.remainder(a - _hue(c)[0], 2 * math.pi))

    nearest = min(SPECIES_COLOURS, key=off)
    return (tuple(nearest) == tuple(rgb) and math.degrees(off(rgb)) <= 3.0 and
            0.2 * want_length <= length <= 1.1 * want_length)


def species_problems(image, spheres, dim, box, yaw=0.45, pitch=0.35):
    w, h, rows = image
    drawn = []
    for pos, radius, species, big in spheres:
        x, y, per_unit = view_pixel(dim, box, w, h, pos, yaw, pitch)
        depth = 0.0 if dim == 2 else 1.0 / per_unit
        drawn.append((x, y, radius * per_unit, depth, species, big))
    problems, checked = [], {}
    for i, (x, y, rp, depth, species, big) in enumerate(drawn):
        if big:
            continue
        covered = False
        for j, (xj, yj, rpj, dj, _, bigj) in enumerate(drawn):
            if j == i:
                continue
            later = (j > i or bigj) if dim == 2 else dj < depth
            covered |= later and math.hypot(x - xj, y - yj) < rpj + 2.0
        u, v = int(math.floor(x)), int(math.floor(y))
        if covered or rp < 3.0 or not (1 <= u < w - 1 and 1 <= v < h - 1):
            continue
        checked[species] = checked.get(species, 0) + 1
        want = SPECIES_COLOURS[species % len(SPECIES_COLOURS)]
        if dim == 2:
            got = tuple(rows[v][3 * u:3 * u + 3])
            if got != want:
                problems.append(f"sphere {i} (species {species}) at pixel {u},{v}: {got}, "
                                f"expected {want}")
            continue
        good = sum(shade_of(rows[v + b][3 * (u + a):3 * (u + a) + 3], want)
                   for a in (-1, 0, 1) for b in (-1, 0, 1))
        if good < 5:
            got = tuple(rows[v][3 * u:3 * u + 3])
            problems.append(f"sphere {i} (species {species}) at pixel {u},{v}: {got}, "
                            f"{good} of 9 pixels a shade of {want}")
    return problems, checked
