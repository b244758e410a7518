/* Software drawing of a frame (see soft_scene.h). */
#include "soft_scene.h"

#include <math.h>

#include "plane_lines.h"
#include "scene_style.h"

static void draw_box(raster *r, const camera *cam, int on_top)
{
    double edges[12][2][3];
    int n = style_box_edges(cam->dim, cam->box, edges);
    for (int e = 0; e < n; e++) {
        double x0, y0, d0, x1, y1, d1;
        if (!camera_project(cam, edges[e][0], &x0, &y0, &d0) ||
            !camera_project(cam, edges[e][1], &x1, &y1, &d1))
            continue;
        if (on_top)
            d0 = d1 = -1.0;
        raster_line(r, x0, y0, d0, x1, y1, d1, style_box_colour);
    }
}

/* Lines of the fixed planes: on top in 2D, depth-tested in 3D. */
static void draw_planes(raster *r, const camera *cam, const view_frame *f)
{
    for (int p = 0; p < f->nplanes; p++) {
        double lines[PLANE_LINES_MAX][2][3];
        int n = plane_lines(cam->dim, cam->box, f->plane[p], f->plane[p][3], lines);
        for (int e = 0; e < n; e++) {
            double x0, y0, d0, x1, y1, d1;
            if (!camera_project(cam, lines[e][0], &x0, &y0, &d0) ||
                !camera_project(cam, lines[e][1], &x1, &y1, &d1))
                continue;
            if (cam->dim == 2)
                d0 = d1 = -1.0;
            raster_line(r, x0, y0, d0, x1, y1, d1, style_plane_colour);
        }
    }
}

/* Fixed segments (2D): lines on top, in the planes' colour. */
static void draw_segments(raster *r, const camera *cam, const view_frame *f)
{
    for (int g = 0; g < f->nsegments; g++) {
        const double a[3] = {f->segment[g][0], f->segment[g][1], 0.0};
        const double b[3] = {f->segment[g][2], f->segment[g][3], 0.0};
        double x0, y0, d0, x1, y1, d1;
        if (camera_project(cam, a, &x0, &y0, &d0) && camera_project(cam, b, &x1, &y1, &d1))
            raster_line(r, x0, y0, -1.0, x1, y1, -1.0, style_plane_colour);
    }
}

/* Fixed triangles (3D): their three edges, depth-tested like the planes'
 * lines. */
static void draw_triangles(raster *r, const camera *cam, const view_frame *f)
{
    for (int g = 0; g < f->ntriangles; g++)
        for (int k = 0; k < 3; k++) {
            const double *a = f->triangle[g] + 3 * k, *b = f->triangle[g] + 3 * ((k + 1) % 3);
            double x0, y0, d0, x1, y1, d1;
            if (camera_project(cam, a, &x0, &y0, &d0) && camera_project(cam, b, &x1, &y1, &d1))
                raster_line(r, x0, y0, d0, x1, y1, d1, style_plane_colour);
        }
}

/* The spoke of disk i (centre at pixel px, py, radius rp pixels): its
 * direction comes from the projected tip, so it follows the camera's y
 * flip. */
static void draw_spoke(raster *r, const camera *cam, const view_frame *f, size_t i, double px,
                       double py, double rp)
{
    double tip[3] = {f->pos[i][0] + f->radius[i] * cos(f->angle[i]),
                     f->pos[i][1] + f->radius[i] * sin(f->angle[i]), 0.0};
    double tx, ty, td;
    if (camera_project(cam, tip, &tx, &ty, &td))
        raster_spoke(r, px, py, rp, (tx - px) / rp, (ty - py) / rp, style_spoke_width(rp),
                     style_spoke_colour);
}

static void draw_sphere(raster *r, const camera *cam, const view_frame *f, size_t i)
{
    double px, py, depth;
    if (!camera_project(cam, f->pos[i], &px, &py, &depth))
        return;
    double rp = camera_pixel_radius(cam, f->radius[i], depth);
    if (cam->dim == 2) {
        raster_disk(r, px, py, rp, f->rgb[i]);
        if (f->spokes && rp >= STYLE_SPOKE_MIN_RADIUS)
            draw_spoke(r, cam, f, i, px, py, rp);
    } else if (rp > 0.0)
        raster_sphere(r, px, py, rp, depth, f->radius[i] / rp, f->rgb[i]);
}

void soft_scene_draw(raster *r, const camera *cam, const view_frame *f, const char *hud)
{
    raster_clear(r, style_background);
    if (cam->dim == 2) {
        draw_box(r, cam, 1);
        draw_planes(r, cam, f);
        draw_segments(r, cam, f);
    }
    for (size_t i = 0; i < f->n; i++)
        if ((long)i != f->big)
            draw_sphere(r, cam, f, i);
    if (f->big >= 0 && (size_t)f->big < f->n)
        draw_sphere(r, cam, f, (size_t)f->big);
    if (cam->dim == 3) {
        draw_box(r, cam, 0);
        draw_planes(r, cam, f);
        draw_triangles(r, cam, f);
    }
    if (hud)
        raster_text(r, hud, STYLE_TEXT_X, STYLE_TEXT_Y, STYLE_TEXT_SCALE, style_text_colour);
}
