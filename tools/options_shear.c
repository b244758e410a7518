/* shear= and shear_interval= of `carom run`: Lees-Edwards shear flow
 * (carom_world_set_shear) and the rescaling that keeps its temperature.
 *
 * Contract: shear is any finite rate (0: none); shear_interval >= 0
 * (NaN when not given: the run chooses it) and shear_offset (finite,
 * default 0) only with a rate. A rate is refused, naming the key
 * it clashes with, where the world would refuse it (walls along x or y,
 * gravity, driven spheres, report-only response, fixed
 * planes, segments, triangles or a mesh) and where the
 * run's other measurements assume the plain periodic box or velocities
 * that change only at contacts (viscosity, bulk_viscosity,
 * conductivity). A thermostat's bath redraws about the profile and keeps
 * the temperature in place of the rescalings (shear.h). msd is taken
 * across the flow (displacement.h); a trajectory's frames carry the box
 * tilted by the images' offset (frames.h). */
#include <math.h>
#include <string.h>

#include "options_parse.h"

static int clash(const config *c, config_key key, const char *value, const char *why,
                 cli_error *error)
{
    return cli_fail(error, CLI_EXIT_USAGE, "%s: shear=%s cannot be combined with %s=%s (%s)",
                    c->origin[KEY_SHEAR], c->value[KEY_SHEAR], config_key_name(key), value,
                    why);
}

static int refused(const config *c, const run_options *o, cli_error *error)
{
    static const char *const motions[] = {"ballistic", "orbits", "forces", "field"};
    const char *boundary = c->value[KEY_BOUNDARY] ? c->value[KEY_BOUNDARY] : "walls";
    if (o->boundary[0] != CAROM_BOUNDARY_PERIODIC || o->boundary[1] != CAROM_BOUNDARY_PERIODIC)
        return clash(c, KEY_BOUNDARY, boundary,
                     "x and y must be periodic: the sheared boundary is across y", error);
    for (int d = 0; d < 3; d++)
        if (o->gravity[d] != 0.0)
            return clash(c, KEY_GRAVITY, c->value[KEY_GRAVITY], "not in a sheared box yet",
                         error);
    if (o->motion != MOTION_BALLISTIC)
        return clash(c, KEY_MOTION, motions[o->motion], "driven spheres do not shear yet",
                     error);
    if (o->response == CAROM_RESPONSE_NONE)
        return clash(c, KEY_RESPONSE, c->value[KEY_RESPONSE],
                     "spheres that pass through each other make no stress to measure", error);
    const char *alone = "fixed obstacles do not shear";
    if (o->nplanes)
        return clash(c, KEY_PLANES, c->value[KEY_PLANES], alone, error);
    if (o->nsegments)
        return clash(c, KEY_SEGMENTS, c->value[KEY_SEGMENTS], alone, error);
    if (o->segments_file)
        return clash(c, KEY_SEGMENTS_FILE, o->segments_file, alone, error);
    if (o->ntriangles && config_is_set(c, KEY_TRIANGLES))
        return clash(c, KEY_TRIANGLES, c->value[KEY_TRIANGLES], alone, error);
    if (o->mesh)
        return clash(c, KEY_MESH, o->mesh, alone, error);
    const config_key transport[] = {KEY_VISCOSITY, KEY_BULK_VISCOSITY, KEY_CONDUCTIVITY};
    const int on[] = {o->viscosity, o->bulk_viscosity, o->conductivity};
    for (int k = 0; k < 3; k++)
        if (on[k])
            return clash(c, transport[k], c->value[transport[k]],
                         "the equilibrium routes need velocities that change only at "
                         "contacts; the sheared run gives its viscosity from its heat",
                         error);
    if (o->compress && o->init)
        return clash(c, KEY_COMPRESS, c->value[KEY_COMPRESS],
                     "with init=: the file's state is sheared, the compression would not be",
                     error);
    return 0;
}

int options_get_shear(const config *c, run_options *o, cli_error *error)
{
    o->shear = 0.0;
    o->shear_interval = NAN; /* auto: chosen by the run (simulate.c) */
    if (config_is_set(c, KEY_SHEAR)) {
        const char *v = c->value[KEY_SHEAR];
        if (options_parse_number(c, KEY_SHEAR, v, strlen(v), &o->shear, error))
            return error->exit_code;
    }
    o->shear_offset = 0.0;
    o->shear_offset_given = config_is_set(c, KEY_SHEAR_OFFSET);
    if (o->shear_offset_given) {
        const char *v = c->value[KEY_SHEAR_OFFSET];
        if (options_parse_number(c, KEY_SHEAR_OFFSET, v, strlen(v), &o->shear_offset, error))
            return error->exit_code;
        if (o->shear == 0.0)
            return options_bad_value(c, KEY_SHEAR_OFFSET, error, "needs shear= (a rate)");
    }
    if (config_is_set(c, KEY_SHEAR_INTERVAL)) {
        const char *v = c->value[KEY_SHEAR_INTERVAL];
        if (options_parse_number(c, KEY_SHEAR_INTERVAL, v, strlen(v), &o->shear_interval,
                                 error))
            return error->exit_code;
        if (o->shear_interval < 0.0)
            return options_bad_value(c, KEY_SHEAR_INTERVAL, error, "must be >= 0");
        if (o->shear == 0.0)
            return options_bad_value(c, KEY_SHEAR_INTERVAL, error, "needs shear= (a rate)");
    }
    return o->shear != 0.0 ? refused(c, o, error) : 0;
}
