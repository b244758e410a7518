/* Trajectory frames; contract in frames.h. */
#include "frames.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CAROM_HAVE_HDF5
#include "h5md_in.h"
#include "h5md_out.h"
#endif

struct frames {
    const char *path;
    carom_scene like; /* dimension, box, boundaries; no spheres */
    FILE *xyz;
#ifdef CAROM_HAVE_HDF5
    h5md_out *h5md;
#endif
};

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && strcmp(s + n - m, end) == 0;
}

int frames_name_is_h5md(const char *path)
{
    return ends_with(path, ".h5") || ends_with(path, ".h5md");
}

int frames_format_available(const char *path, const char *origin, cli_error *error)
{
#ifndef CAROM_HAVE_HDF5
    if (frames_name_is_h5md(path))
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s: trajectory '%s': " FRAMES_WITHOUT_HDF5 ", so it writes no H5MD; "
                        "name the file otherwise for extended XYZ",
                        origin, path);
#else
    (void)path;
    (void)origin;
    (void)error;
#endif
    return 0;
}

int frames_read_init(const char *path, carom_scene *scene, cli_error *error)
{
    if (frames_name_is_h5md(path)) {
#ifdef CAROM_HAVE_HDF5
        char message[CAROM_ERROR_MESSAGE_SIZE];
        if (h5md_in_last_scene(path, scene, message, sizeof message) < 0)
            return cli_fail(error, CLI_EXIT_USAGE, "%s", message);
        return 0;
#else
        return cli_fail(error, CLI_EXIT_USAGE, "%s: " FRAMES_WITHOUT_HDF5 ", so it reads no H5MD",
                        path);
#endif
    }
    carom_error e;
    if (carom_xyz_read(path, scene, &e) != CAROM_OK)
        return cli_fail(error, CLI_EXIT_USAGE, "%s", e.message);
    return 0;
}

int frames_restore_images(const char *path, carom_world *w, cli_error *error)
{
    if (!frames_name_is_h5md(path) || !carom_world_get_def(w)->count_images)
        return 0;
#ifdef CAROM_HAVE_HDF5
    size_t n = carom_world_sphere_capacity(w);
    int64_t(*image)[3] = malloc((n ? n : 1) * sizeof *image);
    if (!image)
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
    char message[CAROM_ERROR_MESSAGE_SIZE];
    int found = h5md_in_last_images(path, n, image, message, sizeof message);
    int status = found < 0 ? cli_fail(error, CLI_EXIT_USAGE, "%s", message) : 0;
    const carom_world_def *def = carom_world_get_def(w);
    for (carom_sphere_id id = 0; found > 0 && !status && id < n; id++) {
        for (int k = 0; k < 3; k++) /* axes made walls by boundary= keep no image */
            if (k >= def->dim || def->boundary[k] != CAROM_BOUNDARY_PERIODIC)
                image[id][k] = 0;
        if (carom_world_set_image(w, id, image[id]) != CAROM_OK)
            status = cli_fail(error, CLI_EXIT_USAGE, "%s: %s", path, carom_world_error_message(w));
    }
    free(image);
    return status;
#else
    (void)error;
    return 0;
#endif
}

int frames_world_is_rough(const carom_world *w)
{
    return carom_world_is_rough(w);
}

/* The world's spheres now, with like's dimension, box and boundaries, and
 * their spins when some sphere has one or the world is rough (so that
 * every frame of a rough run has them, zero or not). */
static int scene_now(const carom_scene *like, const carom_world *w, carom_scene *s,
                     const char *path, cli_error *error)
{
    carom_scene_init(s);
    s->dim = like->dim;
    for (int d = 0; d < 3; d++) {
        s->box[d] = like->box[d];
        s->boundary[d] = like->boundary[d];
    }
    carom_error e;
    if (carom_scene_from_world(s, w, &e) != CAROM_OK ||
        (frames_world_is_rough(w) && carom_scene_add_spins(s, &e) != CAROM_OK))
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s", path, e.message);
    return 0;
}

#ifdef CAROM_HAVE_HDF5
/* The images of the world's n spheres, in the rows of scene_now, when
 * the world counts them and some axis is periodic (*out NULL otherwise). */
static int images_now(const carom_scene *like, const carom_world *w, size_t n, int64_t (**out)[3],
                      const char *path, cli_error *error)
{
    *out = NULL;
    int periodic = 0;
    for (int d = 0; d < like->dim; d++)
        periodic |= like->boundary[d] == CAROM_BOUNDARY_PERIODIC;
    if (!periodic || !carom_world_get_def(w)->count_images)
        return 0;
    int64_t(*image)[3] = malloc((n ? n : 1) * sizeof *image);
    if (!image)
        return cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
    size_t row = 0;
    for (carom_sphere_id id = 0; id < carom_world_sphere_capacity(w) && row < n; id++)
        if (carom_world_get_image(w, id, image[row]) == CAROM_OK)
            row++;
    *out = image;
    return 0;
}
#endif

int write_xyz_state(const carom_scene *like, const carom_world *w, FILE *f, const char *path,
                    cli_error *error)
{
    carom_scene s;
    int status = scene_now(like, w, &s, path, error);
    carom_error e;
    if (!status && carom_xyz_write(f, &s, carom_world_time(w), &e) != CAROM_OK)
        status = cli_fail(error, CLI_EXIT_RUNTIME, "%s: %s", path, e.message);
    carom_scene_free(&s);
    return status;
}

frames *frames_open(const char *path, const carom_scene *like, int sheared, cli_error *error)
{
    frames *f = calloc(1, sizeof *f);
    if (!f) {
        cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
        return NULL;
    }
    f->path = path;
    carom_scene_init(&f->like);
    f->like.dim = like->dim;
    for (int d = 0; d < 3; d++) {
        f->like.box[d] = like->box[d];
        f->like.boundary[d] = like->boundary[d];
    }
#ifdef CAROM_HAVE_HDF5
    if (frames_name_is_h5md(path)) {
        f->h5md = h5md_open(path, like, sheared, error);
        if (!f->h5md) {
            free(f);
            return NULL;
        }
        return f;
    }
#endif
    (void)sheared; /* XYZ frames tilt their Lattice by the offset whenever it is not 0 */
    f->xyz = fopen(path, "w");
    if (!f->xyz) {
        cli_fail(error, CLI_EXIT_RUNTIME, "cannot write '%s': %s", path, strerror(errno));
        free(f);
        return NULL;
    }
    return f;
}

int frames_write(frames *f, const carom_world *w, cli_error *error)
{
#ifdef CAROM_HAVE_HDF5
    if (f->h5md) {
        carom_scene s;
        int64_t(*image)[3] = NULL;
        int status = scene_now(&f->like, w, &s, f->path, error);
        if (!status)
            status = images_now(&f->like, w, s.n, &image, f->path, error);
        if (!status)
            status = h5md_write(f->h5md, &s, (const int64_t(*)[3])image, carom_world_time(w),
                                carom_world_kinetic_energy(w), error);
        free(image);
        carom_scene_free(&s);
        return status;
    }
#endif
    return write_xyz_state(&f->like, w, f->xyz, f->path, error);
}

int frames_close(frames *f, int status, cli_error *error)
{
    if (!f)
        return status;
    int closing = 0;
#ifdef CAROM_HAVE_HDF5
    if (f->h5md)
        closing = h5md_close(f->h5md, status ? NULL : error);
#endif
    if (f->xyz) {
        int bad = ferror(f->xyz);
        bad |= fclose(f->xyz) != 0;
        if (bad && !status)
            closing = cli_fail(error, CLI_EXIT_RUNTIME, "error writing '%s'", f->path);
    }
    free(f);
    return status ? status : closing;
}
