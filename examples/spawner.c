/* Scene queries in a game loop: balls spawned only where they fit.
 *
 * A walled room under gravity with a ramp (two fixed triangles) and a
 * sloping side wall (a fixed plane). Every frame the spawner picks a
 * random place; it adds a ball there only if no sphere
 * (carom_world_query_sphere) and no wall, plane or triangle
 * (carom_world_query_obstacles) is in the way, and says why a place was
 * taken. At the end a ray cast straight down (carom_world_cast_sphere)
 * says what it meets first. Any refusal from the world is an error: the
 * queries must agree with the world's own checks.
 * Build against an installed carom with
 *   cc spawner.c $(pkg-config --cflags --libs carom) -o spawner */
#include <stdio.h>

#include <carom/carom.h>
#include <carom/query.h>

/* A small random generator of its own, so every run is the same. */
static double uniform(unsigned *state, double lo, double hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (double)(*state >> 8) / 16777216.0;
}

static int fail(const carom_world *world, carom_status status)
{
    fprintf(stderr, "spawner: %s: %s\n", carom_status_name(status),
            carom_world_error_message(world));
    return 1;
}

int main(void)
{
    carom_world_def def = carom_world_default_def();
    for (int k = 0; k < 3; k++) {
        def.box[k] = 12.0;
        def.boundary[k] = CAROM_BOUNDARY_WALLS;
    }
    def.box[2] = 16.0;
    def.gravity[2] = -10.0;
    def.restitution = 0.6;
    def.wall_restitution = 0.6;
    def.restitution_min_speed = 0.5; /* resting balls keep hopping 0.0125 high */
    carom_error error;
    carom_world *world = carom_world_create(&def, &error);
    if (!world) {
        fprintf(stderr, "spawner: %s\n", error.message);
        return 1;
    }
    /* A ramp from z = 8 at x = 0 down to z = 3 at x = 12, and a side wall
     * leaning in at y = 12 (free where y <= 10 + z / 8). */
    const double ramp[4][3] = {{0, 0, 8}, {12, 0, 3}, {12, 12, 3}, {0, 12, 8}};
    const double side[3] = {0.0, -1.0, 0.125};
    carom_status st = carom_world_add_triangle(world, ramp[0], ramp[1], ramp[2], NULL);
    if (st == CAROM_OK)
        st = carom_world_add_triangle(world, ramp[0], ramp[2], ramp[3], NULL);
    if (st == CAROM_OK)
        st = carom_world_add_plane(world, side, -10.0, NULL);
    if (st != CAROM_OK)
        return fail(world, st);

    unsigned seed = 2026;
    int spawned = 0, by_spheres = 0, by_things[5] = {0};
    for (int frame = 1; frame <= 240; frame++) {
        carom_sphere_def ball = carom_sphere_default_def();
        ball.radius = 0.4;
        ball.position[0] = uniform(&seed, 0.0, 12.0);
        ball.position[1] = uniform(&seed, 0.0, 12.0);
        ball.position[2] = uniform(&seed, 2.0, 15.0);
        size_t near_spheres = 0, near_things = 0;
        carom_obstacle things[8];
        st = carom_world_query_sphere(world, ball.position, ball.radius, NULL, 0, &near_spheres);
        if (st == CAROM_OK)
            st = carom_world_query_obstacles(world, ball.position, ball.radius, things, 8,
                                             &near_things);
        if (st != CAROM_OK)
            return fail(world, st);
        if (near_spheres > 0)
            by_spheres++;
        for (size_t i = 0; i < near_things && i < 8; i++)
            by_things[things[i].kind]++;
        if (near_spheres == 0 && near_things == 0) {
            st = carom_world_add_sphere(world, &ball, NULL);
            if (st != CAROM_OK)
                return fail(world, st); /* the queries said it fits */
            spawned++;
        }
        st = carom_world_advance_to(world, frame / 30.0);
        if (st != CAROM_OK)
            return fail(world, st);
    }
    printf("spawned %d balls in 240 frames\n", spawned);
    printf("places taken: %d by balls, walls %d, planes %d, triangles %d (counted once per "
           "thing in the way)\n",
           by_spheres, by_things[CAROM_CONTACT_WALL], by_things[CAROM_CONTACT_PLANE],
           by_things[CAROM_CONTACT_TRIANGLE]);
    printf("deepest overlap now: %g of a contact distance\n", carom_world_max_overlap_now(world));

    carom_cast ray = {{6.0, 6.0, 15.9}, {0.0, 0.0, -15.9}, 0.0, CAROM_QUERY_NO_SPHERE};
    carom_cast_hit hit;
    int found = 0;
    st = carom_world_cast_sphere(world, &ray, &hit, &found);
    if (st != CAROM_OK)
        return fail(world, st);
    static const char *const kinds[] = {"ball", "wall", "plane", "segment", "triangle"};
    if (found)
        printf("a ray down from (6, 6, 15.9) meets %s %d at z=%.6f\n", kinds[hit.kind],
               hit.kind == CAROM_CONTACT_SPHERE ? (int)hit.sphere : hit.wall, hit.point[2]);
    else
        printf("a ray down from (6, 6, 15.9) meets nothing\n");
    carom_world_free(world);
    return 0;
}
