/* Reading fixed segments from a text file; contract in segments_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "segments_file.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[4] = {"x0", "y0", "x1", "y1"};

/* The four numbers of one line (comment cut, not blank). */
static int parse_segment(char *s, const char *path, long line, const double box[3], double v[4],
                         cli_error *error)
{
    for (int f = 0; f < 4; f++) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s:%ld: field %d (%s) is missing: expected 4 numbers 'x0 y0 x1 y1', "
                            "found %d", path, line, f + 1, field_names[f], f);
        char *start = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        char saved = *s;
        *s = '\0';
        char *end;
        double x = strtod(start, &end);
        if (end == start || *end != '\0')
            return cli_fail(error, CLI_EXIT_USAGE, "%s:%ld: field %d (%s): '%.40s' is not a number",
                            path, line, f + 1, field_names[f], start);
        *s = saved;
        if (!isfinite(x))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s:%ld: field %d (%s): %s is not allowed", path, line, f + 1,
                            field_names[f], isnan(x) ? "NaN" : "infinity (or a number too large)");
        v[f] = x;
    }
    while (*s && isspace((unsigned char)*s))
        s++;
    if (*s)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s:%ld: trailing text '%.40s' after the 4 fields (x0 y0 x1 y1)", path,
                        line, s);
    for (int f = 0; f < 4; f++)
        if (v[f] < 0.0 || v[f] > box[f % 2])
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s:%ld: the segment (%g, %g)-(%g, %g) leaves the box [0, %g] x "
                            "[0, %g] (field %d, %s)", path, line, v[0], v[1], v[2], v[3], box[0],
                            box[1], f + 1, field_names[f]);
    if (v[0] == v[2] && v[1] == v[3])
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s:%ld: the segment's two ends are the same point (%g, %g)", path, line,
                        v[0], v[1]);
    return 0;
}

/* Appends v to *segment (growing it), or fails for memory. */
static int append(double (**segment)[4], size_t *n, size_t *cap, const double v[4])
{
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : 64;
        double(*p)[4] = realloc(*segment, grown * sizeof *p);
        if (!p)
            return -1;
        *segment = p;
        *cap = grown;
    }
    memcpy((*segment)[(*n)++], v, sizeof (*segment)[0]);
    return 0;
}

int segments_file_read(const char *path, const double box[3], double (**segment)[4],
                       size_t *nsegments, cli_error *error)
{
    *segment = NULL;
    *nsegments = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_fail(error, CLI_EXIT_USAGE, "cannot open segments file %s: %s", path,
                        strerror(errno));
    char *text = NULL;
    size_t text_cap = 0, cap = 0;
    long line = 0;
    int status = 0;
    ssize_t len;
    while (!status && (len = getline(&text, &text_cap, f)) >= 0) {
        line++;
        if (memchr(text, '\0', (size_t)len)) {
            status = cli_fail(error, CLI_EXIT_USAGE, "%s:%ld: unexpected NUL byte", path, line);
            break;
        }
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        char *s = text;
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        double v[4];
        status = parse_segment(s, path, line, box, v, error);
        if (!status && append(segment, nsegments, &cap, v))
            status = cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
    }
    if (!status && ferror(f))
        status = cli_fail(error, CLI_EXIT_USAGE, "%s: error reading the file", path);
    if (!status && *nsegments == 0)
        status = cli_fail(error, CLI_EXIT_USAGE, "%s: no segments (one 'x0 y0 x1 y1' a line)",
                          path);
    free(text);
    fclose(f);
    if (status) {
        free(*segment);
        *segment = NULL;
        *nsegments = 0;
    }
    return status;
}

int segments_gather(const double (*given)[4], int ngiven, const char *path, const double box[3],
                    double (**all)[4], int *n, cli_error *error)
{
    *all = NULL;
    *n = 0;
    double(*read)[4] = NULL;
    size_t nread = 0;
    if (path && segments_file_read(path, box, &read, &nread, error))
        return error->exit_code;
    if (nread > (size_t)(INT_MAX - ngiven)) {
        free(read);
        return cli_fail(error, CLI_EXIT_USAGE, "%s: too many segments (%zu)", path, nread);
    }
    size_t total = (size_t)ngiven + nread;
    if (total == 0)
        return 0;
    *all = malloc(total * sizeof **all);
    if (!*all) {
        free(read);
        return cli_fail(error, CLI_EXIT_RUNTIME, "out of memory");
    }
    if (ngiven)
        memcpy(*all, given, (size_t)ngiven * sizeof **all);
    if (nread)
        memcpy(*all + ngiven, read, nread * sizeof **all);
    free(read);
    *n = (int)total;
    return 0;
}
