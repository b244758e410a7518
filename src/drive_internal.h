/* Shared machinery of the piecewise-quadratic drivers (random forces,
 * velocity field): per-sphere exact state made of pieces of constant
 * acceleration.
 *
 * Contract: sphere k's motion is a sequence of pieces; a piece starts at
 * its anchor (time, position, velocity) and has a constant acceleration.
 * Step boundaries lie at start + m * step (m = 1, 2, ..., computed by
 * multiplication, never by accumulation); at each boundary a new piece
 * starts and choose() gives its acceleration from the state there, which
 * drive_pw guarantees has norm <= bound[k] (scaling it down if round-off
 * made it longer). A kick starts a new piece at the kick time with the
 * velocity changed and the acceleration kept. Within a piece the state is
 * evaluated from the anchor, so it does not depend on how often or when
 * the sphere was probed. Probes going back in time, and ids not covered,
 * are counted in misuse and answered without crashing.
 */
#ifndef CAROM_DRIVE_INTERNAL_H
#define CAROM_DRIVE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "carom/carom.h"

typedef struct drive_piece {
    double t;    /* anchor time */
    double x[3]; /* position at t */
    double v[3]; /* velocity at t */
    double a[3]; /* acceleration of the piece */
    uint64_t m;  /* the piece ends at start + (m + 1) * step */
} drive_piece;

typedef struct drive_pw drive_pw;

/* Acceleration of a new piece of sphere k starting with state (x, v) at
 * time t; may be longer than the bound (it is scaled down). */
typedef void (*drive_choose_fn)(drive_pw *pw, size_t k, double t, const double x[3],
                                const double v[3], double a[3]);

struct drive_pw {
    int dim;
    size_t n;
    double start, step;
    carom_sphere_id first_id;
    drive_piece *piece;
    double *radius;
    double *bound;
    uint64_t misuse;
    drive_choose_fn choose;
};

/* Allocates and fills the pieces (choose() gives the first accelerations).
 * Checks dim, step, n and every input number. */
carom_status drive_pw_init(drive_pw *pw, int dim, double start, double step,
                           carom_sphere_id first_id, size_t n, const double (*position)[3],
                           const double (*velocity)[3], const double *radius,
                           const double *bound, drive_choose_fn choose, carom_error *error);
void drive_pw_free(drive_pw *pw);
/* Advances sphere k to t (crossing boundaries) and gives its state. */
void drive_pw_state(drive_pw *pw, size_t k, double t, double x[3], double v[3], double a[3]);
void drive_pw_kick(drive_pw *pw, size_t k, double t, const double dv[3]);
/* Index of world id, or SIZE_MAX (counted as misuse). */
size_t drive_pw_index(drive_pw *pw, carom_sphere_id id);
carom_sphere_def drive_pw_sphere_def(const drive_pw *pw, size_t k);
/* probe and kick for a driver whose user_data starts with its drive_pw
 * (user_data = pw, the address of that first member). */
carom_driver drive_pw_driver(drive_pw *pw);
/* drive_pw_state after checking k and t (for carom_*_state). */
carom_status drive_pw_checked_state(drive_pw *pw, size_t k, double t, double position[3],
                                    double velocity[3], double acceleration[3]);
/* Scales a down so that its computed norm is <= bound. */
void drive_clamp_norm(double a[3], double bound);

#endif
