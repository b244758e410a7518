/* Driven spheres: spheres whose trajectory the application computes and
 * the world does not know, only a bound A on their acceleration (Kim,
 * Guibas and Shin 2005, "Collision detection among moving spheres with
 * unknown trajectories"). Each is followed by a time-varying bound, a
 * sphere of radius r + A (t - t0)^2 / 2 around x0 + v0 (t - t0), where x0
 * and v0 were probed at t0: the true sphere never leaves it. The bound's
 * centre is the sphere's hot record, so the grid, cell crossings and
 * periodic wraps treat it like a ballistic sphere that does not fall.
 *
 * Events of a driven sphere (one pending at a time, like every sphere):
 * - reset: its bound has grown by driven_growth (BOUND_GROWTH): probe,
 *   restart. Following section 3.3 of the paper, no meeting later than
 *   a bound's reset is predicted (the reset predicts again);
 * - bound collision: two bounds (or a bound and a ballistic sphere) meet.
 *   Both are probed. A contact is an approaching pair whose gap would
 *   close within CONTACT_TIME_TOLERANCE of the time (or is down to
 *   round-off); it gets the response, and kicks tell the application of
 *   its spheres' velocity changes. Otherwise both bounds restart from the
 *   probed states (a restarted centre may move to another cell: rehome)
 *   and the meeting is predicted again: each restart shrinks the gap
 *   quadratically, so a contact is found at its time however fast the
 *   spheres. After such a meeting a sphere predicts lazily (its own
 *   events, that pair, and its pair floor: world_predict_lazily), since a
 *   restarted bound lies inside the old one and no other meeting can come
 *   earlier than predicted before;
 * - bound and wall: the same, for the faces of a walled box (only when the
 *   application accepts kicks; otherwise it keeps its spheres inside).
 * Probing that finds two spheres already overlapping (the application
 * broke its bound) reports the contact at once with its depth
 * (carom_contact.depth, stats.late_contacts), and responds if they are
 * approaching; it is never skipped.
 *
 * Pairs whose contact the response cannot change (report-only worlds;
 * two spheres neither of which the response can move) are remembered as
 * in contact once reported (an entry with until = INFINITY in the
 * world's reported list), and until probing finds them apart, their
 * prediction is instead the first time the bounds allow them to have
 * separated. So each contact is reported once, when it begins.
 *
 * Degenerate cases: spheres touching within the tolerance and not
 * approaching (a graze, or a contact just resolved) would let two fresh
 * bounds "meet" at once forever; their next meeting is put off until the
 * bounds have grown by the tolerance. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "vec.h"
#include "world_internal.h"

/* Touching means a gap within this fraction of the contact distance (plus
 * the round-off of the coordinates). */
#define CONTACT_TOLERANCE 1e-10
/* A contact's time is found to within this (relative to max(1, t)), or as
 * well as round-off allows (ROUND_OFF_SHARE of CONTACT_TOLERANCE). */
#define CONTACT_TIME_TOLERANCE 1e-11
#define ROUND_OFF_SHARE 1e-3

static double contact_tolerance(double sigma, const double xa[3], const double xb[3])
{
    double big = 0.0;
    for (int k = 0; k < 3; k++) {
        if (fabs(xa[k]) > big)
            big = fabs(xa[k]);
        if (fabs(xb[k]) > big)
            big = fabs(xb[k]);
    }
    return CONTACT_TOLERANCE * sigma + 1e-14 * big;
}

/* Two approaching surfaces a gap apart touch (for the contact's time)
 * when the gap would close within CONTACT_TIME_TOLERANCE of the time, or
 * is down to round-off; else the bounds are restarted and the gap shrinks
 * again. */
static double touching_gap(double tol, double closing_speed, double t)
{
    double by_time = closing_speed * CONTACT_TIME_TOLERANCE * (fabs(t) > 1.0 ? fabs(t) : 1.0);
    double floor = tol * ROUND_OFF_SHARE;
    return by_time > floor ? (by_time < tol ? by_time : tol) : floor;
}

carom_status world_driven_add(carom_world *w, uint32_t id, double accel_bound)
{
    if (!w->bounds) {
        w->bounds = aligned_alloc(64, w->capacity * sizeof *w->bounds);
        if (!w->bounds)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for driven spheres");
        for (size_t k = 0; k < w->capacity; k++)
            w->bounds[k] = (driven_bound){0.0, 0.0, INFINITY, INFINITY}; /* ballistic */
    }
    w->has_driven = 1;
    sphere *s = &w->spheres[id];
    INFO(s)->driven = 1;
    INFO(s)->falls = 0; /* gravity, if any, is the application's business */
    if (!driven_movable(w))
        INFO(s)->inv_mass = 0.0; /* contacts cannot move it */
    w->bounds[id] = (driven_bound){w->time, accel_bound, INFINITY, INFINITY};
    world_driven_size_bound(w, id);
    if (w->def.response == CAROM_RESPONSE_NONE || !driven_movable(w))
        w->contacts_linger = 1;
    return CAROM_OK;
}

static void set_reset_time(carom_world *w, uint32_t id)
{
    driven_bound *b = &w->bounds[id];
    b->t_reset = b->accel > 0.0 ? b->t0 + sqrt(2.0 * driven_growth(w, id) / b->accel) : INFINITY;
}

void world_driven_size_bound(carom_world *w, uint32_t id)
{
    set_reset_time(w, id);
}

/* Driver probe, with the position brought into the periodic image of the
 * bound's centre (the application does not wrap its coordinates). */
static void probe(const carom_world *w, uint32_t i, double t, double x[3], double v[3])
{
    const sphere *s = &w->spheres[i];
    double px[3] = {0.0, 0.0, 0.0}, pv[3] = {0.0, 0.0, 0.0};
    w->def.driver.probe(w->def.driver.user_data, i, t, px, pv);
    double centre[3], cv[3];
    world_sphere_at(w, s, t, centre, cv);
    for (int k = 0; k < 3; k++) {
        x[k] = k < w->def.dim ? px[k] : 0.0;
        v[k] = k < w->def.dim ? pv[k] : 0.0;
        if (k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            double L = w->def.box[k];
            x[k] -= L * round((x[k] - centre[k]) / L);
        }
    }
}

void world_true_state(const carom_world *w, uint32_t i, double t, double x[3], double v[3])
{
    if (w->info[i].driven)
        probe(w, i, t, x, v);
    else
        world_sphere_at(w, &w->spheres[i], t, x, v);
}

/* The true state of sphere i at t, for the event loop: a driven sphere's
 * probe must give finite numbers, else the world records the error (the
 * loop then stops and returns it) and 0 is returned. */
static int true_state_checked(carom_world *w, uint32_t i, double t, double x[3], double v[3])
{
    world_true_state(w, i, t, x, v);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(x[k]) || !isfinite(v[k])) {
            world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                       "driven sphere %u: the driver's probe gave a position or velocity that "
                       "is not a finite number at t = %.17g",
                       (unsigned)i, t);
            w->driver_failed = 1;
            return 0;
        }
    }
    return 1;
}

/* Starts sphere i's bound at the current time from a probed state. */
static void restart_from(carom_world *w, uint32_t i, const double x[3], const double v[3])
{
    sphere *s = &w->spheres[i];
    vec_copy(s->x, x);
    vec_copy(s->v, v);
    s->t = w->time;
    w->bounds[i].t0 = w->time;
    set_reset_time(w, i);
    w->events[i].counter++;
}

static int rehome(carom_world *w, uint32_t i);

carom_status world_driven_restart(carom_world *w, uint32_t id, int placed)
{
    double x[3], v[3];
    if (!true_state_checked(w, id, w->time, x, v))
        return CAROM_ERR_INVALID_ARGUMENT;
    restart_from(w, id, x, v);
    if (placed)
        rehome(w, id);
    return CAROM_OK;
}

/* sign * (Q(tau)^2 - |P(tau)|^2), with P = p0 + p1 tau + p2 tau^2 (vectors)
 * and Q = q0 + q1 tau + q2 tau^2, as quartic coefficients. */
static void square_difference(const double p0[3], const double p1[3], const double p2[3],
                              const double q[3], double sign, double c[5])
{
    c[0] = sign * (q[0] * q[0] - vec_dot(p0, p0));
    c[1] = sign * (2.0 * q[0] * q[1] - 2.0 * vec_dot(p0, p1));
    c[2] = sign * (q[1] * q[1] + 2.0 * q[0] * q[2] - vec_dot(p1, p1) - 2.0 * vec_dot(p0, p2));
    c[3] = sign * (2.0 * q[1] * q[2] - 2.0 * vec_dot(p1, p2));
    c[4] = sign * (q[2] * q[2] - vec_dot(p2, p2));
}

/* The pair is remembered as in contact (reported, not yet apart). */
static int in_contact(const carom_world *w, uint32_t i, uint32_t j)
{
    if (!w->contacts_linger)
        return 0;
    for (int k = 0; k < REPORTED_MAX; k++)
        if (w->reported[i].e[k].partner == j && w->reported[i].e[k].until == INFINITY)
            return 1;
    return 0;
}

static void forget_contact(carom_world *w, uint32_t i, uint32_t j)
{
    for (int side = 0; side < 2; side++) {
        uint32_t a = side ? j : i, b = side ? i : j;
        reported_contact *e = w->reported[a].e;
        for (int k = 0; k < REPORTED_MAX; k++)
            if (e[k].partner == b && e[k].until == INFINITY)
                e[k] = (reported_contact){SPHERE_NONE, 0, 0, -INFINITY};
    }
}

/* Remembers i as in contact with j: in an empty or expired slot, else in
 * the one that expires first. */
static void remember_contact(carom_world *w, uint32_t i, uint32_t j)
{
    reported_contact *e = w->reported[i].e;
    int slot = 0;
    double first = INFINITY;
    for (int k = 0; k < REPORTED_MAX; k++) {
        int empty = e[k].partner == SPHERE_NONE || e[k].until <= w->time;
        double u = empty ? -INFINITY : e[k].until;
        if (k == 0 || u < first) {
            slot = k;
            first = u;
        }
    }
    e[slot] = (reported_contact){j, 0, 0, INFINITY};
}

/* Both spheres can be moved by the response. */
static int pair_responds(const carom_world *w, uint32_t i, uint32_t j)
{
    if (w->def.response == CAROM_RESPONSE_NONE)
        return 0;
    /* Two infinite masses collide as equals (response.c), but a driven
     * sphere without kicks cannot be moved at all. */
    int fixed_i = w->info[i].driven && !driven_movable(w);
    int fixed_j = w->info[j].driven && !driven_movable(w);
    if (fixed_i && fixed_j)
        return 0;
    if ((fixed_i && w->info[j].inv_mass == 0.0) || (fixed_j && w->info[i].inv_mass == 0.0))
        return 0;
    return 1;
}

/* The bound's extra radius at now + tau as c0 + c1 tau + c2 tau^2, for
 * any sphere (a ballistic one has accel 0). */
static inline void bound_growth(const driven_bound *b, double now, double g[3])
{
    double A = b->accel, e = now - b->t0;
    g[0] = 0.5 * A * e * e;
    g[1] = A * e;
    g[2] = 0.5 * A;
}

double world_driven_pair_time(const carom_world *w, const sphere *a, const double xa[3],
                              const double va[3], const sphere *b, const double shift[3],
                              double now)
{
    uint32_t i = (uint32_t)(a - w->spheres), j = (uint32_t)(b - w->spheres);
    double p0[3], p1[3], p2[3] = {0.0, 0.0, 0.0};
    if (!w->has_gravity) {
        double dt = now - b->t;
        for (int k = 0; k < 3; k++) {
            p0[k] = b->x[k] + b->v[k] * dt + shift[k] - xa[k];
            p1[k] = b->v[k] - va[k];
        }
    } else {
        double xb[3], vb[3];
        world_sphere_at(w, b, now, xb, vb);
        double fall = (double)w->info[j].falls - (double)w->info[i].falls;
        for (int k = 0; k < 3; k++) {
            p0[k] = xb[k] + shift[k] - xa[k];
            p1[k] = vb[k] - va[k];
            p2[k] = 0.5 * fall * w->gravity[k];
        }
    }
    const driven_bound *ba = &w->bounds[i], *bb = &w->bounds[j];
    double ga[3], gb[3], grow[3];
    bound_growth(ba, now, ga);
    bound_growth(bb, now, gb);
    for (int k = 0; k < 3; k++)
        grow[k] = ga[k] + gb[k];
    double sigma = a->radius + b->radius, c[5], q[3];
    if (w->contacts_linger && in_contact(w, i, j)) {
        /* They may have come apart once |P| + growth >= sigma. */
        q[0] = sigma - grow[0];
        q[1] = -grow[1];
        q[2] = -grow[2];
        square_difference(p0, p1, p2, q, -1.0, c);
        return now + roots_first_upcrossing_poly(c, 4);
    }
    /* Nothing later than a reset (section 3.3 of the paper). A cheap test
     * first: the straight path's closest approach before then, less what
     * p2 can bend it by, beyond the largest the bounds get: no meeting. */
    double H = (ba->t_reset < bb->t_reset ? ba->t_reset : bb->t_reset) - now;
    if (H < INFINITY) {
        double reach = sigma + grow[0] + H * (grow[1] + H * grow[2]);
        if (w->has_gravity)
            reach += H * H * sqrt(vec_dot(p2, p2));
        /* Closest approach of p0 + p1 tau over [0, H], without dividing:
         * at 0 if they separate, at H if still closing then, else
         * |p0|^2 - (p0.p1)^2 / |p1|^2. */
        double v2 = vec_dot(p1, p1), b = vec_dot(p0, p1), r2 = reach * reach;
        double far;
        if (b >= 0.0) {
            far = vec_dot(p0, p0) > r2;
        } else if (-b >= H * v2) {
            double d2 = 0.0;
            for (int k = 0; k < 3; k++) {
                double d = p0[k] + p1[k] * H;
                d2 += d * d;
            }
            far = d2 > r2;
        } else {
            far = vec_dot(p0, p0) * v2 - b * b > r2 * v2;
        }
        if (far)
            return INFINITY;
    }
    q[0] = sigma + grow[0];
    q[1] = grow[1];
    q[2] = grow[2];
    square_difference(p0, p1, p2, q, 1.0, c);
    double t = now + roots_first_upcrossing_poly_before(c, 4, H);
    /* Two fresh bounds touching without approaching: see the top. */
    double accel = grow[2] * 2.0;
    if (grow[1] == 0.0 && accel > 0.0 && vec_dot(p0, p1) >= 0.0) {
        double xb[3];
        for (int k = 0; k < 3; k++)
            xb[k] = xa[k] + p0[k];
        double tol = contact_tolerance(sigma, xa, xb);
        if (sqrt(vec_dot(p0, p0)) - sigma <= tol) {
            double later = now + sqrt(2.0 * tol / accel);
            if (t < later)
                t = later;
        }
    }
    return t;
}

double world_driven_wall_time(const carom_world *w, const sphere *s, const double x[3],
                              const double v[3], int wall, double now)
{
    int axis = wall / 2, high = wall % 2;
    const driven_bound *b = &w->bounds[s - w->spheres];
    double g[3];
    bound_growth(b, now, g);
    /* Signed distance by which the bound passes the face: rises to 0. */
    double sign = high ? 1.0 : -1.0;
    double face = high ? w->def.box[axis] : 0.0;
    double c0 = sign * (x[axis] - face) + s->radius + g[0];
    double c1 = sign * v[axis] + g[1];
    double c2 = g[2];
    /* Nothing later than the reset: cheaply, can it get there by then? */
    double H = b->t_reset - now;
    if (H < INFINITY && c0 + H * (fabs(c1) + H * c2) < 0.0)
        return INFINITY;
    double t = now + roots_first_upcrossing_quadratic(c0, c1, c2);
    if (g[1] == 0.0 && c2 > 0.0 && c1 <= 0.0) {
        double tol = CONTACT_TOLERANCE * s->radius + 1e-14 * fabs(x[axis]);
        if (c0 >= -tol) {
            double later = now + sqrt(tol / c2);
            if (t < later)
                t = later;
        }
    }
    return t;
}

double world_driven_reset_time(const carom_world *w, const sphere *s)
{
    return w->bounds[s - w->spheres].t_reset;
}

void world_driven_reset(carom_world *w, uint32_t i)
{
    if (world_driven_restart(w, i, 1) != CAROM_OK)
        return; /* the loop stops with the driver's error */
    w->stats.bound_resets++;
    world_predict(w, i);
}

/* After a restart moved a bound's centre to the probed position (up to
 * its growth away, possibly across a cell face): wraps it into the box on
 * periodic axes and moves the sphere to the cell of its new centre.
 * Returns 1 if its cell changed. */
static int rehome(carom_world *w, uint32_t i)
{
    sphere *s = &w->spheres[i];
    if (!w->built || w->info[i].big)
        return 0;
    const grid *g = sphere_grid(w, i);
    int32_t cc[3];
    int moved = 0;
    for (int k = 0; k < 3; k++) {
        if (g->periodic[k]) {
            double L = g->length[k];
            s->x[k] -= L * floor(s->x[k] / L);
            if (s->x[k] >= L)
                s->x[k] = 0.0;
        }
        cc[k] = grid_coordinate(g, k, s->x[k]);
        moved |= cc[k] != w->info[i].cc[k];
    }
    if (moved) {
        cell_unlink(w, i);
        for (int k = 0; k < 3; k++)
            w->info[i].cc[k] = cc[k];
        cell_link(w, i);
    }
    return moved;
}

/* Puts sphere i's record at the current time with its true state: a
 * driven sphere's bound restarts there. Returns 1 if it changed cell. */
static int settle(carom_world *w, uint32_t i, const double x[3], const double v[3])
{
    if (!w->info[i].driven) {
        world_advance_sphere(w, &w->spheres[i], w->time);
        return 0;
    }
    restart_from(w, i, x, v);
    return rehome(w, i);
}

/* After the response changed driven sphere i's velocity from v_before,
 * tell the application. */
static void kick(carom_world *w, uint32_t i, const double v_before[3])
{
    if (!w->info[i].driven || !driven_movable(w))
        return;
    const sphere *s = &w->spheres[i];
    double dv[3];
    for (int k = 0; k < 3; k++)
        dv[k] = s->v[k] - v_before[k];
    if (dv[0] != 0.0 || dv[1] != 0.0 || dv[2] != 0.0)
        w->def.driver.kick(w->def.driver.user_data, i, w->time, dv);
}

/* Reports a contact the response does not act on; the callback may still
 * change velocities (kicks for driven spheres). */
static void report_only(carom_world *w, uint32_t i, uint32_t j, const double n[3], double depth)
{
    if (!w->def.on_contact)
        return;
    sphere *s[2] = {&w->spheres[i], &w->spheres[j]};
    carom_contact c = {0};
    c.kind = CAROM_CONTACT_SPHERE;
    c.time = w->time;
    c.i = i;
    c.j = j;
    c.wall = -1;
    c.depth = depth;
    vec_copy(c.normal, n);
    vec_copy(c.velocity_after[0], s[0]->v);
    vec_copy(c.velocity_after[1], s[1]->v);
    w->def.on_contact(w->def.user_data, &c);
    for (int m = 0; m < 2; m++) {
        uint32_t id = m ? j : i;
        double before[3];
        vec_copy(before, s[m]->v);
        int movable = w->info[id].driven ? driven_movable(w) : 1;
        if (!movable)
            continue;
        for (int k = 0; k < w->def.dim; k++)
            s[m]->v[k] = c.velocity_after[m][k];
        if (vec_dot(before, before) != vec_dot(s[m]->v, s[m]->v) || before[0] != s[m]->v[0] ||
            before[1] != s[m]->v[1] || before[2] != s[m]->v[2]) {
            w->events[id].counter++;
            kick(w, id, before);
        }
    }
}

/* After a meeting without contact: a driven sphere predicts lazily, a
 * ballistic one (whose trajectory did not change, but whose event was
 * used) in full. */
static void repredict_after_restart(carom_world *w, uint32_t i, uint32_t partner, int moved)
{
    /* A big sphere's scan is tied to where it was: it predicts in full,
     * as does one that changed cell. */
    if (w->info[i].driven && !moved && !w->info[i].big && !world_cells_scans_region(w, i))
        world_predict_lazily(w, i, partner);
    else
        world_predict(w, i);
}

void world_driven_collision(carom_world *w, uint32_t i, uint32_t j, double t)
{
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    double shift[3], xa[3], va[3], xb[3], vb[3], dr[3], dv[3];
    world_pair_shift(w, a, b, t, shift);
    if (!true_state_checked(w, i, t, xa, va) || !true_state_checked(w, j, t, xb, vb))
        return; /* the loop stops with the driver's error */
    for (int k = 0; k < 3; k++) {
        dr[k] = xb[k] + shift[k] - xa[k];
        dv[k] = vb[k] - va[k];
    }
    double sigma = a->radius + b->radius, dist = sqrt(vec_dot(dr, dr));
    double gap = dist - sigma, tol = contact_tolerance(sigma, xa, xb);
    double closing = dist > 0.0 ? -vec_dot(dr, dv) / dist : 0.0;
    int approaching = closing > 0.0;
    w->stats.bound_collisions++;
    int moved_i = settle(w, i, xa, va);
    int moved_j = settle(w, j, xb, vb);

    if (in_contact(w, i, j)) {
        if (gap > tol || (gap > -tol && !approaching))
            forget_contact(w, i, j);
    } else if (!((approaching && gap <= touching_gap(tol, closing, t)) || gap < -tol)) {
        /* No contact: only the restarted bounds' own events and this
         * pair's next meeting are new (the restarted bounds lie inside
         * the old ones, so the meetings with others are no earlier). */
        repredict_after_restart(w, i, j, moved_i);
        repredict_after_restart(w, j, i, moved_j);
        return;
    } else {
        double depth = gap < -tol ? -gap : 0.0;
        if (depth > 0.0)
            w->stats.late_contacts++;
        w->stats.collisions++;
        if (pair_responds(w, i, j)) {
            response_collide(w, i, j, shift, depth);
            w->events[i].counter++;
            w->events[j].counter++;
            kick(w, i, va);
            kick(w, j, vb);
        } else {
            double n[3];
            for (int k = 0; k < 3; k++)
                n[k] = dist > 0.0 ? dr[k] / dist : (k == 0);
            report_only(w, i, j, n, depth);
            remember_contact(w, i, j);
            remember_contact(w, j, i);
        }
    }
    world_predict(w, i);
    world_predict(w, j);
}

void world_driven_wall(carom_world *w, uint32_t i, int wall, double t)
{
    sphere *s = &w->spheres[i];
    int axis = wall / 2, high = wall % 2;
    double x[3], v[3];
    if (!true_state_checked(w, i, t, x, v))
        return; /* the loop stops with the driver's error */
    double sign = high ? 1.0 : -1.0;
    double face = high ? w->def.box[axis] : 0.0;
    double gap = sign * (face - x[axis]) - s->radius; /* >= 0: inside */
    double tol = CONTACT_TOLERANCE * s->radius + 1e-14 * fabs(x[axis]);
    double closing = sign * v[axis];
    w->stats.bound_collisions++;
    int moved = settle(w, i, x, v);
    if ((closing > 0.0 && gap <= touching_gap(tol, closing, t)) || gap < -tol) {
        double depth = gap < -tol ? -gap : 0.0;
        if (depth > 0.0)
            w->stats.late_contacts++;
        response_wall(w, i, wall, depth);
        w->events[i].counter++;
        w->stats.wall_hits++;
        kick(w, i, v);
        world_predict(w, i);
    } else {
        repredict_after_restart(w, i, SPHERE_NONE, moved);
    }
}
