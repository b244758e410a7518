/* Keyboard and mouse of `carom view`: what each key does, and the drag of
 * the large sphere (left button, from wherever the press starts) and the
 * orbit of the 3D camera (right button, wheel).
 *
 * Keys: space pause/resume, n single step, r reset, - slower, + (or =)
 * faster, g gravity on/off, c next colouring (bands, speed, then species
 * when the scene has species), o slow orbit on/off
 * (3D), d write the state now (to the dump= file), Escape or q quit.
 *
 * Contract: view_input_handle applies one SDL event to the driver, the
 * camera and the view state; it returns 1 when the event asks to quit. */
#ifndef CAROM_VIEWER_VIEW_INPUT_H
#define CAROM_VIEWER_VIEW_INPUT_H

#include <SDL.h>

#include "camera.h"
#include "driver.h"

typedef struct view_state {
    view_colour colour;   /* color=, then the c key's (frame.h) */
    int auto_orbit;
    int step_request;     /* single step asked for */
    int dump_request;     /* d: write the state now */
    int dragging;         /* left button held */
    int orbiting;         /* right button held (3D) */
    double drag_anchor[3];/* 3D: the drag plane goes through this point */
    double pixel_ratio[2];/* drawable pixels per window unit */
    int error;            /* a driver call failed: message in the driver */
} view_state;

int view_input_handle(const SDL_Event *e, driver *d, camera *cam, view_state *vs);

/* The HUD keys help, shown by `carom view --help`. */
extern const char *const view_keys_help;

#endif
