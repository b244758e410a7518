/* Placing the large sphere in a scene (see big_place.h). Overlap tests
 * are plain loops over the scene: they run once, at start-up. */
#include "big_place.h"

#include <math.h>
#include <string.h>

#include "obstacles.h"

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 11;
}

static double uniform(uint64_t *state)
{
    return (double)next_random(state) * (1.0 / 9007199254740992.0);
}

/* Squared distance between a and b, nearest periodic image. */
static double distance2(const carom_scene *s, const double a[3], const double b[3])
{
    double sum = 0.0;
    for (int k = 0; k < s->dim; k++) {
        double dx = b[k] - a[k];
        if (s->boundary[k] == CAROM_BOUNDARY_PERIODIC)
            dx -= s->box[k] * floor(dx / s->box[k] + 0.5);
        sum += dx * dx;
    }
    return sum;
}

/* Clear of every plane, segment and triangle (and their copies along
 * periodic axes) with a margin of 1e-4 radii, by the library's query. */
static int clear_of(obstacle_probe *probe, const double p[3], double r)
{
    return !probe || obstacle_probe_hit(probe, p, r * 1.0001) == 0;
}

/* A uniform random place for a sphere of radius r: inside the walls. */
static void random_place(const carom_scene *s, double r, uint64_t *state, double p[3])
{
    p[0] = p[1] = p[2] = 0.0;
    for (int k = 0; k < s->dim; k++) {
        double lo = 0.0, hi = s->box[k];
        if (s->boundary[k] == CAROM_BOUNDARY_WALLS) {
            lo = r * 1.0001;
            hi = s->box[k] - r * 1.0001;
        }
        p[k] = lo + uniform(state) * (hi - lo);
    }
}

static int overlaps(const carom_scene *s, const double p[3], double r, size_t skip,
                    const double big[3], double big_r)
{
    if (big_r > 0.0) {
        double c = r + big_r;
        if (distance2(s, p, big) < c * c)
            return 1;
    }
    for (size_t j = 0; j < s->n; j++) {
        if (j == skip)
            continue;
        double c = r + s->radius[j];
        if (distance2(s, p, s->position[j]) < c * c)
            return 1;
    }
    return 0;
}

size_t big_place_overlaps(const carom_scene *s, const double p[3], double r)
{
    size_t count = 0;
    for (size_t j = 0; j < s->n; j++) {
        double c = r + s->radius[j];
        count += distance2(s, p, s->position[j]) < c * c;
    }
    return count;
}

/* Where the large sphere starts: the first candidate (high up and
 * central first) that overlaps no sphere, else the first candidate clear
 * of the obstacles, else a random place clear of them. */
int big_place_choose(const carom_scene *s, obstacle_probe *obstacles, double r, double out[3])
{
    const double heights[6] = {0.75, 1.0, 0.5, 0.25, 0.0, 0.9};
    const double across[5] = {0.5, 0.3, 0.7, 0.1, 0.9};
    int up = s->dim - 1, have_fallback = 0;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < (s->dim == 3 ? 5 : 1); c++) {
                double f[3] = {across[b], across[c], 0.0};
                double p[3] = {0.0, 0.0, 0.0};
                for (int k = 0; k < s->dim; k++) {
                    double lo = r * 1.001, hi = s->box[k] - r * 1.001;
                    double fk = k == up ? heights[a] : f[k];
                    p[k] = hi > lo ? lo + fk * (hi - lo) : 0.5 * s->box[k];
                }
                if (!clear_of(obstacles, p, r))
                    continue;
                if (!have_fallback) {
                    memcpy(out, p, sizeof p); /* the fallback: some spheres move */
                    have_fallback = 1;
                }
                if (big_place_overlaps(s, p, r) == 0) {
                    memcpy(out, p, sizeof p);
                    return 0;
                }
            }
    uint64_t state = 0x2545f4914f6cdd1dULL;
    for (int attempt = 0; attempt < 20000 && !have_fallback; attempt++) {
        double p[3];
        random_place(s, r * 1.001, &state, p);
        if (clear_of(obstacles, p, r)) {
            memcpy(out, p, sizeof p);
            have_fallback = 1;
        }
    }
    return have_fallback ? 0 : -1;
}

/* Moves every sphere that overlaps the large sphere to a random free
 * place; a sphere that finds none is removed. Returns how many moved. */
size_t big_place_make_room(carom_scene *s, obstacle_probe *obstacles, const double big[3],
                           double big_r, size_t *removed)
{
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    size_t moved = 0;
    *removed = 0;
    for (size_t i = 0; i < s->n; i++) {
        double c = s->radius[i] + big_r;
        if (distance2(s, s->position[i], big) >= c * c)
            continue;
        int placed = 0;
        for (int attempt = 0; attempt < 5000 && !placed; attempt++) {
            double p[3];
            random_place(s, s->radius[i], &state, p);
            if (clear_of(obstacles, p, s->radius[i]) &&
                !overlaps(s, p, s->radius[i], i, big, big_r)) {
                memcpy(s->position[i], p, sizeof p);
                placed = 1;
            }
        }
        if (placed) {
            moved++;
        } else {
            /* Remove sphere i by moving the last one into its place. */
            size_t last = s->n - 1;
            memcpy(s->position[i], s->position[last], sizeof s->position[i]);
            memcpy(s->velocity[i], s->velocity[last], sizeof s->velocity[i]);
            s->radius[i] = s->radius[last];
            s->mass[i] = s->mass[last];
            if (s->spin)
                memcpy(s->spin[i], s->spin[last], sizeof s->spin[i]);
            if (s->species)
                s->species[i] = s->species[last];
            s->n--;
            (*removed)++;
            i--;
        }
    }
    return moved;
}

