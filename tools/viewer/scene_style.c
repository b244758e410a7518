/* The viewer's shared looks (see scene_style.h). */
#include "scene_style.h"

const unsigned char style_background[3] = {24, 26, 32};
const unsigned char style_box_colour[3] = {200, 200, 210};
const unsigned char style_text_colour[3] = {235, 235, 235};
const unsigned char style_plane_colour[3] = {240, 225, 170};
const unsigned char style_spoke_colour[3] = {16, 16, 20};

double style_spoke_width(double radius_pixels)
{
    double w = 0.1 * radius_pixels;
    return w < 1.0 ? 1.0 : w > 5.0 ? 5.0 : w;
}

int style_box_edges(int dim, const double box[3], double edges[12][2][3])
{
    int n = 0;
    if (dim == 2) {
        const double c[4][3] = {{0, 0, 0}, {box[0], 0, 0}, {box[0], box[1], 0}, {0, box[1], 0}};
        for (int e = 0; e < 4; e++) {
            for (int k = 0; k < 3; k++) {
                edges[n][0][k] = c[e][k];
                edges[n][1][k] = c[(e + 1) % 4][k];
            }
            n++;
        }
        return n;
    }
    /* Corners are the bit patterns 0..7; an edge joins corners one bit apart. */
    for (int a = 0; a < 8; a++)
        for (int bit = 0; bit < 3; bit++) {
            int b = a | (1 << bit);
            if (b == a)
                continue;
            for (int k = 0; k < 3; k++) {
                edges[n][0][k] = (a >> k & 1) ? box[k] : 0.0;
                edges[n][1][k] = (b >> k & 1) ? box[k] : 0.0;
            }
            n++;
        }
    return n;
}

