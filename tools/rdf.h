/* The radial distribution function g(r) of a world's spheres, averaged
 * over samples of the measured run (`rdf=FILE|on`), and its contact value
 * for equal spheres: the structural route to the pressure, to set beside
 * the collisional one (Z - 1 = 4 eta g(sigma) in 3D, 2 eta g(sigma) in
 * 2D; REFERENCE.md).
 *
 * Contract: the box must be periodic along every axis of the dimension
 * (walls would bias the count of neighbours near them) and r_max at most
 * half the shortest edge (minimum images). rdf_sample counts, once each,
 * the pairs of live spheres closer than r_max (centre distance, nearest
 * periodic image) into bins of width r_max / bins, through a grid of
 * cells at least r_max / 2 wide (all pairs when fewer than five fit along
 * an axis, or the spheres are too few). g of a bin is its count over the
 * count an ideal gas of the same density would give: samples *
 * N (N - 1) / (2 V) times the bin's shell volume. Positions are the
 * world's at the sample's time; all spheres count, whatever their radius
 * (for mixed sizes g(r) is the total one). In a sheared world
 * (carom_world_set_shear) pairs count through the displaced images too:
 * positions x - (offset / Ly) y are periodic as in a plain box, and a
 * pair's x separation is moved back by the same share of its y one. */
#ifndef CAROM_TOOLS_RDF_H
#define CAROM_TOOLS_RDF_H

#include <stddef.h>
#include <stdio.h>

#include "carom/carom.h"

typedef struct rdf {
    int dim;
    double box[3];
    double r_max;
    size_t bins;
    double *count; /* pairs per bin, over all samples */
    size_t samples;
    double pairs; /* sum over samples of N (N - 1) / 2 */
    double tilt;  /* of the sample: the shear offset over Ly, or 0 */
    /* scratch of a sample, by row: positions and the cell lists */
    size_t capacity;
    double (*x)[3];
    size_t *next;
    size_t *head;
    size_t cells_capacity;
} rdf;

/* 0, or -1 with a message in err when the box is not periodic, r_max is
 * out of range or memory runs out. */
int rdf_start(rdf *g, const carom_world *w, double r_max, size_t bins, char *err, size_t err_size);
/* Counts the pairs of the world now. 0, or -1 when out of memory. */
int rdf_sample(rdf *g, const carom_world *w);
/* g of bin b (NaN before any sample), and the bin's centre. */
double rdf_value(const rdf *g, size_t b);
double rdf_radius(const rdf *g, size_t b);
/* The contact value g(sigma+) of equal spheres of diameter sigma: a
 * least-squares quadratic through the bins whose centres lie within
 * [sigma, sigma + width], taken at sigma (NaN with fewer than three such
 * bins or no sample). */
double rdf_contact(const rdf *g, double sigma, double width);
/* CSV "r,g,pairs": one row a bin, r its centre, pairs its count over all
 * samples. 0, or -1 on a write error. */
int rdf_write_csv(const rdf *g, FILE *f);
void rdf_free(rdf *g);

#endif
