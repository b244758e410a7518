/* Fixed segments from a text file, for `carom run segments_file=FILE`
 * (and view/render): a maze, a Galton board, a level drawn elsewhere,
 * with as many segments as it needs (segments= takes at most 16).
 *
 * Contract: each line is a path through two or more points, `x0 y0 x1
 * y1 [x2 y2 ...]`, numbers separated by blanks: a segment from each point
 * to the next (two points: one segment; a closed outline repeats its
 * first point at the end); `#` starts a comment and blank lines are
 * skipped. segments_file_read either returns 0 with *segment a malloc'd
 * array of *nsegments >= 1 segments in file order (the caller frees it),
 * or fails with one line "path:line: ..." for a word that is not a
 * number, NaN or infinity (naming the field: x0, y0, x1, ...), an odd
 * count of numbers or fewer than four, a NUL byte, a point outside the
 * box [0, box[0]] x [0, box[1]], or two points in a row the same (a
 * segment without a length, which carom_world_add_segment refuses);
 * "path: no segments" for a file without one, and the system's reason
 * for a file it cannot read. Nothing is printed.
 *
 * segments_gather puts the given segments (segments=) and then the
 * file's (path, unless NULL) into one malloc'd array *all of *n (NULL
 * when there are none), the order in which the world numbers them; it
 * returns 0, or fails as segments_file_read does (or on more than
 * INT_MAX segments). */
#ifndef CAROM_TOOLS_SEGMENTS_FILE_H
#define CAROM_TOOLS_SEGMENTS_FILE_H

#include <stddef.h>

#include "cli.h"

int segments_file_read(const char *path, const double box[3], double (**segment)[4],
                       size_t *nsegments, cli_error *error);

int segments_gather(const double (*given)[4], int ngiven, const char *path, const double box[3],
                    double (**all)[4], int *n, cli_error *error);

#endif
