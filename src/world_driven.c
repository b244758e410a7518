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
 * - reset: its bound has grown by driven_growth (the world's
 *   bound_growth, world_internal.h): probe, restart. Following section
 *   3.3 of the paper, no meeting later than a bound's reset is predicted
 *   (the reset predicts again);
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
 *   earlier than predicted before; likewise after crossing into the next
 *   cell it scans only the cells newly around it
 *   (world_predict_after_crossing). The pair floor is therefore kept a
 *   lower bound on every meeting predicted since the last full
 *   prediction, but the event's own: a meeting it was not given as its
 *   event goes into the floor. The floor also knows whose meeting it is
 *   and the next bound beyond it (floor_detail), so that reaching it
 *   costs that one pair's prediction (world_predict_at_floor); a floor
 *   of unknown origin is reached by predicting in full;
 * - bound and wall: the same, for the faces of a walled box, fixed planes
 *   and fixed segments (world_driven_segments.c), only when the
 *   application accepts kicks; otherwise it keeps its spheres clear.
 * Probing that finds two spheres already overlapping (the application
 * broke its bound) reports the contact at once with its depth
 * (carom_contact.depth, stats.late_contacts), and responds if they are
 * approaching; it is never skipped. A probe at a meeting or a reset that
 * finds a sphere outside its bound is counted (stats.bound_breaks).
 *
 * Pairs whose contact the response cannot change (report-only worlds;
 * two spheres neither of which the response can move; sensing pairs) are
 * remembered as in contact once reported (in the world's set of lingering
 * pairs, which holds as many as there are), and until probing finds them
 * apart, their prediction is instead the first time the bounds allow them
 * to have separated. So each contact is reported once, when it begins;
 * a sensing pair's parting is reported when probing finds it apart.
 *
 * Degenerate cases: spheres touching within the tolerance and not
 * approaching (a graze, or a contact just resolved) would let two fresh
 * bounds "meet" at once forever. If they separate slowly and the
 * response can move them, the meeting is a contact ("pressed",
 * world_driven_meet.c) that separates them fast enough; otherwise their
 * next meeting is put off until the bounds have grown by the tolerance.
 *
 * Files: this one follows the bounds (adding, probing, restarting,
 * resets); world_driven_predict.c predicts meetings; world_driven_meet.c
 * processes them; world_driven.h is what they share. */
#include <math.h>
#include <stdlib.h>

#include "vec.h"
#include "world_driven.h"

carom_status world_driven_add(carom_world *w, uint32_t id, double accel_bound)
{
    if (!w->bounds) {
        w->bounds = aligned_alloc(64, w->capacity * sizeof *w->bounds);
        w->floors = malloc(w->capacity * sizeof *w->floors);
        if (!w->bounds || !w->floors) {
            free(w->bounds);
            free(w->floors);
            w->bounds = NULL;
            w->floors = NULL;
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for driven spheres");
        }
        for (size_t k = 0; k < w->capacity; k++) {
            w->bounds[k] = (driven_bound){0.0, 0.0, INFINITY, INFINITY}; /* ballistic */
            w->floors[k] = (floor_detail){INFINITY, SPHERE_NONE, 0};
        }
    }
    w->has_driven = 1;
    sphere *s = &w->spheres[id];
    INFO(s)->driven = 1;
    INFO(s)->falls = 0; /* gravity, if any, is the application's business */
    if (!driven_movable(w))
        INFO(s)->inv_mass = 0.0; /* contacts cannot move it */
    w->bounds[id] = (driven_bound){w->time, accel_bound, INFINITY, INFINITY};
    world_driven_size_bound(w, id);
    if (w->def.response == CAROM_RESPONSE_NONE || !driven_movable(w) || w->sensing)
        w->contacts_linger = 1;
    return CAROM_OK;
}

void world_driven_choose_growth(carom_world *w)
{
    w->bound_growth = 0.0;
    if (w->alive_count == 0 || !(w->mean_radius > 0.0))
        return;
    double volume = 1.0;
    for (int k = 0; k < w->def.dim; k++)
        volume *= w->def.box[k];
    double spacing = pow(volume / (double)w->alive_count, 1.0 / w->def.dim);
    double g = BOUND_GROWTH_OF_GAP * (spacing - 2.0 * w->mean_radius);
    double lo = BOUND_GROWTH_MIN * w->mean_radius, hi = BOUND_GROWTH_MAX * w->mean_radius;
    w->bound_growth = g < lo ? lo : g > hi ? hi : g;
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
    /* The driver must not change the world (the calls that would refuse
     * while it is busy), even when probed for a query that only reads
     * it: the world is never itself const, so its guard can be raised. */
    carom_world *guarded = (carom_world *)w;
    guarded->busy++;
    w->def.driver.probe(w->def.driver.user_data, world_id_of(w, i), t, px, pv);
    guarded->busy--;
    double centre[3], cv[3];
    int centre_known = 0; /* needed along periodic axes only */
    for (int k = 0; k < 3; k++) {
        x[k] = k < w->def.dim ? px[k] : 0.0;
        v[k] = k < w->def.dim ? pv[k] : 0.0;
        if (k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC) {
            if (!centre_known)
                world_sphere_at(w, s, t, centre, cv);
            centre_known = 1;
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

/* (world_driven.h) */
int world_driven_true_state_checked(carom_world *w, uint32_t i, double t, double x[3], double v[3])
{
    world_true_state(w, i, t, x, v);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(x[k]) || !isfinite(v[k])) {
            world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                       "driven sphere %u: the driver's probe gave a position or velocity that "
                       "is not a finite number at t = %.17g",
                       (unsigned)world_id_of(w, i), t);
            w->callback_failed = CAROM_ERR_INVALID_ARGUMENT;
            return 0;
        }
    }
    return 1;
}

/* The probed state lies in the bound (up to round-off, 1e-9 of the
 * coordinates' and speeds' scale). */
static int within_bound(const carom_world *w, uint32_t i, const double x[3], const double v[3])
{
    const sphere *s = &w->spheres[i];
    const driven_bound *b = &w->bounds[i];
    double dt = w->time - b->t0, d2 = 0.0, e2 = 0.0, scale = 1.0;
    for (int k = 0; k < 3; k++) {
        double d = x[k] - (s->x[k] + s->v[k] * (w->time - s->t)), e = v[k] - s->v[k];
        d2 += d * d;
        e2 += e * e;
        scale += fabs(x[k]) + fabs(v[k]) * dt;
    }
    double slack = 1e-9 * scale;
    return sqrt(d2) <= 0.5 * b->accel * dt * dt + slack &&
           sqrt(e2) <= b->accel * dt + slack + 1e-9 * sqrt(vec_dot(v, v));
}

/* A probe of the driver's own motion (not an announced jump) outside the
 * bound is counted (stats.bound_breaks); validation builds also remember
 * it, after which nothing is promised. */
static void check_bound(carom_world *w, uint32_t i, const double x[3], const double v[3])
{
    if (within_bound(w, i, x, v))
        return;
    w->stats.bound_breaks++;
#ifdef CAROM_VALIDATE
    w->bounds_broken = 1;
#endif
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
    if (!world_driven_true_state_checked(w, id, w->time, x, v))
        return CAROM_ERR_INVALID_ARGUMENT;
    restart_from(w, id, x, v);
    if (placed)
        rehome(w, id);
    return CAROM_OK;
}

double world_driven_reset_time(const carom_world *w, const sphere *s)
{
    return w->bounds[s - w->spheres].t_reset;
}

void world_driven_reset(carom_world *w, uint32_t i)
{
    double x[3], v[3];
    if (!world_driven_true_state_checked(w, i, w->time, x, v))
        return; /* the loop stops with the driver's error */
    world_driven_settle(w, i, x, v);
    w->stats.bound_resets++;
    world_predict(w, i);
}

/* After a restart moved a bound's centre to the probed position (up to
 * its growth away, possibly across a cell face): wraps it into the box on
 * periodic axes and moves the sphere to the cell of its new centre.
 * Returns 1 if its cell changed. A big sphere, out of the grid, is only
 * wrapped, as a ballistic one is at its rescans: fixed segments and
 * triangles are stored with the images a centre in the box can reach,
 * and a bound whose centre drifted boxes away along a periodic axis met
 * none of them (tests/fuzz/regressions/driven/fast-bound-into-segment-end). */
static int rehome(carom_world *w, uint32_t i)
{
    sphere *s = &w->spheres[i];
    if (!w->built)
        return 0;
    if (w->info[i].big) {
        for (int k = 0; k < w->def.dim; k++)
            if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
                world_wrap_into_box(w, i, k);
        return 0;
    }
    const grid *g = sphere_grid(w, i);
    int32_t cc[3];
    int moved = 0;
    for (int k = 0; k < 3; k++) {
        if (g->periodic[k])
            world_wrap_into_box(w, i, k);
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
int world_driven_settle(carom_world *w, uint32_t i, const double x[3], const double v[3])
{
    if (!w->info[i].driven) {
        world_advance_sphere(w, &w->spheres[i], w->time);
        return 0;
    }
    check_bound(w, i, x, v);
    restart_from(w, i, x, v);
    return rehome(w, i);
}
