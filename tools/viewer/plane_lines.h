/* The lines that draw a fixed plane (carom_world_add_plane) inside the
 * box, shared by the OpenGL window and the software renderer.
 *
 * Contract: plane_lines fills `lines` with at most PLANE_LINES_MAX
 * segments, all on the plane n . x = d and inside the box [0,L] (to
 * round-off), and returns how many; 0 when the plane misses the box. In
 * 2D: the line across the box, then short hatch ticks on its solid side
 * (n . x < d, where no sphere goes), clipped to the box. In 3D: the
 * outline of the plane's cut through the box (a convex polygon of 3 to 6
 * corners), then chords across it, parallel, so that it reads as a
 * surface. The normal need not be a unit vector; it must not be zero. */
#ifndef CAROM_VIEWER_PLANE_LINES_H
#define CAROM_VIEWER_PLANE_LINES_H

#define PLANE_LINES_MAX 24

int plane_lines(int dim, const double box[3], const double normal[3], double offset,
                double lines[PLANE_LINES_MAX][2][3]);

#endif
