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

/* Field f of a line (from 0) as the README names it: x0, y0, x1, ... */
static void field_name(size_t f, char name[32])
{
    snprintf(name, 32, "%c%zu", f % 2 ? 'y' : 'x', f / 2);
}

/* The numbers of one line (comment cut, not blank) into *v (grown as
 * needed), *count of them: every field a finite number. */
static int parse_numbers(char *s, const char *path, long line, double **v, size_t *count,
                         size_t *cap, cli_error *error)
{
    *count = 0;
    for (;;) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            return 0;
        char *start = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        char saved = *s;
        *s = '\0';
        char *end, name[32];
        double x = strtod(start, &end);
        field_name(*count, name);
        if (end == start || *end != '\0')
            return cli_fail(error, CLI_EXIT_USAGE, "%s:%ld: field %zu (%s): '%.40s' is not a number",
                            path, line, *count + 1, name, start);
        *s = saved;
        if (!isfinite(x))
            return cli_fail(error, CLI_EXIT_USAGE, "%s:%ld: field %zu (%s): %s is not allowed",
                            path, line, *count + 1, name,
                            isnan(x) ? "NaN" : "infinity (or a number too large)");
        if (*count == *cap) {
            size_t grown = *cap ? 2 * *cap : 16;
            double *p = realloc(*v, grown * sizeof *p);
            if (!p)
                return cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
            *v = p;
            *cap = grown;
        }
        (*v)[(*count)++] = x;
    }
}

/* The points of one line, checked: at least two, each inside the box,
 * no two in a row the same (a segment without a length). */
static int check_points(const double *v, size_t count, const char *path, long line,
                        const double box[3], cli_error *error)
{
    if (count < 4 || count % 2)
        return cli_fail(error, CLI_EXIT_USAGE,
                        "%s:%ld: %zu numbers: expected the points of a segment or a path, "
                        "'x0 y0 x1 y1 [x2 y2 ...]' (two numbers a point, at least two points)",
                        path, line, count);
    for (size_t f = 0; f < count; f++)
        if (v[f] < 0.0 || v[f] > box[f % 2])
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s:%ld: point %zu (%g, %g) leaves the box [0, %g] x [0, %g]", path,
                            line, f / 2, v[f - f % 2], v[f - f % 2 + 1], box[0], box[1]);
    for (size_t q = 2; q < count; q += 2)
        if (v[q] == v[q - 2] && v[q + 1] == v[q - 1])
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s:%ld: points %zu and %zu are the same point (%g, %g): a segment "
                            "needs two ends apart", path, line, q / 2 - 1, q / 2, v[q], v[q + 1]);
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
    double *v = NULL; /* a line's numbers */
    size_t text_cap = 0, cap = 0, v_cap = 0;
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
        size_t count;
        status = parse_numbers(s, path, line, &v, &count, &v_cap, error);
        if (!status)
            status = check_points(v, count, path, line, box, error);
        for (size_t q = 0; !status && q + 2 < count; q += 2)
            if (append(segment, nsegments, &cap, v + q))
                status = cli_fail(error, CLI_EXIT_RUNTIME, "%s: out of memory", path);
    }
    if (!status && ferror(f))
        status = cli_fail(error, CLI_EXIT_USAGE, "%s: error reading the file", path);
    if (!status && *nsegments == 0)
        status = cli_fail(error, CLI_EXIT_USAGE,
                          "%s: no segments (a line 'x0 y0 x1 y1 [x2 y2 ...]': a segment, or a "
                          "path through its points)", path);
    free(text);
    free(v);
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
