/* Looks shared by the OpenGL window and the software renderer, so that
 * both draw the same picture: colours, the box's edges, where the
 * heads-up line goes.
 *
 * Contract: style_box_edges fills up to 12 edges (4 in 2D, with z = 0)
 * of the box [0,L] and returns how many. */
#ifndef CAROM_VIEWER_SCENE_STYLE_H
#define CAROM_VIEWER_SCENE_STYLE_H

#define STYLE_TEXT_SCALE 2
#define STYLE_TEXT_X 6
#define STYLE_TEXT_Y 3

extern const unsigned char style_background[3];
extern const unsigned char style_box_colour[3];
extern const unsigned char style_text_colour[3];
extern const unsigned char style_plane_colour[3];

int style_box_edges(int dim, const double box[3], double edges[12][2][3]);

#endif
