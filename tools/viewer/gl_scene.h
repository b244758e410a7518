/* OpenGL drawing of a view_frame for the interactive window: spheres as
 * screen-facing quads whose fragment shader ray-casts the sphere (flat
 * disks in 2D, lit spheres with exact per-pixel depth in 3D), the box and
 * the fixed planes as lines, and the heads-up line as pixels from the
 * built-in font.
 *
 * Contract: needs an OpenGL 2.1 (GLSL 1.20) compatibility context made
 * current before gl_scene_create; get_proc loads entry points beyond
 * OpenGL 1.3 (SDL_GL_GetProcAddress). gl_scene_create returns NULL and
 * writes a one-line reason into err when the context lacks what it needs.
 * The picture matches the software renderer's (same camera and colours). */
#ifndef CAROM_VIEWER_GL_SCENE_H
#define CAROM_VIEWER_GL_SCENE_H

#include <stddef.h>

#include "camera.h"
#include "frame.h"

typedef struct gl_scene gl_scene;
typedef void *(*gl_get_proc_fn)(const char *name);

gl_scene *gl_scene_create(gl_get_proc_fn get_proc, char *err, size_t err_size);
void gl_scene_free(gl_scene *g);

/* Clears the viewport and draws the box, the fixed planes and the
 * spheres (2D: with their spokes when f->spokes). */
void gl_scene_draw(gl_scene *g, const camera *cam, const view_frame *f);
/* Draws text at the top-left corner of a viewport of width x height. */
void gl_scene_hud(gl_scene *g, const char *text, int width, int height);
/* Reads the viewport back as RGB rows, top row first (w*h*3 bytes). */
void gl_scene_read_pixels(int width, int height, unsigned char *rgb);

#endif
