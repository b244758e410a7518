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
 * them with the other entries. species[i] is sphere i's species (0 to
 * 31); has_species says the spheres came with species (a scene's species
 * array, S<k> names in an XYZ frame, an H5MD /particles/all/species),
 * which makes palette_species the default colouring (frame_colour_mode). */
#ifndef CAROM_VIEWER_FRAME_H
#define CAROM_VIEWER_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_PLANES_MAX 16

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
    uint32_t *species; /* 0 to 31 */
    int has_species;   /* the spheres came with species */
    int spokes;    /* 2D: draw a spoke on each disk */
    long big; /* index of the large sphere, -1 if none */
    int nplanes;
    double plane[FRAME_PLANES_MAX][4]; /* normal, offset: spheres stay where n . x >= d + r */
    int nsegments;
    const double (*segment)[4]; /* 2D: x0, y0, x1, y1 (the filler's, as the triangles) */
    int ntriangles;
    const double (*triangle)[9]; /* 3D: corners x0, y0, z0, ..., z2 (not the frame's: its
                                    filler's, which keeps them while the frame is drawn) */
} view_frame;

/* How spheres are coloured: bands of starting height, speed, species;
 * COLOUR_AUTO is species when the spheres came with species, else bands
 * (frame_colour_mode). */
typedef enum view_colour {
    COLOUR_AUTO = -1,
    COLOUR_BANDS,
    COLOUR_SPEED,
    COLOUR_SPECIES
} view_colour;

/* The fixed colours of species: species k gets species_colours[k % 12]:
 * blue, orange, green, red, purple, cyan, magenta, yellow, pink, teal,
 * brown, lavender (bright on the dark background, none grey like the
 * large sphere). */
#define SPECIES_COLOURS 12
extern const unsigned char species_colours[SPECIES_COLOURS][3];

void frame_init(view_frame *f);
void frame_free(view_frame *f);
int frame_reserve(view_frame *f, size_t n);

/* Colours by eight bands of the starting height (the last axis) over the
 * height the spheres span, so that mixing shows. */
void palette_bands(const double (*start)[3], size_t n, int dim, const double box[3],
                   unsigned char (*rgb)[3]);
/* The same bands along any axis (along x: a shear flow tilts them). */
void palette_bands_along(const double (*start)[3], size_t n, int axis, const double box[3],
                         unsigned char (*rgb)[3]);
/* Colours by speed: blue (slow) to red (fast), relative to the frame's
 * root-mean-square speed; the large sphere stays grey. */
void palette_speed(view_frame *f);
/* Copies band colours into the frame, the large sphere grey. */
void palette_apply(view_frame *f, const unsigned char (*bands)[3], size_t n_bands);
/* Colours by species (species_colours), the large sphere grey. */
void palette_species(view_frame *f);
/* Colours the frame in the mode asked for (frame_colour_mode with the
 * frame's has_species), bands from `bands`. */
void palette_paint(view_frame *f, view_colour asked, const unsigned char (*bands)[3],
                   size_t n_bands);
/* The mode asked for, COLOUR_AUTO made species or bands by has_species. */
view_colour frame_colour_mode(view_colour asked, int has_species);
/* The next mode of the viewer's c key: bands, speed, then species when
 * the spheres came with species, round again. */
view_colour frame_next_colour(view_colour now, int has_species);

#endif
