"""The tests' own distance from a point to a triangle in 3D (cli_test.py,
viewer/render_test.py), independent of the library's."""
import math


def triangle_distance(x, corners):
    """Distance from point x to the triangle with three corners (3D): to
    its face where x projects inside it, else to its nearest edge."""
    def sub(a, b):
        return [a[k] - b[k] for k in range(3)]

    def dot(a, b):
        return sum(a[k] * b[k] for k in range(3))

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    best = math.inf
    for k in range(3):
        a, b = corners[k], corners[(k + 1) % 3]
        d = sub(b, a)
        u = max(0.0, min(1.0, dot(sub(x, a), d) / dot(d, d)))
        e = sub(x, [a[m] + u * d[m] for m in range(3)])
        best = min(best, math.sqrt(dot(e, e)))
    n = cross(sub(corners[1], corners[0]), sub(corners[2], corners[0]))
    if all(dot(cross(sub(corners[(k + 1) % 3], corners[k]), sub(x, corners[k])), n) >= 0
           for k in range(3)):
        best = min(best, abs(dot(sub(x, corners[0]), n)) / math.sqrt(dot(n, n)))
    return best
