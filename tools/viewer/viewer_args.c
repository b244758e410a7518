/* Arguments of `carom view` and `carom render` (see viewer_args.h). */
#include "viewer_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "frames.h"
#include "options.h"
#include "setup.h"

#define MAX_PIXELS 8192

_Static_assert(FRAME_PLANES_MAX == RUN_PLANES_MAX, "the viewer draws every plane of a run");

typedef enum vkey {
    VK_WIDTH, VK_HEIGHT, VK_COLOR, VK_TIME_SCALE, VK_BIG, VK_BIG_RADIUS, VK_BIG_MASS,
    VK_BIG_SPEED, VK_YAW, VK_PITCH,
    VK_DUMP, VK_SCREENSHOT, VK_BUDGET, VK_TARGET_FPS, VK_MAX_FRAMES, VK_PAUSED,
    VK_FRAMES, VK_OUT, VK_INPUT, VK_FPS, VK_HUD, VK_DRAG,
    VK_COUNT
} vkey;

static const struct {
    const char *name;
    int modes; /* bit 0: view, bit 1: render */
    const char *help;
} vkeys[VK_COUNT] = {
    [VK_WIDTH] = {"width", 3, "picture width in pixels (default 800)"},
    [VK_HEIGHT] = {"height", 3, "picture height in pixels (default 800)"},
    [VK_COLOR] = {"color", 3, "bands (by starting height), speed or species (default: species "
                              "when the scene has species, else bands)"},
    [VK_TIME_SCALE] = {"time_scale", 3, "simulated time per second of real time (default 1)"},
    [VK_BIG] = {"big", 3, "on (default) or off: the large sphere"},
    [VK_BIG_RADIUS] = {"big_radius", 3, "radius of the large sphere (default 8% of the box)"},
    [VK_BIG_MASS] = {"big_mass", 3, "its mass (default 10^4 times the mean mass)"},
    [VK_BIG_SPEED] = {"big_speed", 3, "its largest speed (default one box length per time unit)"},
    [VK_YAW] = {"yaw", 3, "3D camera: degrees around the vertical (default 26)"},
    [VK_PITCH] = {"pitch", 3, "3D camera: degrees above the horizon (default 20)"},
    [VK_DUMP] = {"dump", 3, "write the final state to this extended XYZ file at the end "
                            "(view: also on key d)"},
    [VK_SCREENSHOT] = {"screenshot", 1, "write the last picture to this PNG file on exit"},
    [VK_BUDGET] = {"budget_ms", 1, "most wall-clock milliseconds of physics a frame (default 100)"},
    [VK_TARGET_FPS] = {"target_fps", 1,
                       "physics gets what drawing leaves of 1/target_fps s (default 75)"},
    [VK_MAX_FRAMES] = {"max_frames", 1, "quit after this many frames (default: never)"},
    [VK_PAUSED] = {"paused", 1, "1: start paused"},
    [VK_FRAMES] = {"frames", 2, "number of pictures (default 60)"},
    [VK_OUT] = {"out", 2, "directory for frame_NNNNN.png files, or FILE.mp4 (needs ffmpeg)"},
    [VK_INPUT] = {"input", 2, "draw the frames of this trajectory file instead of simulating"},
    [VK_FPS] = {"fps", 2, "pictures per second of video (default 30)"},
    [VK_HUD] = {"hud", 2, "on (default) or off: the heads-up line"},
    [VK_DRAG] = {"drag", 2, "x0,y0[,z0],x1,y1[,z1]: move the large sphere along this line"},
};

void viewer_print_keys(FILE *out, viewer_mode mode)
{
    int bit = mode == VIEWER_VIEW ? 1 : 2;
    for (int k = 0; k < VK_COUNT; k++)
        if (vkeys[k].modes & bit)
            fprintf(out, "  %-22s %s\n", vkeys[k].name, vkeys[k].help);
}

static int parse_number(const char *key, const char *v, double lo, double hi, double *out,
                        cli_error *error)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(x))
        return cli_fail(error, CLI_EXIT_USAGE, "%s=%s: not a finite number", key, v);
    if (x < lo || x > hi)
        return cli_fail(error, CLI_EXIT_USAGE, "%s=%s: must be between %g and %g", key, v, lo,
                        hi);
    *out = x;
    return 0;
}

static int parse_switch(const char *key, const char *v, const char *on, const char *off,
                        int *out, cli_error *error)
{
    if (!strcmp(v, on) || !strcmp(v, "1"))
        *out = 1;
    else if (!strcmp(v, off) || !strcmp(v, "0"))
        *out = 0;
    else
        return cli_fail(error, CLI_EXIT_USAGE, "%s=%s: expected %s or %s", key, v, on, off);
    return 0;
}

static int parse_drag(const char *v, int dim, double drag[2][3], cli_error *error)
{
    double x[6];
    int n = 0;
    const char *p = v;
    while (n < 6) {
        char *end;
        errno = 0;
        x[n] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(x[n]))
            return cli_fail(error, CLI_EXIT_USAGE, "drag=%s: not a list of numbers", v);
        n++;
        if (*end == '\0')
            break;
        if (*end != ',')
            return cli_fail(error, CLI_EXIT_USAGE, "drag=%s: not a list of numbers", v);
        p = end + 1;
    }
    if (n != 2 * dim)
        return cli_fail(error, CLI_EXIT_USAGE, "drag=%s: expected %d numbers (two %dD points)",
                        v, 2 * dim, dim);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++)
            drag[e][k] = k < dim ? x[e * dim + k] : 0.0;
    return 0;
}

static int set_viewer_key(viewer_mode mode, vkey k, const char *v, viewer_args *va,
                          driver_settings *ds, const char **drag_text, cli_error *error)
{
    const char *name = vkeys[k].name;
    double x = 0.0;
    int st = 0;
    switch (k) {
    case VK_WIDTH:
    case VK_HEIGHT:
        st = parse_number(name, v, 16, MAX_PIXELS, &x, error);
        if (!st && x != floor(x))
            st = cli_fail(error, CLI_EXIT_USAGE, "%s=%s: must be a whole number", name, v);
        if (!st)
            *(k == VK_WIDTH ? &va->width : &va->height) = (int)x;
        break;
    case VK_COLOR:
        if (!strcmp(v, "bands"))
            va->colour = COLOUR_BANDS;
        else if (!strcmp(v, "speed"))
            va->colour = COLOUR_SPEED;
        else if (!strcmp(v, "species"))
            va->colour = COLOUR_SPECIES;
        else
            st = cli_fail(error, CLI_EXIT_USAGE, "%s=%s: expected bands, speed or species", name,
                          v);
        break;
    case VK_TIME_SCALE:
        st = parse_number(name, v, 1e-6, 1e6, &va->time_scale, error);
        break;
    case VK_BIG:
        st = parse_switch(name, v, "on", "off", &ds->with_big, error);
        break;
    case VK_BIG_RADIUS:
        st = parse_number(name, v, 1e-12, 1e12, &ds->big_radius, error);
        break;
    case VK_BIG_MASS:
        st = parse_number(name, v, 1e-12, 1e300, &ds->big_mass, error);
        break;
    case VK_BIG_SPEED:
        st = parse_number(name, v, 1e-12, 1e12, &ds->big_speed, error);
        break;
    case VK_YAW:
    case VK_PITCH:
        st = parse_number(name, v, -360.0, 360.0, &x, error);
        if (!st)
            *(k == VK_YAW ? &va->yaw : &va->pitch) = x * 3.14159265358979323846 / 180.0;
        break;
    case VK_DUMP:
        va->dump = v;
        break;
    case VK_SCREENSHOT:
        va->screenshot = v;
        break;
    case VK_BUDGET:
        st = parse_number(name, v, 1.0, 100.0, &va->budget_ms, error);
        break;
    case VK_TARGET_FPS:
        st = parse_number(name, v, 1.0, 1000.0, &va->target_fps, error);
        break;
    case VK_MAX_FRAMES:
        st = parse_number(name, v, 0.0, 1e12, &x, error);
        va->max_frames = (long)x;
        break;
    case VK_PAUSED:
        st = parse_switch(name, v, "1", "0", &va->paused, error);
        break;
    case VK_FRAMES:
        st = parse_number(name, v, 1.0, 1e7, &x, error);
        va->frames = (long)x;
        break;
    case VK_OUT:
        va->out = v;
        break;
    case VK_INPUT:
        va->input = v;
#ifndef CAROM_HAVE_HDF5
        if (frames_name_is_h5md(v)) /* refused as run's init= and trajectory= are */
            st = cli_fail(error, CLI_EXIT_USAGE, "%s=%s: " FRAMES_WITHOUT_HDF5 ", so it reads no H5MD",
                          name, v);
#endif
        break;
    case VK_FPS:
        st = parse_number(name, v, 0.1, 1000.0, &va->fps, error);
        break;
    case VK_HUD:
        st = parse_switch(name, v, "on", "off", &va->hud, error);
        break;
    case VK_DRAG:
        *drag_text = v;
        break;
    default:
        break;
    }
    (void)mode;
    return st;
}

static vkey lookup_viewer_key(viewer_mode mode, const char *arg)
{
    int bit = mode == VIEWER_VIEW ? 1 : 2;
    size_t len = strcspn(arg, "=");
    for (int k = 0; k < VK_COUNT; k++)
        if ((vkeys[k].modes & bit) && strlen(vkeys[k].name) == len &&
            !strncmp(vkeys[k].name, arg, len))
            return (vkey)k;
    return VK_COUNT;
}

static void defaults(viewer_args *va, driver_settings *ds)
{
    memset(va, 0, sizeof *va);
    va->width = 800;
    va->height = 800;
    va->time_scale = 1.0;
    va->budget_ms = 100.0;
    va->target_fps = 75.0;
    va->frames = 60;
    va->fps = 30.0;
    va->hud = 1;
    va->colour = COLOUR_AUTO;
    va->yaw = NAN;
    va->pitch = NAN;
    memset(ds, 0, sizeof *ds);
    motion_init(&ds->orbits);
    ds->def = carom_world_default_def();
    ds->def.restitution_min_speed = -1.0; /* automatic, see driver.h */
    ds->with_big = 1;
}

/* With input=, the pictures come from the file: a key of `carom run`
 * would be silently ignored, so it is refused, except planes=, segments=,
 * segments_file=, triangles= and mesh= (to draw the run's), which are
 * kept for render to read. */
static int keep_input_keys(config *c, viewer_args *va, cli_error *error)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (k != KEY_PLANES && k != KEY_SEGMENTS && k != KEY_SEGMENTS_FILE &&
            k != KEY_TRIANGLES && k != KEY_MESH && k != KEY_MESH_SCALE && k != KEY_MESH_SHIFT &&
            config_is_set(c, (config_key)k))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: key '%s' does not apply with input= (the pictures come from "
                            "the file; of the keys of `carom run` only planes=, segments=, "
                            "segments_file=, triangles= and mesh= (mesh_scale=, mesh_shift=) "
                            "may be given)",
                            c->origin[k], config_key_name((config_key)k));
    if (!config_is_set(c, KEY_PLANES) && !config_is_set(c, KEY_SEGMENTS) &&
        !config_is_set(c, KEY_SEGMENTS_FILE) &&
        !config_is_set(c, KEY_TRIANGLES) && !config_is_set(c, KEY_MESH) &&
        !config_is_set(c, KEY_MESH_SCALE) && !config_is_set(c, KEY_MESH_SHIFT))
        return 0;
    va->input_keys = malloc(sizeof *va->input_keys);
    if (!va->input_keys)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    *va->input_keys = *c;
    config_init(c); /* the values belong to input_keys now */
    return 0;
}

void viewer_args_free(viewer_args *va)
{
    if (va->input_keys) {
        config_free(va->input_keys);
        free(va->input_keys);
        va->input_keys = NULL;
    }
}

static const config_key batch_only[] = {KEY_TIME, KEY_FINAL, KEY_TRAJECTORY,
                                        KEY_FRAME_INTERVAL, KEY_COLLISION_LOG};

int viewer_prepare(viewer_mode mode, int argc, char **argv, viewer_args *va,
                   carom_scene *scene, driver_settings *ds, cli_error *error)
{
    const char *command = mode == VIEWER_VIEW ? "view" : "render";
    defaults(va, ds);
    config c;
    config_init(&c);
    const char *config_file = NULL, *drag_text = NULL;
    int status = 0;
    for (int i = 0; i < argc && !status; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] != '\0') {
            status = cli_fail(error, CLI_EXIT_USAGE, "unknown option '%s' (see carom --help)", a);
        } else if (strchr(a, '=')) {
            vkey k = lookup_viewer_key(mode, a);
            if (k != VK_COUNT)
                status = set_viewer_key(mode, k, strchr(a, '=') + 1, va, ds, &drag_text, error);
        } else if (!config_file && config_key_lookup(a) == KEY_COUNT) {
            config_file = a;
        } else {
            status = cli_fail(error, CLI_EXIT_USAGE,
                              "argument '%s' is missing '=' (expected key=value)", a);
        }
    }
    if (!status && config_file)
        status = config_read_file(&c, config_file, error);
    for (int i = 0; i < argc && !status; i++)
        if (strchr(argv[i], '=') && argv[i][0] != '-' &&
            lookup_viewer_key(mode, argv[i]) == VK_COUNT)
            status = config_set_argument(&c, argv[i], error);
    for (size_t b = 0; b < sizeof batch_only / sizeof batch_only[0] && !status; b++)
        if (config_is_set(&c, batch_only[b]))
            status = cli_fail(error, CLI_EXIT_USAGE, "%s: key '%s' is for `carom run`, not `carom %s`",
                              c.origin[batch_only[b]], config_key_name(batch_only[b]), command);
    if (!status && mode == VIEWER_RENDER && !va->out)
        status = cli_fail(error, CLI_EXIT_USAGE,
                          "carom render needs out=DIR (PNG frames) or out=FILE.mp4");
    if (status || va->input) {
        if (!status && drag_text)
            status = cli_fail(error, CLI_EXIT_USAGE, "drag= needs a simulation, not input=");
        if (!status)
            status = keep_input_keys(&c, va, error);
        config_free(&c);
        return status;
    }
    if (!config_file && !config_is_set(&c, KEY_SCENARIO) && !config_is_set(&c, KEY_DIM) &&
        !config_is_set(&c, KEY_INIT))
        status = config_apply_default(&c, KEY_SCENARIO, "seed004", "default scene", error);
    run_options o;
    memset(&o, 0, sizeof o);
    if (!status)
        status = setup_read_init(&c, scene, error);
    if (!status)
        status = options_apply_scenario(&c, error);
    if (!status)
        status = options_from_config(&c, &o, error);
    if (!status && o.shear != 0.0 && drag_text)
        status = cli_fail(error, CLI_EXIT_USAGE,
                          "%s: shear= leaves the large sphere out (drag= moves it)",
                          c.origin[KEY_SHEAR]);
    ds->shear = o.shear;
    if (!status && drag_text && !ds->with_big)
        status = cli_fail(error, CLI_EXIT_USAGE, "drag= moves the large sphere, which is off");
    /* Orbits give the scene (their states at t = 0) and their motion. */
    if (!status && o.motion == MOTION_ORBITS)
        status = motion_read_orbits(&o, &ds->orbits, scene, error);
    else if (!status)
        status = setup_scene(&o, scene, error);
    if (!status) {
        for (int k = 0; k < 3; k++)
            ds->def.gravity[k] = o.gravity[k];
        ds->def.restitution = o.restitution;
        ds->def.wall_restitution = o.wall_restitution;
        ds->def.tangential_restitution = o.tangential_restitution;
        ds->def.wall_tangential_restitution = o.wall_tangential_restitution;
        ds->def.inertia_factor = o.inertia_factor;
        ds->def.friction = o.friction;
        ds->def.wall_friction = o.wall_friction;
        ds->def.response = o.response;
        /* Unless the scene or the user sets it, the driver picks a value
         * that keeps inelastic stacks from collapsing (see driver.c). */
        if (config_is_set(&c, KEY_RESTITUTION_MIN_SPEED))
            ds->def.restitution_min_speed = o.restitution_min_speed;
        ds->time_scale = va->time_scale;
        ds->nplanes = o.nplanes;
        memcpy(ds->plane, o.plane, sizeof ds->plane);
        ds->nsegments = o.nsegments; /* taken over as the triangles */
        ds->segment = o.segment;
        o.segment = NULL;
        o.nsegments = 0;
        ds->ntriangles = o.ntriangles; /* taken over (driver_create takes them on) */
        ds->triangle = o.triangle;
        o.triangle = NULL;
        o.ntriangles = 0;
        ds->pass_through = o.pass_through;
        ds->sense = o.sense;
        ds->pair_restitution = o.pair_restitution;
        ds->species_wall_restitution = o.species_wall_restitution;
        ds->pair_friction = o.pair_friction;
        ds->species_wall_friction = o.species_wall_friction;
        ds->driven = o.motion != MOTION_BALLISTIC;
        ds->motion_options = o; /* (without the triangles and segments: the motion
                                   needs none) */
        if (drag_text)
            status = parse_drag(drag_text, scene->dim, va->drag, error);
        va->has_drag = drag_text != NULL;
    }
    if (status) {
        motion_free(&ds->orbits);
        free(ds->triangle);
        ds->triangle = NULL;
        ds->ntriangles = 0;
        free(ds->segment);
        ds->segment = NULL;
        ds->nsegments = 0;
    }
    options_free(&o);
    config_free(&c);
    return status;
}
