/* The lines that draw a fixed plane (see plane_lines.h).
 *
 * The plane cuts the box's edges (2D: the rectangle's four sides) at the
 * corners of its cross-section; those points, taken once each, give the
 * line across the box (2D) or the polygon's outline in angular order
 * around its centre (3D, where the cross-section of a box is convex). */
#include "plane_lines.h"

#include <math.h>
#include <string.h>

#include "scene_style.h"

#define TICKS_2D 16 /* hatch ticks along a plane that spans the box */
#define CHORDS_3D 7 /* chords across the cross-section */
#define POINTS_MAX 12

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void add_point(double pts[POINTS_MAX][3], int *np, const double p[3], double tol)
{
    for (int i = 0; i < *np; i++)
        if (fabs(pts[i][0] - p[0]) <= tol && fabs(pts[i][1] - p[1]) <= tol &&
            fabs(pts[i][2] - p[2]) <= tol)
            return;
    if (*np < POINTS_MAX)
        memcpy(pts[(*np)++], p, sizeof pts[0]);
}

/* The points where the plane n . x = d (n a unit vector) meets the box's
 * edges, each once; an edge lying in the plane gives both its ends. */
static int cut_points(int dim, const double box[3], const double n[3], double d,
                      double pts[POINTS_MAX][3])
{
    double edges[12][2][3];
    int ne = style_box_edges(dim, box, edges);
    double tol = 1e-12 * (box[0] + box[1] + box[2]);
    int np = 0;
    for (int e = 0; e < ne; e++) {
        const double *a = edges[e][0], *b = edges[e][1];
        double fa = dot(n, a) - d, fb = dot(n, b) - d;
        if (fa == 0.0 && fb == 0.0) {
            add_point(pts, &np, a, tol);
            add_point(pts, &np, b, tol);
        } else if ((fa <= 0.0 && fb >= 0.0) || (fa >= 0.0 && fb <= 0.0)) {
            double t = fa / (fa - fb), p[3];
            for (int k = 0; k < 3; k++)
                p[k] = a[k] + t * (b[k] - a[k]);
            add_point(pts, &np, p, tol);
        }
    }
    return np;
}

static void set_line(double line[2][3], const double a[3], const double b[3])
{
    memcpy(line[0], a, sizeof line[0]);
    memcpy(line[1], b, sizeof line[1]);
}

/* Cuts the segment a-b to the box (Liang-Barsky); 0 if nothing is left. */
static int clip_to_box(int dim, const double box[3], double a[3], double b[3])
{
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < dim; k++) {
        double step = b[k] - a[k];
        if (step == 0.0) {
            if (a[k] < 0.0 || a[k] > box[k])
                return 0;
            continue;
        }
        double ta = (0.0 - a[k]) / step, tb = (box[k] - a[k]) / step;
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        t0 = fmax(t0, ta);
        t1 = fmin(t1, tb);
    }
    if (!(t0 < t1))
        return 0;
    double p[3], q[3];
    for (int k = 0; k < 3; k++) {
        p[k] = a[k] + t0 * (b[k] - a[k]);
        q[k] = a[k] + t1 * (b[k] - a[k]);
    }
    memcpy(a, p, sizeof p);
    memcpy(b, q, sizeof q);
    return 1;
}

/* 2D: the line between the two cut points farthest apart, and ticks at
 * 45 degrees on the side the spheres do not reach. */
static int lines_2d(const double box[3], const double n[3], double pts[POINTS_MAX][3], int np,
                    double lines[PLANE_LINES_MAX][2][3])
{
    int ia = 0, ib = 1;
    double best = -1.0;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            double dx = pts[j][0] - pts[i][0], dy = pts[j][1] - pts[i][1];
            if (dx * dx + dy * dy > best) {
                best = dx * dx + dy * dy;
                ia = i;
                ib = j;
            }
        }
    set_line(lines[0], pts[ia], pts[ib]);
    double length = sqrt(best);
    if (!(length > 0.0))
        return 1;
    double t[3] = {(pts[ib][0] - pts[ia][0]) / length, (pts[ib][1] - pts[ia][1]) / length, 0.0};
    double spacing = fmax(box[0], box[1]) / TICKS_2D;
    int ticks = (int)ceil(length / spacing);
    if (ticks > TICKS_2D)
        ticks = TICKS_2D;
    double h = 0.5 * spacing, step = length / ticks;
    int count = 1;
    for (int j = 0; j < ticks; j++) {
        double a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = pts[ia][k] + (j + 0.5) * step * t[k];
            b[k] = a[k] + h * (t[k] - n[k]);
        }
        a[2] = b[2] = 0.0;
        if (clip_to_box(2, box, a, b))
            set_line(lines[count++], a, b);
    }
    return count;
}

/* 3D: the cross-section's outline, corners in angular order, and chords
 * across it along an in-plane direction u. */
static int lines_3d(const double n[3], double pts[POINTS_MAX][3], int np,
                    double lines[PLANE_LINES_MAX][2][3])
{
    if (np < 3) {
        if (np == 2)
            set_line(lines[0], pts[0], pts[1]);
        return np == 2;
    }
    /* u: the axis least along n, made to lie in the plane; v = n x u. */
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(n[k]) < fabs(n[axis]))
            axis = k;
    double u[3] = {0.0, 0.0, 0.0};
    u[axis] = 1.0;
    double along = n[axis], norm = 0.0;
    for (int k = 0; k < 3; k++) {
        u[k] -= along * n[k];
        norm += u[k] * u[k];
    }
    norm = sqrt(norm);
    for (int k = 0; k < 3; k++)
        u[k] /= norm;
    double v[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]};
    double c[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < np; i++)
        for (int k = 0; k < 3; k++)
            c[k] += pts[i][k] / np;
    /* Corners in angular order (insertion sort, at most 12). */
    double angle[POINTS_MAX], height[POINTS_MAX];
    for (int i = 0; i < np; i++) {
        double r[3] = {pts[i][0] - c[0], pts[i][1] - c[1], pts[i][2] - c[2]};
        angle[i] = atan2(dot(r, v), dot(r, u));
    }
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && angle[j] < angle[j - 1]; j--) {
            double a = angle[j], p[3];
            angle[j] = angle[j - 1];
            angle[j - 1] = a;
            memcpy(p, pts[j], sizeof p);
            memcpy(pts[j], pts[j - 1], sizeof p);
            memcpy(pts[j - 1], p, sizeof p);
        }
    int count = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < np; i++) {
        set_line(lines[count++], pts[i], pts[(i + 1) % np]);
        double r[3] = {pts[i][0] - c[0], pts[i][1] - c[1], pts[i][2] - c[2]};
        height[i] = dot(r, v);
        lo = fmin(lo, height[i]);
        hi = fmax(hi, height[i]);
    }
    for (int j = 1; j <= CHORDS_3D; j++) {
        double s = lo + j * (hi - lo) / (CHORDS_3D + 1), ends[2][3];
        int found = 0;
        for (int i = 0; i < np && found < 2; i++) {
            int next = (i + 1) % np;
            double ga = height[i] - s, gb = height[next] - s;
            if ((ga < 0.0) == (gb < 0.0))
                continue;
            double t = ga / (ga - gb);
            for (int k = 0; k < 3; k++)
                ends[found][k] = pts[i][k] + t * (pts[next][k] - pts[i][k]);
            found++;
        }
        if (found == 2)
            set_line(lines[count++], ends[0], ends[1]);
    }
    return count;
}

int plane_lines(int dim, const double box[3], const double normal[3], double offset,
                double lines[PLANE_LINES_MAX][2][3])
{
    double n[3] = {normal[0], normal[1], dim == 3 ? normal[2] : 0.0};
    double length = sqrt(dot(n, n));
    if (!(length > 0.0) || !isfinite(length) || !isfinite(offset))
        return 0;
    for (int k = 0; k < 3; k++)
        n[k] /= length;
    double pts[POINTS_MAX][3];
    int np = cut_points(dim, box, n, offset / length, pts);
    if (dim == 2)
        return np >= 2 ? lines_2d(box, n, pts, np, lines) : 0;
    return lines_3d(n, pts, np, lines);
}
