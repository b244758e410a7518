/* Fixed planes (carom_world_add_plane): each keeps the spheres on the
 * side its unit normal n points to, n . x >= d + radius.
 *
 * Contract: a plane is added only when every live sphere is on its free
 * side, and the world builds again at the next advance, so every
 * prediction from then on sees it (world_predict.c tests each sphere
 * against every plane, like the walls of the box: an EVENT_WALL whose
 * partner is PLANE_WALL + the plane's index; response.c reflects it).
 * Spheres added or moved later are checked at their placement
 * (world_build.c). A normal has no component along periodic axes, so a
 * wrap never moves a sphere across a plane. A driven sphere's bound
 * meets a plane as it meets a face of the box (world_driven_predict.c,
 * world_driven_meet.c: the same code, with the distance along the
 * plane's normal). Growing spheres (world_growth.c) meet a plane when
 * their growing surface reaches it, and leave it as they leave a wall:
 * at least as fast as they grow. */
#include <math.h>
#include <stdlib.h>

#include "roots.h"
#include "vec.h"
#include "world_internal.h"

#define PLANE_TOLERANCE 1e-10 /* relative to the radius, as for overlaps */

/* How far a sphere of this radius at x is behind plane p (> 0: behind). */
static double depth_behind(const world_plane *p, const double x[3], double radius)
{
    return p->d + radius - vec_dot(p->n, x);
}

double world_plane_depth(const carom_world *w, uint32_t slot, const world_plane *p)
{
    const sphere *s = &w->spheres[slot];
    return depth_behind(p, s->x, s->radius);
}

double world_plane_time(const carom_world *w, const sphere *s, const world_plane *p, double now)
{
    double nv = vec_dot(p->n, s->v);
    if (w->growth_rate > 0.0) {
        /* Growing (no gravity then): the surface moves towards the plane
         * at the growth speed on top of the centre's speed, so even a
         * sphere moving off it may meet it (world_growth.c). */
        double r = s->radius * growth_factor(w, s->t), grow = growth_speed(w, s->radius);
        double into = depth_behind(p, s->x, r);
        return fmax(s->t + roots_first_upcrossing_quadratic(into, grow - nv, 0.0), now);
    }
    double ng = w->has_gravity && INFO(s)->falls ? vec_dot(p->n, w->gravity) : 0.0;
    if (nv >= 0.0 && ng >= 0.0)
        return INFINITY; /* moving off it, or along it, and not pulled in */
    /* How far the surface is into the plane (> 0: into it), from the
     * sphere's own time: predicting again gives the same time. */
    double into = depth_behind(p, s->x, s->radius);
    return fmax(s->t + roots_first_upcrossing_quadratic(into, -nv, -0.5 * ng), now);
}

static carom_status behind_plane(carom_world *w, uint32_t slot, double radius, uint32_t plane,
                                 double depth)
{
    return world_fail(w, CAROM_ERR_OUTSIDE_BOX,
                      "sphere %u (radius %g) is behind plane %u: its surface is %.17g past it",
                      (unsigned)world_id_of(w, slot), radius, (unsigned)plane, depth);
}

carom_status world_planes_check(carom_world *w, uint32_t slot)
{
    for (size_t p = 0; p < w->nplanes; p++) {
        double depth = world_plane_depth(w, slot, &w->planes[p]);
        if (depth > PLANE_TOLERANCE * w->spheres[slot].radius)
            return behind_plane(w, slot, w->spheres[slot].radius, (uint32_t)p, depth);
    }
    return CAROM_OK;
}

carom_status carom_world_add_plane(carom_world *w, const double normal[3], double offset,
                                   uint32_t *index_out)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_add_plane");
    if (!normal)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "plane: normal is NULL");
    double n[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; k++) {
        if (!isfinite(normal[k]))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "plane: normal must be finite numbers (component %d is %g)", k,
                              normal[k]);
        int free_axis = k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_WALLS;
        if (normal[k] != 0.0 && !free_axis)
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              k < w->def.dim
                                  ? "plane: the normal has a component along axis %d, which is "
                                    "periodic (a wrap would cross the plane)"
                                  : "plane: the normal has a component along axis %d, which a 2D "
                                    "world does not have",
                              k);
        n[k] = normal[k];
    }
    double length = sqrt(vec_dot(n, n));
    if (!(length > 0.0) || !isfinite(length))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "plane: the normal must have a nonzero, finite length");
    if (!isfinite(offset))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "plane: offset must be finite (%g)",
                          offset);
    world_plane plane = {{n[0] / length, n[1] / length, n[2] / length}, offset / length};
    for (uint32_t slot = 0; slot < w->count; slot++) {
        if (!w->info[slot].alive)
            continue;
        double x[3], v[3];
        world_true_state(w, slot, w->time, x, v);
        double radius = w->spheres[slot].radius * growth_factor(w, w->time);
        double depth = depth_behind(&plane, x, radius);
        if (depth > PLANE_TOLERANCE * radius)
            return behind_plane(w, slot, radius, (uint32_t)w->nplanes, depth);
    }
    if (w->nplanes == w->planes_room) {
        size_t room = w->planes_room ? 2 * w->planes_room : 4;
        world_plane *planes = realloc(w->planes, room * sizeof *planes);
        if (!planes)
            return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for %zu planes", room);
        w->planes = planes;
        w->planes_room = room;
    }
    w->planes[w->nplanes] = plane;
    if (index_out)
        *index_out = (uint32_t)w->nplanes;
    w->nplanes++;
    world_unbuild(w); /* every prediction again, with the plane */
    return CAROM_OK;
}

size_t carom_world_plane_count(const carom_world *w)
{
    return w->nplanes;
}

carom_status carom_world_get_plane(const carom_world *w, uint32_t index, double normal[3],
                                   double *offset)
{
    if (index >= w->nplanes)
        return CAROM_ERR_INVALID_ARGUMENT;
    if (normal)
        vec_copy(normal, w->planes[index].n);
    if (offset)
        *offset = w->planes[index].d;
    return CAROM_OK;
}

void world_planes_free(carom_world *w)
{
    free(w->planes);
    w->planes = NULL;
    w->nplanes = w->planes_room = 0;
}
