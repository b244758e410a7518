/* The fixed obstacles of a run or a view (planes=, segments=,
 * triangles= and mesh=), put into worlds: the world the run simulates,
 * and a probe world that says where a sphere would be clear of them.
 *
 * Contract: the tools keep the obstacles as options.c reads them (a
 * plane: unit normal and offset; a segment: x0, y0, x1, y1; a triangle:
 * three corners) and never test a sphere against them with arithmetic
 * of their own: the placement, the viewer's large sphere and the world
 * all use the library's distances.
 * - obstacles_add adds them to w in order (planes, then segments, then
 *   triangles, so the world's indices are their places here). It
 *   returns NULL, or the key ("planes", "segments", "triangles") whose
 *   obstacle w refused; the world's error message says why.
 * - obstacle_probe_init makes a probe: an empty world of the given
 *   dimension and box holding only the obstacles, walled on every axis
 *   so that the library stores each obstacle once (it stores up to 27
 *   copies of a triangle along periodic axes, and building a large
 *   periodic mesh twice would double the start-up). It returns 0, or -1
 *   with the reason in *error; obstacle_probe_free frees it.
 * - obstacle_probe_hit asks it (carom_world_query_obstacles) which
 *   obstacle a sphere of radius r at x would overlap, strictly, walls
 *   not counted: along the probe's periodic axes the centre is also
 *   moved by -L and +L wherever the moved sphere reaches into the box,
 *   which finds exactly the images the world would store. It returns 0
 *   for none, else the first kind met in the order planes, segments,
 *   triangles (CAROM_CONTACT_PLANE, _SEGMENT, _TRIANGLE); -1 when the
 *   library refuses the question (its message in
 *   carom_world_error_message(probe->world)). */
#ifndef CAROM_TOOLS_OBSTACLES_H
#define CAROM_TOOLS_OBSTACLES_H

#include "carom/carom.h"

typedef struct obstacle_lists {
    int nplanes;
    const double (*plane)[4];
    int nsegments;
    const double (*segment)[4];
    int ntriangles;
    const double (*triangle)[9];
} obstacle_lists;

typedef struct obstacle_probe {
    carom_world *world; /* the obstacles alone, in a walled box */
    int dim;
    double box[3];
    int periodic[3];
} obstacle_probe;

const char *obstacles_add(carom_world *w, const obstacle_lists *o);
int obstacle_probe_init(obstacle_probe *probe, int dim, const double box[3],
                        const carom_boundary boundary[3], const obstacle_lists *o,
                        carom_error *error);
void obstacle_probe_free(obstacle_probe *probe);
int obstacle_probe_hit(obstacle_probe *probe, const double x[3], double r);

#endif
