/* Reading an orbits file.
 *
 * Contract: one sphere per line, exactly seven numbers separated by
 * blanks, `cx cy cz R omega phase radius`; `#` starts a comment, blank
 * lines are skipped. Every error (missing field, a word that is not a
 * number, NaN or infinity, R < 0, radius <= 0, text after the seventh
 * field, a NUL byte, a file with no sphere) fails with CAROM_ERR_PARSE
 * and a message "path:line: ..." naming the field; an unreadable file
 * fails with CAROM_ERR_IO. On failure *orbits is left empty; on success
 * it holds the file's orbits in order (first_id 0). Never prints.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom/drive.h"
#include "error_report.h"

static const char *const field_names[7] = {"cx", "cy", "cz", "R", "omega", "phase", "radius"};

/* Reads one line into *text (NUL-terminated, without the newline); *len
 * is its length, *nul set if it held a NUL byte. 1 read, 0 end, -1 error. */
static int read_line(FILE *f, char **text, size_t *cap, size_t *len, int *nul)
{
    size_t n = 0;
    int c, any = 0;
    *nul = 0;
    while ((c = fgetc(f)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0')
            *nul = 1;
        if (n + 2 > *cap) {
            size_t newcap = *cap ? 2 * *cap : 256;
            char *p = realloc(*text, newcap);
            if (!p)
                return -1;
            *text = p;
            *cap = newcap;
        }
        (*text)[n++] = (char)c;
    }
    if (ferror(f))
        return -1;
    if (!any)
        return 0;
    if (!*text) {
        *text = malloc(1);
        if (!*text)
            return -1;
        *cap = 1;
    }
    (*text)[n] = '\0';
    *len = n;
    return 1;
}

/* Parses the fields of one line (comment already cut). */
static carom_status parse_line(char *s, const char *path, long line, carom_orbit *o,
                               carom_error *error)
{
    double v[7];
    for (int f = 0; f < 7; f++) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: field %d (%s) is missing: expected 7 numbers "
                                "'cx cy cz R omega phase radius', found %d",
                                path, line, f + 1, field_names[f], f);
        char *start = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        char saved = *s;
        *s = '\0';
        char *end;
        errno = 0;
        double x = strtod(start, &end);
        int bad = end == start || *end != '\0';
        if (bad) {
            error_report(error, CAROM_ERR_PARSE, "%s:%ld: field %d (%s): '%.40s' is not a number",
                         path, line, f + 1, field_names[f], start);
            return CAROM_ERR_PARSE;
        }
        *s = saved;
        if (isnan(x))
            return error_report(error, CAROM_ERR_PARSE, "%s:%ld: field %d (%s): NaN is not allowed",
                                path, line, f + 1, field_names[f]);
        if (isinf(x))
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: field %d (%s): infinity is not allowed (or the number "
                                "is too large)", path, line, f + 1, field_names[f]);
        v[f] = x;
    }
    while (*s && isspace((unsigned char)*s))
        s++;
    if (*s)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: trailing text '%.40s' after the 7 fields "
                            "(cx cy cz R omega phase radius)", path, line, s);
    if (v[3] < 0.0)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: field 4 (R): orbit radius %g must be >= 0", path, line, v[3]);
    if (!(v[6] > 0.0))
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: field 7 (radius): sphere radius %g must be positive", path,
                            line, v[6]);
    o->center[0] = v[0];
    o->center[1] = v[1];
    o->center[2] = v[2];
    o->orbit_radius = v[3];
    o->omega = v[4];
    o->phase = v[5];
    o->radius = v[6];
    return CAROM_OK;
}

carom_status carom_orbits_read(const char *path, carom_orbits *orbits, carom_error *error)
{
    if (!path || !orbits)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "path or orbits is NULL");
    carom_orbits_init(orbits);
    FILE *f = fopen(path, "r");
    if (!f)
        return error_report(error, CAROM_ERR_IO, "cannot open orbits file '%s': %s", path,
                            strerror(errno));
    char *text = NULL;
    size_t cap = 0, len = 0;
    long line = 0;
    int nul, got = 0;
    carom_status st = CAROM_OK;
    while (st == CAROM_OK && (got = read_line(f, &text, &cap, &len, &nul)) == 1) {
        line++;
        if (nul) {
            st = error_report(error, CAROM_ERR_PARSE, "%s:%ld: unexpected NUL byte", path, line);
            break;
        }
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        char *s = text;
        while (*s && isspace((unsigned char)*s))
            s++;
        if (!*s)
            continue;
        carom_orbit o;
        st = parse_line(s, path, line, &o, error);
        if (st == CAROM_OK) {
            carom_error e;
            if (carom_orbits_add(orbits, &o, &e) != CAROM_OK)
                st = error_report(error, e.status, "%s:%ld: %s", path, line, e.message);
        }
    }
    if (st == CAROM_OK && got < 0)
        st = error_report(error, ferror(f) ? CAROM_ERR_IO : CAROM_ERR_OUT_OF_MEMORY,
                          "%s: error reading the file", path);
    if (st == CAROM_OK && orbits->n == 0)
        st = error_report(error, CAROM_ERR_PARSE, "%s: the file holds no orbits", path);
    free(text);
    fclose(f);
    if (st != CAROM_OK) {
        carom_orbits_free(orbits);
        return st;
    }
    return error_clear(error);
}
