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
