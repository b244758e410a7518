/* A build's work split in two (src/world_split.c): the neighbour lists
 * (src/world_lists_build.c), the overlap check and the first events
 * (world_predict_first) are made in two halves, on two threads when the
 * world may use them (prefetch ON here) or one after the other (OFF).
 * Checked against O(N^2) references, through the world's private header:
 *  - every pair whose list centres are within reach is listed, both ways,
 *    with its image, once; no pair clearly out of reach is (a mixture of
 *    radii 1:2.2, whose large spheres' lists go on in the shared pool);
 *  - each sphere's first event is no later than its earliest meeting
 *    with any other sphere, and a collision is that meeting;
 *  - the lists and events are the same, entry for entry, on one thread
 *    and two;
 *  - an overlap in either half is found, and the one named is the same
 *    on one thread and two (the first in index order). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"
#include "world_internal.h"

/* n spheres of radii uniform in [0.45, 1] placed at random at packing
 * 0.45 in a periodic cube, Maxwell-Boltzmann velocities. */
static void mixture_scene(carom_scene *s, size_t n, uint64_t seed)
{
    carom_error e;
    double lo = 0.45, hi = 1.0; /* <r^3> = (hi^4 - lo^4) / (4 (hi - lo)) */
    double mean_volume = 4.0 / 3.0 * M_PI * (pow(hi, 4) - pow(lo, 4)) / (4.0 * (hi - lo));
    carom_scene_init(s);
    s->dim = 3;
    for (int k = 0; k < 3; k++) {
        s->box[k] = cbrt((double)n * mean_volume / 0.45);
        s->boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK(carom_scene_resize(s, n, &e) == CAROM_OK);
    CHECK(carom_scene_random_radii(s, lo, hi, seed, &e) == CAROM_OK);
    CHECK(carom_scene_place_random(s, seed + 1, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(s, 1.0, seed + 2, &e) == CAROM_OK);
}

/* A world of the scene with lists, built (its first advance, to 0). */
static carom_world *built_world(const carom_scene *s, carom_prefetch prefetch)
{
    carom_world_def def = carom_world_default_def();
    def.neighbours = CAROM_NEIGHBOURS_LISTS;
    def.prefetch = prefetch;
    carom_error e;
    carom_world *w = carom_scene_create_world(s, &def, &e);
    if (!w) {
        fprintf(stderr, "world: %s\n", e.message);
        return NULL;
    }
    CHECK(carom_world_advance_to(w, 0.0) == CAROM_OK);
    CHECK(w->built && w->list_skin > 0.0);
    return w;
}

/* b - a in the periodic box, nearest image; the image's code as the
 * lists write it (-1, 0, +1 box lengths per axis, x fastest). */
static void nearest(const carom_world *w, const double a[3], const double b[3], double d[3],
                    int *code)
{
    int c = 0, scale = 1;
    for (int k = 0; k < 3; k++, scale *= 3) {
        double L = w->def.box[k], x = b[k] - a[k];
        int shift = x > 0.5 * L ? -1 : x < -0.5 * L ? 1 : 0;
        d[k] = x + shift * L;
        c += (shift + 1) * scale;
    }
    *code = c;
}

static int listed(const carom_world *w, uint32_t i, uint32_t j, int image)
{
    uint32_t room[LIST_MAX];
    const uint32_t *e = world_list_entries(w, i, room);
    int found = 0;
    for (int m = 0; m < w->list_count[i]; m++)
        found += e[m] == (j << LIST_IMAGE_BITS | (uint32_t)image);
    return found;
}

/* The lists against every pair of list centres. */
static void check_lists(const carom_world *w)
{
    size_t entries = 0, pairs = 0, pooled = 0, wrong = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        entries += w->list_count[i];
        pooled += w->list_count[i] > LIST_BLOCK;
        double ci[3];
        for (int k = 0; k < 3; k++)
            ci[k] = w->list_centre[i][k];
        for (uint32_t j = i + 1; j < w->count; j++) {
            double cj[3], d[3];
            int image;
            for (int k = 0; k < 3; k++)
                cj[k] = w->list_centre[j][k];
            nearest(w, ci, cj, d, &image);
            double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double reach = w->spheres[i].radius + w->spheres[j].radius + 2.0 * w->list_skin;
            int ij = listed(w, i, j, image), ji = listed(w, j, i, 26 - image);
            if (dist < reach * (1.0 - 1e-6)) {
                wrong += ij != 1 || ji != 1;
                pairs++;
            } else if (dist > reach * (1.0 + 1e-5)) {
                wrong += ij != 0 || ji != 0;
            } else {
                wrong += ij != ji || ij > 1;
            }
        }
    }
    CHECK(wrong == 0);
    CHECK(entries >= 2 * pairs && entries <= 2 * pairs + 20); /* no pair listed twice */
    CHECK(pooled >= 5); /* the pool was used */
    printf("lists: %zu entries, %zu pairs within reach, %zu lists in the pool, %zu wrong\n",
           entries, pairs, pooled, wrong);
}

/* When spheres a and b (states at time 0, b - a = d) first touch, or
 * INFINITY (the stable root of |d + u t| = sigma). */
static double touch_time(const double d[3], const double u[3], double sigma)
{
    double b = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    double c = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - sigma * sigma;
    double disc = b * b - uu * c;
    if (b >= 0.0 || disc < 0.0)
        return INFINITY;
    return c / (-b + sqrt(disc));
}

/* Each sphere's first event against every pair's meeting: no later
 * than its meetings with the spheres within its list's reach (nothing is
 * left to a partner at a build), a collision being the earliest of them;
 * and of any two spheres that meet, one has an event no later. */
static void check_first_events(const carom_world *w)
{
    uint32_t n = w->count;
    carom_sphere_state *st = malloc(n * sizeof *st);
    CHECK(st != NULL);
    if (!st)
        return;
    for (uint32_t i = 0; i < n; i++)
        CHECK(carom_world_get_sphere(w, i, &st[i]) == CAROM_OK);
    /* The world's slot is the id here: no sort below 50,000 spheres. */
    const double *et = w->event_time;
    size_t collisions = 0, late = 0, wrong = 0, unseen = 0;
    for (uint32_t i = 0; i < n; i++) {
        double first = INFINITY;
        uint32_t with = UINT32_MAX;
        for (uint32_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            double d[3], u[3], c[3];
            int image;
            nearest(w, st[i].position, st[j].position, d, &image);
            for (int k = 0; k < 3; k++)
                u[k] = st[j].velocity[k] - st[i].velocity[k];
            double t = touch_time(d, u, st[i].radius + st[j].radius);
            double slack = 1e-9 * t + 1e-12;
            unseen += !(et[i] <= t + slack || et[j] <= t + slack);
            double ci[3], cj[3];
            for (int k = 0; k < 3; k++) {
                ci[k] = w->list_centre[i][k];
                cj[k] = w->list_centre[j][k];
            }
            nearest(w, ci, cj, c, &image);
            double reach = st[i].radius + st[j].radius + 2.0 * w->list_skin;
            if (c[0] * c[0] + c[1] * c[1] + c[2] * c[2] < reach * reach && t < first) {
                first = t;
                with = j;
            }
        }
        late += !(et[i] <= first * (1.0 + 1e-9) + 1e-12);
        if (w->events[i].kind == EVENT_COLLISION) {
            collisions++;
            wrong += w->events[i].partner != with || fabs(et[i] - first) > 1e-9 * first + 1e-12;
        } else {
            wrong += w->events[i].kind != EVENT_RELIST || !(et[i] > 0.0);
        }
    }
    CHECK(late == 0 && wrong == 0 && unseen == 0);
    CHECK(collisions > n / 20);
    printf("first events: %zu collisions of %u, %zu late, %zu wrong, %zu meetings unseen\n",
           collisions, n, late, wrong, unseen);
    free(st);
}

/* The lists and events of two builds are the same, entry for entry. */
static int same_build(const carom_world *a, const carom_world *b)
{
    if (a->count != b->count || a->list_count == NULL || b->list_count == NULL)
        return 0;
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t room_a[LIST_MAX], room_b[LIST_MAX];
        const uint32_t *ea = world_list_entries(a, i, room_a);
        const uint32_t *eb = world_list_entries(b, i, room_b);
        if (a->list_count[i] != b->list_count[i] ||
            memcmp(ea, eb, a->list_count[i] * sizeof *ea) != 0 ||
            memcmp(&a->events[i], &b->events[i], sizeof a->events[i]) != 0 ||
            memcmp(&a->event_time[i], &b->event_time[i], sizeof a->event_time[i]) != 0)
            return 0;
    }
    return 1;
}

static void test_build_against_reference(void)
{
    carom_scene s;
    mixture_scene(&s, 4000, 11);
    carom_world *two = built_world(&s, CAROM_PREFETCH_ON);
    carom_world *one = built_world(&s, CAROM_PREFETCH_OFF);
    carom_scene_free(&s);
    CHECK(two && one);
    if (!two || !one)
        return;
    check_lists(two);
    check_first_events(two);
    CHECK(same_build(two, one));
    /* And the runs that follow agree. */
    CHECK(carom_world_advance_to(two, 2.0) == CAROM_OK);
    CHECK(carom_world_advance_to(one, 2.0) == CAROM_OK);
    carom_stats st_two, st_one;
    carom_world_get_stats(two, &st_two);
    carom_world_get_stats(one, &st_one);
    CHECK(st_two.collisions > 10000 && st_two.collisions == st_one.collisions);
    CHECK(carom_world_kinetic_energy(two) == carom_world_kinetic_energy(one));
    carom_world_free(two);
    carom_world_free(one);
}

/* A lattice of n at packing 0.45, sphere `moved` put 0.3 from sphere
 * `onto` (and `moved2` 0.3 from `onto2` if not UINT32_MAX). */
static carom_scene overlapping_scene(uint32_t moved, uint32_t onto, uint32_t moved2, uint32_t onto2)
{
    const size_t n = 4000;
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = carom_box_length_for_packing(3, n, 0.5, 0.45);
        s.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK(carom_scene_lattice(&s, n, 0.5, CAROM_LATTICE_AUTO, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 5, &e) == CAROM_OK);
    for (int k = 0; k < 3; k++) {
        s.position[moved][k] = s.position[onto][k] + (k == 0 ? 0.3 : 0.0);
        if (moved2 != UINT32_MAX)
            s.position[moved2][k] = s.position[onto2][k] + (k == 1 ? 0.3 : 0.0);
    }
    return s;
}

/* The build's error message (empty if it built). */
static void build_message(const carom_scene *s, carom_prefetch prefetch, char *out, size_t room)
{
    carom_world_def def = carom_world_default_def();
    def.neighbours = CAROM_NEIGHBOURS_LISTS;
    def.prefetch = prefetch;
    carom_error e;
    out[0] = '\0';
    carom_world *w = carom_scene_create_world(s, &def, &e);
    CHECK(w != NULL);
    if (!w)
        return;
    if (carom_world_advance_to(w, 0.0) != CAROM_OK)
        snprintf(out, room, "%s", carom_world_error_message(w));
    carom_world_free(w);
}

/* Builds with overlaps placed by the arguments fail on one thread and
 * two alike, naming a pair of spheres both in [lo, hi). */
static void overlap_case(uint32_t moved, uint32_t onto, uint32_t moved2, uint32_t onto2,
                         unsigned lo, unsigned hi)
{
    carom_scene s = overlapping_scene(moved, onto, moved2, onto2);
    char two[512], one[512];
    build_message(&s, CAROM_PREFETCH_ON, two, sizeof two);
    build_message(&s, CAROM_PREFETCH_OFF, one, sizeof one);
    carom_scene_free(&s);
    unsigned a = 0, b = 0;
    CHECK(sscanf(two, "spheres %u and %u overlap", &a, &b) == 2);
    CHECK(a >= lo && a < hi && b >= lo && b < hi);
    CHECK(strcmp(two, one) == 0);
    printf("%s\n", two);
}

/* Of 4,000 spheres, the halves are [0, 2000) and [2000, 4000); a sphere
 * moved 0.3 from another overlaps it and some of its neighbours, which
 * on the lattice are within 420 places of it. */
static void test_overlap_in_either_half(void)
{
    overlap_case(3100, 3500, UINT32_MAX, 0, 2000, 4000); /* the second half only */
    overlap_case(900, 1200, UINT32_MAX, 0, 0, 2000);     /* the first half only */
    overlap_case(3100, 3500, 700, 1000, 0, 2000);        /* both: the first in order */
}

int main(void)
{
    RUN(test_build_against_reference);
    RUN(test_overlap_in_either_half);
    return check_failures ? 1 : 0;
}
