/* The multi-frame extended XYZ reader (see traj_reader.h). */
#define _POSIX_C_SOURCE 200809L
#include "traj_reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "carom/carom.h"
#include "frames.h"
#ifdef CAROM_HAVE_HDF5
#include "h5md_in.h"
#endif

int traj_open(traj_reader *r, const char *path, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    if (frames_name_is_h5md(path)) {
#ifdef CAROM_HAVE_HDF5
        r->h5md = h5md_in_open(path, err, err_size);
        return r->h5md ? 0 : -1;
#else
        snprintf(err, err_size, "%s: " FRAMES_WITHOUT_HDF5 ", so it reads no H5MD", path);
        return -1;
#endif
    }
    r->file = fopen(path, "r");
    if (!r->file) {
        snprintf(err, err_size, "%s: cannot open (%s)", path, strerror(errno));
        return -1;
    }
    return 0;
}

void traj_close(traj_reader *r)
{
    if (r->file)
        fclose(r->file);
    r->file = NULL;
#ifdef CAROM_HAVE_HDF5
    h5md_in_close(r->h5md);
#endif
    r->h5md = NULL;
}

#ifdef CAROM_HAVE_HDF5
/* The next H5MD frame, checked as an XYZ frame is. */
static int h5md_next(traj_reader *r, view_frame *f, char *err, size_t err_size)
{
    size_t n = h5md_in_count(r->h5md);
    if (frame_reserve(f, n)) {
        snprintf(err, err_size, "%s: out of memory", r->path);
        return -1;
    }
    int got = h5md_in_next(r->h5md, &f->time, f->pos, f->vel, f->radius, f->spin, err, err_size);
    if (got <= 0)
        return got;
    int species = h5md_in_species(r->h5md, f->species, err, err_size);
    if (species < 0)
        return -1;
    f->has_species = species;
    f->dim = h5md_in_dim(r->h5md);
    f->spokes = f->dim == 2 && h5md_in_has_spin(r->h5md);
    h5md_in_box(r->h5md, f->box);
    f->n = n;
    f->big = -1;
    int sound = 1;
    for (int k = 0; k < f->dim; k++)
        sound &= isfinite(f->box[k]) && f->box[k] > 0.0;
    for (size_t i = 0; i < n && sound; i++) {
        sound &= isfinite(f->radius[i]) && f->radius[i] > 0.0;
        for (int k = 0; k < 3; k++)
            sound &= isfinite(f->pos[i][k]) && isfinite(f->vel[i][k]);
        sound &= isfinite(f->spin[i]);
    }
    if (!sound) {
        snprintf(err, err_size, "%s: a box length, radius, position, velocity or spin that is "
                 "not a positive (or finite) number", r->path);
        return -1;
    }
    return 1;
}
#endif

/* 1: a line; 0: end of file; -1: too long. */
static int next_line(traj_reader *r)
{
    if (!fgets(r->text, sizeof r->text, r->file))
        return 0;
    r->line++;
    size_t len = strlen(r->text);
    if (len == sizeof r->text - 1 && r->text[len - 1] != '\n')
        return -1;
    while (len > 0 && (r->text[len - 1] == '\n' || r->text[len - 1] == '\r'))
        r->text[--len] = '\0';
    return 1;
}

static int bad(traj_reader *r, char *err, size_t err_size, const char *what)
{
    snprintf(err, err_size, "%s:%ld: %s", r->path, r->line, what);
    return -1;
}

/* Value of key=... or key="..." in the header line, copied into out. */
static int header_value(const char *line, const char *key, char *out, size_t out_size)
{
    size_t klen = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p != line && p[-1] != ' ' && p[-1] != '\t') || p[klen] != '=')
            continue;
        const char *v = p + klen + 1, *end;
        if (*v == '"') {
            v++;
            end = strchr(v, '"');
            if (!end)
                return 0;
        } else {
            end = v + strcspn(v, " \t");
        }
        size_t n = (size_t)(end - v);
        if (n >= out_size)
            return 0;
        memcpy(out, v, n);
        out[n] = '\0';
        return 1;
    }
    return 0;
}

typedef struct columns {
    int pos, velo, radius, spin, species, count;
} columns;

/* Column of each property in Properties=name:type:count:... */
static int parse_properties(const char *props, columns *c)
{
    c->pos = c->velo = c->radius = c->spin = c->species = -1;
    int col = 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", props);
    char *save = NULL;
    char *name = strtok_r(copy, ":", &save);
    while (name) {
        char *type = strtok_r(NULL, ":", &save);
        char *count = type ? strtok_r(NULL, ":", &save) : NULL;
        if (!count)
            return 0;
        int n = atoi(count);
        if (n <= 0)
            return 0;
        if (!strcmp(name, "pos") && n == 3)
            c->pos = col;
        else if (!strcmp(name, "velo") && n == 3)
            c->velo = col;
        else if (!strcmp(name, "radius") && n == 1)
            c->radius = col;
        else if (!strcmp(name, "species") && type[0] == 'S' && n == 1 && c->species < 0)
            c->species = col;
        else if ((!strcmp(name, "spin") || !strcmp(name, "omega") ||
                  !strcmp(name, "angular_velocity")) &&
                 n == 3)
            c->spin = col;
        col += n;
        name = strtok_r(NULL, ":", &save);
    }
    c->count = col;
    return c->pos >= 0;
}

/* The species a species:S:1 token of len characters names, as xyz.c
 * reads it: "S" species 0, "S" and decimal digits that species (*numbered
 * set; UINT32_MAX when too large), any other name 0. */
static uint32_t species_of(const char *token, size_t len, int *numbered)
{
    *numbered = 0;
    if (len < 2 || token[0] != 'S')
        return 0;
    uint64_t k = 0;
    for (size_t i = 1; i < len; i++) {
        if (token[i] < '0' || token[i] > '9')
            return 0;
        k = k * 10 + (uint64_t)(token[i] - '0');
        if (k > UINT32_MAX)
            k = UINT32_MAX;
    }
    *numbered = 1;
    return (uint32_t)k;
}

int traj_next(traj_reader *r, view_frame *f, char *err, size_t err_size)
{
#ifdef CAROM_HAVE_HDF5
    if (r->h5md)
        return h5md_next(r, f, err, err_size);
#endif
    int got;
    do {
        got = next_line(r);
        if (got < 0)
            return bad(r, err, err_size, "line too long");
    } while (got == 1 && strspn(r->text, " \t") == strlen(r->text));
    if (got == 0)
        return 0;
    char *end;
    errno = 0;
    long long n = strtoll(r->text, &end, 10);
    if (end == r->text || n < 0 || errno || strspn(end, " \t") != strlen(end))
        return bad(r, err, err_size, "expected the number of spheres");
    if (next_line(r) != 1)
        return bad(r, err, err_size, "missing header line");
    char value[1024];
    double m[9];
    if (!header_value(r->text, "Lattice", value, sizeof value) ||
        sscanf(value, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &m[0], &m[1], &m[2], &m[3], &m[4],
               &m[5], &m[6], &m[7], &m[8]) != 9)
        return bad(r, err, err_size, "header needs Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\"");
    columns c;
    if (!header_value(r->text, "Properties", value, sizeof value) ||
        !parse_properties(value, &c))
        return bad(r, err, err_size, "header needs Properties with pos:R:3");
    f->dim = 3;
    if (header_value(r->text, "dim", value, sizeof value))
        f->dim = atoi(value) == 2 ? 2 : 3;
    f->time = 0.0;
    if (header_value(r->text, "Time", value, sizeof value))
        f->time = strtod(value, NULL);
    f->box[0] = m[0];
    f->box[1] = m[4];
    f->box[2] = f->dim == 2 ? 0.0 : m[8];
    for (int k = 0; k < f->dim; k++)
        if (!(isfinite(f->box[k]) && f->box[k] > 0.0))
            return bad(r, err, err_size, "box lengths must be positive");
    if (frame_reserve(f, (size_t)n))
        return bad(r, err, err_size, "out of memory");
    f->n = 0;
    f->big = -1;
    f->spokes = f->dim == 2 && c.spin >= 0;
    f->has_species = 0;
    for (long long i = 0; i < n; i++) {
        if (next_line(r) != 1)
            return bad(r, err, err_size, "truncated frame (fewer sphere lines than N)");
        double v[64];
        int col = 0;
        char *p = r->text, *tok_end;
        const char *species_token = "";
        size_t species_len = 0;
        /* Column 0 is usually the species (text); numbers are parsed where needed. */
        while (*p && col < 64) {
            p += strspn(p, " \t");
            if (!*p)
                break;
            size_t len = strcspn(p, " \t");
            errno = 0;
            v[col] = strtod(p, &tok_end);
            if (tok_end != p + len)
                v[col] = NAN;
            if (col == c.species) {
                species_token = p;
                species_len = len;
            }
            col++;
            p += len;
        }
        if (col < c.count)
            return bad(r, err, err_size, "too few columns");
        size_t s = f->n++;
        for (int k = 0; k < 3; k++) {
            f->pos[s][k] = v[c.pos + k];
            f->vel[s][k] = c.velo >= 0 ? v[c.velo + k] : 0.0;
        }
        f->radius[s] = c.radius >= 0 ? v[c.radius] : 0.5;
        f->spin[s] = c.spin >= 0 ? v[c.spin + 2] : 0.0;
        int numbered;
        f->species[s] = species_of(species_token, species_len, &numbered);
        if (numbered && f->species[s] >= CAROM_SPECIES_MAX) {
            char what[160];
            snprintf(what, sizeof what, "column %d (species): '%.*s' is out of range (S0 to S%d)",
                     c.species + 1, (int)(species_len < 40 ? species_len : 40), species_token,
                     CAROM_SPECIES_MAX - 1);
            return bad(r, err, err_size, what);
        }
        f->has_species |= numbered;
        if (!isfinite(f->spin[s]))
            return bad(r, err, err_size, "malformed number");
        if (f->dim == 2)
            f->pos[s][2] = f->vel[s][2] = 0.0;
        for (int k = 0; k < 3; k++)
            if (!isfinite(f->pos[s][k]) || !isfinite(f->vel[s][k]))
                return bad(r, err, err_size, "malformed number");
        if (!(isfinite(f->radius[s]) && f->radius[s] > 0.0))
            return bad(r, err, err_size, "radius must be a positive number");
    }
    return 1;
}
