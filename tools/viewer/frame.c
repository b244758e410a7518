/* Storage and colours of a view_frame (see frame.h). */
#include "frame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char big_grey[3] = {150, 150, 150};

void frame_init(view_frame *f)
{
    memset(f, 0, sizeof *f);
    f->big = -1;
}

void frame_free(view_frame *f)
{
    free(f->pos);
    free(f->vel);
    free(f->radius);
    free(f->rgb);
    free(f->angle);
    free(f->spin);
    free(f->species);
    frame_init(f);
}

int frame_reserve(view_frame *f, size_t n)
{
    if (n <= f->cap)
        return 0;
    size_t cap = f->cap ? f->cap : 64;
    while (cap < n)
        cap *= 2;
    double(*pos)[3] = realloc(f->pos, cap * sizeof *pos);
    if (pos)
        f->pos = pos;
    double(*vel)[3] = realloc(f->vel, cap * sizeof *vel);
    if (vel)
        f->vel = vel;
    double *radius = realloc(f->radius, cap * sizeof *radius);
    if (radius)
        f->radius = radius;
    unsigned char(*rgb)[3] = realloc(f->rgb, cap * sizeof *rgb);
    if (rgb)
        f->rgb = rgb;
    double *angle = realloc(f->angle, cap * sizeof *angle);
    if (angle)
        f->angle = angle;
    double *spin = realloc(f->spin, cap * sizeof *spin);
    if (spin)
        f->spin = spin;
    uint32_t *species = realloc(f->species, cap * sizeof *species);
    if (species)
        f->species = species;
    if (!pos || !vel || !radius || !rgb || !angle || !spin || !species)
        return -1;
    f->cap = cap;
    return 0;
}

/* Eight bands, bottom to top: warm to cool, all bright enough to read. */
static const unsigned char band_colours[8][3] = {
    {214, 64, 52},  {236, 134, 44}, {238, 198, 60}, {120, 190, 70},
    {52, 170, 150}, {60, 130, 210}, {110, 90, 200}, {190, 90, 170},
};

void palette_bands(const double (*start)[3], size_t n, int dim, const double box[3],
                   unsigned char (*rgb)[3])
{
    palette_bands_along(start, n, dim - 1, box, rgb);
}

void palette_bands_along(const double (*start)[3], size_t n, int up, const double box[3],
                         unsigned char (*rgb)[3])
{
    /* Bands over the extent the spheres span (a settled start too gets
     * all eight colours). */
    double lo = box[up], hi = 0.0;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, start[i][up]);
        hi = fmax(hi, start[i][up]);
    }
    double h = hi > lo ? hi - lo : 1.0;
    for (size_t i = 0; i < n; i++) {
        double y = (start[i][up] - lo) / h;
        int b = (int)floor(y * 8.0);
        if (b < 0)
            b = 0;
        if (b > 7)
            b = 7;
        memcpy(rgb[i], band_colours[b], 3);
    }
}

void palette_apply(view_frame *f, const unsigned char (*bands)[3], size_t n_bands)
{
    for (size_t i = 0; i < f->n; i++) {
        if ((long)i == f->big)
            memcpy(f->rgb[i], big_grey, 3);
        else if (i < n_bands)
            memcpy(f->rgb[i], bands[i], 3);
        else
            memcpy(f->rgb[i], band_colours[5], 3);
    }
}

/* Species' colours: the first two (a mixture of two) blue and orange,
 * told apart with any colour vision; then the distinct colours of
 * Trubetskoy's list that read well on the dark background. */
const unsigned char species_colours[SPECIES_COLOURS][3] = {
    {0, 130, 200},   {245, 130, 48}, {60, 180, 75},   {230, 25, 75},
    {145, 30, 180},  {70, 240, 240}, {240, 50, 230},  {255, 225, 25},
    {250, 190, 212}, {0, 128, 128},  {170, 110, 40},  {220, 190, 255},
};

void palette_species(view_frame *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if ((long)i == f->big)
            memcpy(f->rgb[i], big_grey, 3);
        else
            memcpy(f->rgb[i], species_colours[f->species[i] % SPECIES_COLOURS], 3);
    }
}

view_colour frame_colour_mode(view_colour asked, int has_species)
{
    if (asked != COLOUR_AUTO)
        return asked;
    return has_species ? COLOUR_SPECIES : COLOUR_BANDS;
}

void palette_paint(view_frame *f, view_colour asked, const unsigned char (*bands)[3],
                   size_t n_bands)
{
    switch (frame_colour_mode(asked, f->has_species)) {
    case COLOUR_SPEED:
        palette_speed(f);
        break;
    case COLOUR_SPECIES:
        palette_species(f);
        break;
    default:
        palette_apply(f, bands, n_bands);
        break;
    }
}

view_colour frame_next_colour(view_colour now, int has_species)
{
    switch (frame_colour_mode(now, has_species)) {
    case COLOUR_BANDS:
        return COLOUR_SPEED;
    case COLOUR_SPEED:
        return has_species ? COLOUR_SPECIES : COLOUR_BANDS;
    default:
        return COLOUR_BANDS;
    }
}

void palette_speed(view_frame *f)
{
    double sum = 0.0;
    size_t count = 0;
    for (size_t i = 0; i < f->n; i++) {
        if ((long)i == f->big)
            continue;
        const double *v = f->vel[i];
        sum += v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        count++;
    }
    double rms = count ? sqrt(sum / (double)count) : 0.0;
    if (!(rms > 0.0))
        rms = 1.0;
    for (size_t i = 0; i < f->n; i++) {
        if ((long)i == f->big) {
            memcpy(f->rgb[i], big_grey, 3);
            continue;
        }
        const double *v = f->vel[i];
        double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / rms;
        double t = s / (s + 1.0); /* 0 at rest, 0.5 at the rms speed, -> 1 */
        /* blue -> cyan -> yellow -> red */
        double r, g, b;
        if (t < 0.33) {
            double u = t / 0.33;
            r = 0.15;
            g = 0.25 + 0.55 * u;
            b = 0.9;
        } else if (t < 0.66) {
            double u = (t - 0.33) / 0.33;
            r = 0.15 + 0.8 * u;
            g = 0.8 + 0.1 * u;
            b = 0.9 - 0.7 * u;
        } else {
            double u = (t - 0.66) / 0.34;
            r = 0.95;
            g = 0.9 - 0.75 * u;
            b = 0.2 - 0.1 * u;
        }
        f->rgb[i][0] = (unsigned char)(255.0 * r);
        f->rgb[i][1] = (unsigned char)(255.0 * g);
        f->rgb[i][2] = (unsigned char)(255.0 * b);
    }
}
