/* A small software rasteriser for off-screen pictures: an RGB image with
 * a depth buffer, filled disks (2D), shaded spheres with per-pixel depth
 * (3D), lines and bitmap text.
 *
 * Contract: coordinates are pixels, x right, y down, (0,0) the top-left
 * pixel's corner; everything is clipped to the image. Depth grows away
 * from the eye; a pixel is written only if nearer than what is there
 * (2D drawing passes depth 0 and is drawn in order). raster_init returns
 * 0, or -1 when out of memory. */
#ifndef CAROM_VIEWER_RASTER_H
#define CAROM_VIEWER_RASTER_H

typedef struct raster {
    int width, height;
    unsigned char *rgb; /* width*height*3, rows top to bottom */
    float *depth;
} raster;

int raster_init(raster *r, int width, int height);
void raster_free(raster *r);
void raster_clear(raster *r, const unsigned char rgb[3]);

/* A flat disk with a darker rim, centre (cx, cy), radius in pixels. */
void raster_disk(raster *r, double cx, double cy, double radius, const unsigned char rgb[3]);
/* A spoke of a disk: a band `width` pixels wide from the centre (cx, cy)
 * along the unit direction (ux, uy) (pixels, y down) to the rim at
 * `radius`, smoothed at its sides and never outside the disk. */
void raster_spoke(raster *r, double cx, double cy, double radius, double ux, double uy,
                  double width, const unsigned char rgb[3]);
/* A lit sphere: centre (cx, cy) at eye depth `depth`, radius in pixels;
 * depth_per_pixel converts pixel lengths to depth units at that depth. */
void raster_sphere(raster *r, double cx, double cy, double radius, double depth,
                   double depth_per_pixel, const unsigned char rgb[3]);
/* A line with depth interpolated between its ends (depth < 0: on top). */
void raster_line(raster *r, double x0, double y0, double d0, double x1, double y1, double d1,
                 const unsigned char rgb[3]);
/* Text on a dark strip, top-left corner at (x, y), scaled `scale` times. */
void raster_text(raster *r, const char *text, int x, int y, int scale,
                 const unsigned char rgb[3]);

#endif
