/* Loading a triangle mesh with Assimp's C API; contract in mesh.h. */
#include "mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef CAROM_HAVE_MESH
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

/* The library's limit on triangles (world_triangles.c). */
#define MESH_TRIANGLES_MAX 0x10000000u

/* Whether the triangle has an area as carom_world_add_triangle sees it:
 * every edge longer than 0, and twice its area above 1e-12 of its
 * longest edge squared. */
static int mesh_has_area(const double t[9])
{
    double longest = 0.0;
    for (int k = 0; k < 3; k++) {
        const double *a = t + 3 * k, *b = t + 3 * ((k + 1) % 3);
        double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
        double length = sqrt(dx * dx + dy * dy + dz * dz);
        if (!(length > 0.0))
            return 0;
        longest = fmax(longest, length);
    }
    double ab[3], ac[3];
    for (int m = 0; m < 3; m++) {
        ab[m] = t[3 + m] - t[m];
        ac[m] = t[6 + m] - t[m];
    }
    double n0 = ab[1] * ac[2] - ab[2] * ac[1], n1 = ab[2] * ac[0] - ab[0] * ac[2],
           n2 = ab[0] * ac[1] - ab[1] * ac[0];
    return sqrt(n0 * n0 + n1 * n1 + n2 * n2) > 1e-12 * longest * longest;
}

int mesh_load(const char *path, double scale, const double shift[3], const double box[3],
              double (**triangle)[9], size_t *ntriangles, mesh_stats *stats, cli_error *error)
{
    *triangle = NULL;
    *ntriangles = 0;
    memset(stats, 0, sizeof *stats);
    /* Polygons become triangles; every node's transform is applied to its
     * meshes' vertices (PreTransformVertices). No FindDegenerates: faces
     * without an area are counted here. */
    const struct aiScene *scene =
        aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                               aiProcess_PreTransformVertices);
    if (!scene) {
        const char *why = aiGetErrorString();
        size_t len = strlen(why);
        while (len > 0 && (why[len - 1] == '\n' || why[len - 1] == '\r' || why[len - 1] == ' '))
            len--;
        return cli_fail(error, CLI_EXIT_USAGE, "mesh %s: cannot read it: %.*s", path, (int)len,
                        len ? why : "(no reason given)");
    }
    size_t faces = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++)
        faces += scene->mMeshes[m]->mNumFaces;
    double(*out)[9] = malloc((faces ? faces : 1) * sizeof *out);
    if (!out) {
        aiReleaseImport(scene);
        return cli_fail(error, CLI_EXIT_RUNTIME, "mesh %s: out of memory (%zu faces)", path, faces);
    }
    for (int m = 0; m < 3; m++) {
        stats->lower[m] = INFINITY;
        stats->upper[m] = -INFINITY;
    }
    size_t n = 0, face = 0;
    int status = 0;
    for (unsigned m = 0; m < scene->mNumMeshes && !status; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        for (unsigned f = 0; f < mesh->mNumFaces && !status; f++, face++) {
            const struct aiFace *fc = &mesh->mFaces[f];
            if (fc->mNumIndices != 3) {
                stats->points_lines++; /* points and lines (polygons are triangulated) */
                continue;
            }
            double t[9];
            for (int k = 0; k < 3 && !status; k++) {
                unsigned v = fc->mIndices[k];
                if (v >= mesh->mNumVertices) {
                    status = cli_fail(error, CLI_EXIT_USAGE,
                                      "mesh %s: face %zu refers to vertex %u of %u", path, face, v,
                                      mesh->mNumVertices);
                    break;
                }
                const struct aiVector3D *p = &mesh->mVertices[v];
                double x[3] = {(double)p->x, (double)p->y, (double)p->z};
                for (int d = 0; d < 3; d++)
                    t[3 * k + d] = x[d] * scale + shift[d];
                const double *c = t + 3 * k;
                for (int d = 0; d < 3 && !status; d++)
                    if (!isfinite(c[d]) || c[d] < 0.0 || c[d] > box[d])
                        status = cli_fail(error, CLI_EXIT_USAGE,
                                          "mesh %s: face %zu has the vertex (%.9g, %.9g, %.9g) "
                                          "outside the box [0, %g] x [0, %g] x [0, %g] (after "
                                          "mesh_scale %g and mesh_shift %g,%g,%g)",
                                          path, face, c[0], c[1], c[2], box[0], box[1], box[2],
                                          scale, shift[0], shift[1], shift[2]);
            }
            if (status)
                break;
            if (!mesh_has_area(t)) {
                stats->degenerate++;
                continue;
            }
            if (n == MESH_TRIANGLES_MAX) {
                status = cli_fail(error, CLI_EXIT_USAGE, "mesh %s: more than %u triangles", path,
                                  MESH_TRIANGLES_MAX);
                break;
            }
            memcpy(out[n], t, sizeof t);
            for (int k = 0; k < 9; k++) {
                stats->lower[k % 3] = fmin(stats->lower[k % 3], t[k]);
                stats->upper[k % 3] = fmax(stats->upper[k % 3], t[k]);
            }
            n++;
        }
    }
    aiReleaseImport(scene);
    stats->faces = face;
    stats->triangles = n;
    if (!status && n == 0)
        status = cli_fail(error, CLI_EXIT_USAGE,
                          "mesh %s: no triangles (%zu faces: %zu without an area, %zu points "
                          "or lines)",
                          path, faces, stats->degenerate, stats->points_lines);
    if (status) {
        free(out);
        return status;
    }
    *triangle = out;
    *ntriangles = n;
    return 0;
}

#else

int mesh_load(const char *path, double scale, const double shift[3], const double box[3],
              double (**triangle)[9], size_t *ntriangles, mesh_stats *stats, cli_error *error)
{
    (void)scale;
    (void)shift;
    (void)box;
    *triangle = NULL;
    *ntriangles = 0;
    memset(stats, 0, sizeof *stats);
    return cli_fail(error, CLI_EXIT_USAGE,
                    "mesh %s: " MESH_WITHOUT_ASSIMP ", so it reads no meshes", path);
}

#endif
