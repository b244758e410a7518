/* Arguments of `carom view` and `carom render`: the keys of `carom run`
 * (CONFIG_FILE and key=value, read by config.c/options.c/setup.c exactly
 * as `carom run` reads them) plus the viewer's own keys, which are taken
 * out first (they are accepted on the command line only).
 *
 * Contract: viewer_prepare either fills *va, the scene and the driver
 * settings (with motion=orbits, ds->orbits holds them, for the driver to
 * take over; on failure it is left empty), or fails with a one-line message naming the key (cli_error,
 * exit code CLI_EXIT_USAGE for bad input). With no CONFIG_FILE and none of
 * scenario=, dim=, init= the scene is scenario=seed004. With input=FILE
 * (render only) no scene is built: the pictures come from the file, and
 * of the keys of `carom run` only planes= is accepted (the planes of the
 * run, to draw; read by render once the file's dimension is known, from
 * va->input_keys, which viewer_args_free frees).
 * Keys of `carom run` that only make sense for a batch run (time, final,
 * trajectory, frame_interval, collision_log) are refused. */
#ifndef CAROM_VIEWER_ARGS_H
#define CAROM_VIEWER_ARGS_H

#include "carom/scene.h"
#include "cli.h"
#include "config.h"
#include "driver.h"

typedef enum viewer_mode { VIEWER_VIEW, VIEWER_RENDER } viewer_mode;

typedef struct viewer_args {
    int width, height;
    view_colour colour;       /* color=; COLOUR_AUTO: species when the scene has them, else bands */
    double time_scale;
    /* view */
    const char *dump;         /* final state at the end (extended XYZ) */
    const char *screenshot;   /* last picture on exit (PNG) */
    double budget_ms;         /* most physics per frame */
    double target_fps;        /* physics gets what drawing leaves of 1/target_fps */
    long max_frames;          /* quit after this many frames (0: never) */
    int paused;
    /* render */
    long frames;
    const char *out;          /* DIR or FILE.mp4 */
    const char *input;        /* trajectory file */
    config *input_keys;       /* with input=: the keys of `carom run` given (planes=) */
    double fps;
    int hud;
    int has_drag;
    double drag[2][3];        /* the large sphere moves from drag[0] to drag[1] */
    double yaw, pitch;        /* 3D camera, radians; NAN: default */
} viewer_args;

int viewer_prepare(viewer_mode mode, int argc, char **argv, viewer_args *va,
                   carom_scene *scene, driver_settings *ds, cli_error *error);

void viewer_args_free(viewer_args *va);

/* Help text of the viewer's own keys. */
void viewer_print_keys(FILE *out, viewer_mode mode);

#endif
