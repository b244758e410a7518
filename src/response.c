/* Collision response: impulses along the contact normal with masses and a
 * coefficient of restitution (the contact law of the pair's species:
 * world_contact_laws.c), then the user's callback, which sees the
 * result and may replace the velocities.
 *
 * Restitution e applies only when the normal speed is at least
 * restitution_min_speed; slower contacts are elastic. This keeps inelastic
 * spheres from collapsing into infinitely many collisions in finite time
 * (a resting sphere bounces with a tiny speed instead).
 *
 * After every contact the two sides separate at least at
 * restitution_min_speed. Only contacts with a normal speed below it are
 * touched by this rule: a sphere put at rest on the floor under gravity,
 * or one falling onto an immovable sphere with no speed left, would
 * otherwise be "colliding" at zero speed forever at the same instant.
 * With the default 1e-6 this changes the energy of a grazing contact by
 * at most m (1e-6)^2. After the user's callback the rule is applied
 * again, but only where the callback's velocities would make the contact
 * happen again at once (moving into each other or into the wall, or at
 * rest with gravity pushing in): a callback may stop two spheres touching,
 * but cannot make a contact repeat at the same instant forever.
 * A contact found by probing driven spheres may ask for more (keep_apart,
 * 0 for every other contact): the two sides then separate at least at
 * keep_apart, whatever the restitution (world_driven_meet.c says how much
 * and why), and a callback that leaves them at rest relative to each
 * other gets restitution_min_speed, as under gravity.
 *
 * Two infinite masses collide as if they were equal masses. Rough
 * contacts add a tangential impulse after the normal one
 * (response_rough.c), before the callback. */
#include <math.h>

#include "vec.h"
#include "world_internal.h"

static double restitution_for(const carom_world *w, double e, double normal_speed)
{
    return fabs(normal_speed) < w->def.restitution_min_speed ? 1.0 : e;
}

/* Impulse J along n (from a towards b): a loses J n, b gains it. */
static void apply_impulse(sphere *a, sphere *b, double ia, double ib, const double n[3], double J)
{
    for (int k = 0; k < 3; k++) {
        a->v[k] -= J * ia * n[k];
        b->v[k] += J * ib * n[k];
    }
}

int response_callback_velocities_ok(carom_world *w, const carom_contact *c, int n)
{
    for (int m = 0; m < n; m++) {
        for (int k = 0; k < w->def.dim; k++) {
            if (!isfinite(c->velocity_after[m][k])) {
                world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                           "the contact callback gave sphere %u a velocity that is not a finite "
                           "number (%c = %g) at t = %.17g; that contact kept the velocities it "
                           "had before the callback",
                           (unsigned)(m ? c->j : c->i), "xyz"[k], c->velocity_after[m][k],
                           c->time);
                w->callback_failed = CAROM_ERR_INVALID_ARGUMENT;
                return 0;
            }
        }
    }
    return 1;
}

void response_collide(carom_world *w, uint32_t i, uint32_t j, const double shift[3],
                      double depth, double keep_apart)
{
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    double d[3], dv[3];
    for (int k = 0; k < 3; k++) {
        d[k] = b->x[k] + shift[k] - a->x[k];
        dv[k] = b->v[k] - a->v[k];
    }
    double dist = sqrt(vec_dot(d, d));
    double sigma = (a->radius + b->radius) * growth_factor(w, a->t);
    double overlap = (sigma - dist) / sigma;
    if (overlap > w->stats.max_overlap)
        w->stats.max_overlap = overlap;
    double n[3];
    for (int k = 0; k < 3; k++)
        n[k] = dist > 0.0 ? d[k] / dist : (k == 0);
    /* < 0: approaching; growing spheres (world_growth.c) in the frame of
     * their surfaces, which part as fast as they approached. */
    double grow = growth_speed(w, a->radius + b->radius);
    double vn = vec_dot(dv, n) - grow;
    double ia = INFO(a)->inv_mass, ib = INFO(b)->inv_mass;
    if (ia == 0.0 && ib == 0.0)
        ia = ib = 1.0;
    const contact_law *law = world_pair_law(w, i, j);
    double impulse = 0.0;
    if (vn < 0.0) {
        double e = restitution_for(w, law->restitution, vn);
        impulse = -(1.0 + e) * vn / (ia + ib);
    }
    /* The separating speed is then -e vn; make it at least the minimum. */
    double separating = vn + impulse * (ia + ib);
    double least = fmax(w->def.restitution_min_speed, keep_apart);
    if (separating < least)
        impulse += (least - separating) / (ia + ib);
    if (impulse > 0.0) {
        apply_impulse(a, b, ia, ib, n, impulse);
        w->stats.virial += impulse * dist;
    }
    response_rough_pair(w, i, j, law, n, ia, ib, impulse);
    if (world_reports_contacts(w)) {
        carom_contact c = {0};
        c.kind = CAROM_CONTACT_SPHERE;
        c.time = a->t;
        c.i = world_id_of(w, i);
        c.j = world_id_of(w, j);
        c.wall = -1;
        vec_copy(c.normal, n);
        c.impulse = impulse;
        c.depth = depth;
        vec_copy(c.velocity_after[0], a->v);
        vec_copy(c.velocity_after[1], b->v);
        if (!world_report_contact(w, &c) || !response_callback_velocities_ok(w, &c, 2))
            return;
        for (int k = 0; k < w->def.dim; k++) {
            a->v[k] = c.velocity_after[0][k];
            b->v[k] = c.velocity_after[1][k];
        }
        for (int k = 0; k < 3; k++)
            dv[k] = b->v[k] - a->v[k];
        double vn_after = vec_dot(dv, n) - grow, pushed_in = 0.0;
        for (int k = 0; k < 3; k++)
            pushed_in -= ((INFO(b)->falls ? w->gravity[k] : 0.0) - (INFO(a)->falls ? w->gravity[k] : 0.0)) * n[k];
        double short_by = w->def.restitution_min_speed - vn_after;
        if (vn_after < 0.0 || (vn_after == 0.0 && (pushed_in > 0.0 || keep_apart > 0.0)))
            apply_impulse(a, b, ia, ib, n, short_by / (ia + ib));
    }
}

/* The speed at which a sphere leaves a wall or plane it met at normal
 * speed vn (> 0: into it) under its contact law: the law's restitution's,
 * and at least the least separating speed (see the top of this file). */
static double leaving_speed(const carom_world *w, const contact_law *law, double vn,
                            double keep_apart)
{
    double away = vn > 0.0 ? restitution_for(w, law->restitution, vn) * vn : -vn;
    double least = fmax(w->def.restitution_min_speed, keep_apart);
    return away < least ? least : away;
}

/* Reports sphere i's contact with a wall or plane (kind, its index, the
 * unit normal towards it) to the callback; 1 when the callback's velocity
 * was taken (the caller then sees that it does not press in again). */
static int report_surface_contact(carom_world *w, uint32_t i, carom_contact_kind kind, int index,
                                  const double towards[3], double impulse, double depth)
{
    sphere *s = &w->spheres[i];
    carom_contact c = {0};
    c.kind = kind;
    c.time = s->t;
    c.i = world_id_of(w, i);
    c.j = world_id_of(w, i);
    c.wall = index;
    vec_copy(c.normal, towards);
    c.impulse = impulse;
    c.depth = depth;
    vec_copy(c.velocity_after[0], s->v);
    vec_copy(c.velocity_after[1], s->v);
    if (!world_report_contact(w, &c) || !response_callback_velocities_ok(w, &c, 1))
        return 0;
    for (int k = 0; k < w->def.dim; k++)
        s->v[k] = c.velocity_after[0][k];
    return 1;
}

void response_wall(carom_world *w, uint32_t i, int wall, double depth, double keep_apart)
{
    sphere *s = &w->spheres[i];
    int axis = wall / 2;
    double outward = (wall % 2) ? 1.0 : -1.0;
    /* > 0: moving into the wall (its surface, for a growing sphere) */
    double grow = growth_speed(w, s->radius);
    double vn = s->v[axis] * outward + grow;
    double impulse = 0.0;
    const contact_law *law = world_surface_law(w, i);
    double away = leaving_speed(w, law, vn, keep_apart);
    if (-away != vn) {
        double mass = INFO(s)->inv_mass > 0.0 ? 1.0 / INFO(s)->inv_mass : 0.0;
        impulse = (away + vn) * mass;
        s->v[axis] = -(away + grow) * outward; /* a sign flip: exact */
        w->stats.wall_momentum += impulse;
    }
    double towards[3] = {0.0, 0.0, 0.0};
    towards[axis] = outward;
    response_rough_surface(w, i, law, towards, -away != vn ? away + vn : 0.0);
    if (world_reports_contacts(w) &&
        report_surface_contact(w, i, CAROM_CONTACT_WALL, wall, towards, impulse, depth)) {
        double into = s->v[axis] * outward + grow;
        double pushed_in = INFO(s)->falls ? w->gravity[axis] * outward : 0.0;
        if (into > 0.0 || (into == 0.0 && (pushed_in > 0.0 || keep_apart > 0.0)))
            s->v[axis] = -(w->def.restitution_min_speed + grow) * outward;
    }
}

/* Sphere i leaves a fixed surface whose unit normal towards its free
 * side, at the contact, is n (a plane, or a segment's face or end). */
static void response_surface(carom_world *w, uint32_t i, const double n[3],
                             carom_contact_kind kind, int index, double depth,
                             double keep_apart)
{
    sphere *s = &w->spheres[i];
    /* > 0: moving into the surface (its surface, for a growing sphere) */
    double grow = growth_speed(w, s->radius);
    double vn = -vec_dot(s->v, n) + grow;
    double impulse = 0.0;
    const contact_law *law = world_surface_law(w, i);
    double away = leaving_speed(w, law, vn, keep_apart);
    if (-away != vn) {
        double mass = INFO(s)->inv_mass > 0.0 ? 1.0 / INFO(s)->inv_mass : 0.0;
        impulse = (away + vn) * mass;
        for (int k = 0; k < w->def.dim; k++)
            s->v[k] += (away + vn) * n[k];
        w->stats.wall_momentum += impulse;
    }
    double towards[3] = {-n[0], -n[1], -n[2]};
    response_rough_surface(w, i, law, towards, -away != vn ? away + vn : 0.0);
    if (world_reports_contacts(w) &&
        report_surface_contact(w, i, kind, index, towards, impulse, depth)) {
        double into = -vec_dot(s->v, n) + grow;
        double pushed_in = INFO(s)->falls ? -vec_dot(w->gravity, n) : 0.0;
        if (into > 0.0 || (into == 0.0 && (pushed_in > 0.0 || keep_apart > 0.0)))
            for (int k = 0; k < w->def.dim; k++)
                s->v[k] += (into + w->def.restitution_min_speed) * n[k];
    }
}

void response_plane(carom_world *w, uint32_t i, uint32_t p, double depth, double keep_apart)
{
    response_surface(w, i, w->planes[p].n, CAROM_CONTACT_PLANE, (int)p, depth, keep_apart);
}

void response_segment(carom_world *w, uint32_t i, uint32_t g, double depth, double keep_apart)
{
    const world_segment *seg = &w->segments[g];
    const double *x = w->spheres[i].x;
    double q[3], n[3];
    world_segment_nearest(seg, x, q);
    double dx = x[0] - q[0], dy = x[1] - q[1], d = hypot(dx, dy);
    if (d > 0.0) {
        n[0] = dx / d;
        n[1] = dy / d;
    } else {
        /* On the segment itself (only by round-off): off its face. */
        n[0] = seg->n[0];
        n[1] = seg->n[1];
    }
    n[2] = 0.0;
    response_surface(w, i, n, CAROM_CONTACT_SEGMENT, (int)seg->given, depth, keep_apart);
}

void response_triangle(carom_world *w, uint32_t i, uint32_t g, double depth, double keep_apart)
{
    const world_triangle *tri = &w->triangles[g];
    const double *x = w->spheres[i].x;
    double q[3], n[3];
    world_triangle_nearest(tri, x, q);
    vec_sub(n, x, q);
    double d = sqrt(vec_dot(n, n));
    if (d > 0.0) {
        for (int k = 0; k < 3; k++)
            n[k] /= d;
    } else {
        /* On the triangle itself (only by round-off): off the face it
         * came to. */
        double sign = vec_dot(w->spheres[i].v, tri->n) > 0.0 ? -1.0 : 1.0;
        for (int k = 0; k < 3; k++)
            n[k] = sign * tri->n[k];
    }
    response_surface(w, i, n, CAROM_CONTACT_TRIANGLE, (int)tri->given, depth, keep_apart);
}
