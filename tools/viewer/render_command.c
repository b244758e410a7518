/* `carom render`: the viewer's pictures with no display. Frames come from
 * a simulation (the same driver as `carom view`, advanced by exactly
 * time_scale/fps per frame with no time budget, the large sphere moved
 * along drag= if given) or from a trajectory file (input=). They are drawn
 * by the software renderer and written as PNG files or an MP4 video. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "frame.h"
#include "options.h"
#include "raster.h"
#include "segments_file.h"
#include "soft_scene.h"
#include "traj_reader.h"
#include "video_out.h"
#include "viewer.h"
#include "viewer_args.h"

static void print_render_help(void)
{
    printf("usage: carom render [CONFIG_FILE] [key=value ...] frames=K out=DIR|FILE.mp4\n"
           "\n"
           "Draws the pictures of `carom view` with no display: the scene that\n"
           "`carom run` would build from the same CONFIG_FILE and keys (default\n"
           "scenario=seed004), or the frames of a trajectory file (input=FILE, as\n"
           "written by `carom run trajectory=FILE`). out=DIR writes DIR/frame_00000.png,\n"
           "...; out=FILE.mp4 pipes the frames to ffmpeg.\n"
           "\n"
           "viewer keys (command line only):\n");
    viewer_print_keys(stdout, VIEWER_RENDER);
}

typedef struct render_job {
    viewer_args va;
    camera cam;
    raster r;
    video_out out;
    view_frame frame;
    double (*triangle)[9]; /* input=: triangles= and mesh='s, which frame.triangle shows */
    double (*segment)[4];  /* input=: segments= and segments_file='s (frame.segment) */
    char err[1200];
    int exit_code; /* of a failure described in err */
} render_job;

static int emit(render_job *j, const char *hud)
{
    camera_setup(&j->cam, j->r.width, j->r.height);
    soft_scene_draw(&j->r, &j->cam, &j->frame, j->va.hud ? hud : NULL);
    return video_write(&j->out, j->r.rgb, j->err, sizeof j->err);
}

static void set_camera(render_job *j, int dim, const double box[3])
{
    camera_init(&j->cam, dim, box);
    if (!isnan(j->va.yaw))
        j->cam.yaw = j->va.yaw;
    if (!isnan(j->va.pitch))
        j->cam.pitch = j->va.pitch;
}

static int render_simulation(render_job *j, driver *d)
{
    set_camera(j, d->initial.dim, d->initial.box);
    double dt = 1.0 / j->va.fps;
    for (long k = 0; k < j->va.frames; k++) {
        if (k > 0) {
            if (j->va.has_drag) {
                double f = j->va.frames > 1 ? (double)k / (double)(j->va.frames - 1) : 1.0, p[3];
                for (int c = 0; c < 3; c++)
                    p[c] = j->va.drag[0][c] + f * (j->va.drag[1][c] - j->va.drag[0][c]);
                driver_drag_to(d, p);
            }
            if (driver_frame(d, dt, INFINITY, 0)) {
                snprintf(j->err, sizeof j->err, "%s", d->error);
                return 1;
            }
        }
        if (driver_fill_frame(d, &j->frame, j->va.colour)) {
            snprintf(j->err, sizeof j->err, "%s", d->error);
            return 1;
        }
        char hud[160];
        snprintf(hud, sizeof hud, "t %.2f  collisions %llu  coll/frame %llu", driver_time(d),
                 (unsigned long long)driver_collisions(d),
                 (unsigned long long)d->collisions_last_frame);
        if (emit(j, hud))
            return 1;
    }
    return 0;
}

/* input= with triangles= or mesh=: the run's triangles, drawn in every
 * frame (the mesh placed in the first frame's box). */
static int input_triangles(render_job *j, cli_error *e)
{
    double given[RUN_TRIANGLES_MAX][9];
    int n_given;
    const char *mesh;
    double scale, shift[3];
    if (options_triangles(j->va.input_keys, j->frame.dim, given, &n_given, e) ||
        options_mesh(j->va.input_keys, j->frame.dim, &mesh, &scale, shift, e))
        return e->exit_code;
    double(*mesh_triangle)[9] = NULL;
    size_t n_mesh = 0;
    mesh_stats stats;
    if (mesh && mesh_load(mesh, scale, shift, j->frame.box, &mesh_triangle, &n_mesh, &stats, e))
        return e->exit_code;
    size_t total = (size_t)n_given + n_mesh;
    if (total > 0x7fffffff) {
        free(mesh_triangle);
        return cli_fail(e, CLI_EXIT_USAGE, "mesh %s: too many triangles", mesh);
    }
    j->triangle = malloc((total ? total : 1) * sizeof *j->triangle);
    if (!j->triangle) {
        free(mesh_triangle);
        return cli_fail(e, CLI_EXIT_RUNTIME, "out of memory");
    }
    memcpy(j->triangle, given, (size_t)n_given * sizeof *j->triangle);
    if (n_mesh)
        memcpy(j->triangle + n_given, mesh_triangle, n_mesh * sizeof *j->triangle);
    free(mesh_triangle);
    j->frame.triangle = (const double(*)[9])j->triangle;
    j->frame.ntriangles = (int)total;
    return 0;
}

/* input= with segments= or segments_file=: the run's segments, drawn in
 * every frame (the file's checked against the first frame's box). */
static int input_segments(render_job *j, cli_error *e)
{
    double given[RUN_SEGMENTS_MAX][4];
    int n_given;
    const char *path;
    if (options_segments(j->va.input_keys, j->frame.dim, given, &n_given, e) ||
        options_segments_file(j->va.input_keys, j->frame.dim, &path, e) ||
        segments_gather((const double(*)[4])given, n_given, path, j->frame.box, &j->segment,
                        &j->frame.nsegments, e))
        return e->exit_code;
    j->frame.segment = (const double(*)[4])j->segment;
    return 0;
}

/* The spokes' angles of a trajectory frame (2D with spins): 0 in the
 * first frame, then turned by each sphere's spin about z in this frame
 * times the time since the last one, as the driver turns them each frame
 * (exact but for spheres that had a contact in between; for display
 * only). Rows beyond the last frame's count start at 0. */
static void turn_spokes(view_frame *f, long k, double last_time, size_t last_n)
{
    double dt = k > 0 ? f->time - last_time : 0.0;
    for (size_t i = 0; i < f->n; i++) {
        double a = k > 0 && i < last_n ? f->angle[i] : 0.0;
        f->angle[i] = fmod(a + f->spin[i] * dt, 6.283185307179586);
    }
}

static int render_trajectory(render_job *j)
{
    traj_reader tr;
    if (traj_open(&tr, j->va.input, j->err, sizeof j->err))
        return 1;
    unsigned char(*bands)[3] = NULL;
    size_t n_bands = 0, last_n = 0;
    double last_time = 0.0;
    int status = 0, with_species = 0;
    for (long k = 0; k < j->va.frames && !status; k++) {
        int got = traj_next(&tr, &j->frame, j->err, sizeof j->err);
        if (got < 0) {
            status = 1;
            break;
        }
        if (got == 0) {
            if (k == 0) {
                snprintf(j->err, sizeof j->err, "%s: no frame in the file", j->va.input);
                status = 1;
            }
            break;
        }
        if (k == 0 && j->va.input_keys) {
            cli_error e;
            if (options_planes(j->va.input_keys, j->frame.dim, j->frame.plane, &j->frame.nplanes,
                               &e) ||
                input_segments(j, &e) ||
                input_triangles(j, &e)) {
                snprintf(j->err, sizeof j->err, "%s (%s is %dD)", e.message, j->va.input,
                         j->frame.dim);
                j->exit_code = e.exit_code;
                status = 1;
                break;
            }
        }
        if (k == 0) {
            set_camera(j, j->frame.dim, j->frame.box);
            n_bands = j->frame.n;
            bands = malloc((n_bands ? n_bands : 1) * sizeof *bands);
            if (!bands) {
                snprintf(j->err, sizeof j->err, "out of memory");
                status = 1;
                break;
            }
            palette_bands((const double(*)[3])j->frame.pos, n_bands, j->frame.dim, j->frame.box,
                          bands);
        }
        turn_spokes(&j->frame, k, last_time, last_n);
        last_time = j->frame.time;
        last_n = j->frame.n;
        /* Once a frame has species, the frames after it are coloured by
         * them too (a file's species are fixed in time). */
        with_species |= j->frame.has_species;
        j->frame.has_species = with_species;
        palette_paint(&j->frame, j->va.colour, (const unsigned char(*)[3])bands, n_bands);
        char hud[160];
        snprintf(hud, sizeof hud, "t %.2f  frame %ld", j->frame.time, k);
        status = emit(j, hud);
    }
    free(bands);
    traj_close(&tr);
    return status;
}

int render_command(int argc, char **argv, cli_error *error)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_render_help();
            return 0;
        }
    render_job *j = calloc(1, sizeof *j);
    if (!j)
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    carom_scene scene;
    carom_scene_init(&scene);
    driver_settings ds;
    int status = viewer_prepare(VIEWER_RENDER, argc, argv, &j->va, &scene, &ds, error);
    frame_init(&j->frame);
    driver d;
    int have_driver = 0;
    if (!status && !j->va.input) {
        have_driver = 1;
        if (driver_create(&d, &scene, &ds))
            status = cli_fail(error, CLI_EXIT_RUNTIME, "%s", d.error);
    }
    carom_scene_free(&scene);
    if (!status && video_is_mp4(j->va.out)) {
        j->va.width &= ~1; /* the video encoder wants even sizes */
        j->va.height &= ~1;
    }
    if (!status && raster_init(&j->r, j->va.width, j->va.height))
        status = cli_fail(error, CLI_EXIT_RUNTIME, "out of memory for a %dx%d picture",
                          j->va.width, j->va.height);
    int opened = 0;
    if (!status) {
        if (video_open(&j->out, j->va.out, j->va.width, j->va.height, j->va.fps, j->err,
                       sizeof j->err))
            status = cli_fail(error, CLI_EXIT_USAGE, "%s", j->err);
        else
            opened = 1;
    }
    if (!status) {
        int st = j->va.input ? render_trajectory(j) : render_simulation(j, &d);
        if (st)
            status = cli_fail(error, j->exit_code ? j->exit_code : CLI_EXIT_RUNTIME, "%s", j->err);
    }
    if (!status && have_driver && j->va.dump && driver_dump(&d, j->va.dump))
        status = cli_fail(error, CLI_EXIT_RUNTIME, "dump: %s", d.error);
    if (opened && video_close(&j->out, j->err, sizeof j->err) && !status)
        status = cli_fail(error, CLI_EXIT_RUNTIME, "%s", j->err);
    if (!status)
        printf("wrote %ld frames (%dx%d) to %s\n", j->out.count, j->va.width, j->va.height,
               j->va.out);
    if (have_driver)
        driver_free(&d);
    frame_free(&j->frame);
    free(j->triangle);
    free(j->segment);
    raster_free(&j->r);
    viewer_args_free(&j->va);
    free(j);
    return status;
}
