/* The viewer's simulation driver (see driver.h).
 *
 * The large sphere is driven: its motion is integrated here (constant
 * acceleration over each target interval, at most big_accel, steering
 * towards the pointer) and the world only probes it, following it with a
 * time-varying bound. Its kicks add the collisions' velocity changes.
 *
 * Why the large sphere has a large *finite* mass. Picture a particle
 * squeezed between the large sphere and a wall while the large sphere
 * moves towards the wall at speed V. If the large sphere had infinite
 * mass, every bounce would send the particle back faster (by 2V) into a
 * gap that keeps shrinking: the number of collisions before the gap closes
 * diverges, and no frame would ever end. With mass M the large sphere is
 * slowed by every bounce and turns back after about pi*sqrt(M/m)
 * collisions (the classic "billiard pi" count), so the squeeze costs a
 * bounded number of events; with M = 10^4 m that is about 300. Its
 * velocity is set again at the start of every interval, so it still
 * follows the pointer, and its speed is limited (big_speed) so that a fast
 * mouse cannot pour unbounded energy into the particles. Gravity pulls it
 * like any finite-mass sphere; the velocity set at each interval includes
 * -g*dt/2, which exactly cancels the fall over the interval. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "big_place.h"
#include "driver_big.h"
#include "frames.h"
#include "obstacles.h"
#include "setup.h"
#include "shear.h"

#define BIG_MASS_RATIO 1.0e4
#define STEP_SECONDS (1.0 / 60.0)
/* The large sphere reaches big_speed from rest in this time. */
#define BIG_SPEED_UP_SECONDS 0.2
#define TWO_PI 6.283185307179586

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(driver *d, const char *what, const char *message)
{
    snprintf(d->error, sizeof d->error, "%s: %s", what, message);
    return 1;
}

static double min_box(const carom_scene *s)
{
    double m = s->box[0];
    for (int k = 1; k < s->dim; k++)
        m = fmin(m, s->box[k]);
    return m;
}

/* src into dst, with room for `extra` more spheres; dst has a species
 * array when src has one or `species` asks for one. */
static int copy_scene(const carom_scene *src, carom_scene *dst, size_t extra, int species,
                      char *err, size_t err_size)
{
    carom_error e;
    carom_scene_init(dst);
    dst->dim = src->dim;
    memcpy(dst->box, src->box, sizeof dst->box);
    memcpy(dst->boundary, src->boundary, sizeof dst->boundary);
    if (carom_scene_resize(dst, src->n + extra, &e) != CAROM_OK ||
        (src->spin && carom_scene_add_spins(dst, &e) != CAROM_OK) ||
        ((src->species || species) && carom_scene_add_species(dst, &e) != CAROM_OK)) {
        snprintf(err, err_size, "%s", e.message);
        return 1;
    }
    for (size_t i = 0; i < src->n; i++) {
        memcpy(dst->position[i], src->position[i], sizeof dst->position[i]);
        memcpy(dst->velocity[i], src->velocity[i], sizeof dst->velocity[i]);
        dst->radius[i] = src->radius[i];
        dst->mass[i] = src->mass[i];
        if (src->spin)
            memcpy(dst->spin[i], src->spin[i], sizeof dst->spin[i]);
        if (dst->species)
            dst->species[i] = src->species ? src->species[i] : 0;
    }
    return 0;
}

/* The world's driver with driven particles: the large sphere to the
 * viewer's integrator, every other sphere to the particles' motion. */
static void mux_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3])
{
    driver *d = user;
    if (d->has_big && id == d->big) {
        driver_big_probe(user, id, t, x, v);
        return;
    }
    carom_driver inner = motion_driver(&d->motion);
    inner.probe(inner.user_data, id, t, x, v);
}

static void mux_kick(void *user, carom_sphere_id id, double t, const double dv[3])
{
    driver *d = user;
    if (d->has_big && id == d->big) {
        driver_big_kick(user, id, t, dv);
        return;
    }
    carom_driver inner = motion_driver(&d->motion);
    if (inner.kick)
        inner.kick(inner.user_data, id, t, dv);
}

/* The particles' motion, afresh, for the initial scene without the large
 * sphere (at a reset too: the motion starts again at time 0). */
static int make_motion(driver *d)
{
    if (d->motion.kind == MOTION_ORBITS)
        return 0; /* closed forms: any time, any order */
    motion_free(&d->motion);
    carom_scene particles = d->initial;
    particles.n = d->initial.n - (d->has_big ? 1 : 0);
    cli_error e;
    if (motion_create(&d->motion_options, &particles, &d->motion, &e))
        return fail(d, "driven particles", e.message);
    return 0;
}

/* ---- worlds ---- */

static void current_gravity(const driver *d, double g[3])
{
    for (int k = 0; k < 3; k++)
        g[k] = d->gravity_enabled ? d->gravity_on[k] : 0.0;
}

/* The keys that name species into w (setup_species_keys): NULL, or the
 * key whose setting the world refused. */
static const char *set_species_keys(const driver *d, carom_world *w)
{
    return setup_species_keys(w, &d->pass_through, &d->sense, &d->pair_restitution,
                              &d->species_wall_restitution, &d->pair_friction,
                              &d->species_wall_friction);
}

/* The fixed planes, segments and triangles, as obstacles.c takes them. */
static obstacle_lists driver_obstacles(const driver *d)
{
    return (obstacle_lists){d->nplanes,    (const double(*)[4])d->plane,
                       d->nsegments,  (const double(*)[4])d->segment,
                       d->ntriangles, (const double(*)[9])d->triangle};
}

/* shear=: the profile rate (y - Ly/2) added to the scene's velocities
 * along x, and the temperature relative to it that the frames keep. */
static void shear_profile_into(driver *d, carom_scene *scene)
{
    double sum = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < scene->n; i++) {
        if (!isfinite(scene->mass[i]))
            continue;
        double v2 = 0.0;
        for (int k = 0; k < scene->dim; k++)
            v2 += scene->velocity[i][k] * scene->velocity[i][k];
        sum += scene->mass[i] * v2;
        n++;
        scene->velocity[i][0] += d->shear * (scene->position[i][1] - 0.5 * scene->box[1]);
    }
    d->shear_kt = n ? sum / (scene->dim * (double)n) : 0.0;
}

static int build_world(driver *d, const carom_scene *scene)
{
    carom_world_def def = d->def;
    current_gravity(d, def.gravity);
    def.capacity_hint = scene->n;
    carom_error e;
    /* The particles from the scene; the large sphere (last) is driven. */
    carom_scene particles = *scene;
    if (d->has_big) {
        particles.n = scene->n - 1;
        def.driver = (carom_driver){driver_big_probe, driver_big_kick, d};
        d->big_t = 0.0;
        memcpy(d->big_x, scene->position[d->big], sizeof d->big_x);
        memcpy(d->big_v, scene->velocity[d->big], sizeof d->big_v);
        memset(d->big_a, 0, sizeof d->big_a);
    }
    carom_world *w;
    if (d->driven) {
        cli_error ce;
        def.driver = (carom_driver){mux_probe, mux_kick, d};
        w = motion_world_driven_by(&d->motion, &particles, def, &ce);
        if (!w)
            return fail(d, "cannot build the world", ce.message);
    } else {
        w = carom_scene_create_world(&particles, &def, &e);
        if (!w)
            return fail(d, "cannot build the world", e.message);
    }
    const char *refused = set_species_keys(d, w);
    if (refused) {
        int r = fail(d, refused, carom_world_error_message(w));
        carom_world_free(w);
        return r;
    }
    const obstacle_lists lists = driver_obstacles(d);
    refused = obstacles_add(w, &lists);
    if (refused) {
        int r = fail(d, refused, carom_world_error_message(w));
        carom_world_free(w);
        return r;
    }
    /* Sheared: a rebuild from the current state goes on with the
     * images' displacement (the initial scene starts at none). */
    double offset = d->world && scene != &d->initial ? carom_world_shear_offset(d->world) : 0.0;
    if (d->shear != 0.0 && (carom_world_set_shear(w, d->shear) != CAROM_OK ||
                            (offset != 0.0 && carom_world_set_shear_offset(w, offset) != CAROM_OK))) {
        int r = fail(d, "shear", carom_world_error_message(w));
        carom_world_free(w);
        return r;
    }
    if (d->has_big) {
        carom_sphere_def big = carom_sphere_default_def();
        big.radius = d->big_radius;
        big.mass = d->big_mass;
        big.driven = 1;
        big.accel_bound = d->big_accel;
        big.species = d->big_species;
        carom_sphere_id id;
        if (carom_world_add_sphere(w, &big, &id) != CAROM_OK || id != d->big ||
            (scene->spin && carom_world_set_spin(w, id, scene->spin[d->big]) != CAROM_OK)) {
            int r = fail(d, "large sphere", carom_world_error_message(w));
            carom_world_free(w);
            return r;
        }
    }
    /* The first advance checks overlaps and the box. */
    if (carom_world_advance_to(w, 0.0) != CAROM_OK) {
        int r = fail(d, "bad starting state", carom_world_error_message(w));
        carom_world_free(w);
        return r;
    }
    if (d->world) {
        carom_stats st;
        carom_world_get_stats(d->world, &st);
        d->collisions_base += st.collisions;
        carom_world_free(d->world);
    }
    d->world = w;
    d->target = 0.0;
    d->behind = 0;
    return 0;
}

/* A key's values from the settings into to: at most RUN_PASS_MAX pairs
 * (pairs) or CAROM_SPECIES_MAX species. */
static int take_species_values(driver *d, const char *key, const species_values *from, int pairs,
                               species_values *to)
{
    if (from->n < 0 || from->n > (pairs ? RUN_PASS_MAX : CAROM_SPECIES_MAX))
        return fail(d, key, pairs ? "too many pairs" : "too many species");
    *to = *from;
    return 0;
}

int driver_create(driver *d, const carom_scene *scene, driver_settings *s)
{
    memset(d, 0, sizeof *d);
    d->motion = s->orbits; /* taken over (ballistic, or orbits) */
    motion_init(&s->orbits);
    d->triangle = s->triangle; /* taken over too */
    d->ntriangles = s->ntriangles;
    s->triangle = NULL;
    s->ntriangles = 0;
    d->segment = s->segment; /* and so are the segments */
    d->nsegments = s->nsegments;
    s->segment = NULL;
    s->nsegments = 0;
    carom_scene_init(&d->initial);
    d->def = s->def;
    memcpy(d->gravity_on, s->def.gravity, sizeof d->gravity_on);
    d->gravity_enabled = 1;
    if (d->gravity_on[0] == 0.0 && d->gravity_on[1] == 0.0 && d->gravity_on[2] == 0.0) {
        /* "gravity on" for a scene without gravity: 1 downwards. */
        d->gravity_enabled = 0;
        d->gravity_on[scene->dim - 1] = -1.0;
    }
    if (d->def.restitution_min_speed < 0.0) {
        /* Automatic: the speed of a fall by one radius. Slower contacts are
         * elastic, so resting stacks jiggle gently instead of collapsing
         * inelastically (ever more, ever smaller bounces). */
        double g2 = 0.0, rmax = 0.0;
        for (int k = 0; k < 3; k++)
            g2 += d->gravity_on[k] * d->gravity_on[k];
        for (size_t i = 0; i < scene->n; i++)
            rmax = fmax(rmax, scene->radius[i]);
        d->def.restitution_min_speed = sqrt(2.0 * sqrt(g2) * rmax);
    }
    d->time_scale = s->time_scale > 0.0 ? s->time_scale : 1.0;
    d->shear = s->shear;
    d->has_big = s->with_big && scene->n > 0 && d->shear == 0.0;
    if (s->nplanes < 0 || s->nplanes > FRAME_PLANES_MAX)
        return fail(d, "planes", "too many");
    memcpy(d->plane, s->plane, sizeof d->plane);
    d->nplanes = s->nplanes;
    if (d->nsegments < 0 || (d->nsegments > 0 && !d->segment))
        return fail(d, "segments", "none given");
    if (d->ntriangles < 0 || (d->ntriangles > 0 && !d->triangle))
        return fail(d, "triangles", "none given");
    d->driven = s->driven;
    d->motion_options = s->motion_options;
    if (take_species_values(d, "pass_through", &s->pass_through, 1, &d->pass_through) ||
        take_species_values(d, "sense", &s->sense, 1, &d->sense) ||
        take_species_values(d, "pair_restitution", &s->pair_restitution, 1,
                            &d->pair_restitution) ||
        take_species_values(d, "species_wall_restitution", &s->species_wall_restitution, 0,
                            &d->species_wall_restitution) ||
        take_species_values(d, "pair_friction", &s->pair_friction, 1, &d->pair_friction) ||
        take_species_values(d, "species_wall_friction", &s->species_wall_friction, 0,
                            &d->species_wall_friction))
        return 1;
    d->has_species = scene->species != NULL;
    /* The large sphere meets every species it can, as it would without
     * species: the lowest that no pair (and no wall coefficient) names. */
    const species_values *keys[] = {&d->pass_through, &d->sense, &d->pair_restitution,
                                    &d->species_wall_restitution, &d->pair_friction,
                                    &d->species_wall_friction};
    for (uint32_t k = 0; k < CAROM_SPECIES_MAX; k++) {
        int named = 0;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            for (int q = 0; q < keys[i]->n; q++)
                named |= keys[i]->who[q][0] == k || keys[i]->who[q][1] == k;
        if (!named) {
            d->big_species = k;
            break;
        }
    }

    size_t extra = d->has_big ? 1 : 0;
    if (copy_scene(scene, &d->initial, extra, d->has_big && d->big_species != 0, d->error,
                   sizeof d->error))
        return 1;
    d->initial.n = scene->n; /* the large sphere is appended below */
    if (d->shear != 0.0)
        shear_profile_into(d, &d->initial);
    if (d->has_big) {
        double L = min_box(scene), rmax = 0.0, msum = 0.0;
        for (size_t i = 0; i < scene->n; i++) {
            rmax = fmax(rmax, scene->radius[i]);
            if (isfinite(scene->mass[i]))
                msum += scene->mass[i];
        }
        double mean_mass = msum > 0.0 ? msum / (double)scene->n : 1.0;
        d->big_radius = s->big_radius > 0.0 ? s->big_radius
                                            : fmin(0.25 * L, fmax(0.08 * L, 3.0 * rmax));
        d->big_mass = s->big_mass > 0.0 ? s->big_mass : BIG_MASS_RATIO * mean_mass;
        d->big_speed = s->big_speed > 0.0 ? s->big_speed : L;
        d->big_accel = d->big_speed / BIG_SPEED_UP_SECONDS;
        if (2.0 * d->big_radius >= L)
            return fail(d, "large sphere", "its diameter does not fit in the box");
        double p[3] = {0.0, 0.0, 0.0};
        obstacle_probe probe = {0}, *obstacles = NULL;
        if (d->nplanes || d->nsegments || d->ntriangles) {
            const obstacle_lists lists = driver_obstacles(d);
            carom_error e;
            if (obstacle_probe_init(&probe, scene->dim, scene->box, scene->boundary, &lists, &e))
                return fail(d, "fixed obstacles", e.message);
            obstacles = &probe;
        }
        const char *refused = NULL;
        if (big_place_choose(&d->initial, obstacles, d->big_radius, p))
            refused = "no place for it clear of the planes, segments and triangles";
        else if (d->motion.kind == MOTION_ORBITS &&
                 big_place_overlaps(&d->initial, p, d->big_radius) > 0)
            refused = "no free place among the orbits (big=off, or a smaller big_radius)";
        size_t removed = 0;
        if (!refused)
            d->relocated = big_place_make_room(&d->initial, obstacles, p, d->big_radius, &removed);
        if (obstacles)
            obstacle_probe_free(obstacles);
        if (refused)
            return fail(d, "large sphere", refused);
        d->relocated += removed;
        size_t b = d->initial.n;
        d->initial.n = b + 1;
        memcpy(d->initial.position[b], p, sizeof p);
        memset(d->initial.velocity[b], 0, sizeof d->initial.velocity[b]);
        d->initial.radius[b] = d->big_radius;
        d->initial.mass[b] = d->big_mass;
        if (d->initial.spin)
            memset(d->initial.spin[b], 0, sizeof d->initial.spin[b]);
        if (d->initial.species)
            d->initial.species[b] = d->big_species;
        d->big = (carom_sphere_id)b;
        memcpy(d->big_target, p, sizeof p);
    }
    d->n_bands = d->initial.n;
    d->bands = malloc((d->n_bands ? d->n_bands : 1) * sizeof *d->bands);
    if (!d->bands)
        return fail(d, "out of memory", "colours");
    /* The large sphere (last) is drawn grey and takes no part in the bands. */
    size_t banded = d->n_bands - (d->has_big ? 1 : 0);
    if (d->shear != 0.0) /* stripes across the flow, which it tilts */
        palette_bands_along((const double(*)[3])d->initial.position, banded, 0,
                            d->initial.box, d->bands);
    else
        palette_bands((const double(*)[3])d->initial.position, banded, d->initial.dim,
                      d->initial.box, d->bands);
    if (d->has_big)
        memset(d->bands[d->big], 150, sizeof d->bands[d->big]);
    if (d->driven && make_motion(d))
        return 1;
    int r = build_world(d, &d->initial);
    if (r)
        return r;
    /* Spokes show rotation in 2D, where a disk's spin is about z only:
     * a rough world (def's or a species' tangential restitution), or
     * spins from the scene. */
    int spins = 0;
    for (size_t i = 0; d->initial.spin && i < d->initial.n; i++)
        spins |= d->initial.spin[i][2] != 0.0;
    d->spokes = d->initial.dim == 2 && (carom_world_is_rough(d->world) || spins);
    return 0;
}

void driver_free(driver *d)
{
    if (d->world)
        carom_world_free(d->world);
    motion_free(&d->motion);
    carom_scene_free(&d->initial);
    free(d->bands);
    free(d->triangle);
    free(d->segment);
    free(d->angle);
    memset(d, 0, sizeof *d);
}

int driver_reset(driver *d)
{
    if (d->driven && make_motion(d))
        return 1;
    int r = build_world(d, &d->initial);
    d->time_offset = 0.0;
    if (d->n_angle)
        memset(d->angle, 0, d->n_angle * sizeof *d->angle);
    if (d->has_big)
        memcpy(d->big_target, d->initial.position[d->big], sizeof d->big_target);
    return r;
}

/* The world's spheres now, in a scene with the world's box (which the
 * world does not expose, so it comes from the initial scene), and their
 * spins as `carom run` writes them (frames.h). */
static carom_status copy_world(const driver *d, carom_scene *out, carom_error *e)
{
    carom_scene_init(out);
    out->dim = d->initial.dim;
    memcpy(out->box, d->initial.box, sizeof out->box);
    memcpy(out->boundary, d->initial.boundary, sizeof out->boundary);
    carom_status st = carom_scene_from_world(out, d->world, e);
    if (st == CAROM_OK && frames_world_is_rough(d->world))
        st = carom_scene_add_spins(out, e);
    return st;
}

int driver_set_gravity(driver *d, int on)
{
    if (on == d->gravity_enabled || d->driven || d->shear != 0.0)
        return 0; /* (a sheared box has no gravity) */
    carom_scene now;
    carom_error e;
    if (copy_world(d, &now, &e) != CAROM_OK) {
        carom_scene_free(&now);
        return fail(d, "cannot copy the world", e.message);
    }
    double t = carom_world_time(d->world);
    int old = d->gravity_enabled;
    d->gravity_enabled = on;
    int r = build_world(d, &now);
    if (r)
        d->gravity_enabled = old;
    else
        d->time_offset += t;
    carom_scene_free(&now);
    return r;
}

double driver_time(const driver *d)
{
    return d->time_offset + carom_world_time(d->world);
}

uint64_t driver_collisions(const driver *d)
{
    carom_stats st;
    carom_world_get_stats(d->world, &st);
    return d->collisions_base + st.collisions;
}

/* Turns every sphere's spoke by its spin about z times dt, the simulated
 * time the frame advanced. Spins are constant between contacts, so this
 * is exact for a sphere with no contact in the frame; one that had a
 * contact turns as if it had its new spin all frame long (an error of at
 * most a frame's turn, for display only: the spoke is not physics). */
static int turn_spokes(driver *d, double dt)
{
    size_t cap = carom_world_sphere_capacity(d->world);
    if (cap > d->n_angle) {
        double *angle = realloc(d->angle, cap * sizeof *angle);
        if (!angle)
            return fail(d, "out of memory", "spokes");
        memset(angle + d->n_angle, 0, (cap - d->n_angle) * sizeof *angle);
        d->angle = angle;
        d->n_angle = cap;
    }
    for (size_t id = 0; id < cap; id++) {
        double spin[3];
        if (carom_world_get_spin(d->world, (carom_sphere_id)id, spin) == CAROM_OK)
            d->angle[id] = fmod(d->angle[id] + spin[2] * dt, TWO_PI);
    }
    return 0;
}

int driver_frame(driver *d, double real_dt, double budget_seconds, int single_step)
{
    d->collisions_last_frame = 0;
    d->frame_events = 0;
    if (d->paused && !single_step)
        return 0;
    double start = wall_clock();
    carom_stats before;
    carom_world_get_stats(d->world, &before);
    double time_before = carom_world_time(d->world);
    if (!d->behind) {
        double dt = d->time_scale * (single_step ? STEP_SECONDS : real_dt);
        if (!(dt > 0.0))
            return 0;
        double now = carom_world_time(d->world);
        d->target = now + dt;
        if (d->target <= now)
            return 0;
        if (driver_steer_big(d, d->target - now))
            return 1;
    }
    /* Chunks sized to take about a millisecond each. */
    double seconds_per_event = d->seconds_per_event > 0.0 ? d->seconds_per_event : 2e-6;
    for (;;) {
        double chunk_f = 1e-3 / seconds_per_event;
        uint64_t chunk = chunk_f < 8.0 ? 8 : chunk_f > 1e6 ? 1000000 : (uint64_t)chunk_f;
        uint64_t processed = 0;
        int reached = 0;
        double t0 = wall_clock();
        if (carom_world_advance_to_limited(d->world, d->target, chunk, &processed, &reached) !=
            CAROM_OK)
            return fail(d, "simulation", carom_world_error_message(d->world));
        double t1 = wall_clock();
        d->frame_events += processed;
        if (processed >= 8)
            seconds_per_event = 0.8 * seconds_per_event + 0.2 * (t1 - t0) / (double)processed;
        d->seconds_per_event = seconds_per_event;
        if (reached) {
            d->behind = 0;
            break;
        }
        if (t1 - start >= budget_seconds) {
            d->behind = 1;
            break;
        }
    }
    /* Sheared: the boundaries' work heats the spheres; back to the
     * starting temperature relative to the profile once 1% above it. */
    if (d->shear != 0.0 && !d->behind && d->shear_kt > 0.0) {
        size_t n = carom_world_sphere_count(d->world);
        double kt = shear_peculiar_energy(d->world, d->shear) / (0.5 * d->initial.dim * (double)n);
        if (kt > 1.01 * d->shear_kt &&
            shear_scale_to(d->world, d->shear, d->shear_kt, d->initial.dim) != 0)
            return fail(d, "shear", carom_world_error_message(d->world));
    }
    carom_stats after;
    carom_world_get_stats(d->world, &after);
    d->collisions_last_frame = after.collisions - before.collisions;
    if (d->spokes)
        return turn_spokes(d, carom_world_time(d->world) - time_before);
    return 0;
}

int driver_fill_frame(driver *d, view_frame *f, view_colour colour)
{
    size_t cap = carom_world_sphere_capacity(d->world);
    if (frame_reserve(f, cap))
        return fail(d, "out of memory", "frame");
    f->dim = d->initial.dim;
    memcpy(f->box, d->initial.box, sizeof f->box);
    f->time = driver_time(d);
    f->big = -1;
    f->nplanes = d->nplanes;
    memcpy(f->plane, d->plane, sizeof f->plane);
    f->nsegments = d->nsegments;
    f->segment = (const double(*)[4])d->segment;
    f->ntriangles = d->ntriangles;
    f->triangle = (const double(*)[9])d->triangle;
    f->spokes = d->spokes;
    size_t n = 0;
    for (size_t id = 0; id < cap; id++) {
        carom_sphere_state st;
        if (carom_world_get_sphere(d->world, (carom_sphere_id)id, &st) != CAROM_OK)
            continue;
        memcpy(f->pos[n], st.position, sizeof st.position);
        memcpy(f->vel[n], st.velocity, sizeof st.velocity);
        f->radius[n] = st.radius;
        f->angle[n] = id < d->n_angle ? d->angle[id] : 0.0;
        f->spin[n] = 0.0;
        f->species[n] = st.species;
        if (d->has_big && id == d->big)
            f->big = (long)n;
        n++;
    }
    f->n = n;
    f->has_species = d->has_species;
    palette_paint(f, colour, (const unsigned char(*)[3])d->bands, d->n_bands);
    return 0;
}

int driver_dump(driver *d, const char *path)
{
    /* Written beside the file and renamed over it, so that a reader never
     * sees half a state. */
    char part[1100];
    if (snprintf(part, sizeof part, "%s.part", path) >= (int)sizeof part)
        return fail(d, path, "file name too long");
    carom_scene now;
    carom_error e;
    int r = 0;
    if (copy_world(d, &now, &e) != CAROM_OK) {
        r = fail(d, "cannot copy the world", e.message);
    } else {
        FILE *out = fopen(part, "w");
        if (!out) {
            r = fail(d, path, "cannot open for writing");
        } else {
            if (carom_xyz_write(out, &now, driver_time(d), &e) != CAROM_OK)
                r = fail(d, path, e.message);
            if (fclose(out) != 0 && !r)
                r = fail(d, path, "error writing");
            if (!r && rename(part, path) != 0)
                r = fail(d, path, "cannot replace the file");
            if (r)
                remove(part);
        }
    }
    carom_scene_free(&now);
    return r;
}
