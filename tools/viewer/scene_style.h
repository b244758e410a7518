/* Looks shared by the OpenGL window and the software renderer, so that
 * both draw the same picture: colours, the box's edges, where the
 * heads-up line goes.
 *
 * Contract: style_box_edges fills up to 12 edges (4 in 2D, with z = 0)
 * of the box [0,L] and returns how many. A spoke is style_spoke_width
 * pixels wide, from the disk's centre to its rim. */
#ifndef CAROM_VIEWER_SCENE_STYLE_H
#define CAROM_VIEWER_SCENE_STYLE_H

#define STYLE_TEXT_SCALE 2
#define STYLE_TEXT_X 6
#define STYLE_TEXT_Y 3

extern const unsigned char style_background[3];
extern const unsigned char style_box_colour[3];
extern const unsigned char style_text_colour[3];
extern const unsigned char style_plane_colour[3];
/* 2D spokes (frame.h): near black, against every fill colour and the
 * darker rim, drawn on disks of at least STYLE_SPOKE_MIN_RADIUS pixels. */
extern const unsigned char style_spoke_colour[3];
#define STYLE_SPOKE_MIN_RADIUS 2.0

/* Width in pixels of the spoke of a disk of radius_pixels. */
double style_spoke_width(double radius_pixels);

int style_box_edges(int dim, const double box[3], double edges[12][2][3]);

#endif
