/* Software drawing of a view_frame into a raster: the same picture as the
 * OpenGL window (same camera, colours and heads-up line) with no display.
 *
 * Contract: soft_scene_draw clears the raster and draws the box, the
 * fixed planes and the spheres (2D: flat disks, the large sphere on top,
 * each disk with its spoke when f->spokes; 3D: lit spheres with per-pixel
 * depth), then `hud` (if not NULL) at the top-left corner. */
#ifndef CAROM_VIEWER_SOFT_SCENE_H
#define CAROM_VIEWER_SOFT_SCENE_H

#include "camera.h"
#include "frame.h"
#include "raster.h"

void soft_scene_draw(raster *r, const camera *cam, const view_frame *f, const char *hud);

#endif
