/* Predicting one sphere's next event: the earliest of its collisions with
 * the spheres of its own and neighbouring cells (and with the big spheres
 * kept out of the grid), its wall hits and its crossing into a
 * neighbouring cell (the pseudo-event that makes sure a fast sphere meets
 * every sphere on its way: it re-predicts in each cell it enters, so it
 * can never tunnel). A big sphere instead scans the cells within its reach
 * and re-predicts after moving a margin (world_big.c).
 *
 * Pair rule (elastic response): spheres meet when their distance comes
 * down to the contact distance while approaching. Touching or overlapping
 * spheres that are not approaching never collide (so a pair that has just
 * collided cannot collide again at the same instant); overlapping spheres
 * that approach (round-off) collide at once. A grazing contact (distance
 * exactly reaching contact with zero normal speed) is not a collision.
 * Ties between collisions at equal times go to the partner of lowest
 * index (whatever order the grid levels list the candidates in); a wall
 * or cell crossing at the same time as a collision comes first.
 *
 * Report-only response: a pair is reported when it comes into contact
 * while approaching; pairs already overlapping are not reported again.
 * Both spheres' trajectories are evaluated from their common reference
 * time max(t_i, t_j), which a report does not change. Right after a
 * report the pair is touching, and a re-prediction may still find it
 * just short of contact; reported pairs are therefore remembered until
 * they separate (world_internal.h), and a meeting predicted before then
 * is the one already reported. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "vec.h"
#include "world_driven.h"

#define CANDIDATE_BATCH 64

/* Sphere s moves in a straight line: no gravity acts on it (a driven
 * sphere's bound centre always does). */
static inline int moves_straight(const carom_world *w, const sphere *s)
{
    return !w->has_gravity || !INFO(s)->falls;
}

/* Position and velocity of sphere s at time t, without the gravity terms
 * when it does not fall (the common case, kept cheap). */
static inline void state_at(const carom_world *w, const sphere *s, double t, double x[3],
                            double v[3])
{
    double dt = t - s->t;
    if (moves_straight(w, s)) { /* no cold read without gravity */
        for (int k = 0; k < 3; k++) {
            x[k] = s->x[k] + s->v[k] * dt;
            v[k] = s->v[k];
        }
        return;
    }
    world_sphere_at(w, s, t, x, v);
}

/* vv s2 - |dr x dv|^2: approach_time's D for pairs far apart. */
__attribute__((noinline)) static double far_discriminant(const double dr[3],
                                                          const double dv[3], double vv,
                                                          double s2)
{
    double x0 = dr[1] * dv[2] - dr[2] * dv[1], x1 = dr[2] * dv[0] - dr[0] * dv[2];
    double x2 = dr[0] * dv[1] - dr[1] * dv[0];
    return vv * s2 - (x0 * x0 + x1 * x1 + x2 * x2);
}

/* When two spheres apart (c0 = sigma^2 - |dr|^2 < 0) and approaching
 * (b_dot = dr.dv < 0) first touch: the smaller root of
 * c0 - 2 b_dot tau - vv tau^2 (vv = |dv|^2), c0 / (b_dot - sqrt(D)) with
 * D = vv sigma^2 - |dr x dv|^2, a quarter of the discriminant by
 * Lagrange's identity. Written as b_dot^2 + vv c0 it would be the
 * difference of two nearly equal squares for a pair far apart for its
 * size, and lose the root's digits with the square of the distance over
 * sigma (two spheres meeting from 10^4 diameters apart touched 1.8e-9 of
 * sigma deep, from 10^7 apart 2e-3); so the contact stays at sigma to
 * about an ulp of the distance. INFINITY when they pass (D <= 0: a
 * tangency is no contact). */
static inline double approach_time(const double dr[3], const double dv[3], double vv,
                                   double sigma, double c0, double b_dot)
{
    double s2 = sigma * sigma;
    /* Within 4 sigma (the common case in a dense fluid) the two squares
     * differ by at least vv sigma^2 / 16 where D > 0: their difference
     * keeps all but 4 bits, and costs less. (Out of line, the far pairs'
     * form keeps the scan's inlined code as small as it was.) */
    double D = c0 > -15.0 * s2 ? b_dot * b_dot + vv * c0 : far_discriminant(dr, dv, vv, s2);
    if (D <= 0.0)
        return INFINITY;
    return c0 / (b_dot - sqrt(D));
}

/* Next meeting time of spheres a and b (b seen through shift), >= now.
 * xa, va: a's state at tref = max(t_a, t_b), the time both trajectories
 * are compared at: so predicting the pair again, at any later time,
 * without a velocity change gives the same time, bit for bit (lists are
 * remade and cells crossed between a prediction and its event; a
 * meeting found before now can only be round-off, and happens now).
 * report_only (REPORT_ONLY: a report-only world; REPORT_SENSING: a
 * sensing pair not in contact): the next time they touch coming from
 * outside, if not before now; none while they overlap, but for a sensing
 * pair that overlaps no deeper than round-off (SENSE_TOUCH_DEPTH) and
 * approaches at their reference time tref, when that is now: it touches,
 * and comes in now (placed so, world_sensing.c takes it in alike; it may
 * have come to touch without approaching, then been turned towards its
 * partner). Later predictions from the same tref find it inside. */
enum { REPORT_ONLY = 1, REPORT_SENSING = 2 };

/* A sensing pair at c0 = sigma^2 - |dr|^2 > 0 touches (by round-off). */
static inline int sensing_touch(double c0, double sigma)
{
    return c0 <= 2.0 * SENSE_TOUCH_DEPTH * sigma * sigma;
}

static double pair_time(const carom_world *w, const sphere *a, const double xa[3],
                        const double va[3], double tref, const sphere *b,
                        const double shift[3], double now, int report_only)
{
    double xb[3], vb[3];
    state_at(w, b, tref, xb, vb);
    double dr[3], dv[3];
    for (int k = 0; k < 3; k++) {
        dr[k] = xb[k] + shift[k] - xa[k];
        dv[k] = vb[k] - va[k];
    }
    double sigma = a->radius + b->radius;
    double b_dot = vec_dot(dr, dv);
    int same_fall = !w->has_gravity || INFO(a)->falls == INFO(b)->falls;
    if (same_fall && !report_only && b_dot >= 0.0)
        return INFINITY; /* not approaching: the common rejection */
    double c0 = sigma * sigma - vec_dot(dr, dr); /* > 0: overlapping */
    if (report_only && c0 > 0.0) {
        if (report_only == REPORT_SENSING && same_fall && b_dot < 0.0 && sensing_touch(c0, sigma) &&
            tref >= now)
            return tref; /* turned towards each other now */
        return INFINITY;
    }
    double tau;
    if (same_fall) {
        /* Same acceleration: straight relative motion, a quadratic. */
        double vv = vec_dot(dv, dv);
        tau = c0 < 0.0 && b_dot < 0.0 ? approach_time(dr, dv, vv, sigma, c0, b_dot)
                                      : roots_first_upcrossing_quadratic(c0, -2.0 * b_dot, -vv);
    } else {
        /* One feels gravity, the other (infinite mass) does not: a quartic. */
        double s[3];
        double sign = INFO(b)->falls ? 0.5 : -0.5;
        for (int k = 0; k < 3; k++)
            s[k] = sign * w->gravity[k];
        double c[5] = {c0, -2.0 * b_dot, -(vec_dot(dv, dv) + 2.0 * vec_dot(dr, s)),
                       -2.0 * vec_dot(dv, s), -vec_dot(s, s)};
        tau = roots_first_upcrossing_poly(c, 4);
        if (isfinite(tau))
            tau = roots_polish_contact(dr, dv, s, sigma, tau);
    }
    double t = tref + tau;
    if (report_only)
        return t >= now ? t : INFINITY;
    return t > now ? t : now;
}

/* Whether h(tau) = c0 + c1 tau + c2 tau^2 with c0 < 0, c1 > 0, c2 < 0 (two
 * spheres apart and approaching, pair_time_straight's h) surely stays
 * below zero up to tp: h is still rising at tp and clearly below zero
 * there, so its first root (if any) is later. Rising at tp means
 * |c2| tp < c1 / 2, so h(tp) >= c0 + c1 tp / 2: when h(tp) < 0 every term
 * of h is within 2 |c0|, and its round-off within a few ulps of |c0|; the
 * margin of 2^-40 |c0| is far above that. An infinite tp (no horizon)
 * is never reached: h is not rising there (or the test is NaN, false). */
static inline int stays_apart_until(double c0, double c1, double c2, double tp)
{
    double h = c0 + tp * (c1 + c2 * tp);
    return (c1 + 2.0 * c2 * tp > 0.0) & (h < c0 * 0x1p-40); /* one branch at the caller */
}

/* How far past a horizon a pair's test for surely meeting later looks:
 * 2^-20 of the time left (above the root's round-off, which near a
 * tangency is about the square root of an ulp of it) and 2^-44 of the
 * horizon's absolute time (above the round-off of t = tref + tau). */
#define HORIZON_STRETCH (1.0 + 0x1p-20)
static inline double horizon_slack(double horizon)
{
    return fabs(horizon) * 0x1p-44;
}

/* Two spheres moving in straight lines (b seen through shift): their
 * relative position and velocity at their reference time max(t_a, t_b),
 * which is returned. */
static inline double straight_relative(const sphere *a, const sphere *b, const double shift[3],
                                       double dr[3], double dv[3])
{
    double tref = a->t > b->t ? a->t : b->t;
    double da = tref - a->t, db = tref - b->t;
    for (int k = 0; k < 3; k++) {
        double xa = a->x[k] + a->v[k] * da, xb = b->x[k] + b->v[k] * db;
        dr[k] = xb + shift[k] - xa;
        dv[k] = b->v[k] - a->v[k];
    }
    return tref;
}

/* pair_time for the common case, elastic response and no gravity: the
 * same arithmetic, reading nothing but the two hot records. A pair that
 * surely meets after horizon (a finite time, or INFINITY; slack is
 * horizon_slack(horizon)) gets INFINITY without its root being computed:
 * that saves the square root and divisions of candidates that cannot
 * win. The computed time of such a pair would have been later too. */
static inline double pair_time_straight(const sphere *a, const sphere *b,
                                        const double shift[3], double now, double horizon,
                                        double slack)
{
    double dr[3], dv[3], tref = straight_relative(a, b, shift, dr, dv);
    double b_dot = vec_dot(dr, dv);
    if (b_dot >= 0.0)
        return INFINITY; /* not approaching: the common rejection */
    double sigma = a->radius + b->radius;
    double c0 = sigma * sigma - vec_dot(dr, dr); /* > 0: overlapping */
    double c2 = -vec_dot(dv, dv);
    double tau;
    if (c0 < 0.0) {
        double tp = (horizon - tref) * HORIZON_STRETCH + slack;
        if (stays_apart_until(c0, -2.0 * b_dot, c2, tp))
            return INFINITY; /* cannot come before the horizon */
        tau = approach_time(dr, dv, -c2, sigma, c0, b_dot);
    } else {
        tau = roots_first_upcrossing_quadratic(c0, -2.0 * b_dot, c2); /* overlapping */
    }
    double t = tref + tau;
    return t > now ? t : now;
}

/* pair_time for growing spheres (world_growth.c): the contact distance
 * grows at growth_speed, so the quadratic's coefficients change and
 * spheres that do not approach may still meet (the one ahead is caught by
 * the growth). Ballistic, no gravity, elastic response: the only kind of
 * world where spheres grow. */
static double pair_time_growing(const carom_world *w, const sphere *a, const sphere *b,
                                const double shift[3], double now)
{
    double dr[3], dv[3], tref = straight_relative(a, b, shift, dr, dv);
    double sum = a->radius + b->radius;
    double sigma = sum * growth_factor(w, tref), speed = growth_speed(w, sum);
    double c0 = sigma * sigma - vec_dot(dr, dr); /* > 0: overlapping */
    double c1 = 2.0 * (sigma * speed - vec_dot(dr, dv));
    double c2 = speed * speed - vec_dot(dv, dv);
    double t = tref + roots_first_upcrossing_quadratic(c0, c1, c2);
    return t > now ? t : now;
}

/* Sphere i remembers a report with j, neither velocity changed since, and
 * t is before their separation. */
static int remembered(const carom_world *w, uint32_t i, uint32_t j, double t)
{
    const reported_contact *e = w->reported[i].e;
    for (int k = 0; k < REPORTED_MAX; k++)
        if (e[k].partner == j && t < e[k].until && e[k].counter == w->events[i].counter &&
            e[k].partner_counter == w->events[j].counter)
            return 1;
    return 0;
}

static int already_reported(const carom_world *w, uint32_t i, uint32_t j, double t)
{
    return remembered(w, i, j, t) || remembered(w, j, i, t);
}

/* Sphere i or j remembers a report of their contact at time at
 * (whatever their counters: a pair is reported once at one instant). */
static int reported_at(const carom_world *w, uint32_t i, uint32_t j, double at)
{
    for (int k = 0; k < REPORTED_MAX; k++)
        if ((w->reported[i].e[k].partner == j && w->reported[i].e[k].at == at) ||
            (w->reported[j].e[k].partner == i && w->reported[j].e[k].at == at))
            return 1;
    return 0;
}

/* When spheres a and b (b seen through shift, an image moving along x
 * at dvx more than b: world_shear_image) part: the time from tref
 * at which their distance rises through the contact distance, a's state
 * at tref being xa, va (as pair_time). Apart and not approaching, they
 * part at tref; apart and approaching, after passing through each
 * other. */
static double parting_time(const carom_world *w, const sphere *a, const double xa[3],
                           const double va[3], double tref, const sphere *b,
                           const double shift[3], double dvx)
{
    double xb[3], vb[3], dr[3], dv[3];
    state_at(w, b, tref, xb, vb);
    for (int k = 0; k < 3; k++) {
        dr[k] = xb[k] + shift[k] - xa[k];
        dv[k] = vb[k] - va[k];
    }
    dv[0] += dvx; /* an image across the sheared boundary moves */
    double sigma = a->radius + b->radius;
    /* g = distance^2 - sigma^2 (the opposite of pair_time's h): they have
     * parted when g crosses zero going up. */
    double g0 = vec_dot(dr, dr) - sigma * sigma, b_dot = vec_dot(dr, dv);
    double tau;
    if (!w->has_gravity || INFO(a)->falls == INFO(b)->falls) {
        tau = roots_first_upcrossing_quadratic(g0, 2.0 * b_dot, vec_dot(dv, dv));
    } else {
        double s[3];
        double sign = INFO(b)->falls ? 0.5 : -0.5;
        for (int k = 0; k < 3; k++)
            s[k] = sign * w->gravity[k];
        double c[5] = {g0, 2.0 * b_dot, vec_dot(dv, dv) + 2.0 * vec_dot(dr, s),
                       2.0 * vec_dot(dv, s), vec_dot(s, s)};
        tau = roots_first_upcrossing_poly(c, 4);
    }
    return tref + tau;
}

double world_pair_separation_time(const carom_world *w, uint32_t i, uint32_t j,
                                  const double shift[3])
{
    const sphere *a = &w->spheres[i];
    double xa[3], va[3];
    state_at(w, a, w->time, xa, va);
    return parting_time(w, a, xa, va, w->time, &w->spheres[j], shift,
                        world_shear_image_speed(w, shift));
}

/* Earliest time from now at which the sphere's coordinate along an axis
 * crosses a level going up (up = 1) or down (up = 0); x, v: its state now. */
static double face_time(const carom_world *w, const sphere *s, const double x[3],
                        const double v[3], int axis, double level, int up, double now)
{
    double a = w->has_gravity && INFO(s)->falls ? w->gravity[axis] : 0.0;
    double sign = up ? 1.0 : -1.0;
    return now + roots_first_upcrossing_quadratic(sign * (x[axis] - level), sign * v[axis],
                                                  sign * 0.5 * a);
}

/* An event of the given kind (time, partner counter and the sphere's own
 * counter are filled in when it is stored). */
static inline sphere_event event_of(uint32_t kind, uint32_t partner)
{
    sphere_event ev = {kind, partner, 0, 0};
    return ev;
}

/* The earliest collision found so far by one prediction. */
typedef struct pair_scan {
    uint32_t i;        /* the sphere predicted */
    const sphere *s;
    const double *x, *v; /* its state now */
    double now;
    double best;
    sphere_event ev;
    /* Driven sphere: its three earliest meetings, and with whom the first
     * two are (the floor is made of them). */
    double pair1, pair2, pair3;
    uint32_t partner1, partner2;
    int leave; /* leave meetings to partners whose events come first
                  (scan_straight) */
} pair_scan;

/* A scan of sphere i (state x, v now) whose best so far is its own event
 * ev at best, with no meeting found yet. */
static inline pair_scan scan_start(uint32_t i, const sphere *s, const double *x, const double *v,
                                   double now, double best, sphere_event ev, int leave)
{
    pair_scan p = {i,        s,        x,        v,           now,         best, ev,
                   INFINITY, INFINITY, INFINITY, SPHERE_NONE, SPHERE_NONE, leave};
    return p;
}

/* A collision with j at t comes before the best event found so far: it
 * is earlier, or at the same time with a partner of lower index (so ties
 * do not depend on the order the grid lists the candidates in). */
static inline int earlier(const pair_scan *p, double t, uint32_t j)
{
    return t < p->best || (t == p->best && p->ev.kind == EVENT_COLLISION && j < p->ev.partner);
}

/* A collision with j at t becomes the scan's event. */
static inline void take(const carom_world *w, pair_scan *p, double t, uint32_t j)
{
    p->best = t;
    p->ev = event_of(EVENT_COLLISION, j); /* counter: at the end */
    PREFETCH(&w->events[j]); /* read then, if j stays the best */
    PREFETCH(&w->event_time[j]); /* and its time, where store_event tells partners */
}

/* A collision with j at t becomes the scan's event if earlier than the
 * best so far. */
static inline void offer(const carom_world *w, pair_scan *p, double t, uint32_t j)
{
    if (earlier(p, t, j))
        take(w, p, t, j);
}

/* Sphere a and b's images across the sheared boundary (side +1: above
 * the box, -1: below; zshift the periodic shift of b's cell along z):
 * their separation at their reference time max(t_a, t_b), which is
 * returned, shifted along y and z only (the images' displacement along
 * x, and their speed, are the caller's to add), and their velocities'
 * difference. */
static inline double sheared_relative(const carom_world *w, const sphere *a, const sphere *b,
                                      int side, double zshift, double dr[3], double dv[3])
{
    double tref = a->t > b->t ? a->t : b->t;
    double da = tref - a->t, db = tref - b->t;
    for (int k = 0; k < 3; k++) {
        dr[k] = (b->x[k] + b->v[k] * db) - (a->x[k] + a->v[k] * da);
        dv[k] = b->v[k] - a->v[k];
    }
    dr[1] += side * w->def.box[1];
    dr[2] += zshift;
    return tref;
}

/* Lees-Edwards boundaries (world_shear.c): the next meeting, >= now, of
 * sphere a with the images of b across the sheared boundary (side +1:
 * those above the box, displaced by the offset along x and moving at the
 * shear speed; -1: below), zshift the periodic shift of b's cell along z.
 * b's images repeat every Lx along x; the earliest meeting before
 * horizon among them is found: along y and z the pair is within the
 * contact distance only while tau is in (lo, hi), and along x the images
 * pass in turn, so only those whose x separation reaches the contact
 * distance in that time are timed, in the order they come (a few: an
 * image whose x separation passes zero while y and z are close meets,
 * and later ones come after it). Each is timed as pair_time_straight
 * times a pair, from the state at max(t_a, t_b), so that predicting the
 * pair again gives the same time. report_only (REPORT_SENSING, a
 * sensing pair not in contact): as pair_time's, the next time an image
 * touches coming from outside, if not before now; none through an image
 * it overlaps deeper than round-off. */
static double pair_time_sheared(const carom_world *w, const sphere *a, const sphere *b,
                                int side, double zshift, double now, double horizon,
                                int report_only)
{
    double dr[3], dv[3];
    double tref = sheared_relative(w, a, b, side, zshift, dr, dv);
    double sigma = a->radius + b->radius, s2 = sigma * sigma;
    /* Along y and z: |p + q tau|^2 < s2 for tau in (lo, hi), widened
     * against round-off (this only chooses which images to time). */
    double pp = dr[1] * dr[1] + dr[2] * dr[2], pq = dr[1] * dv[1] + dr[2] * dv[2];
    double qq = dv[1] * dv[1] + dv[2] * dv[2];
    double end = (horizon - tref) * HORIZON_STRETCH + horizon_slack(horizon);
    double g0 = pp - s2 * (1.0 + 1e-9);
    if (g0 > 0.0) {
        /* Most candidates, without a square root: apart along y and z
         * and parting, or still closing at the horizon without having
         * come within reach (by a margin above the round-off). */
        if (pq >= 0.0)
            return INFINITY;
        double g_end = g0 + end * (2.0 * pq + qq * end);
        if (pq + qq * end < 0.0 && g_end > 1e-12 * (pp + end * (2.0 * fabs(pq) + qq * end)))
            return INFINITY;
    }
    double lo = -INFINITY, hi = INFINITY;
    if (qq > 0.0) {
        double disc = pq * pq - qq * (pp - s2 * (1.0 + 1e-9));
        if (disc <= 0.0)
            return INFINITY;
        double root = sqrt(disc);
        lo = (-pq - root) / qq;
        hi = (-pq + root) / qq;
        double widen = 1e-9 * (fabs(lo) + fabs(hi));
        lo -= widen;
        hi += widen;
    } else if (pp >= s2 * (1.0 + 1e-9)) {
        return INFINITY;
    }
    if (end < hi)
        hi = end;
    if (lo < 0.0)
        lo = 0.0;
    if (hi < lo)
        return INFINITY;
    /* (Most candidates end above: x is not needed until here.) */
    double Lx = w->def.box[0];
    dr[0] += side * world_shear_offset(w, tref);
    dr[0] -= Lx * round(dr[0] / Lx);
    dv[0] += side * w->shear_speed;
    /* Along x the separation of image m is dr0 + m Lx + dv0 tau: the
     * images come in the order of m against dv0's sign, each timed
     * while its separation can still reach sigma by hi and before the
     * best found. */
    double reach = sigma * (1.0 + 1e-9);
    double x_lo = dr[0] + dv[0] * lo;
    double m = dv[0] > 0.0 ? floor((reach - x_lo) / Lx) : ceil((-reach - x_lo) / Lx);
    double step = dv[0] > 0.0 ? -1.0 : 1.0;
    double best = INFINITY, vv = vec_dot(dv, dv);
    for (int tries = 0; tries < 64; tries++, m += step) {
        /* Image m's separation along x at lo, and when it comes within
         * reach (moving up, it enters at -reach; down, at +reach). */
        double xm = x_lo + m * Lx;
        double gap = dv[0] > 0.0   ? -reach - xm
                     : dv[0] < 0.0 ? xm - reach
                     : xm > reach  ? INFINITY
                                   : 0.0;
        double enter = lo + (gap > 0.0 ? gap / fabs(dv[0]) : 0.0);
        if (enter > hi || tref + enter > best)
            break;
        double x0 = dr[0] + m * Lx;
        double r[3] = {x0, dr[1], dr[2]};
        double b_dot = vec_dot(r, dv);
        if (b_dot >= 0.0)
            continue; /* not approaching */
        double c0 = s2 - vec_dot(r, r);
        if (report_only && c0 > 0.0) {
            if (sensing_touch(c0, sigma) && tref >= now) { /* turned towards it now */
                best = tref;
                break;
            }
            continue; /* inside: its contact came before */
        }
        double tau = c0 < 0.0 ? approach_time(r, dv, vv, sigma, c0, b_dot)
                              : roots_first_upcrossing_quadratic(c0, -2.0 * b_dot, -vv);
        if (report_only && tref + tau < now)
            continue; /* reported before: a later image may touch next */
        if (tref + tau < best)
            best = tref + tau;
    }
    if (!(best < INFINITY))
        return INFINITY;
    if (report_only)
        return best >= now ? best : INFINITY;
    return best > now ? best : now;
}

/* When a sensing pair in contact through b's images across the sheared
 * boundary (side, zshift as pair_time_sheared's) parts: through the
 * image nearest to a now (the one in contact: the images pass along x,
 * so at their reference time another may have been nearer), if that is
 * one across this side (else INFINITY: another scan times it), as
 * parting_time, from their reference time. */
static double parting_time_sheared(const carom_world *w, const sphere *a, const sphere *b,
                                   int side, double zshift, double now)
{
    double dr[3], dv[3];
    double tref = sheared_relative(w, a, b, side, zshift, dr, dv);
    double Lx = w->def.box[0];
    dr[0] += side * world_shear_offset(w, tref);
    dv[0] += side * w->shear_speed;
    double later[3];
    for (int k = 0; k < 3; k++)
        later[k] = dr[k] + dv[k] * (now - tref);
    dr[0] -= Lx * round(later[0] / Lx);
    later[0] -= Lx * round(later[0] / Lx);
    if (!world_is_nearest_image(w, later))
        return INFINITY;
    double sigma = a->radius + b->radius;
    double g0 = vec_dot(dr, dr) - sigma * sigma;
    return tref + roots_first_upcrossing_quadratic(g0, 2.0 * vec_dot(dr, dv), vec_dot(dv, dv));
}

/* The candidates across the sheared boundary of the sphere a scan
 * predicts (world_shear_across's visit), a batch at a time: they lie far
 * from it in memory (at the other end of the box along y), and their
 * records are loaded side by side (at packing 0.45 with lists, 97,556
 * spheres, rate 0.05, medians of three: 5.7e5 -> 6.0e5 collisions/s). */
typedef struct sheared_batch {
    pair_scan *scan;
    int n;
    uint32_t j[CANDIDATE_BATCH];
    int side[CANDIDATE_BATCH];
    double zshift[CANDIDATE_BATCH];
} sheared_batch;

static void scan_sheared_batch(const carom_world *w, sheared_batch *b)
{
    pair_scan *p = b->scan;
    for (int m = 0; m < b->n; m++) {
        uint32_t j = b->j[m];
        double t = pair_time_sheared(w, p->s, &w->spheres[j], b->side[m], b->zshift[m], p->now,
                                     p->best, 0);
        if (earlier(p, t, j) && !(p->leave && w->event_time[j] < t))
            take(w, p, t, j);
    }
    b->n = 0;
}

/* A sensing pair across the sheared boundary, as scan_sensing times one
 * within the box: its contact from outside once, and a pair in contact
 * when it parts. */
static void scan_sheared_sensing(const carom_world *w, pair_scan *p, uint32_t j, int side,
                                 double zshift)
{
    const sphere *o = &w->spheres[j];
    if (w->sensed.count &&
        pair_set_contains(&w->sensed, world_id_of(w, p->i), world_id_of(w, j))) {
        double t = parting_time_sheared(w, p->s, o, side, zshift, p->now);
        offer(w, p, t > p->now ? t : p->now, j);
        return;
    }
    double t = pair_time_sheared(w, p->s, o, side, zshift, p->now, p->best, REPORT_SENSING);
    if (earlier(p, t, j) &&
        (already_reported(w, p->i, j, t) || reported_at(w, p->i, j, p->now)))
        return;
    offer(w, p, t, j);
}

static void scan_sheared(const carom_world *w, void *ctx, uint32_t i, uint32_t j, int side,
                         double zshift)
{
    sheared_batch *b = ctx;
    if (!spheres_meet(w, i, j)) {
        if (w->sensing && spheres_sense(w, i, j))
            scan_sheared_sensing(w, b->scan, j, side, zshift);
        return;
    }
    PREFETCH(&w->spheres[j]);
    b->j[b->n] = j;
    b->side[b->n] = side;
    b->zshift[b->n] = zshift;
    if (++b->n == CANDIDATE_BATCH)
        scan_sheared_batch(w, b);
}

/* Sphere i's candidates across the sheared boundary, into its scan. */
static void scan_across(const carom_world *w, uint32_t i, pair_scan *scan)
{
    sheared_batch b;
    b.scan = scan;
    b.n = 0;
    world_shear_across(w, i, scan->best, scan_sheared, &b);
    scan_sheared_batch(w, &b);
}

/* A meeting at t with j is among the three earliest found so far. */
static void keep_meeting(pair_scan *p, double t, uint32_t j)
{
    if (t < p->pair2) {
        p->pair3 = p->pair2;
        if (t < p->pair1) {
            p->pair2 = p->pair1;
            p->partner2 = p->partner1;
            p->pair1 = t;
            p->partner1 = j;
        } else {
            p->pair2 = t;
            p->partner2 = j;
        }
    } else {
        p->pair3 = t;
    }
}

/* Whether every sphere a ballistic sphere lists as a candidate lists it
 * too, and predicts in full at each of its events: with neighbour lists
 * (symmetric by construction), or with one dense grid level and no big
 * sphere (each scans the 27 cells around its own). A big sphere, or a
 * coarse one among finer spheres, scans a region that the spheres in it
 * do not scan back. */
static inline int candidates_symmetric(const carom_world *w)
{
    return w->list_skin > 0.0 || (w->levels.simple && w->nbig == 0);
}

/* Whether a sphere leaves its meetings to a partner whose own event comes
 * first (scan_straight): ballistic spheres without gravity, a response,
 * symmetric candidates. */
static inline int leaves_to_partner(const carom_world *w)
{
    return !w->has_driven && !w->has_gravity && w->def.response != CAROM_RESPONSE_NONE &&
           candidates_symmetric(w) && !(w->growth_rate > 0.0);
}

/* scan_candidates for ballistic spheres without gravity, responding: the
 * dense hard-sphere loop, with no per-candidate test of the world's kind.
 *
 * When candidates are symmetric (leave_to_partner), a meeting with j that
 * comes after j's own pending event is not taken: j will predict again by
 * then, with this sphere among its candidates, so the invariant "one of
 * any two spheres that will meet next has an event no later" still
 * holds (and j's event time never grows without j predicting). Taking
 * the meeting would only store an event bound to turn stale: at packing
 * 0.45 this cuts the stale events by about 60% and saves about 4% of the
 * instructions (docs/performance-notes.md, fourteenth pass). */
static inline void scan_straight(const carom_world *w, pair_scan *p, const uint32_t *cand,
                                 const double *const *cand_shift, int n, int leave_to_partner)
{
    const sphere *s = p->s;
    double horizon = p->best, slack = horizon_slack(horizon);
    for (int m = 0; m < n; m++) {
        uint32_t j = cand[m];
        double t = pair_time_straight(s, &w->spheres[j], cand_shift[m], p->now, horizon, slack);
        if (earlier(p, t, j) && !(leave_to_partner && w->event_time[j] < t)) {
            take(w, p, t, j);
            horizon = t;
            slack = horizon_slack(t);
        }
    }
}

/* scan_candidates for growing spheres (world_growth.c). */
static void scan_growing(const carom_world *w, pair_scan *p, const uint32_t *cand,
                         const double *const *cand_shift, int n)
{
    for (int m = 0; m < n; m++)
        offer(w, p, pair_time_growing(w, p->s, &w->spheres[cand[m]], cand_shift[m], p->now),
              cand[m]);
}

/* scan_candidates for a driven sphere in a world without gravity whose
 * contacts do not linger: every pair is a meeting of bounds, and those
 * that surely stay apart are skipped (the test world_driven_pair_time
 * starts with). */
static void scan_driven(const carom_world *w, pair_scan *p, const uint32_t *cand,
                        const double *const *cand_shift, int n)
{
    const sphere *s = p->s;
    const driven_bound *s_bound = &w->bounds[p->i];
    for (int m = 0; m < n; m++) {
        uint32_t j = cand[m];
        const sphere *o = &w->spheres[j];
        if (bounds_stay_apart(s_bound, s, p->x, p->v, &w->bounds[j], o, cand_shift[m], p->now))
            continue;
        double t = world_driven_pair_time(w, s, p->x, p->v, o, cand_shift[m], p->now);
        if (t < p->pair3)
            keep_meeting(p, t, j);
        offer(w, p, t, j);
    }
}

/* Times every candidate (all of which meet sphere p->i). */
static void scan_timed(const carom_world *w, pair_scan *p, const uint32_t *cand,
                       const double *const *cand_shift, int n)
{
    const sphere *s = p->s;
    int report_only = w->def.response == CAROM_RESPONSE_NONE;
    if (w->growth_rate > 0.0) {
        scan_growing(w, p, cand, cand_shift, n);
        return;
    }
    if (!w->has_driven && !report_only && !w->has_gravity) {
        if (p->leave)
            scan_straight(w, p, cand, cand_shift, n, 1);
        else
            scan_straight(w, p, cand, cand_shift, n, 0);
        return;
    }
    if (w->has_driven && INFO(s)->driven && !w->has_gravity && !w->contacts_linger) {
        scan_driven(w, p, cand, cand_shift, n);
        return;
    }
    /* Driven pairs whose bounds surely stay apart are skipped here, with
     * the test world_driven_pair_time starts with. */
    int skip_apart = w->has_driven && !w->has_gravity && !w->contacts_linger;
    int s_driven = w->has_driven && INFO(s)->driven;
    const driven_bound *s_bound = w->has_driven ? &w->bounds[p->i] : NULL;
    for (int m = 0; m < n; m++) {
        uint32_t j = cand[m];
        const sphere *o = &w->spheres[j];
        double t;
        if (w->has_driven && (s_driven || w->info[j].driven)) {
            if (skip_apart && bounds_stay_apart(s_bound, s, p->x, p->v, &w->bounds[j], o,
                                                cand_shift[m], p->now))
                continue;
            t = world_driven_pair_time(w, s, p->x, p->v, o, cand_shift[m], p->now);
            if (t < p->pair3)
                keep_meeting(p, t, j);
        } else if (report_only) {
            double tref = s->t > o->t ? s->t : o->t, xa[3], va[3];
            state_at(w, s, tref, xa, va);
            t = pair_time(w, s, xa, va, tref, o, cand_shift[m], p->now, REPORT_ONLY);
            if (earlier(p, t, j) && already_reported(w, p->i, j, t))
                continue;
        } else if (!w->has_gravity) {
            t = pair_time_straight(s, o, cand_shift[m], p->now, INFINITY, INFINITY);
        } else {
            double tref = s->t > o->t ? s->t : o->t, xa[3], va[3];
            state_at(w, s, tref, xa, va);
            t = pair_time(w, s, xa, va, tref, o, cand_shift[m], p->now, 0);
        }
        offer(w, p, t, j);
    }
}

#define CANDIDATES_MAX (LIST_MAX > CANDIDATE_BATCH ? LIST_MAX : CANDIDATE_BATCH)


/* Candidate o, seen through shift, is sphere p->i's nearest image of it
 * now (world_is_nearest_image). */
static int nearest_image(const carom_world *w, const pair_scan *p, const sphere *o,
                         const double shift[3])
{
    double xo[3], vo[3], d[3];
    state_at(w, o, p->now, xo, vo);
    for (int k = 0; k < 3; k++)
        d[k] = xo[k] + shift[k] - p->x[k];
    return world_is_nearest_image(w, d);
}

/* The candidates that sense sphere p->i (ballistic, in a world that
 * responds, world_species.c): timed as in a report-only world, each
 * contact from outside once; and a pair in contact (reported, not yet
 * parted: the world's set sensed) when it parts, through the image in
 * contact (a big sphere's scan may see others). Not left to the
 * partner: taken whenever earliest. */
static void scan_sensing(const carom_world *w, pair_scan *p, const uint32_t *cand,
                         const double *const *cand_shift, int n)
{
    const sphere *s = p->s;
    uint32_t id = world_id_of(w, p->i);
    for (int m = 0; m < n; m++) {
        uint32_t j = cand[m];
        const sphere *o = &w->spheres[j];
        double tref = s->t > o->t ? s->t : o->t, xa[3], va[3];
        state_at(w, s, tref, xa, va);
        if (w->sensed.count && pair_set_contains(&w->sensed, id, world_id_of(w, j))) {
            if (!nearest_image(w, p, o, cand_shift[m]))
                continue;
            double t = parting_time(w, s, xa, va, tref, o, cand_shift[m], 0.0);
            offer(w, p, t > p->now ? t : p->now, j);
            continue;
        }
        double t = pair_time(w, s, xa, va, tref, o, cand_shift[m], p->now, REPORT_SENSING);
        if (earlier(p, t, j) &&
            (already_reported(w, p->i, j, t) || reported_at(w, p->i, j, p->now)))
            continue;
        offer(w, p, t, j);
    }
}

/* scan_timed once some species pass through each other: only the
 * candidates that meet sphere p->i are timed (world_species.c), and those
 * that sense it by scan_sensing (by scan_timed too when either is driven:
 * their bounds meet as for any pair). */
static __attribute__((noinline)) void scan_meeting(const carom_world *w, pair_scan *p,
                                                   const uint32_t *cand,
                                                   const double *const *cand_shift, int n)
{
    uint32_t meet[CANDIDATES_MAX], sense[CANDIDATES_MAX];
    const double *meet_shift[CANDIDATES_MAX], *sense_shift[CANDIDATES_MAX];
    int kept = 0, sensed = 0;
    for (int m = 0; m < n; m++) {
        if (spheres_meet(w, p->i, cand[m])) {
            meet[kept] = cand[m];
            meet_shift[kept++] = cand_shift[m];
        } else if (spheres_sense(w, p->i, cand[m])) {
            if (w->has_driven && (INFO(p->s)->driven || w->info[cand[m]].driven)) {
                /* Timed as a meeting of bounds (world_driven_meet.c). */
                meet[kept] = cand[m];
                meet_shift[kept++] = cand_shift[m];
                continue;
            }
            sense[sensed] = cand[m];
            sense_shift[sensed++] = cand_shift[m];
        }
    }
    if (kept)
        scan_timed(w, p, meet, meet_shift, kept);
    if (sensed)
        scan_sensing(w, p, sense, sense_shift, sensed);
}

/* The candidates of a scan, at most CANDIDATES_MAX of them. */
static inline void scan_candidates(const carom_world *w, pair_scan *p, const uint32_t *cand,
                                   const double *const *cand_shift, int n)
{
    if (w->species_filter)
        scan_meeting(w, p, cand, cand_shift, n);
    else
        scan_timed(w, p, cand, cand_shift, n);
}

static void scan_batch(const carom_world *w, void *scan, const uint32_t *ids,
                       const double *const *shifts, int n)
{
    scan_candidates(w, scan, ids, shifts, n);
}

/* A big sphere's candidates: the spheres of every cell within reach of it
 * while it stays within big_margin of x (world_big.c). */
static void scan_big_region(const carom_world *w, pair_scan *scan, const double x[3])
{
    double reach = sphere_reach(w, scan->i) + w->grid_radius + w->big_margin;
    world_cells_in_region(w, x, reach, scan_batch, scan);
}

/* A ballistic sphere hitting the walls of axis k, if before *best (which
 * it then replaces, with *ev). From its state at its own time, like
 * pairs: predicting again without a velocity change gives the same time. */
static void wall_events(const carom_world *w, const sphere *s, int k, double now, double *best,
                        sphere_event *ev)
{
    /* Moving in a straight line, it can only reach the wall ahead. */
    int straight = moves_straight(w, s);
    double t_lo = straight && !(s->v[k] < 0.0)
                      ? INFINITY
                      : fmax(face_time(w, s, s->x, s->v, k, s->radius, 0, s->t), now);
    double t_hi = straight && !(s->v[k] > 0.0)
                      ? INFINITY
                      : fmax(face_time(w, s, s->x, s->v, k, w->def.box[k] - s->radius, 1, s->t),
                             now);
    if (w->growth_rate > 0.0) {
        /* Growing, it may reach either wall: how far its surface is past
         * each (> 0) moves at its velocity and growth (world_growth.c). */
        double r = s->radius * growth_factor(w, s->t), grow = growth_speed(w, s->radius);
        double into_lo = roots_first_upcrossing_quadratic(r - s->x[k], grow - s->v[k], 0.0);
        double into_hi = roots_first_upcrossing_quadratic(s->x[k] + r - w->def.box[k],
                                                          s->v[k] + grow, 0.0);
        t_lo = fmax(s->t + into_lo, now);
        t_hi = fmax(s->t + into_hi, now);
    }
    if (t_lo < *best) {
        *best = t_lo;
        *ev = event_of(EVENT_WALL, (uint32_t)(2 * k));
    }
    if (t_hi < *best) {
        *best = t_hi;
        *ev = event_of(EVENT_WALL, (uint32_t)(2 * k + 1));
    }
}

/* A ballistic sphere hitting a fixed plane, if before *best (which it
 * then replaces, with *ev). */
static void plane_events(const carom_world *w, const sphere *s, double now, double *best,
                         sphere_event *ev)
{
    for (size_t p = 0; p < w->nplanes; p++) {
        double t = world_plane_time(w, s, &w->planes[p], now);
        if (t < *best) {
            *best = t;
            *ev = event_of(EVENT_WALL, PLANE_WALL + (uint32_t)p);
        }
    }
}

/* A ballistic sphere hitting a fixed segment, if before *best (which it
 * then replaces, with *ev): after the walls and cell faces, whose
 * earliest lets most segments be skipped (world_segments_time's tree). */
static void segment_events(const carom_world *w, const sphere *s, double now, double *best,
                           sphere_event *ev)
{
    uint32_t g = 0;
    double t = world_segments_time(w, s, now, *best, &g);
    if (t < *best) {
        *best = t;
        *ev = event_of(EVENT_WALL, SEGMENT_WALL + g);
    }
}

/* A ballistic sphere hitting a fixed triangle, if before *best (which it
 * then replaces, with *ev): after the walls and cell faces, whose
 * earliest lets most triangles be skipped (world_triangle_time.c). */
static void triangle_events(const carom_world *w, const sphere *s, double now, double *best,
                            sphere_event *ev)
{
    uint32_t g = 0;
    double t = world_triangles_time(w, s, now, *best, &g);
    if (t < *best) {
        *best = t;
        *ev = event_of(EVENT_WALL, TRIANGLE_WALL + g);
    }
}

/* A driven sphere's bound's own events: its reset, and its walls (only a
 * driven sphere the response can move bounces). */
static void bound_events(const carom_world *w, const sphere *s, const double x[3],
                         const double v[3], double now, double *best, sphere_event *ev)
{
    *best = world_driven_reset_time(w, s);
    *ev = event_of(EVENT_RESET, 0);
    int wall = 0;
    double t = driven_movable(w) ? world_driven_walls_time(w, s, x, v, now, &wall) : INFINITY;
    if (t < *best) {
        *best = t;
        *ev = event_of(EVENT_WALL, (uint32_t)wall);
    }
}

/* own_events of a driven sphere in the grid that scans no region: its
 * bound's events, and the cell face ahead of its bound's centre on each
 * axis (the centre moves in a straight line; the same times as
 * face_time's). */
static void driven_own_events(const carom_world *w, const sphere *s, const double x[3],
                              const double v[3], double now, double *best_out,
                              sphere_event *ev_out)
{
    uint32_t i = (uint32_t)(s - w->spheres);
    double best, t;
    sphere_event ev;
    bound_events(w, s, x, v, now, &best, &ev);
    const grid *g = sphere_grid(w, i);
    const int32_t *cc = INFO(s)->cc;
    for (int k = 0; k < w->def.dim; k++) {
        int walls = w->def.boundary[k] == CAROM_BOUNDARY_WALLS;
        int up = v[k] > 0.0;
        if (!up && !(v[k] < 0.0))
            continue; /* not moving along this axis */
        if (walls && (up ? cc[k] == g->n[k] - 1 : cc[k] == 0))
            continue; /* the edge cell reaches on past the wall */
        double level = (up ? cc[k] + 1 : cc[k]) * g->width[k];
        double ahead = up ? level - x[k] : x[k] - level; /* > 0: not there yet */
        t = now + (ahead > 0.0 ? ahead / fabs(v[k]) : 0.0);
        if (t < best) {
            best = t;
            ev = event_of(EVENT_CELL, (uint32_t)(2 * k + up));
        }
    }
    *best_out = best;
    *ev_out = ev;
}

/* The sphere's own events (no partner): a driven sphere's reset, walls,
 * cell crossings (or a big sphere's rescan). x, v: its state now. */
static void own_events(const carom_world *w, const sphere *s, const double x[3],
                       const double v[3], double now, double *best_out, sphere_event *ev_out)
{
    uint32_t i = (uint32_t)(s - w->spheres);
    double best = INFINITY;
    sphere_event ev = event_of(EVENT_NONE, 0);
    if (w->list_skin > 0.0) {
        /* Neighbour lists (no big, driven or region-scanning spheres, no
         * cells to cross): walls, and leaving the skin. */
        for (int k = 0; k < w->def.dim; k++)
            if (w->def.boundary[k] == CAROM_BOUNDARY_WALLS)
                wall_events(w, s, k, now, &best, &ev);
        if (w->nplanes)
            plane_events(w, s, now, &best, &ev);
        double t = world_lists_relist_time(w, s, x, v, now);
        if (t < best) {
            best = t;
            ev = event_of(EVENT_RELIST, 0);
        }
        if (w->shear_rate != 0.0) {
            /* Leaving the grid along y goes through the sheared
             * boundary: a remaking too (world_shear.c). */
            for (int up = 0; up < 2; up++) {
                if (!world_shear_leaves(w, i, up) || (up ? v[1] <= 0.0 : v[1] >= 0.0))
                    continue;
                t = face_time(w, s, x, v, 1, up ? w->def.box[1] : 0.0, up, now);
                if (t < best) {
                    best = t;
                    ev = event_of(EVENT_RELIST, 1u + (uint32_t)up);
                }
            }
        }
        if (w->nsegments)
            segment_events(w, s, now, &best, &ev);
        if (w->ntriangles)
            triangle_events(w, s, now, &best, &ev);
        *best_out = best;
        *ev_out = ev;
        return;
    }
    if (driven_in_plain_grid(w, i)) {
        driven_own_events(w, s, x, v, now, best_out, ev_out);
        return;
    }
    const grid *g = sphere_grid(w, i);
    int region = !INFO(s)->big && world_cells_scans_region(w, i);
    double margin = INFO(s)->big ? w->big_margin : region ? world_cells_region_margin(w, i) : 0.0;
    if (INFO(s)->driven)
        bound_events(w, s, x, v, now, &best, &ev);
    else if (w->nplanes)
        plane_events(w, s, now, &best, &ev);
    for (int k = 0; k < w->def.dim; k++) {
        int walls = w->def.boundary[k] == CAROM_BOUNDARY_WALLS;
        if (walls && !INFO(s)->driven) /* a driven sphere's: above */
            wall_events(w, s, k, now, &best, &ev);
        if (INFO(s)->big || region) {
            /* Scan again after moving the margin of the region scanned:
             * out of the grid, or finer spheres (world_cells.c). */
            for (int up = 0; up < 2; up++) {
                double level = x[k] + (up ? margin : -margin);
                double t = face_time(w, s, x, v, k, level, up, now);
                if (t < best) {
                    best = t;
                    ev = event_of(EVENT_RESCAN, (uint32_t)(2 * k + up));
                }
            }
            if (INFO(s)->big)
                continue; /* no cells */
        }
        /* Moving in a straight line, it can only cross the face ahead. */
        int straight = moves_straight(w, s);
        if ((!walls || INFO(s)->cc[k] > 0) && (!straight || v[k] < 0.0)) {
            double t = face_time(w, s, x, v, k, INFO(s)->cc[k] * g->width[k], 0, now);
            if (t < best) {
                best = t;
                ev = event_of(EVENT_CELL, (uint32_t)(2 * k));
            }
        }
        if ((!walls || INFO(s)->cc[k] < g->n[k] - 1) && (!straight || v[k] > 0.0)) {
            double t = face_time(w, s, x, v, k, (INFO(s)->cc[k] + 1) * g->width[k], 1, now);
            if (t < best) {
                best = t;
                ev = event_of(EVENT_CELL, (uint32_t)(2 * k + 1));
            }
        }
    }
    if (w->nsegments && !INFO(s)->driven)
        segment_events(w, s, now, &best, &ev);
    if (w->ntriangles && !INFO(s)->driven)
        triangle_events(w, s, now, &best, &ev);
    *best_out = best;
    *ev_out = ev;
}

/* Driven sphere i may meet partner (SPHERE_NONE: some sphere) no earlier
 * than t, and that meeting is not its event: its pair floor takes it in. */
static void floor_lower(carom_world *w, uint32_t i, double t, uint32_t partner)
{
    driven_bound *b = &w->bounds[i];
    floor_detail *f = &w->floors[i];
    if (t < b->pair_floor) {
        f->next = b->pair_floor;
        f->partner = partner;
        b->pair_floor = t;
    } else if (t < f->next && (partner != f->partner || partner == SPHERE_NONE)) {
        f->next = t;
    }
}

/* Sphere i's event is being replaced: a meeting it named goes into its
 * floor (another kind of event is no meeting, and a floor is the floor). */
static void floor_take_replaced(carom_world *w, uint32_t i)
{
    const sphere_event *old = &w->events[i];
    if (old->kind == EVENT_COLLISION)
        floor_lower(w, i, w->event_time[i], old->partner);
}

/* The meetings a scan found, but the event's own, go into the floor. */
static void floor_take_scan(carom_world *w, uint32_t i, const pair_scan *p)
{
    if (p->ev.kind != EVENT_COLLISION) {
        floor_lower(w, i, p->pair1, p->partner1);
        floor_lower(w, i, p->pair2, SPHERE_NONE); /* and the rest */
    } else if (p->ev.partner == p->partner1 || p->ev.partner == p->partner2) {
        int first = p->ev.partner == p->partner1;
        floor_lower(w, i, first ? p->pair2 : p->pair1, first ? p->partner2 : p->partner1);
        floor_lower(w, i, p->pair3, SPHERE_NONE);
    } else { /* a tie beyond the two kept */
        floor_lower(w, i, p->pair1, SPHERE_NONE);
    }
}

/* Stores sphere i's event and tells its partner (if any) when that is
 * earlier than what the partner has: it saves the partner a stale event
 * later. A driven partner's replaced event goes into its pair floor.
 * Where spheres leave meetings to partners whose events come first, the
 * partner is not told: its own event is then no earlier than the
 * meeting, and telling it would only cost a second update of the queue
 * (about 4% of the instructions at packing 0.45). */
static void store_event(carom_world *w, uint32_t i, sphere_event ev, double best)
{
    if (ev.kind == EVENT_COLLISION)
        ev.partner_counter = w->events[ev.partner].counter; /* read once */
    ev.counter = w->events[i].counter;
    w->events[i] = ev;
    w->event_time[i] = best;
    event_queue_update(&w->queue, i, best);
    if (ev.kind == EVENT_COLLISION && best < w->event_time[ev.partner] && !leaves_to_partner(w)) {
        uint32_t j = ev.partner;
        if (w->has_driven && w->info[j].driven)
            floor_take_replaced(w, j);
        w->events[j] = (sphere_event){EVENT_COLLISION, i, w->events[i].counter,
                                      w->events[j].counter};
        w->event_time[j] = best;
        event_queue_update(&w->queue, j, best);
    }
}

/* Sphere i's earliest event, with a scan of its candidates: x, v its
 * state now. With leave (and where leaves_to_partner), meetings after a
 * partner's pending event are left to it. */
static void find_event(const carom_world *w, uint32_t i, int leave, double x[3], double v[3],
                       pair_scan *scan)
{
    const sphere *s = &w->spheres[i];
    double now = w->time;
    double best;
    sphere_event ev;
    /* One dense level: start loading the heads of the neighbouring cells'
     * lists now; the own events are computed while they arrive. (With
     * neighbour lists the sphere's cold record is not read at all.) */
    int lists = w->list_skin > 0.0;
    int dense = !lists && w->levels.simple && !INFO(s)->big;
    const grid *g = dense ? sphere_grid(w, i) : NULL;
    grid_neighbourhood nb;
    /* Room for a whole neighbour list (longer than a batch). */
    uint32_t cand[CANDIDATES_MAX];
    const double *cand_shift[CANDIDATES_MAX];
    int n = 0, listed = 0;
    if (lists) {
        /* Its neighbour list (world_lists.c): the candidates' records
         * start loading now, while the own events are computed; all hot
         * records first, which every candidate's test reads, then the
         * event times, which scan_straight reads for a few (+2% at
         * N = 10^6: docs/performance-notes.md, twenty-first pass). */
        PREFETCH(&w->list_centre[i]);
        const uint32_t *list = world_list_entries(w, i, cand); /* converted in place */
        listed = w->list_count[i];
        for (int m = 0; m < listed; m++) {
            uint32_t e = list[m];
            cand[m] = LIST_PARTNER(e);
            cand_shift[m] = w->list_image[LIST_IMAGE(e)];
            PREFETCH(&w->spheres[cand[m]]);
        }
        for (int m = 0; m < listed; m++)
            PREFETCH(&w->event_time[cand[m]]);
    } else if (dense) {
        grid_neighbourhood_of(g, INFO(s)->cc, &nb);
        for (int c = 0; c < nb.count; c++)
            PREFETCH(&g->head[nb.cell[c]]);
    }
    state_at(w, s, now, x, v);
    own_events(w, s, x, v, now, &best, &ev);

    /* Candidates are gathered a batch at a time and their hot records
     * prefetched, so that the cache misses of a batch overlap; they are
     * then evaluated in the order found. */
    *scan = scan_start(i, s, x, v, now, best, ev, leave && leaves_to_partner(w));
    if (lists) {
        /* Lists hold only spheres that meet, or sense. */
        if (w->sensing)
            scan_meeting(w, scan, cand, cand_shift, listed);
        else
            scan_timed(w, scan, cand, cand_shift, listed);
        if (w->shear_rate != 0.0)
            scan_across(w, i, scan);
    } else if (!w->levels.simple && !INFO(s)->big) {
        /* Several levels, or sparse cells (world_cells.c). */
        neighbour_lists nl;
        world_neighbour_lists(w, i, 1, &nl);
        for (int c = 0; c < nl.count; c++) {
            const uint32_t *next = nl.list[c].next;
            for (uint32_t j = nl.list[c].head; j != SPHERE_NONE; j = next[j]) {
                if (j == i)
                    continue;
                cand[n] = j;
                cand_shift[n] = nl.list[c].shift;
                PREFETCH(&w->spheres[j]);
                if (w->bounds)
                    PREFETCH(&w->bounds[j]);
                if (++n == CANDIDATE_BATCH) {
                    scan_candidates(w, scan, cand, cand_shift, n);
                    n = 0;
                }
            }
        }
        scan_candidates(w, scan, cand, cand_shift, n);
        if (world_cells_scans_region(w, i))
            world_cells_finer_in_region(w, i, x, scan_batch, scan);
    } else if (dense) {
        for (int c = 0; c < nb.count; c++) {
            for (uint32_t j = g->head[nb.cell[c]]; j != SPHERE_NONE; j = w->cell_next[j]) {
                if (j == i)
                    continue;
                cand[n] = j;
                cand_shift[n] = nb.shift[c];
                PREFETCH(&w->spheres[j]);
                PREFETCH(&w->event_time[j]);
                if (w->bounds)
                    PREFETCH(&w->bounds[j]);
                if (++n == CANDIDATE_BATCH) {
                    scan_candidates(w, scan, cand, cand_shift, n);
                    n = 0;
                }
            }
        }
        scan_candidates(w, scan, cand, cand_shift, n);
        if (w->shear_rate != 0.0)
            scan_across(w, i, scan);
    } else {
        scan_big_region(w, scan, x);
    }
    /* Every sphere meets the big ones through their nearest image. */
    if (w->nbig > 0) {
        double shifts[CANDIDATE_BATCH][3];
        n = 0;
        for (size_t k = 0; k < w->nbig; k++) {
            uint32_t j = w->big[k];
            if (j == i)
                continue;
            double xb[3], vb[3];
            world_sphere_at(w, &w->spheres[j], now, xb, vb);
            world_min_image_shift(w, x, xb, shifts[n]);
            cand[n] = j;
            cand_shift[n] = shifts[n];
            if (++n == CANDIDATE_BATCH) {
                scan_candidates(w, scan, cand, cand_shift, n);
                n = 0;
            }
        }
        scan_candidates(w, scan, cand, cand_shift, n);
    }
}

void world_predict(carom_world *w, uint32_t i)
{
    double x[3], v[3];
    pair_scan scan;
    find_event(w, i, 1, x, v, &scan);
    if (w->has_driven && w->info[i].driven) {
        /* Lower bound on its meetings with all but the chosen partner: no
         * meeting after its reset is predicted. */
        double reset = w->bounds[i].t_reset;
        w->bounds[i].pair_floor = reset;
        w->floors[i] = (floor_detail){reset, SPHERE_NONE, 0};
        floor_take_scan(w, i, &scan);
    }
    store_event(w, i, scan.ev, scan.best);
}

/* world_predict_first, one part: each sphere's earliest event as if no
 * other sphere had one pending (no meeting is left to a partner), its
 * time in event_time and its kind and partner in its record. Writes only
 * the part's own spheres' times and those two fields; reads no other
 * sphere's event. */
static void first_events_part(carom_world *w, void *ctx, int part, uint32_t from, uint32_t to)
{
    (void)ctx;
    (void)part;
    for (uint32_t i = from; i < to; i++) {
        if (!w->info[i].alive)
            continue;
        double x[3], v[3];
        pair_scan scan;
        find_event(w, i, 0, x, v, &scan);
        w->events[i].kind = scan.ev.kind;
        w->events[i].partner = scan.ev.partner;
        w->event_time[i] = scan.best;
    }
}

void world_predict_first(carom_world *w)
{
    if (w->has_driven) {
        /* Driven spheres' pair floors are made as they predict. */
        for (uint32_t i = 0; i < w->count; i++)
            if (w->info[i].alive)
                world_predict(w, i);
        return;
    }
    world_split_run(w, first_events_part, NULL);
    for (uint32_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive)
            continue;
        sphere_event *ev = &w->events[i];
        ev->partner_counter = ev->kind == EVENT_COLLISION ? w->events[ev->partner].counter : 0;
        event_queue_update(&w->queue, i, w->event_time[i]);
    }
}

void world_predict_lazily(carom_world *w, uint32_t i, uint32_t partner, double *meeting)
{
    const sphere *s = &w->spheres[i];
    double now = w->time;
    double best;
    sphere_event ev;
    double x[3], v[3];
    state_at(w, s, now, x, v);
    driven_bound *b = &w->bounds[i];
    const sphere_event *old = &w->events[i];
    if (!(old->kind == EVENT_COLLISION && old->partner == partner))
        floor_take_replaced(w, i); /* no longer its event */
    own_events(w, s, x, v, now, &best, &ev);
    double t_meet = INFINITY;
    if (partner != SPHERE_NONE) {
        if (isnan(*meeting)) {
            double shift[3];
            world_pair_shift(w, s, &w->spheres[partner], now, shift);
            *meeting = world_driven_pair_time(w, s, x, v, &w->spheres[partner], shift, now);
        }
        t_meet = *meeting;
        if (t_meet < best) {
            best = t_meet;
            ev = event_of(EVENT_COLLISION, partner);
        }
    }
    if (b->pair_floor < best) {
        best = b->pair_floor;
        ev = event_of(EVENT_FLOOR, 0);
    }
    if (ev.kind != EVENT_COLLISION && partner != SPHERE_NONE)
        floor_lower(w, i, t_meet, partner); /* not its event */
    store_event(w, i, ev, best);
}

void world_predict_at_floor(carom_world *w, uint32_t i)
{
    uint32_t partner = w->floors[i].partner;
    if (partner == SPHERE_NONE || !w->info[partner].alive || !spheres_touch(w, i, partner) ||
        !driven_in_plain_grid(w, i)) {
        world_predict(w, i);
        return;
    }
    /* Every meeting but the partner's is bounded by the next floor. */
    w->bounds[i].pair_floor = w->floors[i].next;
    w->floors[i].partner = SPHERE_NONE;
    double meeting = NAN;
    world_predict_lazily(w, i, partner, &meeting);
}

void world_predict_after_stale(carom_world *w, uint32_t i, uint32_t partner)
{
    /* Its bound has not changed since it predicted; the partner's has, or
     * the partner has gone (or changed to a species it does not meet):
     * only that pair's meeting is not known. */
    if (!driven_in_plain_grid(w, i)) {
        world_predict(w, i);
        return;
    }
    double meeting = NAN;
    int still = w->info[partner].alive && spheres_touch(w, i, partner);
    world_predict_lazily(w, i, still ? partner : SPHERE_NONE, &meeting);
}

int world_predict_after_crossing(carom_world *w, uint32_t i, int axis, int up)
{
    const sphere *s = &w->spheres[i];
    const grid *g = &w->levels.level[0];
    if (!driven_in_plain_grid(w, i) || !w->levels.simple ||
        (g->periodic[axis] && g->n[axis] < 3))
        return 0;
    double now = w->time, x[3], v[3], best;
    sphere_event ev;
    state_at(w, s, now, x, v);
    own_events(w, s, x, v, now, &best, &ev);
    /* The layer of cells it now has as neighbours and did not before (its
     * own cell is never in it: at least 3 cells along a periodic axis). */
    int32_t layer = INFO(s)->cc[axis] + (up ? 1 : -1);
    if (g->periodic[axis])
        layer = layer < 0 ? g->n[axis] - 1 : layer == g->n[axis] ? 0 : layer;
    uint32_t stride = axis == 0 ? 1u : axis == 1 ? (uint32_t)g->n[0] : (uint32_t)(g->n[0] * g->n[1]);
    grid_neighbourhood nb;
    grid_neighbourhood_of(g, INFO(s)->cc, &nb);
    uint32_t cand[CANDIDATE_BATCH];
    const double *cand_shift[CANDIDATE_BATCH];
    pair_scan scan = scan_start(i, s, x, v, now, best, ev, leaves_to_partner(w));
    int n = 0;
    for (int c = 0; c < nb.count; c++) {
        if ((int32_t)(nb.cell[c] / stride % (uint32_t)g->n[axis]) != layer)
            continue;
        for (uint32_t j = g->head[nb.cell[c]]; j != SPHERE_NONE; j = w->cell_next[j]) {
            cand[n] = j;
            cand_shift[n] = nb.shift[c];
            PREFETCH(&w->spheres[j]);
            PREFETCH(&w->bounds[j]);
            if (++n == CANDIDATE_BATCH) {
                scan_candidates(w, &scan, cand, cand_shift, n);
                n = 0;
            }
        }
    }
    scan_candidates(w, &scan, cand, cand_shift, n);
    /* The neighbours it had: no meeting before its pair floor (it had no
     * partner: the floor bounds them all). What the new cells hold, but
     * the event's partner, joins the floor. */
    driven_bound *b = &w->bounds[i];
    if (b->pair_floor < scan.best) {
        scan.best = b->pair_floor;
        scan.ev = event_of(EVENT_FLOOR, 0);
    }
    floor_take_scan(w, i, &scan);
    store_event(w, i, scan.ev, scan.best);
    return 1;
}

#ifdef CAROM_VALIDATE
void world_validate_ballistic_cover(const carom_world *w, uint32_t i)
{
    if (!leaves_to_partner(w) || !w->info[i].alive)
        return;
    const sphere *s = &w->spheres[i];
    for (uint32_t k = 0; k < w->count; k++) {
        if (k == i || !w->info[k].alive || !spheres_meet(w, i, k))
            continue;
        const sphere *o = &w->spheres[k];
        double shift[3];
        world_pair_shift(w, s, o, w->time, shift);
        double t;
        if (w->shear_rate != 0.0) {
            /* Within the box (x and z by nearest image), and through the
             * images above and below. */
            double xa[3], va[3], xb[3], vb[3];
            world_sphere_at(w, s, w->time, xa, va);
            world_sphere_at(w, o, w->time, xb, vb);
            shift[0] = -w->def.box[0] * round((xb[0] - xa[0]) / w->def.box[0]);
            shift[1] = 0.0;
            t = pair_time_straight(s, o, shift, w->time, INFINITY, INFINITY);
            for (int side = -1; side <= 1; side += 2) {
                double ts = pair_time_sheared(w, s, o, side, shift[2], w->time, INFINITY, 0);
                t = ts < t ? ts : t;
            }
        } else {
            t = pair_time_straight(s, o, shift, w->time, INFINITY, INFINITY);
        }
        double ti = w->event_time[i], tk = w->event_time[k];
        double c = ti < tk ? ti : tk;
        if (t < c - 1e-9 * (1.0 + fabs(c)))
            abort();
    }
}
#endif
