/* Helpers shared by the scene modules (scene.c, scene_lattice.c,
 * scene_random.c, scene_velocity.c).
 *
 * Contract: scene_check_box accepts a scene whose dim is 2 or 3, whose
 * box lengths on the used axes are finite and positive and whose boundary
 * kinds are valid, and otherwise fills error and returns nonzero status.
 */
#ifndef CAROM_SCENE_INTERNAL_H
#define CAROM_SCENE_INTERNAL_H

#include "carom/scene.h"

carom_status scene_check_box(const carom_scene *scene, carom_error *error);

/* Margin kept between spheres, and between spheres and walls, when
 * generating configurations, relative to the radius. */
#define SCENE_RELATIVE_MARGIN 1e-9

#endif
