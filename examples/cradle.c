/* Contacts pulled after each frame instead of a callback: a Newton's
 * cradle of five balls in a row, the first swinging in at speed 1. Each
 * advance of 1 time unit is a frame; afterwards the frame's contacts are
 * read from carom_world_recorded_contacts, in the order they happened.
 * Build against an installed carom with
 *   cc cradle.c $(pkg-config --cflags --libs carom) -o cradle */
#include <stdio.h>

#include <carom/carom.h>

int main(void)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = 12.0;
    def.box[1] = 4.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.record_contacts = 1; /* keep every contact of an advance */
    carom_error error;
    carom_world *world = carom_world_create(&def, &error);
    if (!world) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    carom_sphere_def ball = carom_sphere_default_def(); /* radius 0.5, mass 1 */
    ball.position[0] = 2.0;
    ball.position[1] = 2.0;
    ball.velocity[0] = 1.0;
    carom_world_add_sphere(world, &ball, NULL); /* ball 0, swinging in */
    ball.velocity[0] = 0.0;
    for (int k = 1; k < 5; k++) {
        ball.position[0] = 5.0 + 1.01 * k; /* at rest, 0.01 apart */
        carom_world_add_sphere(world, &ball, NULL);
    }
    for (int frame = 1; frame <= 8; frame++) {
        if (carom_world_advance_to(world, frame) != CAROM_OK) {
            fprintf(stderr, "%s\n", carom_world_error_message(world));
            return 1;
        }
        size_t count;
        const carom_contact *c = carom_world_recorded_contacts(world, &count);
        printf("frame %d: %zu contacts\n", frame, count);
        for (size_t k = 0; k < count; k++) {
            if (c[k].kind == CAROM_CONTACT_SPHERE)
                printf("  t=%.6f: balls %u and %u\n", c[k].time, c[k].i < c[k].j ? c[k].i : c[k].j,
                       c[k].i < c[k].j ? c[k].j : c[k].i);
            else
                printf("  t=%.6f: ball %u and wall %d\n", c[k].time, c[k].i, c[k].wall);
        }
    }
    carom_world_free(world);
    return 0;
}
