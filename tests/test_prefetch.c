/* The loading helper (carom_prefetch, src/world_helper.c): a second
 * thread that only reads must leave every result as it was, to the last
 * bit. The same dense scene runs with the helper forced on and with it
 * off, through every way of advancing (to a time, by an event budget, in
 * limited pieces, with spheres added, removed and given new velocities
 * between advances); the contacts come out in the same order at the same
 * times, and the final states and statistics are bitwise equal. Also:
 * AUTO leaves small worlds to one thread, and a bad setting is refused. */
#include <stdint.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "check.h"

/* An order-sensitive digest of the contacts reported. */
typedef struct contact_digest {
    uint64_t hash;
    uint64_t count;
} contact_digest;

static void mix(contact_digest *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        d->hash = (d->hash ^ b[k]) * 1099511628211u; /* FNV-1a */
}

static void on_contact(void *user_data, carom_contact *c)
{
    contact_digest *d = user_data;
    mix(d, &c->time, sizeof c->time);
    mix(d, &c->i, sizeof c->i);
    mix(d, &c->j, sizeof c->j);
    mix(d, c->velocity_after, sizeof c->velocity_after);
    d->count++;
}

static carom_world *dense_world(size_t n, carom_neighbours neighbours, carom_prefetch prefetch,
                                contact_digest *digest)
{
    carom_scene s;
    carom_error e;
    carom_scene_init(&s);
    s.dim = 3;
    for (int k = 0; k < 3; k++) {
        s.box[k] = carom_box_length_for_packing(3, n, 0.5, 0.45);
        s.boundary[k] = CAROM_BOUNDARY_PERIODIC;
    }
    CHECK(carom_scene_lattice(&s, n, 0.5, CAROM_LATTICE_AUTO, &e) == CAROM_OK);
    CHECK(carom_scene_maxwell_velocities(&s, 1.0, 3, &e) == CAROM_OK);
    carom_world_def def = carom_world_default_def();
    def.prefetch = prefetch;
    def.neighbours = neighbours;
    def.on_contact = on_contact;
    def.user_data = digest;
    carom_world *w = carom_scene_create_world(&s, &def, &e);
    if (!w)
        fprintf(stderr, "world: %s\n", e.message);
    carom_scene_free(&s);
    return w;
}

/* Every way of advancing, and changes between advances. */
static void drive(carom_world *w)
{
    for (int k = 1; k <= 6; k++)
        CHECK(carom_world_advance_to(w, 0.1 * k) == CAROM_OK);
    uint64_t done = 0;
    CHECK(carom_world_step_events(w, 20000, &done) == CAROM_OK);
    CHECK(done == 20000);
    int reached = 0;
    double t = carom_world_time(w) + 0.3;
    while (!reached)
        CHECK(carom_world_advance_to_limited(w, t, 5000, &done, &reached) == CAROM_OK);
    /* Sphere 17 is replaced by a new one where it is now (the place is
     * free), and another changes velocity. */
    carom_sphere_state old;
    CHECK(carom_world_get_sphere(w, 17, &old) == CAROM_OK);
    CHECK(carom_world_remove_sphere(w, 17) == CAROM_OK);
    carom_sphere_def add = carom_sphere_default_def();
    memcpy(add.position, old.position, sizeof add.position);
    add.velocity[0] = 1.5;
    add.radius = old.radius;
    carom_sphere_id id;
    CHECK(carom_world_add_sphere(w, &add, &id) == CAROM_OK);
    double v[3] = {0.3, -1.2, 0.4};
    CHECK(carom_world_set_velocity(w, 42, v) == CAROM_OK);
    CHECK(carom_world_advance_to(w, carom_world_time(w) + 0.7) == CAROM_OK);
}

/* With neighbour lists the helper walks the coming spheres' lists, with
 * cells the cells around them. */
static void same_results(carom_neighbours neighbours)
{
    const size_t n = 6000;
    contact_digest d_off = {14695981039346656037u, 0}, d_on = d_off;
    carom_world *off = dense_world(n, neighbours, CAROM_PREFETCH_OFF, &d_off);
    carom_world *on = dense_world(n, neighbours, CAROM_PREFETCH_ON, &d_on);
    CHECK(off && on);
    if (!off || !on)
        return;
    drive(off);
    drive(on);
    carom_stats s_off, s_on;
    carom_world_get_stats(off, &s_off);
    carom_world_get_stats(on, &s_on);
    CHECK(s_off.prefetch_advances == 0);
    CHECK(s_on.prefetch_advances >= 10); /* every advance above */
    CHECK(s_on.collisions > 100000);
    CHECK(s_on.collisions == s_off.collisions);
    CHECK(s_on.events == s_off.events);
    CHECK(s_on.invalid_events == s_off.invalid_events);
    CHECK(s_on.list_rebuilds == s_off.list_rebuilds);
    CHECK(s_on.cell_crossings == s_off.cell_crossings);
    if (neighbours == CAROM_NEIGHBOURS_LISTS)
        CHECK(s_on.list_rebuilds > 0 && s_on.cell_crossings == 0);
    else
        CHECK(s_on.cell_crossings > 0 && s_on.list_rebuilds == 0);
    CHECK(memcmp(&s_on.virial, &s_off.virial, sizeof s_on.virial) == 0);
    CHECK(d_on.count == d_off.count && d_on.count == s_on.collisions);
    CHECK(d_on.hash == d_off.hash);
    CHECK(carom_world_time(on) == carom_world_time(off));
    size_t differ = 0;
    for (carom_sphere_id i = 0; i < carom_world_sphere_capacity(on); i++) {
        CHECK(carom_world_sphere_exists(on, i) == carom_world_sphere_exists(off, i));
        if (!carom_world_sphere_exists(on, i))
            continue;
        carom_sphere_state a, b;
        CHECK(carom_world_get_sphere(on, i, &a) == CAROM_OK);
        CHECK(carom_world_get_sphere(off, i, &b) == CAROM_OK);
        differ += memcmp(a.position, b.position, sizeof a.position) != 0 ||
                  memcmp(a.velocity, b.velocity, sizeof a.velocity) != 0 ||
                  a.collisions != b.collisions;
    }
    CHECK(differ == 0);
    printf("%llu collisions, %llu advances with the helper, %zu spheres differ\n",
           (unsigned long long)s_on.collisions, (unsigned long long)s_on.prefetch_advances,
           differ);
    carom_world_free(off);
    carom_world_free(on);
}

static void test_same_results_lists(void)
{
    same_results(CAROM_NEIGHBOURS_LISTS);
}

static void test_same_results_cells(void)
{
    same_results(CAROM_NEIGHBOURS_CELLS);
}

static void test_auto_small_world(void)
{
    contact_digest d = {0, 0};
    carom_world *w = dense_world(2000, CAROM_NEIGHBOURS_AUTO, CAROM_PREFETCH_AUTO, &d);
    CHECK(w != NULL);
    if (!w)
        return;
    CHECK(carom_world_advance_to(w, 0.5) == CAROM_OK);
    carom_stats s;
    carom_world_get_stats(w, &s);
    CHECK(s.collisions > 0);
    CHECK(s.prefetch_advances == 0); /* it fits the caches: one thread */
    carom_world_free(w);
}

static void test_bad_setting(void)
{
    carom_world_def def = carom_world_default_def();
    def.prefetch = (carom_prefetch)7;
    carom_error e;
    carom_world *w = carom_world_create(&def, &e);
    CHECK(w == NULL);
    CHECK(strstr(e.message, "prefetch") != NULL);
    carom_world_free(w);
}

int main(void)
{
    RUN(test_same_results_lists);
    RUN(test_same_results_cells);
    RUN(test_auto_small_world);
    RUN(test_bad_setting);
    return CHECK_REPORT();
}
