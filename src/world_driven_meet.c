/* What a meeting of driven spheres' bounds (or of a bound and a wall) is
 * and does: probe, decide contact or not, respond and kick, or remember a
 * contact the response cannot resolve; then predict again (lazily after a
 * meeting without contact). Rules at the top of world_driven.c. */
#include <math.h>

#include "vec.h"
#include "world_driven.h"

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

/* A contact of a pair the response can move, or of a sphere and a wall,
 * leaves the two separating at least at keep, keep_apart_speed
 * (world_driven.h) of the accelerations that may press them together,
 * whatever the restitution; and a touching pair (gap within twice tol)
 * that neither separates nor approaches at 3/4 of keep or faster is a
 * contact too ("pressed"; a faster approach is left to the rule that
 * finds its contact at its time). Why: bounds that touch and do not approach would meet at
 * once forever, so the next meeting of a pair that separates at keep / 2
 * or faster is put off until the bounds have grown by the tolerance tol
 * (world_driven_predict.c); it gains at least that much in that time,
 * and never sinks in. A slower pair, as restitution below 1 leaves
 * them, would sink that far before the world looks again, and deeper
 * at every contact: a sphere resting on a sphere that rests on the
 * floor passes every bounce on to the floor, and the two are left at
 * rest, touching. So such a pair's meeting is not put off, and is a
 * contact at once. (The margins between keep / 2 and 3/4 of keep, tol
 * and twice tol, are for round-off: a meeting at once that is no contact
 * would come again at once, forever.) A contact slower than keep gains
 * at most the kinetic energy of keep along its normal (reduced mass
 * times A tol), as restitution_min_speed does for ballistic spheres. */
static int pressed(double accel, double gap, double tol, double closing, double keep)
{
    return accel > 0.0 && gap <= 2.0 * tol && fabs(closing) < 0.75 * keep;
}

/* The pair is remembered as in contact (reported, not yet apart). */
int world_driven_in_contact(const carom_world *w, uint32_t i, uint32_t j)
{
    return w->contacts_linger &&
           pair_set_contains(&w->lingering, world_id_of(w, i), world_id_of(w, j));
}

static void forget_contact(carom_world *w, uint32_t i, uint32_t j)
{
    pair_set_remove(&w->lingering, world_id_of(w, i), world_id_of(w, j));
}

/* Remembers the pair as in contact, however many contacts its spheres
 * are in. */
static carom_status remember_contact(carom_world *w, uint32_t i, uint32_t j)
{
    if (pair_set_insert(&w->lingering, world_id_of(w, i), world_id_of(w, j)) != 0)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                          "out of memory for the contacts of driven spheres");
    return CAROM_OK;
}

/* (world_driven.h) */
int world_driven_pair_responds(const carom_world *w, uint32_t i, uint32_t j)
{
    if (w->def.response == CAROM_RESPONSE_NONE || spheres_sense(w, i, j))
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
        w->def.driver.kick(w->def.driver.user_data, world_id_of(w, i), w->time, dv);
}

/* (world_internal.h) */
int world_driven_pair_lingers(const carom_world *w, uint32_t i, uint32_t j)
{
    return spheres_sense(w, i, j) || (spheres_meet(w, i, j) && !world_driven_pair_responds(w, i, j));
}

/* Reports a contact the response does not act on (parting: a sensing
 * pair's end of contact); the callback may still change velocities
 * (kicks for driven spheres). */
static void report_only(carom_world *w, uint32_t i, uint32_t j, const double n[3], double depth,
                        int parting)
{
    if (!world_reports_contacts(w))
        return;
    sphere *s[2] = {&w->spheres[i], &w->spheres[j]};
    carom_contact c = {0};
    c.kind = CAROM_CONTACT_SPHERE;
    c.time = w->time;
    c.i = world_id_of(w, i);
    c.j = world_id_of(w, j);
    c.wall = -1;
    c.depth = depth;
    c.parting = parting;
    vec_copy(c.normal, n);
    vec_copy(c.velocity_after[0], s[0]->v);
    vec_copy(c.velocity_after[1], s[1]->v);
    if (!world_report_contact(w, &c) || !response_callback_velocities_ok(w, &c, 2))
        return;
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

/* A pair with a driven sphere found overlapping (beyond the tolerance
 * of a contact) where the world places it is remembered as in contact,
 * unreported: in a report-only world, a pair that meets; in one that
 * responds, a sensing pair (its contact not reported, its parting not
 * either). */
static carom_status note_if_overlapping(carom_world *w, uint32_t i, uint32_t j)
{
    if (j == i || !(w->info[i].driven || w->info[j].driven))
        return CAROM_OK;
    if (!(w->def.response == CAROM_RESPONSE_NONE ? spheres_meet(w, i, j) : spheres_sense(w, i, j)))
        return CAROM_OK;
    double xi[3], vi[3], xj[3], vj[3], shift[3], d[3];
    world_true_state(w, i, w->time, xi, vi);
    world_true_state(w, j, w->time, xj, vj);
    world_min_image_shift(w, xi, xj, shift);
    for (int k = 0; k < 3; k++)
        d[k] = xj[k] + shift[k] - xi[k];
    double sigma = w->spheres[i].radius + w->spheres[j].radius;
    if (sqrt(vec_dot(d, d)) - sigma < -contact_tolerance(sigma, xi, xj))
        return remember_contact(w, i, j);
    return CAROM_OK;
}

/* (world_internal.h) */
carom_status world_driven_note_overlaps(carom_world *w, uint32_t id)
{
    return world_visit_near(w, id, note_if_overlapping);
}


/* After a meeting without contact: a driven sphere predicts lazily, a
 * ballistic one (whose trajectory did not change, but whose event was
 * used) in full. */
static void repredict_after_restart(carom_world *w, uint32_t i, uint32_t partner, int moved,
                                    double *meeting)
{
    /* A big sphere's scan is tied to where it was: it predicts in full,
     * as does one that changed cell. */
    if (!moved && driven_in_plain_grid(w, i))
        world_predict_lazily(w, i, partner, meeting);
    else
        world_predict(w, i);
}

/* A lingering pair found apart (dr: from i to j, as probed now): if it
 * is a sensing pair whose contact was reported, its parting is reported
 * now. */
static void sensed_part(carom_world *w, uint32_t i, uint32_t j, const double dr[3])
{
    if (!spheres_sense(w, i, j) || !world_sensing_end(w, i, j))
        return;
    double n[3], len = sqrt(vec_dot(dr, dr));
    for (int k = 0; k < 3; k++)
        n[k] = len > 0.0 ? dr[k] / len : (k == 0);
    report_only(w, i, j, n, 0.0, 1);
}

/* (world_internal.h) */
void world_driven_report_placed(carom_world *w, uint32_t i, uint32_t j, const double n[3],
                                double depth)
{
    if (world_sensing_begin(w, i, j) != CAROM_OK)
        return; /* the loop stops with the error */
    report_only(w, i, j, n, depth, 0);
    if (remember_contact(w, i, j) != CAROM_OK)
        w->callback_failed = CAROM_ERR_OUT_OF_MEMORY;
    world_predict(w, i);
    world_predict(w, j);
}

/* (world_internal.h) */
void world_driven_report_parted(carom_world *w, uint32_t i, uint32_t j, const double n[3])
{
    forget_contact(w, i, j);
    sensed_part(w, i, j, n);
    world_predict(w, i);
    world_predict(w, j);
}

void world_driven_collision(carom_world *w, uint32_t i, uint32_t j, double t)
{
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    double shift[3], xa[3], va[3], xb[3], vb[3], dr[3], dv[3];
    world_pair_shift(w, a, b, t, shift);
    if (!world_driven_true_state_checked(w, i, t, xa, va) || !world_driven_true_state_checked(w, j, t, xb, vb))
        return; /* the loop stops with the driver's error */
    for (int k = 0; k < 3; k++) {
        dr[k] = xb[k] + shift[k] - xa[k];
        dv[k] = vb[k] - va[k];
    }
    double sigma = a->radius + b->radius, dist = sqrt(vec_dot(dr, dr));
    double gap = dist - sigma, tol = contact_tolerance(sigma, xa, xb);
    double closing = dist > 0.0 ? -vec_dot(dr, dv) / dist : 0.0;
    int approaching = closing > 0.0;
    double accel = pair_press_accel(w, i, j), keep = keep_apart_speed(accel, tol);
    int responds = world_driven_pair_responds(w, i, j);
    w->stats.bound_collisions++;
    int moved_i = world_driven_settle(w, i, xa, va);
    int moved_j = world_driven_settle(w, j, xb, vb);

    if (world_driven_in_contact(w, i, j)) {
        if (gap > tol || (gap > -tol && !approaching)) {
            forget_contact(w, i, j);
            sensed_part(w, i, j, dr);
        }
    } else if (!((approaching && gap <= touching_gap(tol, closing, t)) || gap < -tol ||
                 (responds && pressed(accel, gap, tol, closing, keep)))) {
        /* No contact: only the restarted bounds' own events and this
         * pair's next meeting are new (the restarted bounds lie inside
         * the old ones, so the meetings with others are no earlier). */
        double meeting = NAN; /* the pair's next meeting: computed once */
        repredict_after_restart(w, i, j, moved_i, &meeting);
        repredict_after_restart(w, j, i, moved_j, &meeting);
        return;
    } else {
        double depth = gap < -tol ? -gap : 0.0;
        int sensing = spheres_sense(w, i, j);
        if (sensing && world_sensing_begin(w, i, j) != CAROM_OK)
            return; /* the loop stops with the error */
        if (depth > 0.0)
            w->stats.late_contacts++;
        if (!sensing)
            w->stats.collisions++;
        if (responds) {
            response_collide(w, i, j, shift, depth, keep);
            w->events[i].counter++;
            w->events[j].counter++;
            kick(w, i, va);
            kick(w, j, vb);
        } else {
            double n[3];
            for (int k = 0; k < 3; k++)
                n[k] = dist > 0.0 ? dr[k] / dist : (k == 0);
            report_only(w, i, j, n, depth, 0);
            if (remember_contact(w, i, j) != CAROM_OK)
                w->callback_failed = CAROM_ERR_OUT_OF_MEMORY; /* the loop stops */
        }
    }
    world_predict(w, i);
    world_predict(w, j);
}

void world_driven_wall(carom_world *w, uint32_t i, int wall, double t)
{
    sphere *s = &w->spheres[i];
    double x[3], v[3];
    if (!world_driven_true_state_checked(w, i, t, x, v))
        return; /* the loop stops with the driver's error */
    /* How far the centre is on the free side of the face, plane or
     * segment, how fast it closes in, and the size of its coordinates. */
    double inside, closing, scale;
    if ((uint32_t)wall >= TRIANGLE_WALL) {
        double q[3], n[3];
        world_triangle_nearest(&w->triangles[(uint32_t)wall - TRIANGLE_WALL], x, q);
        vec_sub(n, x, q);
        inside = sqrt(vec_dot(n, n));
        for (int k = 0; k < 3; k++)
            n[k] = inside > 0.0 ? n[k] / inside : 0.0;
        closing = -vec_dot(n, v);
        scale = world_plane_scale(x);
    } else if ((uint32_t)wall >= SEGMENT_WALL) {
        double q[3], n[3] = {0.0, 0.0, 0.0};
        world_segment_nearest(&w->segments[(uint32_t)wall - SEGMENT_WALL], x, q);
        inside = hypot(x[0] - q[0], x[1] - q[1]);
        for (int k = 0; k < 2 && inside > 0.0; k++)
            n[k] = (x[k] - q[k]) / inside;
        closing = -vec_dot(n, v);
        scale = world_plane_scale(x);
    } else if ((uint32_t)wall >= PLANE_WALL) {
        const world_plane *p = &w->planes[(uint32_t)wall - PLANE_WALL];
        inside = vec_dot(p->n, x) - p->d;
        closing = -vec_dot(p->n, v);
        scale = world_plane_scale(x);
    } else {
        int axis = wall / 2, high = wall % 2;
        double sign = high ? 1.0 : -1.0;
        double face = high ? w->def.box[axis] : 0.0;
        inside = sign * (face - x[axis]);
        closing = sign * v[axis];
        scale = fabs(x[axis]);
    }
    double gap = inside - s->radius; /* >= 0: clear */
    double tol = CONTACT_TOLERANCE * s->radius + 1e-14 * scale;
    double accel = w->bounds[i].accel, keep = keep_apart_speed(accel, tol);
    w->stats.bound_collisions++;
    int moved = world_driven_settle(w, i, x, v);
    if ((closing > 0.0 && gap <= touching_gap(tol, closing, t)) || gap < -tol ||
        pressed(accel, gap, tol, closing, keep)) {
        double depth = gap < -tol ? -gap : 0.0;
        if (depth > 0.0)
            w->stats.late_contacts++;
        if ((uint32_t)wall >= TRIANGLE_WALL)
            response_triangle(w, i, (uint32_t)wall - TRIANGLE_WALL, depth, keep);
        else if ((uint32_t)wall >= SEGMENT_WALL)
            response_segment(w, i, (uint32_t)wall - SEGMENT_WALL, depth, keep);
        else if ((uint32_t)wall >= PLANE_WALL)
            response_plane(w, i, (uint32_t)wall - PLANE_WALL, depth, keep);
        else
            response_wall(w, i, wall, depth, keep);
        w->events[i].counter++;
        w->stats.wall_hits++;
        kick(w, i, v);
        world_predict(w, i);
    } else {
        repredict_after_restart(w, i, SPHERE_NONE, moved, NULL);
    }
}
