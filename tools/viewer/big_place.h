/* Where the viewer's large sphere starts, and room for it.
 *
 * Contract: both keep spheres clear of the fixed obstacles, which
 * `obstacles` holds (obstacles.h's probe, or NULL for none): a sphere of
 * radius r is clear where the probe finds no plane, segment or triangle
 * within 1.0001 r. big_place_choose picks the first of
 * a fixed list of positions (high up and central first; the last axis is
 * up) where a sphere of radius r overlaps none of the scene's spheres;
 * if there is none, the first of the list clear of the obstacles, else a
 * deterministic random place clear of them; it returns 0, or -1 when it
 * finds no place clear of the obstacles. big_place_make_room then
 * moves every sphere that overlaps the large sphere at `big` to a random
 * free place (deterministic), removing (and counting in *removed) a
 * sphere that finds none (the last sphere, spin and all, takes its
 * row); it returns how many moved. */
#ifndef CAROM_VIEWER_BIG_PLACE_H
#define CAROM_VIEWER_BIG_PLACE_H

#include <stddef.h>

#include "carom/scene.h"
#include "obstacles.h"

int big_place_choose(const carom_scene *s, obstacle_probe *obstacles, double r, double out[3]);
/* How many of the scene's spheres a sphere of radius r at p overlaps. */
size_t big_place_overlaps(const carom_scene *s, const double p[3], double r);
size_t big_place_make_room(carom_scene *s, obstacle_probe *obstacles, const double big[3],
                           double big_r, size_t *removed);

#endif
