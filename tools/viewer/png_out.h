/* Writing an RGB image (rows top to bottom, 3 bytes a pixel) as a PNG
 * file with libpng.
 *
 * Contract: returns 0, or nonzero with a one-line reason in err naming the
 * file; a partly written file is removed. */
#ifndef CAROM_VIEWER_PNG_OUT_H
#define CAROM_VIEWER_PNG_OUT_H

#include <stddef.h>

int png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *err,
                  size_t err_size);

#endif
