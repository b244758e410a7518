/* One picture's worth of spheres, independent of where they came from (a
 * running world or a trajectory file) and of who draws them (OpenGL or
 * the software renderer).
 *
 * Contract: frame_reserve grows the arrays to hold n spheres (contents of
 * existing entries kept) and returns 0, or -1 when out of memory. The
 * large sphere, if any, is entry `big` and is drawn grey. Colours are
 * filled by the palette functions. Fixed planes, if any, are drawn as
 * lines (plane_lines.h), fixed segments (2D) as lines in the same
 * colour, and fixed triangles (3D) as the outlines of their three edges,
 * in that colour too. When `spokes` is set (2D only: a rough world, or
 * one with spins), each disk also shows a radius line from its centre to
 * its rim at angle[i] (radians, counterclockwise from +x in world
 * coordinates), which turns with the disk's spin; spin[i] is the spin
 * about z a trajectory frame was read with (spokes set only when the file
 * has spins). Who fills the frame keeps the angles: frame_reserve keeps
 * them with the other entries. */
#ifndef CAROM_VIEWER_FRAME_H
#define CAROM_VIEWER_FRAME_H

#include <stddef.h>

#define FRAME_PLANES_MAX 16
#define FRAME_SEGMENTS_MAX 16

typedef struct view_frame {
    int dim;
    double box[3];
    double time;
    size_t n, cap;
    double (*pos)[3];
    double (*vel)[3];
    double *radius;
    unsigned char (*rgb)[3];
    double *angle; /* spoke angles (used when spokes is set) */
    double *spin;  /* spins about z (trajectories with spins) */
    int spokes;    /* 2D: draw a spoke on each disk */
    long big; /* index of the large sphere, -1 if none */
    int nplanes;
    double plane[FRAME_PLANES_MAX][4]; /* normal, offset: spheres stay where n . x >= d + r */
    int nsegments;
    double segment[FRAME_SEGMENTS_MAX][4]; /* 2D: x0, y0, x1, y1 */
    int ntriangles;
    const double (*triangle)[9]; /* 3D: corners x0, y0, z0, ..., z2 (not the frame's: its
                                    filler's, which keeps them while the frame is drawn) */
} view_frame;

void frame_init(view_frame *f);
void frame_free(view_frame *f);
int frame_reserve(view_frame *f, size_t n);

/* Colours by eight bands of the starting height (the last axis) over the
 * height the spheres span, so that mixing shows. */
void palette_bands(const double (*start)[3], size_t n, int dim, const double box[3],
                   unsigned char (*rgb)[3]);
/* Colours by speed: blue (slow) to red (fast), relative to the frame's
 * root-mean-square speed; the large sphere stays grey. */
void palette_speed(view_frame *f);
/* Copies band colours into the frame, the large sphere grey. */
void palette_apply(view_frame *f, const unsigned char (*bands)[3], size_t n_bands);

#endif
