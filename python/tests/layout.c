/* Prints, as JSON, what the C compiler makes of carom's public headers:
 * the size and field offsets of every structure the Python package
 * mirrors (python/carom/_library.py), and the values of the enums. The
 * test test_layout.py compares them with ctypes' view. */
#include <stddef.h>
#include <stdio.h>

#include <carom/carom.h>
#include <carom/drive.h>
#include <carom/query.h>
#include <carom/scene.h>
#include <carom/thermostat.h>

static int first_field;

static void begin_struct(const char *name, size_t size, int first)
{
    printf("%s\"%s\": {\"size\": %zu, \"fields\": {", first ? "" : ", ", name, size);
    first_field = 1;
}

static void field(const char *name, size_t offset)
{
    printf("%s\"%s\": %zu", first_field ? "" : ", ", name, offset);
    first_field = 0;
}

static void end_struct(void)
{
    printf("}}");
}

static void constant(const char *name, int value, int first)
{
    printf("%s\"%s\": %d", first ? "" : ", ", name, value);
}

#define FIELD(type, name) field(#name, offsetof(type, name))
#define CONSTANT(name, first) constant(#name, name, first)

int main(void)
{
    printf("{\"structs\": {");
    begin_struct("carom_error", sizeof(carom_error), 1);
    FIELD(carom_error, status);
    FIELD(carom_error, message);
    end_struct();
    begin_struct("carom_contact", sizeof(carom_contact), 0);
    FIELD(carom_contact, kind);
    FIELD(carom_contact, time);
    FIELD(carom_contact, i);
    FIELD(carom_contact, j);
    FIELD(carom_contact, wall);
    FIELD(carom_contact, normal);
    FIELD(carom_contact, impulse);
    FIELD(carom_contact, velocity_after);
    FIELD(carom_contact, depth);
    FIELD(carom_contact, parting);
    end_struct();
    begin_struct("carom_driver", sizeof(carom_driver), 0);
    FIELD(carom_driver, probe);
    FIELD(carom_driver, kick);
    FIELD(carom_driver, user_data);
    end_struct();
    begin_struct("carom_world_def", sizeof(carom_world_def), 0);
    FIELD(carom_world_def, dim);
    FIELD(carom_world_def, box);
    FIELD(carom_world_def, boundary);
    FIELD(carom_world_def, gravity);
    FIELD(carom_world_def, restitution);
    FIELD(carom_world_def, wall_restitution);
    FIELD(carom_world_def, restitution_min_speed);
    FIELD(carom_world_def, response);
    FIELD(carom_world_def, on_contact);
    FIELD(carom_world_def, user_data);
    FIELD(carom_world_def, capacity_hint);
    FIELD(carom_world_def, driver);
    FIELD(carom_world_def, neighbours);
    FIELD(carom_world_def, prefetch);
    FIELD(carom_world_def, reorder);
    FIELD(carom_world_def, record_contacts);
    FIELD(carom_world_def, count_images);
    FIELD(carom_world_def, tangential_restitution);
    FIELD(carom_world_def, wall_tangential_restitution);
    FIELD(carom_world_def, inertia_factor);
    FIELD(carom_world_def, friction);
    FIELD(carom_world_def, wall_friction);
    end_struct();
    begin_struct("carom_sphere_def", sizeof(carom_sphere_def), 0);
    FIELD(carom_sphere_def, position);
    FIELD(carom_sphere_def, velocity);
    FIELD(carom_sphere_def, radius);
    FIELD(carom_sphere_def, mass);
    FIELD(carom_sphere_def, driven);
    FIELD(carom_sphere_def, accel_bound);
    FIELD(carom_sphere_def, species);
    end_struct();
    begin_struct("carom_sphere_state", sizeof(carom_sphere_state), 0);
    FIELD(carom_sphere_state, position);
    FIELD(carom_sphere_state, velocity);
    FIELD(carom_sphere_state, radius);
    FIELD(carom_sphere_state, mass);
    FIELD(carom_sphere_state, collisions);
    FIELD(carom_sphere_state, species);
    end_struct();
    begin_struct("carom_stats", sizeof(carom_stats), 0);
    FIELD(carom_stats, start_time);
    FIELD(carom_stats, elapsed);
    FIELD(carom_stats, events);
    FIELD(carom_stats, collisions);
    FIELD(carom_stats, wall_hits);
    FIELD(carom_stats, cell_crossings);
    FIELD(carom_stats, list_rebuilds);
    FIELD(carom_stats, invalid_events);
    FIELD(carom_stats, virial);
    FIELD(carom_stats, wall_momentum);
    FIELD(carom_stats, max_overlap);
    FIELD(carom_stats, kinetic_energy_start);
    FIELD(carom_stats, bound_resets);
    FIELD(carom_stats, bound_collisions);
    FIELD(carom_stats, late_contacts);
    FIELD(carom_stats, prefetch_advances);
    FIELD(carom_stats, reorders);
    FIELD(carom_stats, bound_breaks);
    FIELD(carom_stats, sensed_contacts);
    FIELD(carom_stats, sensed_partings);
    end_struct();
    begin_struct("carom_scene", sizeof(carom_scene), 0);
    FIELD(carom_scene, dim);
    FIELD(carom_scene, box);
    FIELD(carom_scene, boundary);
    FIELD(carom_scene, n);
    FIELD(carom_scene, position);
    FIELD(carom_scene, velocity);
    FIELD(carom_scene, radius);
    FIELD(carom_scene, mass);
    FIELD(carom_scene, spin);
    FIELD(carom_scene, species);
    FIELD(carom_scene, shear_offset);
    end_struct();
    begin_struct("carom_orbit", sizeof(carom_orbit), 0);
    FIELD(carom_orbit, center);
    FIELD(carom_orbit, orbit_radius);
    FIELD(carom_orbit, omega);
    FIELD(carom_orbit, phase);
    FIELD(carom_orbit, radius);
    end_struct();
    begin_struct("carom_orbits", sizeof(carom_orbits), 0);
    FIELD(carom_orbits, n);
    FIELD(carom_orbits, orbit);
    FIELD(carom_orbits, first_id);
    FIELD(carom_orbits, misuse);
    end_struct();
    begin_struct("carom_andersen_def", sizeof(carom_andersen_def), 0);
    FIELD(carom_andersen_def, kT);
    FIELD(carom_andersen_def, rate);
    FIELD(carom_andersen_def, seed);
    end_struct();
    begin_struct("carom_forces_def", sizeof(carom_forces_def), 0);
    FIELD(carom_forces_def, dim);
    FIELD(carom_forces_def, interval);
    FIELD(carom_forces_def, seed);
    FIELD(carom_forces_def, start_time);
    FIELD(carom_forces_def, first_id);
    end_struct();
    begin_struct("carom_field_def", sizeof(carom_field_def), 0);
    FIELD(carom_field_def, box);
    FIELD(carom_field_def, speed);
    FIELD(carom_field_def, gain);
    FIELD(carom_field_def, step);
    FIELD(carom_field_def, start_time);
    FIELD(carom_field_def, first_id);
    end_struct();
    begin_struct("carom_cast", sizeof(carom_cast), 0);
    FIELD(carom_cast, origin);
    FIELD(carom_cast, motion);
    FIELD(carom_cast, radius);
    FIELD(carom_cast, ignore);
    end_struct();
    begin_struct("carom_cast_hit", sizeof(carom_cast_hit), 0);
    FIELD(carom_cast_hit, kind);
    FIELD(carom_cast_hit, sphere);
    FIELD(carom_cast_hit, wall);
    FIELD(carom_cast_hit, fraction);
    FIELD(carom_cast_hit, position);
    FIELD(carom_cast_hit, normal);
    FIELD(carom_cast_hit, point);
    end_struct();
    begin_struct("carom_obstacle", sizeof(carom_obstacle), 0);
    FIELD(carom_obstacle, kind);
    FIELD(carom_obstacle, index);
    end_struct();
    printf("}, \"constants\": {");
    CONSTANT(CAROM_OK, 1);
    CONSTANT(CAROM_ERR_INVALID_ARGUMENT, 0);
    CONSTANT(CAROM_ERR_OUT_OF_MEMORY, 0);
    CONSTANT(CAROM_ERR_OVERLAP, 0);
    CONSTANT(CAROM_ERR_OUTSIDE_BOX, 0);
    CONSTANT(CAROM_ERR_BOX_TOO_SMALL, 0);
    CONSTANT(CAROM_ERR_NO_SUCH_SPHERE, 0);
    CONSTANT(CAROM_ERR_IO, 0);
    CONSTANT(CAROM_ERR_PARSE, 0);
    CONSTANT(CAROM_ERR_IN_CALLBACK, 0);
    CONSTANT(CAROM_ERR_STUCK, 0);
    CONSTANT(CAROM_ERROR_MESSAGE_SIZE, 0);
    CONSTANT(CAROM_SPECIES_MAX, 0);
    CONSTANT(CAROM_BOUNDARY_PERIODIC, 0);
    CONSTANT(CAROM_BOUNDARY_WALLS, 0);
    CONSTANT(CAROM_RESPONSE_ELASTIC, 0);
    CONSTANT(CAROM_RESPONSE_NONE, 0);
    CONSTANT(CAROM_NEIGHBOURS_AUTO, 0);
    CONSTANT(CAROM_NEIGHBOURS_CELLS, 0);
    CONSTANT(CAROM_NEIGHBOURS_LISTS, 0);
    CONSTANT(CAROM_PREFETCH_AUTO, 0);
    CONSTANT(CAROM_PREFETCH_OFF, 0);
    CONSTANT(CAROM_PREFETCH_ON, 0);
    CONSTANT(CAROM_REORDER_AUTO, 0);
    CONSTANT(CAROM_REORDER_OFF, 0);
    CONSTANT(CAROM_CONTACT_SPHERE, 0);
    CONSTANT(CAROM_CONTACT_WALL, 0);
    CONSTANT(CAROM_CONTACT_PLANE, 0);
    CONSTANT(CAROM_CONTACT_SEGMENT, 0);
    CONSTANT(CAROM_CONTACT_TRIANGLE, 0);
    CONSTANT(CAROM_LATTICE_AUTO, 0);
    CONSTANT(CAROM_LATTICE_SQUARE, 0);
    CONSTANT(CAROM_LATTICE_HEX, 0);
    CONSTANT(CAROM_LATTICE_FCC, 0);
    printf("}, \"query_no_sphere\": %u, \"version\": \"%s\"}\n",
           (unsigned)CAROM_QUERY_NO_SPHERE, CAROM_VERSION_STRING);
    return 0;
}
