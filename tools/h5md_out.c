/* H5MD trajectory frames; contract in h5md_out.h. */
#include "h5md_out.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"

/* One time series of H5MD: step, time and value, each growing by a frame. */
typedef struct series {
    hid_t group, step, time, value;
    int rank; /* of value: 1 (a number a frame) or 3 ([N][dim], [dim][dim]) */
    hsize_t per_frame[2];
    hid_t memory_type; /* of the values appended */
} series;

struct h5md_out {
    char *path;
    hid_t file;
    int dim;
    size_t n; /* spheres, fixed by the first frame */
    long frames;
    int sheared;     /* the box's edges a series of tilted matrices */
    series position, velocity, image, spin, energy, edges;
    double *buffer;        /* a frame's [N][dim] */
    int64_t *image_buffer; /* the same, of images */
    double *spin_buffer;   /* a frame's [N][3] spins, when they are written */
    int failed;            /* an HDF5 call failed: the file is not complete */
};

static int failed(h5md_out *h, cli_error *error, const char *what)
{
    h->failed = 1;
    return cli_fail(error, CLI_EXIT_RUNTIME, "%s: cannot write the H5MD trajectory (%s)", h->path,
                    what);
}

static herr_t string_attribute(hid_t at, const char *name, const char *const *values, size_t count)
{
    size_t longest = 1;
    for (size_t k = 0; k < count; k++)
        if (strlen(values[k]) + 1 > longest)
            longest = strlen(values[k]) + 1;
    char *packed = calloc(count, longest);
    if (!packed)
        return -1;
    for (size_t k = 0; k < count; k++)
        memcpy(packed + k * longest, values[k], strlen(values[k]));
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, longest);
    H5Tset_strpad(type, H5T_STR_NULLTERM);
    hsize_t dims[1] = {(hsize_t)count};
    hid_t space = count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL);
    hid_t attribute = H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t status = attribute < 0 ? -1 : H5Awrite(attribute, type, packed);
    if (attribute >= 0)
        H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    free(packed);
    return status;
}

static herr_t int_attribute(hid_t at, const char *name, const int *values, hsize_t count)
{
    hid_t space = count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, NULL);
    hid_t attribute = H5Acreate2(at, name, H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t status = attribute < 0 ? -1 : H5Awrite(attribute, H5T_NATIVE_INT, values);
    if (attribute >= 0)
        H5Aclose(attribute);
    H5Sclose(space);
    return status;
}

static hid_t group(hid_t at, const char *name)
{
    hid_t links = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(links, 1);
    hid_t g = H5Gcreate2(at, name, links, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(links);
    return g;
}

/* A dataset of a fixed size, written at once. */
static herr_t fixed_dataset(hid_t at, const char *name, int rank, const hsize_t *dims,
                            hid_t file_type, hid_t memory_type, const void *values)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t set = H5Dcreate2(at, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t status =
        set < 0 ? -1 : H5Dwrite(set, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    if (set >= 0)
        H5Dclose(set);
    H5Sclose(space);
    return status;
}

/* A dataset that grows by one frame at a time along its first axis. */
static hid_t growing_dataset(hid_t at, const char *name, hid_t type, int rank,
                             const hsize_t *per_frame)
{
    hsize_t dims[3] = {0, 0, 0}, most[3] = {H5S_UNLIMITED, 0, 0}, chunk[3] = {256, 0, 0};
    for (int k = 1; k < rank; k++) {
        dims[k] = most[k] = chunk[k] = per_frame[k - 1];
        chunk[0] = 1; /* a frame of vectors per chunk */
    }
    hid_t space = H5Screate_simple(rank, dims, most);
    hid_t layout = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(layout, rank, chunk);
    hid_t set = H5Dcreate2(at, name, type, space, H5P_DEFAULT, layout, H5P_DEFAULT);
    H5Pclose(layout);
    H5Sclose(space);
    return set;
}

static herr_t append(hid_t set, hid_t memory_type, int rank, const hsize_t *per_frame, long frame,
                     const void *values)
{
    hsize_t size[3] = {(hsize_t)frame + 1, 0, 0}, start[3] = {(hsize_t)frame, 0, 0};
    hsize_t count[3] = {1, 0, 0};
    for (int k = 1; k < rank; k++)
        size[k] = count[k] = per_frame[k - 1];
    if (H5Dset_extent(set, size) < 0)
        return -1;
    hid_t file_space = H5Dget_space(set);
    hid_t memory_space = H5Screate_simple(rank, count, NULL);
    herr_t status = H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
    if (status >= 0)
        status = H5Dwrite(set, memory_type, memory_space, file_space, H5P_DEFAULT, values);
    H5Sclose(memory_space);
    H5Sclose(file_space);
    return status;
}

/* A series of doubles, or of integers (file_type an integer type). */
static herr_t series_open(series *s, hid_t at, const char *name, int rank, hsize_t n, int dim,
                          hid_t file_type)
{
    s->rank = rank;
    s->memory_type = file_type == H5T_STD_I64LE ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    s->per_frame[0] = n;
    s->per_frame[1] = (hsize_t)dim;
    s->group = group(at, name);
    if (s->group < 0)
        return -1;
    s->step = growing_dataset(s->group, "step", H5T_STD_I64LE, 1, NULL);
    s->time = growing_dataset(s->group, "time", H5T_IEEE_F64LE, 1, NULL);
    s->value = growing_dataset(s->group, "value", file_type, rank, s->per_frame);
    return s->step < 0 || s->time < 0 || s->value < 0 ? -1 : 0;
}

static herr_t series_append(series *s, long frame, double time, const void *values)
{
    long long step = frame;
    herr_t status = append(s->step, H5T_NATIVE_LLONG, 1, NULL, frame, &step);
    if (status >= 0)
        status = append(s->time, H5T_NATIVE_DOUBLE, 1, NULL, frame, &time);
    if (status >= 0)
        status = append(s->value, s->memory_type, s->rank, s->per_frame, frame, values);
    return status;
}

static void series_close(series *s)
{
    hid_t *sets[3] = {&s->value, &s->time, &s->step};
    for (int k = 0; k < 3; k++)
        if (*sets[k] >= 0)
            H5Dclose(*sets[k]);
    if (s->group >= 0)
        H5Gclose(s->group);
    s->value = s->time = s->step = s->group = -1;
}

/* The header groups and the box (h5md_out.h): a sheared box's edges
 * are a series, a frame's matrix appended by h5md_write. */
static herr_t write_header(h5md_out *h, const carom_scene *like)
{
    hid_t top = group(h->file, "h5md");
    hid_t author = group(h->file, "h5md/author");
    hid_t creator = group(h->file, "h5md/creator");
    hid_t box = group(h->file, "particles/all/box");
    herr_t status = top < 0 || author < 0 || creator < 0 || box < 0 ? -1 : 0;
    const int version[2] = {1, 1};
    const char *author_name[1] = {"carom user"}, *carom_name[1] = {"carom"};
    const char *carom_version[1] = {CAROM_VERSION_STRING};
    const char *boundary[3];
    double edges[3];
    for (int k = 0; k < h->dim; k++) {
        boundary[k] = like->boundary[k] == CAROM_BOUNDARY_PERIODIC ? "periodic" : "none";
        edges[k] = like->box[k];
    }
    hsize_t dims[1] = {(hsize_t)h->dim};
    if (status >= 0)
        status = int_attribute(top, "version", version, 2);
    if (status >= 0)
        status = string_attribute(author, "name", author_name, 1);
    if (status >= 0)
        status = string_attribute(creator, "name", carom_name, 1);
    if (status >= 0)
        status = string_attribute(creator, "version", carom_version, 1);
    if (status >= 0)
        status = int_attribute(box, "dimension", &h->dim, 1);
    if (status >= 0)
        status = string_attribute(box, "boundary", boundary, (size_t)h->dim);
    if (status >= 0 && !h->sheared)
        status = fixed_dataset(box, "edges", 1, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, edges);
    if (status >= 0 && h->sheared)
        status = series_open(&h->edges, box, "edges", 3, (hsize_t)h->dim, h->dim,
                             H5T_IEEE_F64LE);
    hid_t groups[4] = {top, author, creator, box};
    for (int k = 0; k < 4; k++)
        if (groups[k] >= 0)
            H5Gclose(groups[k]);
    return status;
}

h5md_out *h5md_open(const char *path, const carom_scene *like, int sheared, cli_error *error)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors come back as one line, below */
    h5md_out *h = calloc(1, sizeof *h);
    char *name = malloc(strlen(path) + 1);
    if (!h || !name) {
        free(h);
        free(name);
        cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
        return NULL;
    }
    strcpy(name, path);
    h->path = name;
    h->dim = like->dim;
    h->sheared = sheared && like->dim >= 2;
    series *all[6] = {&h->position, &h->velocity, &h->image, &h->spin, &h->energy, &h->edges};
    for (int k = 0; k < 6; k++)
        all[k]->group = all[k]->step = all[k]->time = all[k]->value = -1;
    h->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (h->file < 0) {
        cli_fail(error, CLI_EXIT_RUNTIME, "cannot write '%s' (an HDF5 file)", path);
        free(h->path);
        free(h);
        return NULL;
    }
    if (write_header(h, like) < 0) {
        failed(h, error, "its header");
        h5md_close(h, NULL);
        return NULL;
    }
    return h;
}

/* The first frame fixes the number of spheres, writes their radii,
 * masses and species (when the scene has them), and whether images and
 * spins are written. */
static int first_frame(h5md_out *h, const carom_scene *now, int with_images, cli_error *error)
{
    h->n = now->n;
    size_t values = (now->n ? now->n : 1) * (size_t)h->dim;
    h->buffer = malloc(values * sizeof *h->buffer);
    if (with_images)
        h->image_buffer = malloc(values * sizeof *h->image_buffer);
    if (now->spin)
        h->spin_buffer = malloc((now->n ? now->n : 1) * 3 * sizeof *h->spin_buffer);
    if (!h->buffer || (with_images && !h->image_buffer) || (now->spin && !h->spin_buffer))
        return failed(h, error, "out of memory");
    hsize_t n[1] = {(hsize_t)now->n};
    if (fixed_dataset(h->file, "particles/all/radius", 1, n, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      now->radius) < 0 ||
        fixed_dataset(h->file, "particles/all/mass", 1, n, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      now->mass) < 0 ||
        (now->species && n[0] > 0 &&
         fixed_dataset(h->file, "particles/all/species", 1, n, H5T_STD_I32LE,
                       H5T_NATIVE_UINT32, now->species) < 0) ||
        series_open(&h->position, h->file, "particles/all/position", 3, n[0], h->dim,
                    H5T_IEEE_F64LE) < 0 ||
        series_open(&h->velocity, h->file, "particles/all/velocity", 3, n[0], h->dim,
                    H5T_IEEE_F64LE) < 0 ||
        (with_images && series_open(&h->image, h->file, "particles/all/image", 3, n[0], h->dim,
                                    H5T_STD_I64LE) < 0) ||
        (now->spin &&
         series_open(&h->spin, h->file, "particles/all/spin", 3, n[0], 3, H5T_IEEE_F64LE) < 0) ||
        series_open(&h->energy, h->file, "observables/kinetic_energy", 1, 0, 0, H5T_IEEE_F64LE) < 0)
        return failed(h, error, "its particle groups");
    return 0;
}

static const double *packed(h5md_out *h, const double (*vectors)[3])
{
    for (size_t i = 0; i < h->n; i++)
        for (int k = 0; k < h->dim; k++)
            h->buffer[i * (size_t)h->dim + (size_t)k] = vectors[i][k];
    return h->buffer;
}

/* Spins are vectors of three components in 2D too (only z nonzero). */
static const double *packed_spins(h5md_out *h, const double (*spin)[3])
{
    for (size_t i = 0; i < h->n; i++)
        for (int k = 0; k < 3; k++)
            h->spin_buffer[i * 3 + (size_t)k] = spin[i][k];
    return h->spin_buffer;
}

static const int64_t *packed_images(h5md_out *h, const int64_t (*image)[3])
{
    for (size_t i = 0; i < h->n; i++)
        for (int k = 0; k < h->dim; k++)
            h->image_buffer[i * (size_t)h->dim + (size_t)k] = image[i][k];
    return h->image_buffer;
}

/* The box's edge vectors as the rows of a matrix: the second tilted
 * along x by the sheared images' offset, so that position + image *
 * edges unwraps (carom_world_get_image). */
static herr_t append_edges(h5md_out *h, const carom_scene *now, double time)
{
    double edges[3][3] = {{0.0}};
    double packed_edges[9];
    for (int k = 0; k < h->dim; k++)
        edges[k][k] = now->box[k];
    edges[1][0] = now->shear_offset;
    for (int a = 0; a < h->dim; a++)
        for (int b = 0; b < h->dim; b++)
            packed_edges[a * h->dim + b] = edges[a][b];
    return series_append(&h->edges, h->frames, time, packed_edges);
}

int h5md_write(h5md_out *h, const carom_scene *now, const int64_t (*image)[3], double time,
               double kinetic_energy, cli_error *error)
{
    if (h->frames == 0) {
        int status = first_frame(h, now, image != NULL, error);
        if (status)
            return status;
    }
    if (now->n != h->n)
        return failed(h, error, "the number of spheres changed");
    if ((image != NULL) != (h->image_buffer != NULL))
        return failed(h, error, "images in some frames only");
    if ((now->spin != NULL) != (h->spin_buffer != NULL))
        return failed(h, error, "spins in some frames only");
    if (image && series_append(&h->image, h->frames, time, packed_images(h, image)) < 0)
        return failed(h, error, "a frame");
    if (h->sheared && append_edges(h, now, time) < 0)
        return failed(h, error, "a frame's box");
    if (now->spin && series_append(&h->spin, h->frames, time,
                                   packed_spins(h, (const double(*)[3])now->spin)) < 0)
        return failed(h, error, "a frame");
    if (series_append(&h->position, h->frames, time, packed(h, now->position)) < 0 ||
        series_append(&h->velocity, h->frames, time, packed(h, now->velocity)) < 0 ||
        series_append(&h->energy, h->frames, time, &kinetic_energy) < 0)
        return failed(h, error, "a frame");
    h->frames++;
    return 0;
}

int h5md_close(h5md_out *h, cli_error *error)
{
    if (!h)
        return 0;
    series *all[6] = {&h->position, &h->velocity, &h->image, &h->spin, &h->energy, &h->edges};
    for (int k = 0; k < 6; k++)
        series_close(all[k]);
    int status = 0;
    if (H5Fclose(h->file) < 0 && error && !h->failed)
        status = failed(h, error, "closing it");
    free(h->buffer);
    free(h->image_buffer);
    free(h->spin_buffer);
    free(h->path);
    free(h);
    return status;
}
