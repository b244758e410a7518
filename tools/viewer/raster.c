/* The software rasteriser (see raster.h). Disks and spheres are drawn
 * pixel by pixel over their bounding squares, with coverage-based edge
 * smoothing so that small disks still look round. */
#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"

int raster_init(raster *r, int width, int height)
{
    r->width = width;
    r->height = height;
    r->rgb = malloc((size_t)width * (size_t)height * 3);
    r->depth = malloc((size_t)width * (size_t)height * sizeof *r->depth);
    if (!r->rgb || !r->depth) {
        raster_free(r);
        return -1;
    }
    return 0;
}

void raster_free(raster *r)
{
    free(r->rgb);
    free(r->depth);
    r->rgb = NULL;
    r->depth = NULL;
}

void raster_clear(raster *r, const unsigned char rgb[3])
{
    size_t n = (size_t)r->width * (size_t)r->height;
    for (size_t i = 0; i < n; i++) {
        memcpy(r->rgb + 3 * i, rgb, 3);
        r->depth[i] = INFINITY;
    }
}

static unsigned char to_byte(double v)
{
    if (v <= 0.0)
        return 0;
    if (v >= 255.0)
        return 255;
    return (unsigned char)(v + 0.5);
}

/* Blends colour c with coverage a (0..1) into pixel (x, y). */
static void blend(raster *r, int x, int y, const double c[3], double a)
{
    unsigned char *p = r->rgb + 3 * ((size_t)y * (size_t)r->width + (size_t)x);
    for (int k = 0; k < 3; k++)
        p[k] = to_byte(a * c[k] + (1.0 - a) * p[k]);
}

/* Pixel rows and columns a circle of centre c, radius rad can touch. */
static int clip_span(double c, double rad, int size, int *lo, int *hi)
{
    double a = floor(c - rad - 1.0), b = ceil(c + rad + 1.0);
    if (b < 0.0 || a > (double)size)
        return 0;
    *lo = a < 0.0 ? 0 : (int)a;
    *hi = b > (double)(size - 1) ? size - 1 : (int)b;
    return *lo <= *hi;
}

void raster_disk(raster *r, double cx, double cy, double radius, const unsigned char rgb[3])
{
    int x0, x1, y0, y1;
    if (radius <= 0.0 || !clip_span(cx, radius, r->width, &x0, &x1) ||
        !clip_span(cy, radius, r->height, &y0, &y1))
        return;
    double rim = radius > 3.0 ? 0.85 : 1.0;
    for (int y = y0; y <= y1; y++) {
        double dy = y + 0.5 - cy;
        for (int x = x0; x <= x1; x++) {
            double dx = x + 0.5 - cx;
            double d = sqrt(dx * dx + dy * dy);
            double cover = radius + 0.5 - d;
            if (cover <= 0.0)
                continue;
            if (cover > 1.0)
                cover = 1.0;
            double shade = d < rim * radius ? 1.0 : 0.7;
            double c[3] = {rgb[0] * shade, rgb[1] * shade, rgb[2] * shade};
            blend(r, x, y, c, cover);
        }
    }
}

void raster_spoke(raster *r, double cx, double cy, double radius, double ux, double uy,
                  double width, const unsigned char rgb[3])
{
    int x0, x1, y0, y1;
    double hw = 0.5 * width;
    double mx = cx + 0.5 * radius * ux, my = cy + 0.5 * radius * uy; /* its middle */
    double half = 0.5 * radius + hw;
    if (radius <= 0.0 || !clip_span(mx, half, r->width, &x0, &x1) ||
        !clip_span(my, half, r->height, &y0, &y1))
        return;
    double c[3] = {rgb[0], rgb[1], rgb[2]};
    for (int y = y0; y <= y1; y++) {
        double dy = y + 0.5 - cy;
        for (int x = x0; x <= x1; x++) {
            double dx = x + 0.5 - cx;
            double d = sqrt(dx * dx + dy * dy);
            double along = dx * ux + dy * uy;
            double across = along < 0.0 ? d : fabs(dx * uy - dy * ux);
            double cover = fmin(hw + 0.5 - across, radius + 0.5 - d);
            if (cover <= 0.0)
                continue;
            blend(r, x, y, c, cover > 1.0 ? 1.0 : cover);
        }
    }
}

void raster_sphere(raster *r, double cx, double cy, double radius, double depth,
                   double depth_per_pixel, const unsigned char rgb[3])
{
    int x0, x1, y0, y1;
    if (radius <= 0.0 || !clip_span(cx, radius, r->width, &x0, &x1) ||
        !clip_span(cy, radius, r->height, &y0, &y1))
        return;
    /* Light from the upper left, in front of the viewer. */
    const double light[3] = {-0.45, 0.55, 0.70};
    for (int y = y0; y <= y1; y++) {
        double dy = (y + 0.5 - cy) / radius;
        for (int x = x0; x <= x1; x++) {
            double dx = (x + 0.5 - cx) / radius;
            double q = dx * dx + dy * dy;
            double edge = radius * (1.0 - sqrt(q)) + 0.5; /* pixels inside the rim */
            if (edge <= 0.0)
                continue;
            double nz = q < 1.0 ? sqrt(1.0 - q) : 0.0;
            float z = (float)(depth - nz * radius * depth_per_pixel);
            size_t idx = (size_t)y * (size_t)r->width + (size_t)x;
            if (!(z < r->depth[idx]))
                continue;
            double n[3] = {dx, -dy, nz};
            double diffuse = n[0] * light[0] + n[1] * light[1] + n[2] * light[2];
            if (diffuse < 0.0)
                diffuse = 0.0;
            /* Blinn-Phong highlight, half vector between light and eye (0,0,1). */
            double h[3] = {light[0], light[1], light[2] + 1.0};
            double hn = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
            double spec = (n[0] * h[0] + n[1] * h[1] + n[2] * h[2]) / hn;
            spec = spec > 0.0 ? pow(spec, 40.0) : 0.0;
            double lit = 0.25 + 0.75 * diffuse;
            double c[3];
            for (int k = 0; k < 3; k++)
                c[k] = rgb[k] * lit + 200.0 * spec;
            double cover = edge > 1.0 ? 1.0 : edge;
            r->depth[idx] = z;
            blend(r, x, y, c, cover);
        }
    }
}

void raster_line(raster *r, double x0, double y0, double d0, double x1, double y1, double d1,
                 const unsigned char rgb[3])
{
    double dx = x1 - x0, dy = y1 - y0;
    double len = fmax(fabs(dx), fabs(dy));
    int steps = (int)ceil(len);
    if (steps < 1)
        steps = 1;
    if (steps > 1 << 16)
        steps = 1 << 16;
    double c[3] = {rgb[0], rgb[1], rgb[2]};
    for (int s = 0; s <= steps; s++) {
        double t = (double)s / steps;
        int x = (int)floor(x0 + t * dx), y = (int)floor(y0 + t * dy);
        if (x < 0 || y < 0 || x >= r->width || y >= r->height)
            continue;
        size_t idx = (size_t)y * (size_t)r->width + (size_t)x;
        float d = (float)(d0 + t * (d1 - d0));
        if (d0 >= 0.0 && !(d <= r->depth[idx]))
            continue;
        blend(r, x, y, c, 1.0);
    }
}

typedef struct text_ctx {
    raster *r;
    double c[3];
} text_ctx;

static void plot_text(void *user, int x, int y)
{
    text_ctx *t = user;
    if (x >= 0 && y >= 0 && x < t->r->width && y < t->r->height)
        blend(t->r, x, y, t->c, 1.0);
}

void raster_text(raster *r, const char *text, int x, int y, int scale,
                 const unsigned char rgb[3])
{
    int w = font_text_width(text, scale) + 2 * scale, h = FONT_CELL_H * scale;
    double dark[3] = {0.0, 0.0, 0.0};
    for (int py = y; py < y + h; py++)
        for (int px = x - scale; px < x - scale + w; px++)
            if (px >= 0 && py >= 0 && px < r->width && py < r->height)
                blend(r, px, py, dark, 0.55);
    text_ctx t = {r, {rgb[0], rgb[1], rgb[2]}};
    font_draw(text, x, y, scale, plot_text, &t);
}
