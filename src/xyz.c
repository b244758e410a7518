/* Extended XYZ reading and writing (the format ASE and OVITO read).
 *
 * Contract: a file is
 *   N
 *   key=value pairs, values optionally in double quotes
 *   N lines, one sphere each, columns as Properties says
 * Lattice (orthorhombic, 9 numbers, but for the tilt of a sheared state:
 * the second vector's x, scene.shear_offset) and Properties (pos:R:3 and
 * radius:R:1 required; velo:R:3 and mass:R:1 optional, velocity 0 and
 * mass 1 by default; spin:R:3 optional, the angular velocities, which
 * the scene then keeps (in 2D only z may be nonzero); species:S:1
 * optional: "S" is species 0 and "S<k>" (decimal digits) species k,
 * below CAROM_SPECIES_MAX, any other name (an element's) species 0, and
 * the scene gets a species array only when some line uses the S<k>
 * form; other columns skipped) are required; pbc defaults to
 * "T T T"; dim=2|3 defaults to 3, and in 2D z columns must be 0 and Lz is
 * ignored. Only the first frame is read. Every error names the file and
 * line. On failure the destination scene is left untouched. Writing uses
 * %.17g so that reading a written file gives the same doubles, and writes
 * the species column as "S<k>" when the scene has a species array (so
 * that OVITO tells the species apart), else "S".
 */
#include "carom/scene.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_report.h"

/* ---- lines ---- */

typedef struct line_reader {
    FILE *file;
    const char *path;
    char *text;
    size_t cap;
    long number; /* 1-based number of the line in text */
} line_reader;

/* 1: a line was read; 0: end of file; -1: out of memory or read error. */
static int read_line(line_reader *r)
{
    size_t len = 0;
    int c;
    int any = 0;
    while ((c = fgetc(r->file)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (len + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *p = realloc(r->text, cap);
            if (!p)
                return -1;
            r->text = p;
            r->cap = cap;
        }
        r->text[len++] = (char)c;
    }
    if (ferror(r->file))
        return -1;
    if (!any)
        return 0;
    if (!r->text) {
        r->text = malloc(1);
        if (!r->text)
            return -1;
        r->cap = 1;
    }
    if (len > 0 && r->text[len - 1] == '\r')
        len--;
    r->text[len] = '\0';
    r->number++;
    return 1;
}

static int is_blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return 0;
    return 1;
}

/* Parses a whole string as a nonnegative integer (surrounding blanks ok). */
static int parse_count(const char *s, size_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE || v > SIZE_MAX)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return 0;
    *out = (size_t)v;
    return 1;
}

/* Splits off the next blank-separated token of *cursor in place (like
 * strtok, but with no hidden state); NULL when none is left. */
static char *next_token(char **cursor)
{
    char *s = *cursor;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s) {
        *cursor = s;
        return NULL;
    }
    char *tok = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    if (*s)
        *s++ = '\0';
    *cursor = s;
    return tok;
}

/* Parses a whole token as a double; 0 if malformed. */
static int parse_double(const char *s, double *out)
{
    if (!*s)
        return 0;
    char *end;
    *out = strtod(s, &end);
    return *end == '\0';
}

/* ---- the comment line ---- */

typedef struct header {
    int has_lattice, has_properties, has_pbc, has_dim;
    char lattice[512];
    char properties[1024];
    char pbc[64];
    char dim[16];
} header;

static int key_is(const char *key, size_t len, const char *name)
{
    if (strlen(name) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)key[i]) != tolower((unsigned char)name[i]))
            return 0;
    return 1;
}

static void copy_value(char *dst, size_t cap, const char *src, size_t len)
{
    if (len >= cap)
        len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static carom_status parse_header(const line_reader *r, header *h, carom_error *error)
{
    memset(h, 0, sizeof *h);
    const char *s = r->text;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        const char *key = s;
        while (*s && *s != '=' && !isspace((unsigned char)*s))
            s++;
        size_t key_len = (size_t)(s - key);
        if (*s != '=')
            continue; /* a bare key (a flag): nothing we use */
        s++;
        const char *value;
        size_t value_len;
        if (*s == '"') {
            value = ++s;
            while (*s && *s != '"')
                s++;
            if (*s != '"')
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: unterminated quoted value of '%.*s'", r->path,
                                    r->number, (int)key_len, key);
            value_len = (size_t)(s - value);
            s++;
        } else {
            value = s;
            while (*s && !isspace((unsigned char)*s))
                s++;
            value_len = (size_t)(s - value);
        }
        if (key_is(key, key_len, "Lattice")) {
            h->has_lattice = 1;
            copy_value(h->lattice, sizeof h->lattice, value, value_len);
        } else if (key_is(key, key_len, "Properties")) {
            h->has_properties = 1;
            copy_value(h->properties, sizeof h->properties, value, value_len);
        } else if (key_is(key, key_len, "pbc")) {
            h->has_pbc = 1;
            copy_value(h->pbc, sizeof h->pbc, value, value_len);
        } else if (key_is(key, key_len, "dim")) {
            h->has_dim = 1;
            copy_value(h->dim, sizeof h->dim, value, value_len);
        }
    }
    return CAROM_OK;
}

/* ---- Properties ---- */

enum column_kind { COL_SKIP, COL_POS, COL_VELO, COL_RADIUS, COL_MASS, COL_SPIN, COL_KINDS };

typedef struct layout {
    int columns;          /* total columns per sphere line */
    int start[COL_KINDS]; /* first column of each kind, -1 if absent */
    int species;          /* the species:S:1 column, -1 if absent */
} layout;

static const char *column_name(enum column_kind kind, int component)
{
    static const char *const pos[3] = {"pos x", "pos y", "pos z"};
    static const char *const velo[3] = {"velo x", "velo y", "velo z"};
    static const char *const spin[3] = {"spin x", "spin y", "spin z"};
    switch (kind) {
    case COL_POS: return pos[component];
    case COL_VELO: return velo[component];
    case COL_RADIUS: return "radius";
    case COL_MASS: return "mass";
    case COL_SPIN: return spin[component];
    case COL_SKIP:
    case COL_KINDS: break;
    }
    return "skipped";
}

static carom_status parse_properties(const line_reader *r, const char *text, layout *out,
                                     carom_error *error)
{
    char buf[1024];
    copy_value(buf, sizeof buf, text, strlen(text));
    for (int k = 0; k < COL_KINDS; k++)
        out->start[k] = -1;
    out->species = -1;
    out->columns = 0;
    char *fields[3];
    int nfield = 0;
    char *p = buf;
    for (;;) {
        char *colon = strchr(p, ':');
        if (colon)
            *colon = '\0';
        fields[nfield++] = p;
        if (nfield == 3) {
            const char *name = fields[0], *type = fields[1];
            size_t count;
            if (strlen(type) != 1 || !strchr("SRIL", type[0]) || !parse_count(fields[2], &count) ||
                count == 0 || count > 1000)
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: unsupported Properties layout: '%s:%s:%s' is not "
                                    "name:type:count", r->path, r->number, name, type,
                                    fields[2]);
            enum column_kind kind = COL_SKIP;
            int want = 0;
            if (!strcmp(name, "pos"))
                kind = COL_POS, want = 3;
            else if (!strcmp(name, "velo") || !strcmp(name, "vel") || !strcmp(name, "velocities"))
                kind = COL_VELO, want = 3;
            else if (!strcmp(name, "radius") || !strcmp(name, "radii"))
                kind = COL_RADIUS, want = 1;
            else if (!strcmp(name, "mass") || !strcmp(name, "masses"))
                kind = COL_MASS, want = 1;
            else if (!strcmp(name, "spin") || !strcmp(name, "omega") ||
                     !strcmp(name, "angular_velocity"))
                kind = COL_SPIN, want = 3;
            if (kind != COL_SKIP) {
                if (type[0] != 'R' || (int)count != want)
                    return error_report(error, CAROM_ERR_PARSE,
                                        "%s:%ld: unsupported Properties layout: '%s' must be "
                                        "%s:R:%d, not %s:%s:%zu", r->path, r->number, name,
                                        name, want, name, type, count);
                if (out->start[kind] >= 0)
                    return error_report(error, CAROM_ERR_PARSE,
                                        "%s:%ld: unsupported Properties layout: '%s' appears "
                                        "twice", r->path, r->number, name);
                out->start[kind] = out->columns;
            } else if (!strcmp(name, "species") && type[0] == 'S' && count == 1 &&
                       out->species < 0) {
                out->species = out->columns;
            }
            out->columns += (int)count;
            nfield = 0;
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    if (nfield != 0)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: unsupported Properties layout '%s': not a list of "
                            "name:type:count triples", r->path, r->number, text);
    if (out->start[COL_POS] < 0)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: unsupported Properties layout: no pos:R:3 column", r->path,
                            r->number);
    if (out->start[COL_RADIUS] < 0)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: unsupported Properties layout: no radius:R:1 column",
                            r->path, r->number);
    return CAROM_OK;
}

/* ---- Lattice, pbc, dim ---- */

static carom_status parse_lattice(const line_reader *r, const char *text, int dim,
                                  double box[3], double *tilt, carom_error *error)
{
    char buf[512];
    copy_value(buf, sizeof buf, text, strlen(text));
    double v[9];
    int count = 0;
    char *cursor = buf;
    for (char *tok = next_token(&cursor); tok; tok = next_token(&cursor)) {
        if (count == 9 || !parse_double(tok, &v[count]))
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: Lattice must be 9 numbers \"Lx 0 0 0 Ly 0 0 0 Lz\", "
                                "got \"%s\"", r->path, r->number, text);
        count++;
    }
    if (count != 9)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: Lattice must be 9 numbers \"Lx 0 0 0 Ly 0 0 0 Lz\", "
                            "got %d", r->path, r->number, count);
    for (int k = 0; k < 9; k++) {
        int diagonal = k % 4 == 0;
        if (!diagonal && k != 3 && v[k] != 0.0)
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: only an orthorhombic Lattice (zero off-diagonal "
                                "entries), or one sheared along x (\"Lx 0 0 offset Ly 0 0 0 "
                                "Lz\"), is supported", r->path, r->number);
    }
    *tilt = v[3];
    if (!isfinite(*tilt))
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: the Lattice's shear offset (its fourth number) must be "
                            "finite, not %g", r->path, r->number, *tilt);
    for (int d = 0; d < 3; d++) {
        box[d] = v[4 * d];
        if (d < dim && !(isfinite(box[d]) && box[d] > 0.0))
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: Lattice length along axis %d must be finite and "
                                "positive, not %g", r->path, r->number, d, box[d]);
    }
    return CAROM_OK;
}

static int parse_flag(const char *tok, int *out)
{
    static const char *const yes[] = {"T", "True", "1"};
    static const char *const no[] = {"F", "False", "0"};
    for (int k = 0; k < 3; k++) {
        if (key_is(tok, strlen(tok), yes[k])) {
            *out = 1;
            return 1;
        }
        if (key_is(tok, strlen(tok), no[k])) {
            *out = 0;
            return 1;
        }
    }
    return 0;
}

static carom_status parse_pbc(const line_reader *r, const char *text, carom_boundary out[3],
                              carom_error *error)
{
    char buf[64];
    copy_value(buf, sizeof buf, text, strlen(text));
    int count = 0;
    char *cursor = buf;
    for (char *tok = next_token(&cursor); tok; tok = next_token(&cursor)) {
        int flag;
        if (count == 3 || !parse_flag(tok, &flag))
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: pbc must be three of T or F, got \"%s\"", r->path,
                                r->number, text);
        out[count++] = flag ? CAROM_BOUNDARY_PERIODIC : CAROM_BOUNDARY_WALLS;
    }
    if (count != 3)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: pbc must be three of T or F, got \"%s\"", r->path,
                            r->number, text);
    return CAROM_OK;
}

/* ---- one sphere line ---- */

/* The species a species:S:1 token names: 1 and *species for "S" (0) or
 * "S" and decimal digits (the number, or UINT32_MAX when it is too large
 * for one), *numbered telling which; 0 for any other name (an element's,
 * from other tools: species 0 too). */
static int species_of(const char *token, uint32_t *species, int *numbered)
{
    *species = 0;
    *numbered = 0;
    if (token[0] != 'S')
        return 0;
    if (token[1] == '\0')
        return 1;
    uint64_t k = 0;
    for (const char *c = token + 1; *c; c++) {
        if (!isdigit((unsigned char)*c))
            return 0;
        k = k * 10 + (uint64_t)(*c - '0');
        if (k > UINT32_MAX)
            k = UINT32_MAX; /* stays out of range */
    }
    *species = (uint32_t)k;
    *numbered = 1;
    return 1;
}

static carom_status parse_sphere(const line_reader *r, const layout *lay, int dim,
                                 carom_scene *s, size_t i, carom_error *error)
{
    enum { MAX_TOKENS = 64 };
    char *tokens[MAX_TOKENS];
    int count = 0;
    char *cursor = r->text;
    for (char *tok = next_token(&cursor); tok; tok = next_token(&cursor)) {
        if (count < MAX_TOKENS)
            tokens[count] = tok;
        count++;
    }
    if (count != lay->columns)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: expected %d columns for sphere %zu (as Properties says), "
                            "found %d", r->path, r->number, lay->columns, i, count);
    if (count > MAX_TOKENS)
        return error_report(error, CAROM_ERR_PARSE, "%s:%ld: too many columns (%d)", r->path,
                            r->number, count);
    double value[COL_KINDS][3] = {{0}};
    value[COL_MASS][0] = 1.0;
    for (int kind = COL_POS; kind < COL_KINDS; kind++) {
        if (lay->start[kind] < 0)
            continue;
        int width = kind == COL_POS || kind == COL_VELO || kind == COL_SPIN ? 3 : 1;
        for (int c = 0; c < width; c++) {
            int col = lay->start[kind] + c;
            const char *name = column_name((enum column_kind)kind, c);
            double x;
            if (!parse_double(tokens[col], &x))
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: column %d (%s): cannot parse '%s' as a number",
                                    r->path, r->number, col + 1, name, tokens[col]);
            if (isnan(x) || (isinf(x) && kind != COL_MASS))
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: column %d (%s): %s is not allowed", r->path,
                                    r->number, col + 1, name, isnan(x) ? "NaN" : "infinity");
            if ((kind == COL_RADIUS || kind == COL_MASS) && !(x > 0.0))
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: column %d (%s): must be positive, not %s", r->path,
                                    r->number, col + 1, name, tokens[col]);
            if (dim == 2 && (kind == COL_SPIN ? c < 2 : c == 2) && x != 0.0)
                return error_report(error, CAROM_ERR_PARSE,
                                    "%s:%ld: column %d (%s): must be 0 in a 2D file (dim=2)",
                                    r->path, r->number, col + 1, name);
            value[kind][c] = x;
        }
    }
    for (int d = 0; d < 3; d++) {
        s->position[i][d] = value[COL_POS][d];
        s->velocity[i][d] = value[COL_VELO][d];
    }
    uint32_t species = 0;
    int numbered = 0;
    if (lay->species >= 0 && species_of(tokens[lay->species], &species, &numbered) && numbered) {
        if (species >= CAROM_SPECIES_MAX)
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: column %d (species): '%s' is out of range (S0 to S%d)",
                                r->path, r->number, lay->species + 1, tokens[lay->species],
                                CAROM_SPECIES_MAX - 1);
        /* The first S<k>: the scene gets species (0 for the lines before). */
        carom_status st = carom_scene_add_species(s, error);
        if (st != CAROM_OK)
            return st;
    }
    s->radius[i] = value[COL_RADIUS][0];
    s->mass[i] = value[COL_MASS][0];
    if (s->spin)
        for (int d = 0; d < 3; d++)
            s->spin[i][d] = value[COL_SPIN][d];
    if (s->species)
        s->species[i] = species;
    return CAROM_OK;
}

/* ---- reading ---- */

static carom_status read_frame(line_reader *r, carom_scene *s, carom_error *error)
{
    int got = read_line(r);
    if (got < 0)
        return error_report(error, CAROM_ERR_IO, "%s: read error", r->path);
    if (got == 0)
        return error_report(error, CAROM_ERR_PARSE, "%s: file is empty", r->path);
    size_t n;
    if (!parse_count(r->text, &n))
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: expected the number of spheres, found '%.40s'", r->path,
                            r->number, r->text);
    got = read_line(r);
    if (got < 0)
        return error_report(error, CAROM_ERR_IO, "%s: read error", r->path);
    if (got == 0)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:2: file ends before the comment line (truncated)", r->path);
    header h;
    carom_status st = parse_header(r, &h, error);
    if (st != CAROM_OK)
        return st;
    if (!h.has_lattice)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: missing Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\" in the comment "
                            "line", r->path, r->number);
    if (!h.has_properties)
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: missing Properties=... in the comment line", r->path,
                            r->number);
    s->dim = 3;
    if (h.has_dim) {
        if (!strcmp(h.dim, "2"))
            s->dim = 2;
        else if (strcmp(h.dim, "3") != 0)
            return error_report(error, CAROM_ERR_PARSE, "%s:%ld: dim must be 2 or 3, not '%s'",
                                r->path, r->number, h.dim);
    }
    layout lay;
    st = parse_properties(r, h.properties, &lay, error);
    double tilt = 0.0;
    if (st == CAROM_OK)
        st = parse_lattice(r, h.lattice, s->dim, s->box, &tilt, error);
    for (int d = 0; d < 3; d++)
        s->boundary[d] = CAROM_BOUNDARY_PERIODIC;
    if (st == CAROM_OK && h.has_pbc)
        st = parse_pbc(r, h.pbc, s->boundary, error);
    if (st != CAROM_OK)
        return st;
    if (tilt != 0.0 && (s->boundary[0] != CAROM_BOUNDARY_PERIODIC ||
                        s->boundary[1] != CAROM_BOUNDARY_PERIODIC))
        return error_report(error, CAROM_ERR_PARSE,
                            "%s:%ld: a Lattice sheared along x (offset %g) needs x and y "
                            "periodic (pbc)", r->path, r->number, tilt);
    s->shear_offset = fmod(tilt, s->box[0]);
    if (s->shear_offset < 0.0)
        s->shear_offset += s->box[0];
    if (!(s->shear_offset < s->box[0])) /* a hair below 0 rounded up */
        s->shear_offset = 0.0;
    /* The arrays grow with the lines read (doubling), so that a count far
     * beyond what the file holds is reported as such, not attempted as an
     * enormous allocation. */
    size_t room = 0;
    for (size_t i = 0; i < n; i++) {
        got = read_line(r);
        if (got < 0)
            return error_report(error, CAROM_ERR_IO, "%s: read error", r->path);
        if (got == 0)
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: file ends after %zu of the %zu spheres announced on "
                                "line 1 (truncated or wrong count)", r->path, r->number + 1, i,
                                n);
        if (i == room) {
            room = room == 0 ? (n < 1024 ? n : 1024) : (n - room < room ? n : 2 * room);
            st = carom_scene_resize(s, room, error);
            if (st == CAROM_OK && lay.start[COL_SPIN] >= 0)
                st = carom_scene_add_spins(s, error); /* (then resized with the rest) */
            if (st != CAROM_OK)
                return st;
        }
        st = parse_sphere(r, &lay, s->dim, s, i, error);
        if (st != CAROM_OK)
            return st;
    }
    /* What follows must be nothing, blank lines, or another frame. */
    while ((got = read_line(r)) > 0) {
        if (is_blank(r->text))
            continue;
        size_t next;
        if (!parse_count(r->text, &next))
            return error_report(error, CAROM_ERR_PARSE,
                                "%s:%ld: more sphere lines than the %zu announced on line 1 "
                                "(wrong count)", r->path, r->number, n);
        break;
    }
    if (got < 0)
        return error_report(error, CAROM_ERR_IO, "%s: read error", r->path);
    return CAROM_OK;
}

carom_status carom_xyz_read(const char *path, carom_scene *scene, carom_error *error)
{
    if (!path || !scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "path or scene is NULL");
    FILE *f = fopen(path, "r");
    if (!f)
        return error_report(error, CAROM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    line_reader r = {f, path, NULL, 0, 0};
    carom_scene tmp;
    carom_scene_init(&tmp);
    carom_status st = read_frame(&r, &tmp, error);
    free(r.text);
    fclose(f);
    if (st != CAROM_OK) {
        carom_scene_free(&tmp);
        return st;
    }
    carom_scene_free(scene);
    *scene = tmp;
    return error_clear(error);
}

/* ---- writing ---- */

carom_status carom_xyz_write(FILE *out, const carom_scene *scene, double time,
                             carom_error *error)
{
    if (!out || !scene)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT, "file or scene is NULL");
    const int dim = scene->dim;
    if (dim != 2 && dim != 3)
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "dimension must be 2 or 3, not %d", dim);
    double lz = scene->box[2];
    if (dim == 2 && !(isfinite(lz) && lz > 0.0))
        lz = 1.0; /* ignored in 2D, but viewers want a proper cell */
    char pbc[3];
    for (int d = 0; d < 3; d++)
        pbc[d] = (dim == 2 && d == 2) ? 'F'
                 : scene->boundary[d] == CAROM_BOUNDARY_PERIODIC ? 'T' : 'F';
    for (size_t i = 0; dim == 2 && scene->spin && i < scene->n; i++)
        if (scene->spin[i][0] != 0.0 || scene->spin[i][1] != 0.0)
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: a spin about x or y (%g, %g) in 2D (a disk spins "
                                "about z only)",
                                i, scene->spin[i][0], scene->spin[i][1]);
    for (size_t i = 0; scene->species && i < scene->n; i++)
        if (scene->species[i] >= CAROM_SPECIES_MAX)
            return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                                "sphere %zu: species %lu out of range (0 to %d)", i,
                                (unsigned long)scene->species[i], CAROM_SPECIES_MAX - 1);
    double tilt = scene->shear_offset;
    if (!isfinite(tilt) ||
        (tilt != 0.0 && (scene->boundary[0] != CAROM_BOUNDARY_PERIODIC ||
                         scene->boundary[1] != CAROM_BOUNDARY_PERIODIC)))
        return error_report(error, CAROM_ERR_INVALID_ARGUMENT,
                            "shear offset %g: must be finite, and 0 unless x and y are periodic",
                            tilt);
    int bad = 0;
    bad |= fprintf(out, "%zu\n", scene->n) < 0;
    bad |= fprintf(out,
                   "Lattice=\"%.17g 0 0 %.17g %.17g 0 0 0 %.17g\" "
                   "Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1%s "
                   "pbc=\"%c %c %c\" Time=%.17g dim=%d\n",
                   scene->box[0], tilt, scene->box[1], lz, scene->spin ? ":spin:R:3" : "",
                   pbc[0], pbc[1], pbc[2], time, dim) < 0;
    for (size_t i = 0; i < scene->n && !bad; i++) {
        const double *x = scene->position[i], *v = scene->velocity[i];
        double z = dim == 2 ? 0.0 : x[2], vz = dim == 2 ? 0.0 : v[2];
        if (scene->species)
            bad |= fprintf(out, "S%lu", (unsigned long)scene->species[i]) < 0;
        else
            bad |= fputc('S', out) == EOF;
        bad |= fprintf(out, " %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", x[0], x[1], z,
                       v[0], v[1], vz, scene->radius[i], scene->mass[i]) < 0;
        if (scene->spin) {
            const double *w = scene->spin[i];
            bad |= fprintf(out, " %.17g %.17g %.17g", w[0], w[1], w[2]) < 0;
        }
        bad |= fputc('\n', out) == EOF;
    }
    if (bad || ferror(out))
        return error_report(error, CAROM_ERR_IO, "error writing an XYZ frame");
    return error_clear(error);
}
