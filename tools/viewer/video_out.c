/* PNG sequences and MP4 through ffmpeg (see video_out.h). */
#define _POSIX_C_SOURCE 200809L
#include "video_out.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "png_out.h"

int video_is_mp4(const char *out)
{
    size_t n = strlen(out);
    return n > 4 && !strcmp(out + n - 4, ".mp4");
}

/* Is `name` an executable in a directory of $PATH? */
static int in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[4096];
    while (*path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && len < sizeof dir - strlen(name) - 2) {
            memcpy(dir, path, len);
            snprintf(dir + len, sizeof dir - len, "/%s", name);
            if (access(dir, X_OK) == 0)
                return 1;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* out in single quotes for the shell. */
static int shell_quote(const char *s, char *out, size_t size)
{
    size_t n = 0;
    if (size < 3)
        return -1;
    out[n++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t plen = piece ? strlen(piece) : 1;
        if (n + plen + 2 > size)
            return -1;
        if (piece)
            memcpy(out + n, piece, plen);
        else
            out[n] = *s;
        n += plen;
    }
    out[n++] = '\'';
    out[n] = '\0';
    return 0;
}

int video_open(video_out *v, const char *out, int width, int height, double fps, char *err,
               size_t err_size)
{
    memset(v, 0, sizeof *v);
    v->width = width;
    v->height = height;
    if (video_is_mp4(out)) {
        if (!in_path("ffmpeg")) {
            snprintf(err, err_size,
                     "out=%s needs ffmpeg, which is not installed (apt-get install ffmpeg); "
                     "out=DIR writes PNG frames instead", out);
            return 1;
        }
        char quoted[2200], command[2600];
        if (shell_quote(out, quoted, sizeof quoted)) {
            snprintf(err, err_size, "out=%s: file name too long", out);
            return 1;
        }
        snprintf(command, sizeof command,
                 "ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgb24 -s %dx%d -r %g -i - "
                 "-c:v libx264 -pix_fmt yuv420p %s",
                 width, height, fps, quoted);
        fflush(stdout);
        signal(SIGPIPE, SIG_IGN); /* a dead ffmpeg is reported, not fatal */
        v->pipe = popen(command, "w");
        if (!v->pipe) {
            snprintf(err, err_size, "cannot start ffmpeg: %s", strerror(errno));
            return 1;
        }
        v->is_video = 1;
        return 0;
    }
    snprintf(v->dir, sizeof v->dir, "%s", out);
    struct stat st;
    if (stat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, err_size, "out=%s: exists and is not a directory (use a directory "
                     "for PNG frames or a .mp4 name for a video)", out);
            return 1;
        }
    } else if (mkdir(out, 0777) != 0) {
        snprintf(err, err_size, "out=%s: cannot create the directory (%s)", out, strerror(errno));
        return 1;
    }
    return 0;
}

int video_write(video_out *v, const unsigned char *rgb, char *err, size_t err_size)
{
    size_t bytes = (size_t)v->width * (size_t)v->height * 3;
    if (v->is_video) {
        if (fwrite(rgb, 1, bytes, v->pipe) != bytes) {
            snprintf(err, err_size, "ffmpeg stopped taking frames");
            return 1;
        }
    } else {
        char path[1200];
        snprintf(path, sizeof path, "%s/frame_%05ld.png", v->dir, v->count);
        if (png_write_rgb(path, rgb, v->width, v->height, err, err_size))
            return 1;
    }
    v->count++;
    return 0;
}

int video_close(video_out *v, char *err, size_t err_size)
{
    if (!v->is_video || !v->pipe)
        return 0;
    int st = pclose(v->pipe);
    v->pipe = NULL;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, err_size, "ffmpeg failed to write the video");
        return 1;
    }
    return 0;
}
