/* Where `carom render` puts its pictures: numbered PNG files in a
 * directory (created if missing), or an MP4 file through an `ffmpeg`
 * process fed raw RGB frames on a pipe.
 *
 * Contract: video_open decides from the name (ending in .mp4: video) and
 * fails with a one-line message when the directory cannot be made or
 * ffmpeg is not installed; video_write adds one width x height RGB
 * picture; video_close finishes (and reports ffmpeg's failure). For MP4
 * the width and height must be even. */
#ifndef CAROM_VIEWER_VIDEO_OUT_H
#define CAROM_VIEWER_VIDEO_OUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct video_out {
    int is_video;
    char dir[1024];
    FILE *pipe;
    long count;
    int width, height;
} video_out;

int video_is_mp4(const char *out);
int video_open(video_out *v, const char *out, int width, int height, double fps, char *err,
               size_t err_size);
int video_write(video_out *v, const unsigned char *rgb, char *err, size_t err_size);
int video_close(video_out *v, char *err, size_t err_size);

#endif
