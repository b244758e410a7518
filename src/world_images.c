/* Unwrapped positions (def.count_images): each sphere's count of the
 * periodic faces it has crossed, by id, so that its position plus image
 * times the box length never jumps by a box length.
 *
 * Contract: whatever moves a stored position by whole box lengths (a
 * wrap: a cell crossing, a list remade, a big sphere's rescan, a driven
 * sphere rehomed, the check at a build) moves the image the other way
 * through world_wrap_into_box or world_note_wrap, so position + image * L
 * changes only as the sphere moves. A sphere's image starts at 0 where it
 * is added or moved to (carom_world_set_position): its unwrapped position
 * continues the coordinates the application gave, whatever their image,
 * unless the application sets the image (carom_world_set_image, for a
 * restart: bookkeeping only, the dynamics do not change). Without
 * def.count_images nothing is kept (w->image is NULL) and
 * carom_world_get_image refuses.
 *
 * Under Lees-Edwards shear (world_shear.c) a sphere through the sheared
 * boundary n times has its y image moved by n and its x image by
 * -n wraps (world_shear_wraps, at the time of its stored state), so that
 * x + (ix + iy wraps(t)) Lx + iy offset(t) changes only as the sphere
 * moves: carom_world_get_image reports ix + iy wraps(t) along x, and the
 * unwrapped x is the position plus image Lx plus the y image times the
 * offset now. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

int world_images_reserve(carom_world *w, size_t capacity)
{
    if (!w->def.count_images)
        return 0;
    int64_t(*image)[3] = realloc(w->image, capacity * sizeof *image);
    if (!image)
        return -1;
    w->image = image;
    return 0;
}

void world_images_reset(carom_world *w, uint32_t id)
{
    if (w->image)
        memset(w->image[id], 0, sizeof w->image[id]);
}

void world_note_wrap(carom_world *w, uint32_t slot, int axis, int64_t n)
{
    if (w->image)
        w->image[world_id_of(w, slot)][axis] += n;
}

int64_t world_wrap_coordinate(double *x, double L)
{
    if (*x >= 0.0 && *x < L)
        return 0;
    double n = floor(*x / L);
    double wrapped = *x - L * n;
    if (wrapped < 0.0) { /* x / L rounded up to a whole number */
        wrapped += L;
        n -= 1.0;
    }
    if (wrapped >= L) { /* a hair below a multiple of L */
        wrapped = 0.0;
        n += 1.0;
    }
    *x = wrapped;
    return (int64_t)n;
}

void world_wrap_into_box(carom_world *w, uint32_t slot, int axis)
{
    double *x = &w->spheres[slot].x[axis];
    world_note_wrap(w, slot, axis, world_wrap_coordinate(x, w->def.box[axis]));
}

/* The wraps of sphere id's position now into the box, as
 * carom_world_get_sphere makes them (under shear, y through the sheared
 * boundary first, its x shifted by the offset then), per axis; and under
 * shear the offset's wraps (world_shear_wraps), which the x image
 * reported adds times the y image stored (0 unsheared). */
static int64_t wraps_now(const carom_world *w, carom_sphere_id id, int64_t wrap[3])
{
    double x[3], v[3];
    world_true_state(w, world_slot_of(w, id), w->time, x, v);
    int64_t offset_wraps = 0;
    for (int k = 0; k < 3; k++)
        wrap[k] = 0;
    if (w->shear_rate != 0.0) {
        wrap[1] = world_wrap_coordinate(&x[1], w->def.box[1]);
        x[0] -= (double)wrap[1] * world_shear_offset(w, w->time);
        offset_wraps = world_shear_wraps(w, w->time);
    }
    for (int k = 0; k < 3; k++)
        if (k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC &&
            !(k == 1 && w->shear_rate != 0.0))
            wrap[k] = world_wrap_coordinate(&x[k], w->def.box[k]);
    return offset_wraps;
}

carom_status carom_world_get_image(const carom_world *w, carom_sphere_id id, int64_t image[3])
{
    if (!w->image)
        return CAROM_ERR_INVALID_ARGUMENT;
    if (id >= w->count || !w->info[world_slot_of(w, id)].alive)
        return CAROM_ERR_NO_SUCH_SPHERE;
    int64_t wrap[3];
    int64_t offset_wraps = wraps_now(w, id, wrap);
    for (int k = 0; k < 3; k++) {
        image[k] = 0;
        if (k < w->def.dim && w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
            image[k] = w->image[id][k] + wrap[k];
    }
    image[0] += w->image[id][1] * offset_wraps;
    return CAROM_OK;
}

carom_status carom_world_set_image(carom_world *w, carom_sphere_id id, const int64_t image[3])
{
    if (!w->image)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "carom_world_set_image: the world counts no images (def.count_images)");
    if (id >= w->count || !w->info[world_slot_of(w, id)].alive)
        return world_fail(w, CAROM_ERR_NO_SUCH_SPHERE, "no sphere with id %u", (unsigned)id);
    if (!image)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "sphere %u: image is NULL", (unsigned)id);
    for (int k = 0; k < 3; k++)
        if (image[k] != 0 && (k >= w->def.dim || w->def.boundary[k] != CAROM_BOUNDARY_PERIODIC))
            return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                              "sphere %u: image %lld along axis %d, which is not periodic",
                              (unsigned)id, (long long)image[k], k);
    /* What carom_world_get_image reports, solved for the stored count
     * (y before x, whose report counts y's). */
    int64_t wrap[3];
    int64_t offset_wraps = wraps_now(w, id, wrap);
    for (int k = 0; k < w->def.dim; k++)
        if (w->def.boundary[k] == CAROM_BOUNDARY_PERIODIC)
            w->image[id][k] = image[k] - wrap[k];
    w->image[id][0] -= w->image[id][1] * offset_wraps;
    return CAROM_OK;
}
