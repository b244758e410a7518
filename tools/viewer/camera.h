/* The viewer's camera, shared by the OpenGL window and the software
 * renderer so that both draw the same picture.
 *
 * Contract: in 2D the box [0,Lx]x[0,Ly] is shown whole, centred, with a
 * small margin, y up; in 3D an orbiting perspective camera looks at the
 * box centre from yaw/pitch/distance. camera_setup computes the column-
 * major view and projection matrices (OpenGL conventions, eye looks down
 * -z) for a viewport of w x h pixels. camera_project maps a world point to
 * pixel coordinates (x right, y down, origin top-left) and eye depth
 * (distance along the view direction; 0 in 2D), returning 0 if the point
 * is behind the eye. camera_pick maps a pixel to the world point on the
 * plane through `anchor` facing the camera (in 2D: the point itself). */
#ifndef CAROM_VIEWER_CAMERA_H
#define CAROM_VIEWER_CAMERA_H

typedef struct camera {
    int dim;
    double box[3];
    double yaw, pitch;   /* radians (3D) */
    double distance;     /* eye to box centre, in box diagonals (3D) */
    double fov_y;        /* radians (3D) */
    int width, height;   /* viewport in pixels */
    /* derived by camera_setup */
    double view[16], proj[16];
    double eye[3];
    double scale;        /* 2D: pixels per unit length */
    double origin[2];    /* 2D: pixel of the world point (0, Ly) */
    double focal;        /* 3D: 1/tan(fov_y/2) */
    double forward[3], right[3], up[3]; /* 3D: camera axes in world space */
} camera;

/* Default view of a box: 2D whole box, 3D from the front, a little above. */
void camera_init(camera *c, int dim, const double box[3]);
void camera_setup(camera *c, int width, int height);

int camera_project(const camera *c, const double p[3], double *px, double *py, double *depth);
/* Pixel size of a sphere of radius r at eye depth `depth` (>0 in 3D). */
double camera_pixel_radius(const camera *c, double r, double depth);
void camera_pick(const camera *c, double px, double py, const double anchor[3], double out[3]);

/* Orbit by pixel drags (3D). */
void camera_orbit(camera *c, double dx_pixels, double dy_pixels);
void camera_zoom(camera *c, double factor);

#endif
