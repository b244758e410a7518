/* `carom view`: the interactive window (SDL2 + OpenGL). Each frame: apply
 * input, advance the simulation under the frame's physics budget (so a
 * frame never blocks for long and no collision is ever skipped), draw,
 * show the heads-up line. On exit: optional screenshot and state dump,
 * then one summary line on stdout. */
#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "frame.h"
#include "gl_scene.h"
#include "png_out.h"
#include "view_input.h"
#include "viewer.h"
#include "viewer_args.h"

#define FPS_CAP 240.0
#define MAX_REAL_DT 0.1

static void print_view_help(void)
{
    printf("usage: carom view [CONFIG_FILE] [key=value ...]\n"
           "\n"
           "Opens a window showing the simulation of the scene that `carom run` would\n"
           "build from the same CONFIG_FILE and keys (see carom --help), with a large\n"
           "grey sphere you drag with the mouse. With no CONFIG_FILE and none of\n"
           "scenario=, dim=, init= it shows scenario=seed004.\n"
           "\n"
           "mouse and keys:\n%s"
           "\n"
           "viewer keys (command line only):\n",
           view_keys_help);
    viewer_print_keys(stdout, VIEWER_VIEW);
    printf("\nOn exit it prints `frames N, mean X fps, collisions M` on stdout.\n");
}

static double seconds(void)
{
    return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

/* Frames/s and collisions/s over the last half second or so. */
typedef struct rate_meter {
    double start;
    long frames;
    unsigned long long collisions;
    double sim_start;
    double fps, cps, sim_rate;
} rate_meter;

static void meter_update(rate_meter *m, double now, unsigned long long collisions, double sim)
{
    m->frames++;
    double dt = now - m->start;
    if (dt >= 0.5) {
        m->fps = m->frames / dt;
        m->cps = (double)(collisions - m->collisions) / dt;
        m->sim_rate = (sim - m->sim_start) / dt;
        m->start = now;
        m->frames = 0;
        m->collisions = collisions;
        m->sim_start = sim;
    }
}

static void format_count(char *buf, size_t size, double x)
{
    if (x >= 1e6)
        snprintf(buf, size, "%.2fM", x / 1e6);
    else if (x >= 1e4)
        snprintf(buf, size, "%.1fk", x / 1e3);
    else
        snprintf(buf, size, "%.0f", x);
}

static void format_hud(char *buf, size_t size, const driver *d, const rate_meter *m)
{
    char last[32], rate[32];
    format_count(last, sizeof last, (double)d->collisions_last_frame);
    format_count(rate, sizeof rate, m->cps);
    int n = snprintf(buf, size, "fps %.0f  t %.2f  coll/frame %s  coll/s %s  x%g", m->fps,
                     driver_time(d), last, rate, d->time_scale);
    if (n < 0 || (size_t)n >= size)
        return;
    if (d->paused)
        snprintf(buf + n, size - (size_t)n, "  PAUSED");
    else if (d->behind)
        snprintf(buf + n, size - (size_t)n, "  BEHIND: sim %.2fx real time", m->sim_rate);
    if (!d->gravity_enabled && strlen(buf) + 12 < size)
        strcat(buf, "  gravity off");
}

typedef struct view_app {
    SDL_Window *window;
    SDL_GLContext context;
    gl_scene *gl;
    driver d;
    int have_driver;
    view_frame frame;
} view_app;

static void app_close(view_app *a)
{
    frame_free(&a->frame);
    if (a->have_driver)
        driver_free(&a->d);
    if (a->gl)
        gl_scene_free(a->gl);
    if (a->context)
        SDL_GL_DeleteContext(a->context);
    if (a->window)
        SDL_DestroyWindow(a->window);
    SDL_Quit();
}

static int open_window(view_app *a, const viewer_args *va, cli_error *error)
{
    /* With no display SDL would fall back to an invisible off-screen
     * window that nobody can close: refuse, unless SDL_VIDEODRIVER asks
     * for a driver explicitly. */
    const char *chosen = getenv("SDL_VIDEODRIVER");
    const char *no_display = "no display (DISPLAY is not set); `carom render` draws the same "
                             "pictures without one";
    if (!chosen && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
        return cli_fail(error, CLI_EXIT_RUNTIME, "cannot open a window: %s", no_display);
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return cli_fail(error, CLI_EXIT_RUNTIME, "cannot open a window (is there a display?): %s",
                        SDL_GetError());
    const char *driver_name = SDL_GetCurrentVideoDriver();
    if (!chosen && driver_name &&
        (!strcmp(driver_name, "offscreen") || !strcmp(driver_name, "dummy")))
        return cli_fail(error, CLI_EXIT_RUNTIME,
                        "cannot open a window: SDL could not connect to the display %s (it "
                        "fell back to its %s driver); `carom render` draws the same pictures "
                        "without one",
                        getenv("DISPLAY") ? getenv("DISPLAY") : getenv("WAYLAND_DISPLAY"),
                        driver_name);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 1);
    a->window = SDL_CreateWindow("carom view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 va->width, va->height,
                                 SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE |
                                     SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->window)
        return cli_fail(error, CLI_EXIT_RUNTIME, "cannot open a window: %s", SDL_GetError());
    a->context = SDL_GL_CreateContext(a->window);
    if (!a->context)
        return cli_fail(error, CLI_EXIT_RUNTIME, "cannot create an OpenGL context: %s",
                        SDL_GetError());
    SDL_GL_SetSwapInterval(0);
    char err[512];
    a->gl = gl_scene_create(SDL_GL_GetProcAddress, err, sizeof err);
    if (!a->gl)
        return cli_fail(error, CLI_EXIT_RUNTIME, "OpenGL: %s", err);
    return 0;
}

static int draw(view_app *a, camera *cam, view_state *vs, const char *hud)
{
    int w, h, ww, wh;
    SDL_GL_GetDrawableSize(a->window, &w, &h);
    SDL_GetWindowSize(a->window, &ww, &wh);
    vs->pixel_ratio[0] = ww > 0 ? (double)w / ww : 1.0;
    vs->pixel_ratio[1] = wh > 0 ? (double)h / wh : 1.0;
    camera_setup(cam, w, h);
    if (driver_fill_frame(&a->d, &a->frame, vs->colour))
        return 1;
    gl_scene_draw(a->gl, cam, &a->frame);
    gl_scene_hud(a->gl, hud, w, h);
    return 0;
}

static int save_screenshot(view_app *a, const char *path, cli_error *error)
{
    int w, h;
    SDL_GL_GetDrawableSize(a->window, &w, &h);
    unsigned char *rgb = malloc((size_t)w * (size_t)h * 3);
    if (!rgb)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for the screenshot");
    gl_scene_read_pixels(w, h, rgb);
    char err[600];
    int st = png_write_rgb(path, rgb, w, h, err, sizeof err);
    free(rgb);
    return st ? cli_fail(error, CLI_EXIT_RUNTIME, "screenshot: %s", err) : 0;
}

static int run_loop(view_app *a, const viewer_args *va, cli_error *error, long *frames_out,
                    double *seconds_out)
{
    camera cam;
    camera_init(&cam, a->d.initial.dim, a->d.initial.box);
    if (!isnan(va->yaw))
        cam.yaw = va->yaw;
    if (!isnan(va->pitch))
        cam.pitch = va->pitch;
    view_state vs;
    memset(&vs, 0, sizeof vs);
    vs.colour = va->colour;
    vs.pixel_ratio[0] = vs.pixel_ratio[1] = 1.0;
    a->d.paused = va->paused;
    rate_meter meter;
    memset(&meter, 0, sizeof meter);
    double start = seconds(), last = start;
    meter.start = start;
    long frames = 0;
    double other_seconds = 0.005; /* running estimate of a frame's time besides physics */
    char hud[256] = "";
    int quit = 0;
    while (!quit) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            quit |= view_input_handle(&e, &a->d, &cam, &vs);
        if (vs.error)
            return cli_fail(error, CLI_EXIT_RUNTIME, "%s", a->d.error);
        if (vs.dump_request && va->dump && driver_dump(&a->d, va->dump))
            return cli_fail(error, CLI_EXIT_RUNTIME, "dump: %s", a->d.error);
        vs.dump_request = 0;
        double now = seconds();
        /* A long stall (window dragged, machine busy) is not made up for. */
        double real_dt = fmin(now - last, MAX_REAL_DT);
        last = now;
        /* Physics gets what is left of the frame period after drawing
         * (at least 2 ms, at most budget_ms, never over 100 ms). */
        double budget = 1.0 / va->target_fps - other_seconds;
        budget = fmin(fmax(budget, 0.002), va->budget_ms * 1e-3);
        double physics_start = seconds();
        if (driver_frame(&a->d, real_dt, budget, vs.step_request))
            return cli_fail(error, CLI_EXIT_RUNTIME, "%s", a->d.error);
        double physics = seconds() - physics_start;
        vs.step_request = 0;
        if (vs.auto_orbit && cam.dim == 3)
            camera_orbit(&cam, -60.0 * real_dt, 0.0);
        meter_update(&meter, now, driver_collisions(&a->d), driver_time(&a->d));
        format_hud(hud, sizeof hud, &a->d, &meter);
        if (draw(a, &cam, &vs, hud))
            return cli_fail(error, CLI_EXIT_RUNTIME, "%s", a->d.error);
        frames++;
        if (va->max_frames > 0 && frames >= va->max_frames)
            quit = 1;
        if (quit && va->screenshot) {
            /* The back buffer still holds this frame until the swap. */
            int st = save_screenshot(a, va->screenshot, error);
            if (st)
                return st;
        }
        SDL_GL_SwapWindow(a->window);
        double spent = seconds() - now;
        other_seconds = 0.9 * other_seconds + 0.1 * fmax(spent - physics, 0.0);
        if (spent < 1.0 / FPS_CAP)
            SDL_Delay((Uint32)((1.0 / FPS_CAP - spent) * 1000.0));
    }
    *frames_out = frames;
    *seconds_out = seconds() - start;
    return 0;
}

int view_command(int argc, char **argv, cli_error *error)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_view_help();
            return 0;
        }
    viewer_args va;
    driver_settings ds;
    carom_scene scene;
    carom_scene_init(&scene);
    int status = viewer_prepare(VIEWER_VIEW, argc, argv, &va, &scene, &ds, error);
    view_app a;
    memset(&a, 0, sizeof a);
    frame_init(&a.frame);
    if (!status) {
        if (driver_create(&a.d, &scene, &ds))
            status = cli_fail(error, CLI_EXIT_RUNTIME, "%s", a.d.error);
        a.have_driver = 1;
    }
    carom_scene_free(&scene);
    if (!status)
        status = open_window(&a, &va, error);
    long frames = 0;
    double wall = 0.0;
    if (!status)
        status = run_loop(&a, &va, error, &frames, &wall);
    if (!status && va.dump && driver_dump(&a.d, va.dump))
        status = cli_fail(error, CLI_EXIT_RUNTIME, "dump: %s", a.d.error);
    unsigned long long collisions = a.have_driver && a.d.world ? driver_collisions(&a.d) : 0;
    app_close(&a);
    viewer_args_free(&va);
    if (status)
        return status;
    printf("frames %ld, mean %.1f fps, collisions %llu\n", frames,
           wall > 0.0 ? (double)frames / wall : 0.0, collisions);
    fflush(stdout);
    return 0;
}
