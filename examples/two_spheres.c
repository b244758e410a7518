/* The smallest carom program: two spheres in a walled box meet head on.
 * Build against an installed carom with
 *   cc two_spheres.c $(pkg-config --cflags --libs carom) -o two_spheres */
#include <stdio.h>

#include <carom/carom.h>

static void on_contact(void *user_data, carom_contact *c)
{
    (void)user_data;
    if (c->kind == CAROM_CONTACT_SPHERE)
        printf("t=%.6f: spheres %u and %u meet, impulse %.3f\n", c->time, c->i, c->j, c->impulse);
}

int main(void)
{
    carom_world_def def = carom_world_default_def();
    def.dim = 2;
    def.box[0] = def.box[1] = 10.0;
    def.boundary[0] = def.boundary[1] = CAROM_BOUNDARY_WALLS;
    def.on_contact = on_contact;
    carom_error error;
    carom_world *world = carom_world_create(&def, &error);
    if (!world) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    carom_sphere_def a = carom_sphere_default_def(); /* radius 0.5, mass 1 */
    a.position[0] = 2.0;
    a.position[1] = 5.0;
    a.velocity[0] = 1.0;
    carom_sphere_def b = a;
    b.position[0] = 8.0;
    b.velocity[0] = -1.0;
    carom_world_add_sphere(world, &a, NULL);
    carom_world_add_sphere(world, &b, NULL);
    if (carom_world_advance_to(world, 4.0) != CAROM_OK) {
        fprintf(stderr, "%s\n", carom_world_error_message(world));
        return 1;
    }
    carom_sphere_state s;
    carom_world_get_sphere(world, 0, &s);
    printf("t=4: sphere 0 at x=%.6f moving at %.6f\n", s.position[0], s.velocity[0]);
    carom_world_free(world);
    return 0;
}
