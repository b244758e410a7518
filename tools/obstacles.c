/* Fixed obstacles into worlds, and the probe world (see obstacles.h). */
#include "obstacles.h"

#include <math.h>
#include <stdio.h>

#include "carom/query.h"

const char *obstacles_add(carom_world *w, const obstacle_lists *o)
{
    for (int q = 0; q < o->nplanes; q++)
        if (carom_world_add_plane(w, o->plane[q], o->plane[q][3], NULL) != CAROM_OK)
            return "planes";
    for (int g = 0; g < o->nsegments; g++)
        if (carom_world_add_segment(w, o->segment[g], o->segment[g] + 2, NULL) != CAROM_OK)
            return "segments";
    for (int g = 0; g < o->ntriangles; g++)
        if (carom_world_add_triangle(w, o->triangle[g], o->triangle[g] + 3, o->triangle[g] + 6,
                                     NULL) != CAROM_OK)
            return "triangles";
    return NULL;
}

int obstacle_probe_init(obstacle_probe *probe, int dim, const double box[3],
                        const carom_boundary boundary[3], const obstacle_lists *o,
                        carom_error *error)
{
    carom_world_def def = carom_world_default_def();
    def.dim = probe->dim = dim;
    for (int k = 0; k < 3; k++) {
        def.box[k] = probe->box[k] = box[k];
        probe->periodic[k] = k < dim && boundary[k] == CAROM_BOUNDARY_PERIODIC;
        def.boundary[k] = k < dim ? CAROM_BOUNDARY_WALLS : boundary[k];
    }
    def.prefetch = CAROM_PREFETCH_OFF;
    probe->world = carom_world_create(&def, error);
    if (!probe->world)
        return -1;
    if (obstacles_add(probe->world, o)) {
        error->status = CAROM_ERR_INVALID_ARGUMENT;
        snprintf(error->message, sizeof error->message, "%s",
                 carom_world_error_message(probe->world));
        obstacle_probe_free(probe);
        return -1;
    }
    return 0;
}

void obstacle_probe_free(obstacle_probe *probe)
{
    carom_world_free(probe->world);
    probe->world = NULL;
}

/* The first plane, segment or triangle a sphere of radius r at y
 * overlaps (0: none), walls left out. Walls come first in the query's
 * list, at most 6 of them: one more place holds the first obstacle. */
static int first_hit(carom_world *w, const double y[3], double r)
{
    carom_obstacle found[7];
    size_t count = 0;
    if (carom_world_query_obstacles(w, y, r, found, 7, &count) != CAROM_OK)
        return -1;
    for (size_t i = 0; i < count && i < 7; i++)
        if (found[i].kind != CAROM_CONTACT_WALL)
            return (int)found[i].kind;
    return 0;
}

int obstacle_probe_hit(obstacle_probe *probe, const double x[3], double r)
{
    double base[3];
    for (int k = 0; k < 3; k++)
        base[k] = probe->periodic[k] ? x[k] - probe->box[k] * floor(x[k] / probe->box[k]) : x[k];
    int best = 0;
    for (int c = 0; c < 27; c++) {
        int step[3] = {c % 3 - 1, c / 3 % 3 - 1, c / 9 - 1};
        double y[3];
        int reaches = 1;
        for (int k = 0; k < 3; k++) {
            y[k] = base[k] + step[k] * probe->box[k];
            if (step[k] && (!probe->periodic[k] || y[k] + r <= 0.0 || y[k] - r >= probe->box[k]))
                reaches = 0;
        }
        if (!reaches)
            continue;
        int hit = first_hit(probe->world, y, r);
        if (hit < 0)
            return -1;
        if (hit && (!best || hit < best)) /* the kinds' values run planes, segments, triangles */
            best = hit;
    }
    return best;
}
