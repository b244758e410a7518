/* Where the viewer's large sphere starts, and room for it.
 *
 * Contract: big_place_choose picks the first of a fixed list of positions
 * (high up and central first; the last axis is up) where a sphere of
 * radius r overlaps none of the scene's spheres, or the first of the list
 * if there is none. big_place_make_room then moves every sphere that
 * overlaps the large sphere at `big` to a random free place in the box
 * (deterministic), removing (and counting in *removed) a sphere that finds
 * none; it returns how many moved. */
#ifndef CAROM_VIEWER_BIG_PLACE_H
#define CAROM_VIEWER_BIG_PLACE_H

#include <stddef.h>

#include "carom/scene.h"

void big_place_choose(const carom_scene *s, double r, double out[3]);
size_t big_place_make_room(carom_scene *s, const double big[3], double big_r, size_t *removed);

#endif
