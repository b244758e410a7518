/* PNG output through libpng (see png_out.h). libpng reports errors by
 * longjmp; everything it touches is set up before setjmp. */
#include "png_out.h"

#include <png.h>
#include <stdio.h>

int png_write_rgb(const char *path, const unsigned char *rgb, int width, int height, char *err,
                  size_t err_size)
{
    FILE *out = fopen(path, "wb");
    if (!out) {
        snprintf(err, err_size, "%s: cannot open for writing", path);
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        fclose(out);
        remove(path);
        snprintf(err, err_size, "%s: out of memory for the PNG encoder", path);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(out);
        remove(path);
        snprintf(err, err_size, "%s: error writing the PNG file", path);
        return 1;
    }
    png_init_io(png, out);
    png_set_compression_level(png, 6);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * (size_t)width * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(out) != 0) {
        remove(path);
        snprintf(err, err_size, "%s: error writing the PNG file", path);
        return 1;
    }
    return 0;
}
