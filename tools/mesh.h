/* Triangle meshes for `carom run mesh=FILE` (and view/render): the
 * triangles of every mesh of a file that Assimp reads (OBJ, STL, PLY,
 * glTF, ...), each node's transform applied, then every vertex v placed
 * at v * scale + shift.
 *
 * Contract: mesh_load either returns 0 with *triangle a malloc'd array of
 * *ntriangles >= 1 triangles (corners x0, y0, z0, x1, ..., z2; the
 * caller frees it) and *stats filled, or fails with one line naming the
 * file (Assimp's own message for a file it cannot read or parse; the
 * face index and its coordinates, and the box, for a vertex outside
 * [0, box]; "no triangles" when no face with an area is left). Faces
 * without an area (as carom_world_add_triangle judges it: an edge of
 * length 0, or twice the area at most 1e-12 of the longest edge squared)
 * are skipped and counted; points and lines are skipped and counted.
 * Faces are numbered from 0 over the file's meshes in order (points and
 * lines included), as Assimp delivers them after triangulating polygons.
 * Nothing is printed. Without Assimp (CAROM_HAVE_MESH undefined) the
 * loader fails with MESH_WITHOUT_ASSIMP; options.c refuses mesh= earlier
 * with the same words. */
#ifndef CAROM_TOOLS_MESH_H
#define CAROM_TOOLS_MESH_H

#include <stddef.h>

#include "cli.h"

#define MESH_WITHOUT_ASSIMP "this carom was built without Assimp (Debian: libassimp-dev)"

typedef struct mesh_stats {
    size_t faces;              /* faces in the file (after triangulation) */
    size_t triangles;          /* loaded */
    size_t degenerate;         /* triangles without an area, skipped */
    size_t points_lines;       /* point and line primitives, skipped */
    double lower[3], upper[3]; /* bounds of the loaded triangles' corners */
} mesh_stats;

int mesh_load(const char *path, double scale, const double shift[3], const double box[3],
              double (**triangle)[9], size_t *ntriangles, mesh_stats *stats, cli_error *error);

#endif
