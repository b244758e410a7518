/* The H5MD trajectory reader (see h5md_in.h). */
#include "h5md_in.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Boundaries from /particles/all/box's boundary attribute: 1 for
 * "periodic" per axis; -1 when it cannot be read. */
static int read_boundaries(hid_t file, int dim, int periodic[3])
{
    hid_t attribute =
        H5Aopen_by_name(file, "particles/all/box", "boundary", H5P_DEFAULT, H5P_DEFAULT);
    if (attribute < 0)
        return -1;
    hid_t stored = H5Aget_type(attribute);
    hid_t space = H5Aget_space(attribute);
    hssize_t count = H5Sget_simple_extent_npoints(space);
    int ok = stored >= 0 && H5Tget_class(stored) == H5T_STRING && !H5Tis_variable_str(stored) &&
             count == dim;
    size_t size = ok ? H5Tget_size(stored) : 0;
    char *text = ok ? calloc((size_t)dim, size + 1) : NULL;
    ok = text != NULL && H5Aread(attribute, stored, text) >= 0;
    for (int k = 0; ok && k < dim; k++)
        periodic[k] = strncmp(text + (size_t)k * size, "periodic", size) == 0;
    free(text);
    H5Sclose(space);
    if (stored >= 0)
        H5Tclose(stored);
    H5Aclose(attribute);
    return ok ? 0 : -1;
}

struct h5md_in {
    char path[512];
    hid_t file, position, velocity; /* velocity < 0 when absent */
    hid_t spin;                     /* [frames][n][3]; < 0 when absent */
    int dim;
    size_t n;
    hsize_t frames, next;
    double box[3];
    double tilt;    /* the last frame's edges[1][0] (a sheared box), else 0 */
    double *times;  /* [frames] */
    double *radius; /* [n], or NULL: 0.5 */
    double *buffer; /* a frame's [n][dim] */
    double *spins;  /* a frame's [n][3], when there are spins */
};

static h5md_in *fail(h5md_in *h, char *err, size_t err_size, const char *what)
{
    snprintf(err, err_size, "%s: %s", h->path, what);
    h5md_in_close(h);
    return NULL;
}

/* Dimensions of a dataset of the given rank, or 0 when it is not one. */
static int shape(hid_t set, int rank, hsize_t *dims)
{
    hid_t space = H5Dget_space(set);
    int ok = space >= 0 && H5Sget_simple_extent_ndims(space) == rank &&
             H5Sget_simple_extent_dims(space, dims, NULL) == rank;
    if (space >= 0)
        H5Sclose(space);
    return ok;
}

static int read_all(hid_t file, const char *name, hsize_t count, double **out)
{
    hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
    hsize_t dims[1];
    int ok = set >= 0 && shape(set, 1, dims) && dims[0] == count;
    if (ok) {
        *out = malloc((count ? count : 1) * sizeof **out);
        ok = *out && H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) >= 0;
    }
    if (set >= 0)
        H5Dclose(set);
    return ok;
}

/* Whether the time series edges ([frames][dim][dim], frames the
 * positions') is a sheared box: the same diagonal in every frame, each
 * entry a number, and nothing off the diagonal but the second row's x
 * (the tilt). Takes the diagonal and the last frame's tilt into h. */
static int sheared_edges(h5md_in *h, const double *edges)
{
    size_t dim = (size_t)h->dim, per_frame = dim * dim;
    for (hsize_t f = 0; f < h->frames; f++)
        for (size_t a = 0; a < dim; a++)
            for (size_t b = 0; b < dim; b++) {
                double value = edges[f * per_frame + a * dim + b];
                double want = a == b ? edges[a * dim + b] : 0.0;
                if (!isfinite(value) || (value != want && !(a == 1 && b == 0)))
                    return 0;
            }
    for (size_t k = 0; k < dim; k++)
        h->box[k] = edges[k * dim + k];
    h->tilt = edges[(h->frames - 1) * per_frame + dim];
    return 1;
}

/* /particles/all/box/edges: a fixed [dim], or a time series (a group with
 * value) of sheared boxes (sheared_edges). NULL, or what is wrong. */
static const char *read_edges(h5md_in *h)
{
    hid_t object = H5Oopen(h->file, "particles/all/box/edges", H5P_DEFAULT);
    if (object < 0)
        return "no /particles/all/box/edges";
    H5I_type_t type = H5Iget_type(object);
    H5Oclose(object);
    double *edges = NULL;
    if (type == H5I_DATASET) {
        int ok = read_all(h->file, "particles/all/box/edges", (hsize_t)h->dim, &edges);
        if (ok)
            memcpy(h->box, edges, (size_t)h->dim * sizeof *edges);
        free(edges);
        return ok ? NULL : "/particles/all/box/edges is not one length an axis";
    }
    const char *wrong = "/particles/all/box/edges/value is not [frames][dim][dim] for the "
                        "positions' frames";
    hid_t set = H5Dopen2(h->file, "particles/all/box/edges/value", H5P_DEFAULT);
    hsize_t dims[3];
    if (set >= 0 && shape(set, 3, dims) && dims[0] == h->frames && dims[1] == (hsize_t)h->dim &&
        dims[2] == (hsize_t)h->dim) {
        size_t count = (size_t)h->frames * (size_t)h->dim * (size_t)h->dim;
        edges = malloc((count ? count : 1) * sizeof *edges);
        if (!edges)
            wrong = "out of memory";
        else if (H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, edges) < 0)
            wrong = "/particles/all/box/edges/value cannot be read";
        else if (h->frames > 0 && !sheared_edges(h, edges))
            wrong = "/particles/all/box/edges/value: a box that changes is read only when "
                    "sheared (the same lengths in every frame, tilted by edges[1][0] alone)";
        else
            wrong = NULL;
    }
    free(edges);
    if (set >= 0)
        H5Dclose(set);
    return wrong;
}

h5md_in *h5md_in_open(const char *path, char *err, size_t err_size)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors come back as one line */
    h5md_in *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, err_size, "%s: out of memory", path);
        return NULL;
    }
    snprintf(h->path, sizeof h->path, "%s", path);
    h->position = h->velocity = h->spin = -1;
    h->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h->file < 0)
        return fail(h, err, err_size, "cannot open as an HDF5 file");
    h->position = H5Dopen2(h->file, "particles/all/position/value", H5P_DEFAULT);
    hsize_t dims[3];
    if (h->position < 0 || !shape(h->position, 3, dims) || (dims[2] != 2 && dims[2] != 3))
        return fail(h, err, err_size,
                    "no /particles/all/position/value of [frames][N][2 or 3]: not an H5MD "
                    "trajectory");
    h->frames = dims[0];
    h->n = (size_t)dims[1];
    h->dim = (int)dims[2];
    if (!read_all(h->file, "particles/all/position/time", h->frames, &h->times))
        return fail(h, err, err_size, "no /particles/all/position/time of one time a frame");
    const char *bad_edges = read_edges(h);
    if (bad_edges)
        return fail(h, err, err_size, bad_edges);
    if (H5Lexists(h->file, "particles/all/velocity", H5P_DEFAULT) > 0) {
        h->velocity = H5Dopen2(h->file, "particles/all/velocity/value", H5P_DEFAULT);
        hsize_t v[3];
        if (h->velocity < 0 || !shape(h->velocity, 3, v) || v[0] != dims[0] || v[1] != dims[1] ||
            v[2] != dims[2])
            return fail(h, err, err_size,
                        "/particles/all/velocity/value is not the shape of "
                        "the positions");
    }
    if (H5Lexists(h->file, "particles/all/spin", H5P_DEFAULT) > 0) {
        h->spin = H5Dopen2(h->file, "particles/all/spin/value", H5P_DEFAULT);
        hsize_t w[3];
        if (h->spin < 0 || !shape(h->spin, 3, w) || w[0] != dims[0] || w[1] != dims[1] || w[2] != 3)
            return fail(h, err, err_size,
                        "/particles/all/spin/value is not [frames][N][3] for the positions' "
                        "frames and spheres");
        h->spins = malloc((h->n ? h->n : 1) * 3 * sizeof *h->spins);
        if (!h->spins)
            return fail(h, err, err_size, "out of memory");
    }
    if (H5Lexists(h->file, "particles/all/radius", H5P_DEFAULT) > 0 &&
        !read_all(h->file, "particles/all/radius", (hsize_t)h->n, &h->radius))
        return fail(h, err, err_size, "/particles/all/radius is not one number a sphere");
    h->buffer = malloc((h->n ? h->n : 1) * (size_t)h->dim * sizeof *h->buffer);
    if (!h->buffer)
        return fail(h, err, err_size, "out of memory");
    return h;
}

size_t h5md_in_count(const h5md_in *h)
{
    return h->n;
}

int h5md_in_dim(const h5md_in *h)
{
    return h->dim;
}

void h5md_in_box(const h5md_in *h, double box[3])
{
    memcpy(box, h->box, sizeof h->box);
}

/* Frame k of h's [frames][n][width] dataset set, as type, into buffer
 * (n * width values). */
static int read_slab(const h5md_in *h, hid_t set, hsize_t k, int width, hid_t type, void *buffer)
{
    hsize_t start[3] = {k, 0, 0}, count[3] = {1, (hsize_t)h->n, (hsize_t)width};
    hid_t file_space = H5Dget_space(set);
    hid_t memory_space = H5Screate_simple(3, count, NULL);
    int ok = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(set, type, memory_space, file_space, H5P_DEFAULT, buffer) >= 0;
    H5Sclose(memory_space);
    H5Sclose(file_space);
    return ok;
}

/* Frame h->next of a [frames][n][dim] dataset into out[n][3]. */
static int read_frame(h5md_in *h, hid_t set, double (*out)[3])
{
    int ok = read_slab(h, set, h->next, h->dim, H5T_NATIVE_DOUBLE, h->buffer);
    for (size_t i = 0; ok && i < h->n; i++)
        for (int k = 0; k < 3; k++)
            out[i][k] = k < h->dim ? h->buffer[i * (size_t)h->dim + (size_t)k] : 0.0;
    return ok;
}

int h5md_in_has_spin(const h5md_in *h)
{
    return h->spin >= 0;
}

int h5md_in_next(h5md_in *h, double *time, double (*position)[3], double (*velocity)[3],
                 double *radius, double *spin_z, char *err, size_t err_size)
{
    if (h->next >= h->frames)
        return 0;
    if (!read_frame(h, h->position, position) ||
        (h->velocity >= 0 && !read_frame(h, h->velocity, velocity)) ||
        (spin_z && h->spin >= 0 &&
         !read_slab(h, h->spin, h->next, 3, H5T_NATIVE_DOUBLE, h->spins))) {
        snprintf(err, err_size, "%s: frame %llu cannot be read", h->path,
                 (unsigned long long)h->next);
        return -1;
    }
    if (h->velocity < 0)
        memset(velocity, 0, h->n * sizeof *velocity);
    for (size_t i = 0; i < h->n; i++)
        radius[i] = h->radius ? h->radius[i] : 0.5;
    for (size_t i = 0; spin_z && i < h->n; i++)
        spin_z[i] = h->spin >= 0 ? h->spins[3 * i + 2] : 0.0;
    *time = h->times[h->next++];
    return 1;
}

void h5md_in_close(h5md_in *h)
{
    if (!h)
        return;
    if (h->spin >= 0)
        H5Dclose(h->spin);
    if (h->velocity >= 0)
        H5Dclose(h->velocity);
    if (h->position >= 0)
        H5Dclose(h->position);
    if (h->file >= 0)
        H5Fclose(h->file);
    free(h->times);
    free(h->radius);
    free(h->buffer);
    free(h->spins);
    free(h);
}

/* The last frame's spins (/particles/all/spin, value [frames][n][3],
 * as h5md_out writes them) into the scene, which then has spins; nothing
 * when the file holds none. 0, or -1 with a message naming the file. */
static int read_last_spins(const h5md_in *h, carom_scene *scene, char *err, size_t err_size)
{
    if (H5Lexists(h->file, "particles/all/spin", H5P_DEFAULT) <= 0)
        return 0;
    static const char *const axis = "xyz";
    hid_t set = H5Dopen2(h->file, "particles/all/spin/value", H5P_DEFAULT);
    hsize_t dims[3];
    carom_error e;
    int status = -1;
    if (set < 0 || !shape(set, 3, dims) || dims[0] != h->frames || dims[1] != (hsize_t)h->n ||
        dims[2] != 3) {
        snprintf(err, err_size,
                 "%s: /particles/all/spin/value is not [frames][N][3] for the positions' "
                 "frames and spheres",
                 h->path);
    } else if (carom_scene_add_spins(scene, &e) != CAROM_OK) {
        snprintf(err, err_size, "%s: %s", h->path, e.message);
    } else if (h->n && !read_slab(h, set, h->frames - 1, 3, H5T_NATIVE_DOUBLE, scene->spin)) {
        snprintf(err, err_size, "%s: the last frame of /particles/all/spin cannot be read",
                 h->path);
    } else {
        status = 0;
        for (size_t i = 0; i < h->n && !status; i++)
            for (int k = 0; k < 3 && !status; k++) {
                double w = scene->spin[i][k];
                if (!isfinite(w) || (h->dim == 2 && k < 2 && w != 0.0)) {
                    snprintf(err, err_size,
                             "%s: /particles/all/spin/value, last frame, sphere %zu: spin %c = "
                             "%g %s",
                             h->path, i, axis[k], w,
                             isfinite(w) ? "(a 2D sphere spins about z only)" : "is not finite");
                    status = -1;
                }
            }
    }
    if (set >= 0)
        H5Dclose(set);
    return status;
}

/* The species of frame `frame` (/particles/all/species: H5MD's integers,
 * fixed [n] as h5md_out writes them, or a time series whose value is
 * [frames][n]) into out[n]: 1, 0 when the file holds none (out left
 * alone), or -1 with a message naming the file. */
static int read_species_frame(const h5md_in *h, hsize_t frame, uint32_t *out, char *err,
                              size_t err_size)
{
    if (H5Lexists(h->file, "particles/all/species", H5P_DEFAULT) <= 0)
        return 0;
    int series = H5Lexists(h->file, "particles/all/species/value", H5P_DEFAULT) > 0;
    const char *name = series ? "particles/all/species/value" : "particles/all/species";
    hid_t set = H5Dopen2(h->file, name, H5P_DEFAULT);
    hid_t type = set >= 0 ? H5Dget_type(set) : -1;
    hsize_t dims[2];
    int shaped = set >= 0 && (series ? shape(set, 2, dims) && dims[0] == h->frames &&
                                           dims[1] == (hsize_t)h->n
                                     : shape(set, 1, dims) && dims[0] == (hsize_t)h->n);
    int status = -1;
    long long *values = malloc((h->n ? h->n : 1) * sizeof *values);
    if (!shaped || type < 0 || H5Tget_class(type) != H5T_INTEGER) {
        snprintf(err, err_size, "%s: /%s is not %s integers", h->path, name,
                 series ? "[frames][N]" : "[N]");
    } else if (!values) {
        snprintf(err, err_size, "%s: out of memory", h->path);
    } else if (h->n) {
        hsize_t start[2] = {series ? frame : 0, 0}, count[2] = {1, (hsize_t)h->n};
        hid_t file_space = H5Dget_space(set);
        hid_t memory_space = H5Screate_simple(1, &count[1], NULL);
        int ok = (!series || H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count,
                                                 NULL) >= 0) &&
                 H5Dread(set, H5T_NATIVE_LLONG, memory_space, file_space, H5P_DEFAULT, values) >= 0;
        H5Sclose(memory_space);
        H5Sclose(file_space);
        if (!ok) {
            snprintf(err, err_size, "%s: /%s cannot be read", h->path, name);
        } else {
            status = 1;
            for (size_t i = 0; i < h->n && status > 0; i++) {
                if (values[i] < 0 || values[i] >= CAROM_SPECIES_MAX) {
                    snprintf(err, err_size,
                             "%s: /%s, sphere %zu: species %lld out of range (0 to %d)", h->path,
                             name, i, values[i], CAROM_SPECIES_MAX - 1);
                    status = -1;
                } else {
                    out[i] = (uint32_t)values[i];
                }
            }
        }
    } else {
        status = 1;
    }
    free(values);
    if (type >= 0)
        H5Tclose(type);
    if (set >= 0)
        H5Dclose(set);
    return status;
}

int h5md_in_species(const h5md_in *h, uint32_t *species, char *err, size_t err_size)
{
    if (h->next == 0) {
        snprintf(err, err_size, "%s: no frame read yet", h->path);
        return -1;
    }
    int got = read_species_frame(h, h->next - 1, species, err, err_size);
    if (got == 0)
        memset(species, 0, h->n * sizeof *species);
    return got;
}

/* The species of the last frame into the scene, which then has species;
 * nothing when the file holds none. 0, or -1 with a message naming the
 * file. */
static int read_species(const h5md_in *h, carom_scene *scene, char *err, size_t err_size)
{
    if (H5Lexists(h->file, "particles/all/species", H5P_DEFAULT) <= 0)
        return 0;
    carom_error e;
    if (carom_scene_add_species(scene, &e) != CAROM_OK) {
        snprintf(err, err_size, "%s: %s", h->path, e.message);
        return -1;
    }
    return read_species_frame(h, h->frames - 1, scene->species, err, err_size) < 0 ? -1 : 0;
}

/* A tilt taken into [0, length) (as carom_xyz_read takes the Lattice's). */
static double shear_offset(double tilt, double length)
{
    double offset = fmod(tilt, length);
    if (offset < 0.0)
        offset += length;
    return offset < length ? offset : 0.0; /* a hair below 0 rounded up */
}

int h5md_in_last_scene(const char *path, carom_scene *scene, char *err, size_t err_size)
{
    h5md_in *h = h5md_in_open(path, err, err_size);
    if (!h)
        return -1;
    int periodic[3] = {1, 1, 1};
    double *mass = NULL;
    int status = -1;
    carom_error e;
    if (h->frames == 0) {
        snprintf(err, err_size, "%s: the trajectory holds no frame", path);
    } else if (read_boundaries(h->file, h->dim, periodic) < 0) {
        snprintf(err, err_size, "%s: no /particles/all/box boundary attribute of %d strings", path,
                 h->dim);
    } else if (H5Lexists(h->file, "particles/all/mass", H5P_DEFAULT) > 0 &&
               !read_all(h->file, "particles/all/mass", (hsize_t)h->n, &mass)) {
        snprintf(err, err_size, "%s: /particles/all/mass is not one number a sphere", path);
    } else if (carom_scene_resize(scene, h->n, &e) != CAROM_OK) {
        snprintf(err, err_size, "%s: %s", path, e.message);
    } else {
        double time;
        h->next = h->frames - 1;
        if (h5md_in_next(h, &time, scene->position, scene->velocity, scene->radius, NULL, err,
                         err_size) == 1) {
            scene->dim = h->dim;
            scene->shear_offset = shear_offset(h->tilt, h->box[0]);
            for (int k = 0; k < 3; k++) {
                scene->box[k] = k < h->dim ? h->box[k] : 0.0;
                scene->boundary[k] =
                    k < h->dim && !periodic[k] ? CAROM_BOUNDARY_WALLS : CAROM_BOUNDARY_PERIODIC;
            }
            for (size_t i = 0; i < h->n; i++)
                scene->mass[i] = mass ? mass[i] : 1.0;
            status = read_last_spins(h, scene, err, err_size);
            if (!status)
                status = read_species(h, scene, err, err_size);
        }
    }
    free(mass);
    h5md_in_close(h);
    return status;
}

int h5md_in_last_images(const char *path, size_t n, int64_t (*image)[3], char *err, size_t err_size)
{
    h5md_in *h = h5md_in_open(path, err, err_size);
    if (!h)
        return -1;
    int status = 0;
    if (H5Lexists(h->file, "particles/all/image", H5P_DEFAULT) > 0) {
        status = -1;
        hid_t set = H5Dopen2(h->file, "particles/all/image/value", H5P_DEFAULT);
        hsize_t dims[3];
        int64_t *values = malloc((n ? n : 1) * (size_t)h->dim * sizeof *values);
        if (set < 0 || !shape(set, 3, dims) || dims[0] != h->frames || dims[1] != (hsize_t)h->n ||
            n != h->n || dims[2] != (hsize_t)h->dim) {
            snprintf(err, err_size,
                     "%s: /particles/all/image/value is not the shape of the positions", path);
        } else if (!values) {
            snprintf(err, err_size, "%s: out of memory", path);
        } else if (read_slab(h, set, h->frames - 1, h->dim, H5T_NATIVE_INT64, values)) {
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++)
                    image[i][k] = k < h->dim ? values[i * (size_t)h->dim + (size_t)k] : 0;
            status = 1;
        } else {
            snprintf(err, err_size, "%s: the last frame of /particles/all/image cannot be read",
                     path);
        }
        free(values);
        if (set >= 0)
            H5Dclose(set);
    }
    h5md_in_close(h);
    return status;
}
