/* Camera maths of the viewer (see camera.h): a fixed orthographic view
 * of the box in 2D, an orbiting perspective camera in 3D with the last
 * axis (the one gravity pulls along) pointing up on screen. */
#include "camera.h"

#include <math.h>
#include <string.h>

#define CAMERA_PI 3.14159265358979323846

#define HUD_TOP_PIXELS 22.0
#define MARGIN_PIXELS 8.0

static void normalize(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0.0)
        for (int k = 0; k < 3; k++)
            v[k] /= n;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void camera_init(camera *c, int dim, const double box[3])
{
    memset(c, 0, sizeof *c);
    c->dim = dim;
    for (int k = 0; k < 3; k++)
        c->box[k] = box[k];
    if (dim == 2)
        c->box[2] = 0.0;
    c->yaw = 0.45;
    c->pitch = 0.35;
    c->distance = 1.45;
    c->fov_y = 45.0 * CAMERA_PI / 180.0;
}

static double diagonal(const camera *c)
{
    return sqrt(dot(c->box, c->box));
}

static void setup_2d(camera *c)
{
    double w = c->width, h = c->height;
    double avail_w = w - 2.0 * MARGIN_PIXELS, avail_h = h - HUD_TOP_PIXELS - MARGIN_PIXELS;
    if (avail_w < 1.0)
        avail_w = 1.0;
    if (avail_h < 1.0)
        avail_h = 1.0;
    double s = fmin(avail_w / c->box[0], avail_h / c->box[1]);
    c->scale = s;
    c->origin[0] = 0.5 * (w - s * c->box[0]);
    c->origin[1] = HUD_TOP_PIXELS + 0.5 * (avail_h - s * c->box[1]);
    /* world -> NDC directly: view is the identity. */
    memset(c->view, 0, sizeof c->view);
    memset(c->proj, 0, sizeof c->proj);
    for (int k = 0; k < 4; k++)
        c->view[5 * k] = 1.0;
    c->proj[0] = 2.0 * s / w;
    c->proj[12] = 2.0 * c->origin[0] / w - 1.0;
    c->proj[5] = 2.0 * s / h;
    c->proj[13] = 1.0 - 2.0 * (c->origin[1] + c->box[1] * s) / h;
    c->proj[10] = -1e-3;
    c->proj[15] = 1.0;
}

static void setup_3d(camera *c)
{
    double d = diagonal(c), r = c->distance * d;
    double centre[3] = {0.5 * c->box[0], 0.5 * c->box[1], 0.5 * c->box[2]};
    double dir[3] = {cos(c->pitch) * sin(c->yaw), -cos(c->pitch) * cos(c->yaw), sin(c->pitch)};
    for (int k = 0; k < 3; k++) {
        c->eye[k] = centre[k] + r * dir[k];
        c->forward[k] = -dir[k];
    }
    double world_up[3] = {0.0, 0.0, 1.0};
    cross(c->forward, world_up, c->right);
    normalize(c->right);
    cross(c->right, c->forward, c->up);
    /* Column-major view matrix: rows right, up, -forward. */
    const double *rows[3] = {c->right, c->up, c->forward};
    memset(c->view, 0, sizeof c->view);
    for (int i = 0; i < 3; i++) {
        double sign = i == 2 ? -1.0 : 1.0;
        for (int k = 0; k < 3; k++)
            c->view[4 * k + i] = sign * rows[i][k];
        c->view[12 + i] = -sign * dot(rows[i], c->eye);
    }
    c->view[15] = 1.0;
    double aspect = (double)c->width / (double)(c->height > 0 ? c->height : 1);
    double near = 0.02 * d, far = r + 2.0 * d;
    c->focal = 1.0 / tan(0.5 * c->fov_y);
    memset(c->proj, 0, sizeof c->proj);
    c->proj[0] = c->focal / aspect;
    c->proj[5] = c->focal;
    c->proj[10] = (far + near) / (near - far);
    c->proj[11] = -1.0;
    c->proj[14] = 2.0 * far * near / (near - far);
}

void camera_setup(camera *c, int width, int height)
{
    c->width = width > 0 ? width : 1;
    c->height = height > 0 ? height : 1;
    if (c->dim == 2)
        setup_2d(c);
    else
        setup_3d(c);
}

int camera_project(const camera *c, const double p[3], double *px, double *py, double *depth)
{
    if (c->dim == 2) {
        *px = c->origin[0] + p[0] * c->scale;
        *py = c->origin[1] + (c->box[1] - p[1]) * c->scale;
        *depth = 0.0;
        return 1;
    }
    double rel[3] = {p[0] - c->eye[0], p[1] - c->eye[1], p[2] - c->eye[2]};
    double z = dot(rel, c->forward);
    *depth = z;
    if (z <= 1e-9 * diagonal(c))
        return 0;
    double aspect = (double)c->width / (double)c->height;
    double xn = c->focal / aspect * dot(rel, c->right) / z;
    double yn = c->focal * dot(rel, c->up) / z;
    *px = 0.5 * (xn + 1.0) * c->width;
    *py = 0.5 * (1.0 - yn) * c->height;
    return 1;
}

double camera_pixel_radius(const camera *c, double r, double depth)
{
    if (c->dim == 2)
        return r * c->scale;
    return depth > 0.0 ? r * c->focal * 0.5 * c->height / depth : 0.0;
}

void camera_pick(const camera *c, double px, double py, const double anchor[3], double out[3])
{
    if (c->dim == 2) {
        out[0] = (px - c->origin[0]) / c->scale;
        out[1] = c->box[1] - (py - c->origin[1]) / c->scale;
        out[2] = 0.0;
        return;
    }
    double aspect = (double)c->width / (double)c->height;
    double xn = 2.0 * px / c->width - 1.0, yn = 1.0 - 2.0 * py / c->height;
    double dir[3];
    for (int k = 0; k < 3; k++)
        dir[k] = c->forward[k] + xn * aspect / c->focal * c->right[k] +
                 yn / c->focal * c->up[k];
    double rel[3] = {anchor[0] - c->eye[0], anchor[1] - c->eye[1], anchor[2] - c->eye[2]};
    double t = dot(rel, c->forward) / dot(dir, c->forward);
    for (int k = 0; k < 3; k++)
        out[k] = c->eye[k] + t * dir[k];
}

void camera_orbit(camera *c, double dx_pixels, double dy_pixels)
{
    c->yaw -= dx_pixels * 0.008;
    c->pitch += dy_pixels * 0.008;
    if (c->pitch > 1.5)
        c->pitch = 1.5;
    if (c->pitch < -1.5)
        c->pitch = -1.5;
}

void camera_zoom(camera *c, double factor)
{
    c->distance *= factor;
    if (c->distance < 0.3)
        c->distance = 0.3;
    if (c->distance > 5.0)
        c->distance = 5.0;
}
